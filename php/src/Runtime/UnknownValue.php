<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * A value of a value set that its enum does not list (the service added it after this SDK was
 * generated). Received fields typed with a value set are `TheEnum|UnknownValue|null`: compare
 * with the enum's cases as usual, and read {@see $value} when it is none of them. Partners never
 * build one: a listed value always reads as its case.
 */
final class UnknownValue implements \Stringable
{
    /**
     * @param string|int $value the wire value as received
     * @param string $set the enum's class, e.g. `Baas\Client\Enums\TransStatus`
     */
    public function __construct(public readonly string|int $value, public readonly string $set)
    {
    }

    /**
     * The wire value as text.
     *
     * @return string the value
     */
    public function __toString(): string
    {
        return (string) $this->value;
    }
}
