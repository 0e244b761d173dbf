<?php

declare(strict_types=1);

// PHPUnit's bootstrap: the package's own autoloader (no Composer needed) and the hand-written
// operations the tests run.
require_once dirname(__DIR__, 2) . '/autoload.php';
require_once __DIR__ . '/Fixtures.php';
require_once __DIR__ . '/Support.php';
