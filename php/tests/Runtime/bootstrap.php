<?php

declare(strict_types=1);

// PHPUnit's bootstrap: the package's own autoloader (no Composer needed), the hand-written
// operations the tests run, and the generated client's autoloader.
require_once dirname(__DIR__, 2) . '/autoload.php';
require_once __DIR__ . '/Fixtures.php';
require_once __DIR__ . '/Support.php';
// The generated client, when this runtime sits in the SDK's repository (generated/php).
$client = dirname(__DIR__, 3) . '/generated/php/autoload.php';
if (is_file($client)) {
    require_once $client;
}
