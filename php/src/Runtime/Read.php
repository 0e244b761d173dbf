<?php

declare(strict_types=1);

namespace Baas\Runtime;

use Baas\Runtime\Exception\DecodeError;
use Baas\Signing\JsonNumber;
use Baas\Signing\JsonObject;

/**
 * How generated code reads a received value, leniently as every SDK does: a missing or `null`
 * member reads as null, unknown members are ignored, strings and integers accept either JSON
 * spelling (`"12"` and `12`), amounts are exact {@see Decimal}s, a value-set value the enum does
 * not list is an {@see UnknownValue}. A value of another shape is a {@see DecodeError} naming its
 * path. `$at` is the path shown in that error.
 */
final class Read
{
    private function __construct()
    {
    }

    /**
     * An object.
     *
     * @param mixed $value the received value
     * @param string $at its path
     * @return JsonObject|null the object, or null when absent
     * @throws DecodeError when it is not an object
     */
    public static function object(mixed $value, string $at): ?JsonObject
    {
        if ($value === null || $value instanceof JsonObject) {
            return $value;
        }
        throw self::wrong($at, 'an object', $value);
    }

    /**
     * A text (a JSON number reads as its literal).
     *
     * @param mixed $value the received value
     * @param string $at its path
     * @return string|null the text, or null when absent
     * @throws DecodeError when it is not a string or a number
     */
    public static function string(mixed $value, string $at): ?string
    {
        if ($value === null || is_string($value)) {
            return $value;
        }
        if ($value instanceof JsonNumber) {
            return $value->literal;
        }
        throw self::wrong($at, 'a string', $value);
    }

    /**
     * An integer (a string of digits reads as one).
     *
     * @param mixed $value the received value
     * @param string $at its path
     * @return int|null the integer, or null when absent
     * @throws DecodeError when it is not an integer in PHP's range
     */
    public static function int(mixed $value, string $at): ?int
    {
        if ($value === null) {
            return null;
        }
        $text = $value instanceof JsonNumber ? $value->literal : (is_string($value) ? $value : null);
        if ($text !== null && preg_match('/^-?(0|[1-9]\d*)$/D', $text) === 1 && self::fitsInt($text)) {
            return (int) $text;
        }
        throw self::wrong($at, 'an integer', $value);
    }

    /**
     * A boolean (`"true"` and `"false"` read as one).
     *
     * @param mixed $value the received value
     * @param string $at its path
     * @return bool|null the boolean, or null when absent
     * @throws DecodeError when it is not a boolean
     */
    public static function bool(mixed $value, string $at): ?bool
    {
        if ($value === null || is_bool($value)) {
            return $value;
        }
        if ($value === 'true' || $value === 'false') {
            return $value === 'true';
        }
        throw self::wrong($at, 'a boolean', $value);
    }

    /**
     * A day of the calendar: exactly the string `YYYY-MM-DD` naming a real day, as a
     * `DateTimeImmutable` at midnight UTC (another format is refused, never a day guessed;
     * decision `date-type`).
     *
     * @param mixed $value the received value
     * @param string $at its path
     * @return \DateTimeImmutable|null the day, or null when absent
     */
    public static function date(mixed $value, string $at): ?\DateTimeImmutable
    {
        if ($value === null) {
            return null;
        }
        if (is_string($value) && preg_match('/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/D', $value) === 1) {
            $day = \DateTimeImmutable::createFromFormat('!Y-m-d', $value, new \DateTimeZone('UTC'));
            if ($day !== false && $day->format('Y-m-d') === $value) {
                return $day;
            }
        }
        throw self::wrong($at, 'a date YYYY-MM-DD', $value);
    }

    /**
     * A document, received as Base64 text and read leniently ({@see Document::fromReceivedText}:
     * text that is not Base64 is kept as its bytes, never an error; decision `document-type`).
     *
     * @param mixed $value the received value
     * @param string $at its path
     * @return Document|null the document, or null when absent
     * @throws DecodeError when it is not a string
     */
    public static function document(mixed $value, string $at): ?Document
    {
        if ($value === null) {
            return null;
        }
        if (is_string($value)) {
            return Document::fromReceivedText($value);
        }
        throw self::wrong($at, 'a document as Base64 text', $value);
    }

