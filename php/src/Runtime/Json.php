<?php

declare(strict_types=1);

namespace Baas\Runtime;

use Baas\Runtime\Exception\EncodeError;
use Baas\Signing\JsonNumber;
use Baas\Signing\JsonObject;

/**
 * Writes the JSON of a message to send, once, so the bytes signed are the bytes sent: compact,
 * `/` and non-ASCII unescaped, members in order, `null` members left out.
 *
 * Values: {@see WireObject} and non-list arrays as objects (`{}` when a `WireObject` is empty),
 * lists as arrays, strings, integers, booleans, {@see Decimal} as its text in a JSON string (this
 * API sends amounts as strings), backed enums as their value, and what the lossless reader gives
 * (`JsonObject`, `JsonNumber` as its literal). A float is refused: money is never a float.
 */
final class Json
{
    private const FLAGS = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR;

    private function __construct()
    {
    }

    /**
     * The JSON text of a value.
     *
     * @param mixed $value the value
     * @return string the JSON
     * @throws EncodeError when a value cannot be sent (a float, a null array element, a resource,
     *     invalid UTF-8, an object of another class)
     */
    public static function encode(mixed $value): string
    {
        return self::write($value, '', 0);
    }

    private static function write(mixed $value, string $at, int $depth): string
    {
        if ($depth > 64) {
            throw new EncodeError('the value nests deeper than 64 levels');
        }
        $where = $at === '' ? 'the value' : '`' . $at . '`';
        if (is_string($value)) {
            try {
                return json_encode($value, self::FLAGS);
            } catch (\JsonException) {
                throw new EncodeError($where . ' is not valid UTF-8 text');
            }
        }
        if (is_int($value)) {
            return (string) $value;
        }
        if (is_bool($value)) {
            return $value ? 'true' : 'false';
        }
        if (is_float($value)) {
            throw new EncodeError($where . ' is a float: money is exact, use Decimal::of(\'...\')');
        }
        if ($value === null) {
            throw new EncodeError($where . ' is null; a null is never sent (leave the field out)');
        }
        if ($value instanceof Decimal) {
            return '"' . $value . '"';
        }
        if ($value instanceof \BackedEnum) {
            return self::write($value->value, $at, $depth);
        }
        if ($value instanceof JsonNumber) {
            return $value->literal;
        }
        if ($value instanceof WireObject) {
            return self::object($value->members, $at, $depth);
        }
        if ($value instanceof JsonObject) {
            $members = [];
            foreach ($value as $key => $member) {
                $members[$key] = $member;
            }
            return self::object($members, $at, $depth);
        }
        if (is_array($value)) {
            if (!array_is_list($value)) {
                return self::object($value, $at, $depth);
            }
            $out = [];
            foreach ($value as $i => $item) {
                if ($item === null) {
                    throw new EncodeError('`' . $at . '[' . $i . ']` is null; an array never holds a null');
                }
                $out[] = self::write($item, $at . '[' . $i . ']', $depth + 1);
            }
            return '[' . implode(',', $out) . ']';
        }
        throw new EncodeError($where . ' is ' . get_debug_type($value) . ', which is not sent');
    }

    /**
     * @param array<array-key, mixed> $members
     */
    private static function object(array $members, string $at, int $depth): string
    {
        $out = [];
        foreach ($members as $key => $member) {
            if ($member === null) {
                continue;
            }
            $key = (string) $key;
            $path = $at === '' ? $key : $at . '.' . $key;
            $out[] = self::write($key, $path, $depth) . ':' . self::write($member, $path, $depth + 1);
        }
        return '{' . implode(',', $out) . '}';
    }
}
