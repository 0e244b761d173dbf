<?php

declare(strict_types=1);

namespace Baas\Signing\Tests;

use Baas\Signing\Canonical;
use Baas\Signing\JsonObject;

require_once dirname(__DIR__, 2) . '/autoload.php';

// Any notice, warning or deprecation is a failure of the check that caused it.
error_reporting(E_ALL);
set_error_handler(static function (int $severity, string $message, string $file, int $line): bool {
    if ((error_reporting() & $severity) === 0) {
        return false; // silenced with @, as frameworks' handlers do
    }
    throw new \ErrorException($message, 0, $severity, $file, $line);
});

/**
 * A test harness without a framework: each check that fails prints one line naming it
 * (`FAIL suite: name: detail`); {@see finish()} prints the count and gives the exit code.
 */
final class Checks
{
    private int $count = 0;
    private int $failed = 0;

    /**
     * A suite's checks.
     *
     * @param string $suite the suite's name, printed in each failure
     */
    public function __construct(private readonly string $suite)
    {
    }

    /**
     * Records a check; a failure prints one line.
     *
     * @param string $name what is checked
     * @param bool $ok whether it holds
     * @param string $detail what was seen, printed on failure
     * @return bool $ok
     */
    public function check(string $name, bool $ok, string $detail = ''): bool
    {
        $this->count++;
        if (!$ok) {
            $this->failed++;
            echo 'FAIL ', $this->suite, ': ', $name, $detail === '' ? '' : ': ' . $detail, "\n";
        }
        return $ok;
    }

    /**
     * Records that two values are identical (`===`).
     *
     * @param string $name what is checked
     * @param mixed $expected the expected value
     * @param mixed $actual the value seen
     * @return bool whether they are
     */
    public function equal(string $name, mixed $expected, mixed $actual): bool
    {
        return $this->check($name, $expected === $actual, 'expected <' . self::show($expected)
            . '> but was <' . self::show($actual) . '>');
    }

    /**
     * Runs code that must not throw; a throw is a failure naming it.
     *
     * @param string $name what is run
     * @param callable(): mixed $body the code
     * @return mixed what it returned, or null
     */
    public function run(string $name, callable $body): mixed
    {
        try {
            return $body();
        } catch (\Throwable $e) {
            $this->check($name, false, 'threw ' . get_class($e) . ': ' . $e->getMessage());
            return null;
        }
    }

    /**
     * Runs code that must throw an instance of a class.
     *
     * @template T of \Throwable
     * @param string $name what is run
     * @param class-string<T> $type the class
     * @param callable(): mixed $body the code
     * @return T|null the exception, or null (a failure)
     */
    public function raises(string $name, string $type, callable $body): ?\Throwable
    {
        try {
            $body();
        } catch (\Throwable $e) {
            if ($e instanceof $type) {
                $this->count++;
                return $e;
            }
            $this->check($name, false, 'threw ' . get_class($e) . ': ' . $e->getMessage() . ' instead of ' . $type);
            return null;
        }
        $this->check($name, false, 'did not throw ' . $type);
        return null;
    }

    /**
     * Prints the summary.
     *
     * @return int the exit code: 0 when every check held
     */
    public function finish(): int
    {
        echo $this->suite, ': ', $this->count, ' checks, ', $this->failed, " failed\n";
        return $this->failed === 0 ? 0 : 1;
    }

    /**
     * A value for a failure line.
     *
     * @param mixed $value any value
     * @return string its text
     */
    public static function show(mixed $value): string
    {
        if (is_string($value)) {
            return $value;
        }
        if (is_object($value) && !$value instanceof \Stringable) {
            return get_class($value);
        }
        return is_object($value) ? (string) $value : var_export($value, true);
    }

    /**
     * The shared vectors, read with this library's own reader.
     *
     * @param list<string> $argv the suite's arguments: the vectors file, optionally
     * @return JsonObject the vectors
     */
    public static function vectors(array $argv): JsonObject
    {
        $path = $argv[1] ?? dirname(__DIR__, 3) . '/tests/data/signing-vectors.json';
        $text = file_get_contents($path);
        if (!is_string($text)) {
            throw new \RuntimeException('cannot read ' . $path);
        }
        return Canonical::parseLoose($text)->value();
    }

    /**
     * The objects of an array member of the vectors.
     *
     * @param JsonObject $vectors the vectors
     * @param string $name `signing`, `refusals` or `received_nulls`
     * @return list<JsonObject> the vectors of that section
     */
    public static function section(JsonObject $vectors, string $name): array
    {
        $out = [];
        foreach ((array) $vectors->get($name) as $v) {
            if ($v instanceof JsonObject) {
                $out[] = $v;
            }
        }
        return $out;
    }

    /**
     * Whether a text shows anywhere in an exception, its string form (with the trace and its
     * arguments) or its previous exceptions.
     *
     * @param \Throwable $e the exception
     * @param string $secret the text
     * @return bool true when it shows
     */
    public static function shows(\Throwable $e, string $secret): bool
    {
        for ($t = $e; $t !== null; $t = $t->getPrevious()) {
            if (str_contains($t->getMessage(), $secret) || str_contains((string) $t, $secret)
                || str_contains(print_r($t->getTrace(), true), $secret)
                || str_contains(var_export($t->getTrace(), true), $secret)) {
                return true;
            }
        }
        return false;
    }
}
