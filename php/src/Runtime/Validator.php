<?php

declare(strict_types=1);

namespace Baas\Runtime;

use Baas\Runtime\Exception\InvalidRequest;

/**
 * The checks generated code calls, one method per rule kind of the spec (the rule registry's
 * validator names in camelCase: `max_chars` is {@see maxChars()}). Every check takes the
 * {@see FieldPath} of the value it checks; every violation of one request is collected and
 * reported together by {@see finish()}, each naming its field and rule.
 */
final class Validator
{
    /** @var list<Violation> */
    private array $violations = [];

    /**
     * The violations recorded so far.
     *
     * @return list<Violation> the violations
     */
    public function violations(): array
    {
        return $this->violations;
    }

    /**
     * Throws {@see InvalidRequest} with every violation, if there is any.
     *
     * @throws InvalidRequest when a rule is broken
     */
    public function finish(): void
    {
        if ($this->violations !== []) {
            throw new InvalidRequest($this->violations);
        }
    }

    /**
     * At most `$max` characters (Unicode scalar values, not bytes).
     *
     * @param FieldPath $at the field
     * @param string $value its value
     * @param int $max the most characters
     */
    public function maxChars(FieldPath $at, string $value, int $max): void
    {
        $n = $this->chars($at, $value);
        if ($n !== null && $n > $max) {
            $this->push($at, RuleKind::MaxChars, 'has ' . $n . ' characters, at most ' . $max . ' allowed');
        }
    }

    /**
     * At least `$min` characters.
     *
     * @param FieldPath $at the field
     * @param string $value its value
     * @param int $min the fewest characters
     */
    public function minChars(FieldPath $at, string $value, int $min): void
    {
        $n = $this->chars($at, $value);
        if ($n !== null && $n < $min) {
            $this->push($at, RuleKind::MinChars, 'has ' . $n . ' characters, at least ' . $min . ' required');
        }
    }

    /**
     * ASCII letters and digits only.
     *
     * @param FieldPath $at the field
     * @param string $value its value
     */
    public function alphanumeric(FieldPath $at, string $value): void
    {
        if (preg_match('/[^A-Za-z0-9]/', $value, $m) === 1) {
            $this->push($at, RuleKind::Alphanumeric, 'must contain only ASCII letters and digits, found '
                . json_encode($m[0], JSON_INVALID_UTF8_SUBSTITUTE | JSON_UNESCAPED_UNICODE));
        }
    }

    /**
     * Valid standard Base64 (padded) decoding to at most `$max` bytes.
     *
     * @param FieldPath $at the field
     * @param string $value its value
     * @param int $max the most decoded bytes
     */
    public function base64MaxBytes(FieldPath $at, string $value, int $max): void
    {
        if (strlen($value) % 4 !== 0) {
            $this->push($at, RuleKind::Base64, 'is not valid Base64: length is not a multiple of 4');
            return;
        }
        if (preg_match('/^[A-Za-z0-9+\/]*={0,2}$/D', $value) !== 1) {
            $this->push($at, RuleKind::Base64, 'is not valid Base64: a character outside A-Z a-z 0-9 + / '
                . '(or `=` before the end, or more than two)');
            return;
        }
        $padding = strlen($value) - strlen(rtrim($value, '='));
        $n = intdiv(strlen($value), 4) * 3 - $padding;
        if ($n > $max) {
            $this->push($at, RuleKind::Base64MaxBytes, 'decodes to ' . $n . ' bytes, at most ' . $max . ' allowed');
        }
    }

    /**
     * Inside the inclusive range `$min..$max` (each bound optional).
     *
     * @param FieldPath $at the field
     * @param int $value its value
     * @param int|null $min the least value
     * @param int|null $max the greatest value
     */
    public function rangeInt(FieldPath $at, int $value, ?int $min, ?int $max): void
    {
        if ($min !== null && $value < $min) {
            $this->push($at, RuleKind::Range, 'is ' . $value . ', must be at least ' . $min);
        } elseif ($max !== null && $value > $max) {
            $this->push($at, RuleKind::Range, 'is ' . $value . ', must be at most ' . $max);
        }
    }