    /**
     * An exact decimal, from a string or a number (`"100.50"`, `100.50`), never through a float.
     *
     * @param mixed $value the received value
     * @param string $at its path
     * @return Decimal|null the decimal, or null when absent
     * @throws DecodeError when it is not a plain decimal
     */
    public static function decimal(mixed $value, string $at): ?Decimal
    {
        if ($value === null) {
            return null;
        }
        $text = $value instanceof JsonNumber ? $value->literal : (is_string($value) ? $value : null);
        $decimal = $text === null ? null : Decimal::tryOf($text);
        if ($decimal === null) {
            throw self::wrong($at, 'a decimal', $value);
        }
        return $decimal;
    }

    /**
     * A value of a value set: its enum case, or an {@see UnknownValue} when the enum does not
     * list it.
     *
     * @template E of \BackedEnum
     * @param class-string<E> $enum the enum
     * @param mixed $value the received value
     * @param string $at its path
     * @return E|UnknownValue|null the case, the unknown value, or null when absent
     * @throws DecodeError when it is neither a string nor a number
     */
    public static function enum(string $enum, mixed $value, string $at): \BackedEnum|UnknownValue|null
    {
        if ($value === null) {
            return null;
        }
        $backing = (string) (new \ReflectionEnum($enum))->getBackingType();
        if ($backing === 'int') {
            $int = self::int($value, $at);
            return $enum::tryFrom((int) $int) ?? new UnknownValue((int) $int, $enum);
        }
        $text = (string) self::string($value, $at);
        return $enum::tryFrom($text) ?? new UnknownValue($text, $enum);
    }

    /**
     * A list, each item read by `$item` (given the item and its path).
     *
     * @template T
     * @param mixed $value the received value
     * @param string $at its path
     * @param callable(mixed, string): T $item reads one item
     * @return list<T>|null the items, or null when absent
     * @throws DecodeError when it is not an array, or an item cannot be read
     */
    public static function list(mixed $value, string $at, callable $item): ?array
    {
        if ($value === null) {
            return null;
        }
        if (!is_array($value)) {
            throw self::wrong($at, 'an array', $value);
        }
        $out = [];
        foreach (array_values($value) as $i => $element) {
            $out[] = $item($element, $at . '[' . $i . ']');
        }
        return $out;
    }

    /**
     * The path of a member below `$at` (`txId`, `data.result[2].txId`).
     *
     * @param string $at the path of the object ('' for the top)
     * @param string $name the member's wire name
     * @return string the member's path
     */
    public static function path(string $at, string $name): string
    {
        return $at === '' ? $name : $at . '.' . $name;
    }

    /**
     * The wire text of a read value, for comparing states (`8` for `TxStatus::Succeeded`, an
     * unknown value's text, a number's literal), or null.
     *
     * @param mixed $value the value
     * @return string|null its text
     */
    public static function text(mixed $value): ?string
    {
        return match (true) {
            $value === null => null,
            $value instanceof \BackedEnum => (string) $value->value,
            $value instanceof UnknownValue, $value instanceof JsonNumber, $value instanceof Decimal => (string) $value,
            is_string($value) => $value,
            is_int($value) => (string) $value,
            is_bool($value) => $value ? 'true' : 'false',
            default => null,
        };
    }

    /**
     * A received value whose JSON type the spec does not show, as read (objects as `JsonObject`,
     * numbers as `JsonNumber`).
     *
     * @param mixed $value the received value
     * @return mixed the value
     */
    public static function raw(mixed $value): mixed
    {
        return $value;
    }

    /** Whether an integer literal is within PHP's int range (no overflow to a float). */
    private static function fitsInt(string $literal): bool
    {
        $negative = str_starts_with($literal, '-');
        $digits = $negative ? substr($literal, 1) : $literal;
        $limit = $negative ? substr((string) PHP_INT_MIN, 1) : (string) PHP_INT_MAX;
        return strlen($digits) < strlen($limit) || (strlen($digits) === strlen($limit) && strcmp($digits, $limit) <= 0);
    }

    private static function wrong(string $at, string $expected, mixed $value): DecodeError
    {
        $seen = match (true) {
            $value instanceof JsonObject => 'an object',
            $value instanceof JsonNumber => 'the number ' . $value->literal,
            is_array($value) => 'an array',
            is_string($value) => 'the string ' . json_encode(substr($value, 0, 40), JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE),
            is_bool($value) => $value ? 'true' : 'false',
            default => get_debug_type($value),
        };
        return new DecodeError('`' . $at . '` must be ' . $expected . ', not ' . $seen);
    }
}
