<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * An exact decimal number, for money: `Decimal::of('1500.50')`. It is never a float and needs
 * no extension (no bcmath, no gmp): the digits are kept as text and added digit by digit.
 *
 * It keeps the scale it was written with (`100.50` stays `100.50`, two places, as it is sent
 * and as the service checks decimal places), compares by value (`100.5` equals `100.50`),
 * and adds and subtracts exactly (the result has the larger scale of the two).
 */
final class Decimal implements \Stringable, \JsonSerializable
{
    /** The longest text accepted, in bytes: far beyond any amount, short of any abuse. */
    public const MAX_LENGTH = 100;

    /**
     * @param bool $negative whether the value is below zero (never true for zero)
     * @param string $digits the digits without sign or point, no leading zeros but one
     *     before the point (`10050` for `100.50`, `5` for `0.5`, `0` for `0.00`)
     * @param int $scale the number of digits after the point
     */
    private function __construct(
        private readonly bool $negative,
        private readonly string $digits,
        private readonly int $scale,
    ) {
    }

    /**
     * The decimal a text or an integer writes: `'1500.50'`, `'-3'`, `'0.001'`, `42`. No
     * exponent, no `+`, no spaces, no thousands separators; a float is refused by its type.
     *
     * @param string|int $value the text or the integer
     * @return self the decimal
     * @throws \InvalidArgumentException when the text is not a plain decimal
     */
    public static function of(string|int $value): self
    {
        $parsed = self::tryOf($value);
        if ($parsed === null) {
            $shown = is_int($value) ? (string) $value : substr($value, 0, 40);
            throw new \InvalidArgumentException("'" . $shown . "' is not a decimal number like 1500.50");
        }
        return $parsed;
    }

    /**
     * {@see of()}, or null when the text is not a plain decimal.
     *
     * @param string|int $value the text or the integer
     * @return self|null the decimal, or null
     */
    public static function tryOf(string|int $value): ?self
    {
        $text = is_int($value) ? (string) $value : $value;
        if (strlen($text) > self::MAX_LENGTH || preg_match('/^(-?)(\d+)(?:\.(\d+))?$/D', $text, $m) !== 1) {
            return null;
        }
        $fraction = $m[3] ?? '';
        $digits = ltrim($m[2] . $fraction, '0');
        $scale = strlen($fraction);
        $digits = str_pad($digits, $scale + 1, '0', STR_PAD_LEFT);
        return new self($m[1] === '-' && trim($digits, '0') !== '', $digits, $scale);
    }

    /**
     * Zero, with no decimal places.
     *
     * @return self `0`
     */
    public static function zero(): self
    {
        return new self(false, '0', 0);
    }

    /**
     * The exact sum of decimals (zero for none).
     *
     * @param iterable<self> $values the decimals
     * @return self their sum
     */
    public static function sum(iterable $values): self
    {
        $total = self::zero();
        foreach ($values as $value) {
            $total = $total->plus($value);
        }
        return $total;
    }

    /**
     * This plus another, exactly.
     *
     * @param self|string|int $other the other decimal (a text or an integer is read with {@see of()})
     * @return self the sum, with the larger scale of the two
     */
    public function plus(self|string|int $other): self
    {
        $other = $other instanceof self ? $other : self::of($other);
        $scale = max($this->scale, $other->scale);
        $a = $this->scaled($scale);
        $b = $other->scaled($scale);
        if ($this->negative === $other->negative) {
            return self::make($this->negative, self::addDigits($a, $b), $scale);
        }
        $order = self::compareDigits($a, $b);
        if ($order === 0) {
            return self::make(false, '0', $scale);
        }
        return $order > 0
            ? self::make($this->negative, self::subtractDigits($a, $b), $scale)
            : self::make($other->negative, self::subtractDigits($b, $a), $scale);
    }

    /**
     * This minus another, exactly.
     *
     * @param self|string|int $other the other decimal
     * @return self the difference, with the larger scale of the two
     */
    public function minus(self|string|int $other): self
    {
        return $this->plus(($other instanceof self ? $other : self::of($other))->negate());
    }

    /**
     * The opposite value (zero stays zero).
     *
     * @return self `-this`
     */
    public function negate(): self
    {
        return self::make(!$this->negative, $this->digits, $this->scale);
    }

