<?php

declare(strict_types=1);

/*
 * A PSR-4 autoloader for the `Baas\Signing` (src/Signing/) and `Baas\Runtime`
 * (src/Runtime/) namespaces, for projects without Composer:
 * `require __DIR__ . '/path/to/php/autoload.php';`. With Composer, use the `autoload` of
 * composer.json instead.
 */

spl_autoload_register(static function (string $class): void {
    foreach (['Baas\\Signing\\' => '/src/Signing/', 'Baas\\Runtime\\' => '/src/Runtime/'] as $prefix => $dir) {
        if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
            continue;
        }
        $file = __DIR__ . $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        if (is_file($file)) {
            require $file;
        }
        return;
    }
});
