<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * {@see FastReader}'s listing of a short body: its pairs appended to one list in document
 * order, to be sorted once (fewer calls than sorting each object), with the same checks and
 * limits on paths as the pairs of a long body, written already sorted.
 *
 * @internal
 */
trait ShortListing
{
    /**
     * A short body's object: its pairs appended to `$pairs`, unsorted (as {@see object()}
     * checks them, the same limits on paths).
     *
     * @param array<array-key, mixed> $members
     * @param list<string> $pairs
     */
    private function listObject(array $members, string $pathDot, #[\SensitiveParameter] array &$pairs): void
    {
        if (strlen($pathDot) > 127) {
            throw new FastReaderDeclined();
        }
        $count = count($members);
        $this->members += $count;
        $this->items += $count;
        $clean = self::$cleanKeys;
        $notStrings = 0;
        foreach ($members as $key => $value) {
            if (!isset($clean[$key])) {
                self::checkKey($key);
            }
            if (is_string($value)) {
                $pairs[] = $pathDot . $key . '=' . $value;
                continue;
            }
            $notStrings++;
            if (is_int($value)) {
                $pairs[] = $pathDot . $key . '=' . $value;
            } elseif (is_array($value)) {
                if ($value === []) {
                    $this->empties = true;
                    $pairs[] = $pathDot . $key . '=[]';
                } elseif ($this->assoc && !array_is_list($value)) {
                    $this->listObject($value, $pathDot . $key . '.', $pairs);
                } else {
                    $this->listArray($value, $pathDot . $key, $pairs);
                }
            } elseif ($value === null) {
                $this->nulls = true;
            } else {
                $this->listOther($value, $pathDot . $key, $pairs);
            }
        }
        $this->notStrings += $notStrings;
        if ($this->r3) {
            self::checkValues($members);
        }
    }

    /**
     * A short body's non-empty array (as {@see array()} checks it, the same limit on paths).
     *
     * @param list<mixed> $elements
     * @param list<string> $pairs
     */
    private function listArray(array $elements, string $path, #[\SensitiveParameter] array &$pairs): void
    {
        if (strlen($path) > 50) {
            throw new FastReaderDeclined();
        }
        $this->items += count($elements);
        $notStrings = 0;
        foreach ($elements as $i => $value) {
            if (is_string($value)) {
                if ($this->r3 && strpos($value, '&') !== false && Canonical::readsAsPair($value)) {
                    throw new FastReaderDeclined(); // R3
                }
                $pairs[] = $path . '[' . $i . ']=' . $value;
                continue;
            }
            $notStrings++;
            if (is_int($value)) {
                $pairs[] = $path . '[' . $i . ']=' . $value;
            } elseif (is_array($value)) {
                if ($value === []) {
                    $this->empties = true;
                    $pairs[] = $path . '[' . $i . ']=[]';
                } elseif ($this->assoc && !array_is_list($value)) {
                    $this->listObject($value, $path . '[' . $i . '].', $pairs);
                } else {
                    $this->listArray($value, $path . '[' . $i . ']', $pairs);
                }
            } else {
                // A null element (R2) is declined there.
                $this->listOther($value, $path . '[' . $i . ']', $pairs);
            }
        }
        $this->notStrings += $notStrings;
    }

    /**
     * A short body's `true`, `false` or object read as `stdClass`, at `$path`.
     *
     * @param list<string> $pairs
     */
    private function listOther(mixed $value, string $path, #[\SensitiveParameter] array &$pairs): void
    {
        if (is_bool($value)) {
            $pairs[] = $path . ($value ? '=true' : '=false');
        } elseif ($value instanceof \stdClass) {
            $inner = (array) $value;
            if ($inner === []) {
                $pairs[] = $path . '={}';
            } else {
                $this->listObject($inner, $path . '.', $pairs);
            }
        } else {
            throw $this->notAString($value); // a null element (R2), or a float
        }
    }

    /**
     * Declines a value that is not a string, `true`, `false`, an integer or a container: a
     * null array element (R2), or a float (only in a body decoded as it is, which is then read
     * again with its numbers rewritten).
     */
    private function notAString(mixed $value): FastReaderDeclined
    {
        $this->floats = $this->floats || is_float($value);
        return new FastReaderDeclined();
    }
}
