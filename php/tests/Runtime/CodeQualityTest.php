<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests;

use PHPUnit\Framework\TestCase;

/**
 * What no static analyser from Debian's archive checks for us (PHPStan and Psalm are not packaged
 * there, and Packagist is out of reach): every file declares strict types and stays under 600
 * lines; every class, public method and constant of the runtime has a docblock; and the runtime
 * calls no function of an extension beyond json, hash and pcre (and PHP's core), but curl in the
 * curl transport and PDO in the PDO store, so it runs on any PHP 8.1; the generated client
 * (generated/php/src) is held to the same.
 */
final class CodeQualityTest extends TestCase
{
    /** Extensions every PHP build has. */
    private const ALWAYS = ['Core', 'date', 'hash', 'json', 'pcre', 'random', 'Reflection', 'SPL', 'standard'];

    /** Where another extension may be used (file name => extension). */
    private const ALLOWED = ['CurlTransport.php' => 'curl', 'PdoProcessedStore.php' => 'PDO', 'Sha256.php' => 'openssl'];

    /** @return list<string> */
    private static function files(string $under): array
    {
        $out = [];
        $it = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($under, \FilesystemIterator::SKIP_DOTS));
        foreach ($it as $file) {
            if ($file instanceof \SplFileInfo && $file->getExtension() === 'php') {
                $out[] = $file->getPathname();
            }
        }
        sort($out);
        return $out;
    }

    public function testEveryFileIsStrictAndShort(): void
    {
        $root = dirname(__DIR__, 2);
        $files = array_merge(self::files($root . '/src'), self::files($root . '/tests/Runtime'), self::files($root . '/tests/Client'));
        self::assertGreaterThan(60, count($files));
        foreach ($files as $file) {
            $text = (string) file_get_contents($file);
            self::assertStringContainsString('declare(strict_types=1);', $text, $file);
            self::assertLessThanOrEqual(600, substr_count($text, "\n"), $file);
        }
    }

    public function testEveryPublicPartOfTheRuntimeIsDocumented(): void
    {
        $root = dirname(__DIR__, 2) . '/src/Runtime';
        foreach (self::files($root) as $file) {
            $class = 'Baas\\Runtime\\' . str_replace('/', '\\', substr($file, strlen($root) + 1, -4));
            self::assertTrue(class_exists($class) || interface_exists($class) || enum_exists($class), $class);
            $r = new \ReflectionClass($class);
            self::assertNotFalse($r->getDocComment(), $class);
            foreach ($r->getMethods(\ReflectionMethod::IS_PUBLIC) as $m) {
                if ($m->getDeclaringClass()->getName() !== $class || $m->isInternal()
                    || ($r->isEnum() && in_array($m->getName(), ['cases', 'from', 'tryFrom'], true))) {
                    continue;
                }
                self::assertNotFalse($m->getDocComment(), $class . '::' . $m->getName());
            }
            foreach ($r->getReflectionConstants(\ReflectionClassConstant::IS_PUBLIC) as $k) {
                if ($k->getDeclaringClass()->getName() === $class) {
                    self::assertNotFalse($k->getDocComment(), $class . '::' . $k->getName());
                }
            }
        }
    }

    public function testTheRuntimeNeedsNoExtensionBeyondJsonHashAndPcre(): void
    {
        $root = dirname(__DIR__, 2) . '/src';
        $generated = dirname(__DIR__, 3) . '/generated/php/src';
        $checked = 0;
        foreach (array_merge(self::files($root), is_dir($generated) ? self::files($generated) : []) as $file) {
            $tokens = token_get_all((string) file_get_contents($file));
            foreach ($tokens as $i => $token) {
                if (!is_array($token) || $token[0] !== T_STRING) {
                    continue;
                }
                $next = $tokens[$i + 1] ?? null;
                $before = $tokens[$i - 1] ?? null;
                $isCall = $next === '(' && !(is_array($before) && in_array($before[0], [T_OBJECT_OPERATOR, T_NULLSAFE_OBJECT_OPERATOR, T_DOUBLE_COLON, T_FUNCTION, T_NEW], true));
                if (!$isCall || !function_exists($token[1])) {
                    continue;
                }
                $extension = (string) (new \ReflectionFunction($token[1]))->getExtensionName();
                $checked++;
                $ok = in_array($extension, self::ALWAYS, true) || (self::ALLOWED[basename($file)] ?? null) === $extension;
                self::assertTrue($ok, basename($file) . ' calls ' . $token[1] . '() of ext-' . $extension);
            }
        }
        self::assertGreaterThan(200, $checked);
    }

    public function testNoBodyIsReadWithJsonDecode(): void
    {
        foreach (self::files(dirname(__DIR__, 2) . '/src') as $file) {
            if (basename($file) === 'SandboxAdmin.php') {
                continue; // the sandbox's admin API is unsigned JSON, never a signed body
            }
            if (basename($file) === 'FastReader.php') {
                continue; // decodes a body whose numbers it rewrote as strings (tests/DocblockTest.php checks it)
            }
            self::assertDoesNotMatchRegularExpression('/\bjson_decode\s*\(/', (string) file_get_contents($file), $file);
        }
    }
}
