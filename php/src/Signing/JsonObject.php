<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * A JSON object as read by {@see Canonical}: members in document order, keys always as
 * strings (a PHP array would turn the key `"12"` into the integer 12), lookups linear in
 * time whatever the keys (see {@see KeyIndex}).
 *
 * Values are: `JsonObject`; a PHP list for an array; `string` (unescaped); {@see JsonNumber}
 * (the literal text); `bool`; `null` (a `null` member is kept, and {@see get()} reads it as
 * absent). Iterating yields the members, key => value.
 *
 * @implements \IteratorAggregate<string, mixed>
 */
final class JsonObject implements \IteratorAggregate, \Countable
{
    /**
     * An object over its members.
     *
     * @internal built by the reader, which refuses duplicate keys
     * @param KeyIndex $index the keys in order
     * @param list<mixed> $values the values, in the keys' order
     */
    public function __construct(private readonly KeyIndex $index, private readonly array $values)
    {
    }

    /**
     * A member, treating a `null` member as absent.
     *
     * @param string $name the member's key
     * @return mixed the value, or null when absent or `null`
     */
    public function get(string $name): mixed
    {
        $position = $this->index->find($name);
        return $position < 0 ? null : $this->values[$position];
    }

    /**
     * Whether the object has the member (even `null`).
     *
     * @param string $name the member's key
     * @return bool true when present
     */
    public function has(string $name): bool
    {
        return $this->index->find($name) >= 0;
    }

    /**
     * A string member.
     *
     * @param string $name the member's key
     * @return string|null its text, or null when absent, `null` or not a string
     */
    public function getString(string $name): ?string
    {
        $value = $this->get($name);
        return is_string($value) ? $value : null;
    }

    /**
     * The keys in document order.
     *
     * @return list<string> the keys
     */
    public function keys(): array
    {
        return $this->index->keys();
    }

    /**
     * The number of members.
     *
     * @return int the count
     */
    public function count(): int
    {
        return count($this->values);
    }

    /**
     * The members in document order, key (always a string) => value.
     *
     * @return \Generator<string, mixed> the members
     */
    public function getIterator(): \Generator
    {
        foreach ($this->index->keys() as $i => $key) {
            yield $key => $this->values[$i];
        }
    }
}