    /**
     * Greater than zero.
     *
     * @param FieldPath $at the field
     * @param int $value its value
     */
    public function positiveInt(FieldPath $at, int $value): void
    {
        if ($value <= 0) {
            $this->push($at, RuleKind::Positive, 'is ' . $value . ', must be greater than 0');
        }
    }

    /**
     * Inside the inclusive range `$min..$max` (each bound optional), exactly.
     *
     * @param FieldPath $at the field
     * @param Decimal $value its value
     * @param Decimal|string|null $min the least value
     * @param Decimal|string|null $max the greatest value
     */
    public function rangeAmount(FieldPath $at, Decimal $value, Decimal|string|null $min, Decimal|string|null $max): void
    {
        if ($min !== null && $value->compareTo($min) < 0) {
            $this->push($at, RuleKind::Range, 'is ' . $value . ', must be at least ' . $min);
        } elseif ($max !== null && $value->compareTo($max) > 0) {
            $this->push($at, RuleKind::Range, 'is ' . $value . ', must be at most ' . $max);
        }
    }

    /**
     * Greater than zero.
     *
     * @param FieldPath $at the field
     * @param Decimal $value its value
     */
    public function positiveAmount(FieldPath $at, Decimal $value): void
    {
        if ($value->isNegative() || $value->isZero()) {
            $this->push($at, RuleKind::Positive, 'is ' . $value . ', must be greater than 0');
        }
    }

    /**
     * No fractional part (`100` and `100.00` pass, `100.50` does not).
     *
     * @param FieldPath $at the field
     * @param Decimal $value its value
     */
    public function whole(FieldPath $at, Decimal $value): void
    {
        if (!$value->isWhole()) {
            $this->push($at, RuleKind::Whole, 'is ' . $value . ', must be a whole number');
        }
    }

    /**
     * At most `$places` decimal places in the text that is sent.
     *
     * @param FieldPath $at the field
     * @param Decimal $value its value
     * @param int $places the most places
     */
    public function decimalPlaces(FieldPath $at, Decimal $value, int $places): void
    {
        if ($value->scale() > $places) {
            $this->push($at, RuleKind::DecimalPlaces, 'is ' . $value . ', at most ' . $places . ' decimal places allowed');
        }
    }

    /**
     * A document of at most `$max` bytes: its own size (the Base64 text sent is a third
     * larger). Violates `base64_max_bytes`.
     *
     * @param FieldPath $at the field
     * @param int $size its size in bytes
     * @param int $max the most bytes
     */
    public function maxBytes(FieldPath $at, int $size, int $max): void
    {
        if ($size > $max) {
            $this->push($at, RuleKind::Base64MaxBytes, 'is ' . $size . ' bytes, at most ' . $max . ' allowed');
        }
    }

    /**
     * At most `$max` items.
     *
     * @param FieldPath $at the array field
     * @param int $length its length
     * @param int $max the most items
     */
    public function maxItems(FieldPath $at, int $length, int $max): void
    {
        if ($length > $max) {
            $this->push($at, RuleKind::MaxItems, 'has ' . $length . ' items, at most ' . $max . ' allowed');
        }
    }

    /**
     * At least `$min` items.
     *
     * @param FieldPath $at the array field
     * @param int $length its length
     * @param int $min the fewest items
     */
    public function minItems(FieldPath $at, int $length, int $min): void
    {
        if ($length < $min) {
            $this->push($at, RuleKind::MinItems, 'has ' . $length . ' items, at least ' . $min . ' required');
        }
    }

    /**
     * One of the `$allowed` wire values (a value set's field that takes fewer of its values in
     * this request).
     *
     * @param list<string> $allowed the wire values this request takes
     */
    public function oneOf(FieldPath $at, string $value, array $allowed): void
    {
        if (!in_array($value, $allowed, true)) {
            $this->push($at, RuleKind::OneOf, 'is `' . $value . '`, must be one of ' . implode(', ', $allowed));
        }
    }

