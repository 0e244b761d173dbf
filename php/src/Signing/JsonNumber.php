<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * A JSON number as the literal text it had in the body (`100.50`, `-1.5E+3`): nothing is
 * ever read as a `float`, so `100.50` stays `100.50`.
 */
final class JsonNumber implements \Stringable
{
    /**
     * A number.
     *
     * @param string $literal its JSON text, exactly as in the body
     */
    public function __construct(public readonly string $literal)
    {
    }

    /**
     * Whether the literal is an integer written without fraction or exponent.
     *
     * @return bool true for `12` or `-3`, false for `1.0` or `1e3`
     */
    public function isPlainInteger(): bool
    {
        $digits = str_starts_with($this->literal, '-') ? substr($this->literal, 1) : $this->literal;
        return $digits !== '' && strspn($digits, '0123456789') === strlen($digits);
    }

    /**
     * The literal text.
     *
     * @return string the number as written in the body
     */
    public function __toString(): string
    {
        return $this->literal;
    }
}
