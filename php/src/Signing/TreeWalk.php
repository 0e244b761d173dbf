<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * What {@see FastReader} needs of a decoded tree besides its pairs: the order of an array's
 * pairs, the paths of the null members, and the lossless tree.
 *
 * @internal
 */
final class TreeWalk
{
    /** @var array<int, list<int>> array element orders by length */
    private static array $orders = [];

    private function __construct()
    {
    }

    /**
     * The indexes 0 to n-1 in the order of the strings `0]`, `1]`, ..., `n-1]` (`]` sorts
     * after every digit, so `10]` comes before `1]`).
     *
     * @param int $n the length
     * @return list<int> the indexes
     */
    public static function order(int $n): array
    {
        if (isset(self::$orders[$n])) {
            return self::$orders[$n];
        }
        $texts = [];
        for ($i = 0; $i < $n; $i++) {
            $texts[] = $i . ']';
        }
        sort($texts, SORT_STRING);
        $order = [];
        foreach ($texts as $text) {
            $order[] = (int) $text;
        }
        if ($n <= 10000) {
            if (count(self::$orders) >= 8) {
                self::$orders = [];
            }
            self::$orders[$n] = $order;
        }
        return $order;
    }

    /**
     * The paths of the null members, in document order.
     *
     * @param mixed $value a decoded value
     * @param string $path its path
     * @param bool $assoc whether objects were decoded as PHP arrays
     * @param list<string> $paths the paths found, appended to
     */
    public static function nullPaths(mixed $value, string $path, bool $assoc, array &$paths): void
    {
        if ($value instanceof \stdClass || ($assoc && is_array($value) && !array_is_list($value))) {
            foreach ((array) $value as $key => $member) {
                $at = $path === '' ? (string) $key : $path . '.' . $key;
                if ($member === null) {
                    if ($path !== '' || $key !== 'signature') {
                        $paths[] = $at;
                    }
                } else {
                    self::nullPaths($member, $at, $assoc, $paths);
                }
            }
        } elseif (is_array($value)) {
            foreach ($value as $i => $element) {
                self::nullPaths($element, $path . '[' . $i . ']', $assoc, $paths);
            }
        }
    }

    /**
     * A decoded object as the lossless reader gives it: members in document order, a string
     * that starts with a NUL byte (put there for a number) as that number's literal.
     *
     * @param \stdClass $object an object json_decode gave
     * @return JsonObject the object
     */
    public static function lossless(\stdClass $object): JsonObject
    {
        $index = new KeyIndex();
        $values = [];
        foreach ($object as $key => $value) {
            $index->add((string) $key);
            $values[] = self::losslessValue($value);
        }
        return new JsonObject($index, $values);
    }

    /**
     * The lossless tree of what {@see FastReader::read()} accepted and decoded (numbers
     * marked with a NUL, or integers when decoded as it is): objects as `stdClass`, or as
     * PHP arrays that are not lists (a list is an array, an empty one too: the reading went
     * back to `stdClass` where an object could pass for one).
     *
     * @param array<array-key, mixed>|\stdClass $tree the top-level object
     * @param bool $assoc whether objects were decoded as PHP arrays
     * @param bool $marked whether a string that starts with a NUL is a number (else no
     *     number was rewritten, or the body has a NUL of its own and none was)
     * @return JsonObject the object
     */
    public static function losslessOf(array|\stdClass $tree, bool $assoc, bool $marked): JsonObject
    {
        return self::losslessObject($tree, $assoc, $marked);
    }

    /** @param array<array-key, mixed>|\stdClass $object */
    private static function losslessObject(array|\stdClass $object, bool $assoc, bool $marked): JsonObject
    {
        $index = new KeyIndex();
        $values = [];
        foreach ($object as $key => $value) {
            $index->add((string) $key);
            $values[] = self::losslessValue($value, $assoc, $marked);
        }
        return new JsonObject($index, $values);
    }

    private static function losslessValue(mixed $value, bool $assoc = false, bool $marked = true): mixed
    {
        if (is_string($value)) {
            return $marked && str_starts_with($value, "\0") ? new JsonNumber(substr($value, 1)) : $value;
        }
        if (is_int($value)) {
            return new JsonNumber((string) $value);
        }
        if ($value instanceof \stdClass) {
            return self::losslessObject($value, $assoc, $marked);
        }
        if (is_array($value)) {
            if ($assoc && !array_is_list($value)) {
                return self::losslessObject($value, $assoc, $marked);
            }
            $list = [];
            foreach ($value as $element) {
                $list[] = self::losslessValue($element, $assoc, $marked);
            }
            return $list;
        }
        return $value;
    }
}