    /**
     * Compares by value: `100.5` and `100.50` are equal.
     *
     * @param self|string|int $other the other decimal
     * @return int -1, 0 or 1 as this is below, equal to or above the other
     */
    public function compareTo(self|string|int $other): int
    {
        $other = $other instanceof self ? $other : self::of($other);
        if ($this->negative !== $other->negative) {
            return $this->negative ? -1 : 1;
        }
        $scale = max($this->scale, $other->scale);
        $order = self::compareDigits($this->scaled($scale), $other->scaled($scale));
        return $this->negative ? -$order : $order;
    }

    /**
     * Whether the two are the same number (`100.5` equals `100.50`).
     *
     * @param self|string|int $other the other decimal
     * @return bool whether they are equal in value
     */
    public function equals(self|string|int $other): bool
    {
        return $this->compareTo($other) === 0;
    }

    /**
     * Whether this is below zero.
     *
     * @return bool `this < 0`
     */
    public function isNegative(): bool
    {
        return $this->negative;
    }

    /**
     * Whether this is zero (at any scale).
     *
     * @return bool `this == 0`
     */
    public function isZero(): bool
    {
        return trim($this->digits, '0') === '';
    }

    /**
     * Whether this has no fractional part (`100.00` has none, `100.50` has one).
     *
     * @return bool whether it is a whole number
     */
    public function isWhole(): bool
    {
        return $this->scale === 0 || trim(substr($this->digits, -$this->scale), '0') === '';
    }

    /**
     * The number of digits after the point, as written (`100.50`: 2).
     *
     * @return int the scale
     */
    public function scale(): int
    {
        return $this->scale;
    }

    /**
     * The text, as written but without leading zeros: `100.50`, `-3`, `0.001`.
     *
     * @return string the decimal text (what is sent)
     */
    public function __toString(): string
    {
        $sign = $this->negative ? '-' : '';
        if ($this->scale === 0) {
            return $sign . $this->digits;
        }
        return $sign . substr($this->digits, 0, -$this->scale) . '.' . substr($this->digits, -$this->scale);
    }

    /**
     * The JSON form: the decimal text as a JSON string (this API sends amounts as strings).
     *
     * @return string the text
     */
    public function jsonSerialize(): string
    {
        return (string) $this;
    }

    /**
     * What `var_dump` shows: the text.
     *
     * @return array{value: string}
     */
    public function __debugInfo(): array
    {
        return ['value' => (string) $this];
    }

    /** The digits at a larger scale (zeros added on the right). */
    private function scaled(int $scale): string
    {
        return $this->digits . str_repeat('0', $scale - $this->scale);
    }

    private static function make(bool $negative, string $digits, int $scale): self
    {
        $digits = ltrim($digits, '0');
        $digits = str_pad($digits, $scale + 1, '0', STR_PAD_LEFT);
        return new self($negative && trim($digits, '0') !== '', $digits, $scale);
    }

    /** Compares two digit strings without signs, of any length. */
    private static function compareDigits(string $a, string $b): int
    {
        $a = ltrim($a, '0');
        $b = ltrim($b, '0');
        if (strlen($a) !== strlen($b)) {
            return strlen($a) <=> strlen($b);
        }
        return strcmp($a, $b) <=> 0;
    }

    private static function addDigits(string $a, string $b): string
    {
        $length = max(strlen($a), strlen($b));
        $a = str_pad($a, $length, '0', STR_PAD_LEFT);
        $b = str_pad($b, $length, '0', STR_PAD_LEFT);
        $out = '';
        $carry = 0;
        for ($i = $length - 1; $i >= 0; $i--) {
            $sum = ord($a[$i]) + ord($b[$i]) - 96 + $carry;
            $carry = intdiv($sum, 10);
            $out = chr(48 + $sum % 10) . $out;
        }
        return $carry > 0 ? '1' . $out : $out;
    }

    /** `a - b` for digit strings with `a >= b`. */
    private static function subtractDigits(string $a, string $b): string
    {
        $length = max(strlen($a), strlen($b));
        $a = str_pad($a, $length, '0', STR_PAD_LEFT);
        $b = str_pad($b, $length, '0', STR_PAD_LEFT);
        $out = '';
        $borrow = 0;
        for ($i = $length - 1; $i >= 0; $i--) {
            $difference = ord($a[$i]) - ord($b[$i]) - $borrow;
            $borrow = $difference < 0 ? 1 : 0;
            $out = chr(48 + $difference + 10 * $borrow) . $out;
        }
        return $out;
    }
}