    /**
     * The field must be present (set and, for text, not empty).
     *
     * @param FieldPath $at the field
     * @param bool $present whether it is
     */
    public function required(FieldPath $at, bool $present): void
    {
        if (!$present) {
            $this->push($at, RuleKind::Required, 'is required');
        }
    }

    /**
     * The field must be present when `$conditionHolds` (`$condition` in words).
     *
     * @param FieldPath $at the field
     * @param bool $present whether it is
     * @param bool $conditionHolds whether the condition holds
     * @param string $condition the condition in words
     */
    public function requiredIf(FieldPath $at, bool $present, bool $conditionHolds, string $condition): void
    {
        if ($conditionHolds && !$present) {
            $this->push($at, RuleKind::RequiredIf, 'is required when ' . $condition);
        }
    }

    /**
     * At least one of `$fields` (wire name => present) of the value at `$parent`.
     *
     * @param FieldPath $parent the value holding the fields
     * @param array<string, bool> $fields each field's wire name and whether it is present
     */
    public function atLeastOneOf(FieldPath $parent, array $fields): void
    {
        if (!in_array(true, $fields, true)) {
            $paths = $this->paths($parent, $fields);
            $this->violations[] = new Violation(implode('|', $paths), RuleKind::AtLeastOneOf,
                'at least one of ' . implode(', ', $paths) . ' is required');
        }
    }

    /**
     * Exactly one of `$fields` (wire name => present) of the value at `$parent`.
     *
     * @param FieldPath $parent the value holding the fields
     * @param array<string, bool> $fields each field's wire name and whether it is present
     */
    public function exactlyOneOf(FieldPath $parent, array $fields): void
    {
        $n = count(array_filter($fields));
        if ($n !== 1) {
            $paths = $this->paths($parent, $fields);
            $this->violations[] = new Violation(implode('|', $paths), RuleKind::ExactlyOneOf,
                'exactly one of ' . implode(', ', $paths) . ' is required, ' . $n . ' given');
        }
    }

    /**
     * A list whose every item is of `$type` (`string`, `int`, `bool`, or a class; several
     * joined by `|`, as an open value set's `TxType|string`): PHP cannot declare an array's
     * item type, so generated code checks it here.
     *
     * @param FieldPath $at the array field
     * @param array<mixed> $value its value
     * @param string $type the item type
     * @return bool whether it is such a list
     */
    public function listOf(FieldPath $at, array $value, string $type): bool
    {
        if (!array_is_list($value)) {
            $this->push($at, RuleKind::Type, 'must be a list (keys 0, 1, 2, ...)');
            return false;
        }
        $types = explode('|', $type);
        foreach ($value as $i => $item) {
            $ok = false;
            foreach ($types as $one) {
                $ok = $ok || match ($one) {
                    'string' => is_string($item),
                    'int' => is_int($item),
                    'bool' => is_bool($item),
                    default => $item instanceof $one,
                };
            }
            if (!$ok) {
                $this->push($at->index($i), RuleKind::Type, 'must be ' . $type . ', not ' . get_debug_type($item));
                return false;
            }
        }
        return true;
    }

    /** Characters of a text, or null (and a violation) when it is not UTF-8. */
    private function chars(FieldPath $at, string $value): ?int
    {
        $n = preg_match_all('/./su', $value);
        if ($n === false) {
            $this->push($at, RuleKind::Type, 'is not valid UTF-8 text');
            return null;
        }
        return $n;
    }

    /**
     * @param array<string, bool> $fields
     * @return list<string>
     */
    private function paths(FieldPath $parent, array $fields): array
    {
        return array_map(static fn (string|int $name): string => (string) $parent->field((string) $name), array_keys($fields));
    }

    private function push(FieldPath $at, RuleKind $rule, string $message): void
    {
        $this->violations[] = new Violation((string) $at, $rule, $message);
    }
}
