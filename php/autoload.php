<?php

declare(strict_types=1);

/*
 * A PSR-4 autoloader for the `Baas\Signing` namespace (src/), for projects without
 * Composer: `require __DIR__ . '/path/to/php/autoload.php';`. With Composer, use the
 * `autoload` of composer.json instead.
 */

spl_autoload_register(static function (string $class): void {
    $prefix = 'Baas\\Signing\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
