<?php

declare(strict_types=1);

namespace Baas\Runtime;

use Baas\Runtime\Exception\EncodeError;
use Baas\Signing\Canonical;
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

    /**
     * The JSON text of an envelope and, written along, the `path=value` pairs of its
     * canonical string (what a reader of the text would find), so that it is signed without
     * being read back. The pairs are null when a reading must decide: a key or a value that a
     * re-cut rule could refuse, a top-level `signature` or `senderKey`, nesting near the limit,
     * or pairs long enough that the expansion limit could apply.
     *
     * @param WireObject $envelope the envelope
     * @return array{string, list<string>|null} the JSON and the pairs
     * @throws EncodeError when a value cannot be sent
     */
    public static function encodeWithPairs(WireObject $envelope): array
    {
        $pairs = [];
        $text = self::write($envelope, '', 0, $pairs);
        if ($pairs !== null && (isset($envelope->members['signature']) || isset($envelope->members[Canonical::SENDER_KEY])
            || strlen(implode('&', $pairs)) > Canonical::EXPANSION_ALLOWANCE)) {
            $pairs = null;
        }
        return [$text, $pairs];
    }

    /**
     * The pair of a scalar at a path, or null when a rule could refuse it.
     *
     * @param list<string>|null $pairs
     */
    private static function pair(?array &$pairs, string $at, string $text, bool $isString): void
    {
        if ($pairs === null) {
            return;
        }
        if ($isString && strpos($text, '&') !== false && Canonical::readsAsPair($text)) {
            $pairs = null; // R3: the reading names it
        } else {
            $pairs[] = $at . '=' . $text;
        }
    }

    /**
     * @param list<string>|null $pairs the pairs written so far, or null when not kept
     */
    private static function write(mixed $value, string $at, int $depth, ?array &$pairs = null): string
    {
        if ($depth > 64) {
            throw new EncodeError('the value nests deeper than 64 levels');
        }
        $where = $at === '' ? 'the value' : '`' . $at . '`';
        if (is_string($value)) {
            try {
                $text = json_encode($value, self::FLAGS);
            } catch (\JsonException) {
                throw new EncodeError($where . ' is not valid UTF-8 text');
            }
            self::pair($pairs, $at, $value, true);
            return $text;
        }
        if (is_int($value)) {
            self::pair($pairs, $at, (string) $value, false);
            return (string) $value;
        }
        if (is_bool($value)) {
            self::pair($pairs, $at, $value ? 'true' : 'false', false);
            return $value ? 'true' : 'false';
        }
        if (is_float($value)) {
            throw new EncodeError($where . ' is a float: money is exact, use Decimal::of(\'...\')');
        }
        if ($value === null) {
            throw new EncodeError($where . ' is null; a null is never sent (leave the field out)');
        }
        if ($value instanceof Decimal) {
            self::pair($pairs, $at, (string) $value, false);
            return '"' . $value . '"';
        }
        if ($value instanceof \BackedEnum) {
            return self::write($value->value, $at, $depth, $pairs);
        }
        if ($value instanceof JsonNumber) {
            $pairs = null; // its literal is as written: the reading checks it
            return $value->literal;
        }
        if ($depth >= Canonical::MAX_DEPTH - 4) {
            $pairs = null; // near the reader's limit: the reading decides
        }
        if ($value instanceof WireObject) {
            return self::object($value->members, $at, $depth, $pairs);
        }
        if ($value instanceof JsonObject) {
            $members = [];
            foreach ($value as $key => $member) {
                $members[$key] = $member;
            }
            return self::object($members, $at, $depth, $pairs);
        }
        if (is_array($value)) {
            if (!array_is_list($value)) {
                return self::object($value, $at, $depth, $pairs);
            }
            $out = [];
            foreach ($value as $i => $item) {
                if ($item === null) {
                    throw new EncodeError('`' . $at . '[' . $i . ']` is null; an array never holds a null');
                }
                $out[] = self::write($item, $at . '[' . $i . ']', $depth + 1, $pairs);
            }
            if ($out === []) {
                self::pair($pairs, $at, '[]', false);
            }
            return '[' . implode(',', $out) . ']';
        }
        throw new EncodeError($where . ' is ' . get_debug_type($value) . ', which is not sent');
    }

    /**
     * @param array<array-key, mixed> $members
     * @param list<string>|null $pairs
     */
    private static function object(array $members, string $at, int $depth, ?array &$pairs = null): string
    {
        $out = [];
        foreach ($members as $key => $member) {
            if ($member === null) {
                continue;
            }
            $key = (string) $key;
            if ($pairs !== null && Canonical::badKey($key)) {
                $pairs = null; // R1: the reading names it
            }
            $path = $at === '' ? $key : $at . '.' . $key;
            $out[] = self::write($key, $path, $depth) . ':' . self::write($member, $path, $depth + 1, $pairs);
        }
        if ($out === [] && $at !== '') {
            self::pair($pairs, $at, '{}', false);
        }
        return '{' . implode(',', $out) . '}';
    }
}
