<?php

declare(strict_types=1);

/*
 * Every class of src/Signing/ declares strict types, and it and every public method and constant
 * has a docblock; no file is longer than 600 lines; the library never reads a body with
 * json_decode (which turns `100.50` into `100.5`), except FastReader on a body whose numbers
 * it first rewrote as strings or, as it is, on a short body without a fraction or `-0` (a float
 * read there declines: FastReaderTest reads such bodies), and never needs mbstring.
 */

namespace Baas\Signing\Tests;

require_once __DIR__ . '/support/Checks.php';

$c = new Checks('DocblockTest');
$root = dirname(__DIR__);
$files = glob($root . '/src/Signing/*.php') ?: [];
$c->check('the sources are there', count($files) >= 15, (string) count($files));
foreach (array_merge($files, [$root . '/autoload.php', $root . '/bin/baas-sign'], glob(__DIR__ . '/*.php') ?: []) as $file) {
    $text = (string) file_get_contents($file);
    $name = substr($file, strlen($root) + 1);
    $c->check("$name: strict types", str_contains($text, 'declare(strict_types=1);'));
    $c->check("$name: under 600 lines", substr_count($text, "\n") <= 600, (string) substr_count($text, "\n"));
}
foreach ($files as $file) {
    $name = basename($file);
    $text = (string) file_get_contents($file);
    $c->check("$name: no mbstring", preg_match('/\bmb_[a-z_]+\s*\(/', $text) === 0);
    // json_decode only in FastReader, and only on the body with its numbers rewritten as strings,
    // or as it is when no fraction and no `-0` is in it (`$raw`).
    $decodes = preg_match_all('/\bjson_decode\s*\((?:\(string\) )?([^,)]*)/', $text, $m);
    $assigned = preg_match_all('/\\$(numbered|json) =/', $text);
    $rewritten = preg_match_all('/\\$numbered = preg_replace\\(self::NUMBER, /', $text)
        + preg_match_all('/\\$json = \\$raw \\? \\$body : preg_replace\\(self::NUMBER, /', $text);
    $c->check(
        "$name: json_decode only of the numbers rewritten (or of integers only)",
        $decodes === 0 || ($name === 'FastReader.php' && array_diff($m[1], ['$numbered', '$json']) === []
            && $rewritten === $assigned
            && preg_match_all('/\\$raw = \\$short && preg_match\\(self::FRACTION_OR_MINUS_ZERO, \\$body\\) === 0;/', $text) === 1),
        implode(', ', $m[1]),
    );
    $class = 'Baas\\Signing\\' . basename($file, '.php');
    $exists = class_exists($class) || enum_exists($class) || trait_exists($class);
    $c->check("$name: declares $class", $exists);
    if (!$exists) {
        continue;
    }
    $r = new \ReflectionClass($class);
    $c->check("$class: docblock", $r->getDocComment() !== false);
    foreach ($r->getMethods(\ReflectionMethod::IS_PUBLIC) as $m) {
        if ($m->getDeclaringClass()->getName() !== $class || $m->isInternal()) {
            continue;
        }
        if ($r->isEnum() && in_array($m->getName(), ['cases', 'from', 'tryFrom'], true)) {
            continue;
        }
        $c->check("$class::{$m->getName()}: docblock", $m->getDocComment() !== false);
    }
    foreach ($r->getReflectionConstants(\ReflectionClassConstant::IS_PUBLIC) as $k) {
        if ($k->getDeclaringClass()->getName() === $class) {
            $c->check("$class::{$k->getName()}: docblock", $k->getDocComment() !== false);
        }
    }
}

exit($c->finish());
