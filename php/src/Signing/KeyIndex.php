<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * The keys of one JSON object in document order, with their lookup.
 *
 * PHP hashes array keys with an unkeyed function (and turns decimal keys into integers that
 * hash as themselves), so a body with thousands of chosen colliding keys would make a plain
 * PHP array quadratic. Up to {@see PLAIN_LIMIT} keys are looked up in a plain array; beyond,
 * by their HMAC under a random per-process secret, which nobody outside can aim at. Reading
 * and looking up stay linear in the body whatever its keys.
 *
 * @internal
 */
final class KeyIndex
{
    /** Objects with this many keys or fewer use a plain PHP array. */
    public const PLAIN_LIMIT = 32;

    private static ?string $secret = null;

    /** @var list<string> */
    private array $keys = [];
    /** @var array<array-key, int> key (or its HMAC) => position */
    private array $lookup = [];
    private bool $keyed = false;
    /** @var array<array-key, int> positions of keys whose HMAC collided with another key's */
    private array $collided = [];

    /**
     * Adds a key unless it is already there.
     *
     * @param string $key the key
     * @return int the position of the same key added before, or -1 when it is new (it is
     *     then added at the end)
     */
    public function add(string $key): int
    {
        $position = count($this->keys);
        if (!$this->keyed) {
            $found = $this->lookup[$key] ?? -1;
            if ($found >= 0) {
                return $found;
            }
            $this->keys[] = $key;
            if ($position < self::PLAIN_LIMIT) {
                $this->lookup[$key] = $position;
                return -1;
            }
            // Past the limit: every key by its HMAC from now on.
            $this->keyed = true;
            $this->lookup = [];
            foreach ($this->keys as $i => $k) {
                $this->insert(self::mac($k), $k, $i);
            }
            return -1;
        }
        $mac = self::mac($key);
        $found = $this->lookup[$mac] ?? -1;
        if ($found >= 0 && $this->keys[$found] !== $key) {
            $found = $this->collided[$key] ?? -1;
        }
        if ($found >= 0) {
            return $found;
        }
        $this->keys[] = $key;
        $this->insert($mac, $key, $position);
        return -1;
    }

    /**
     * The position of a key.
     *
     * @param string $key the key
     * @return int its position, or -1 when absent
     */
    public function find(string $key): int
    {
        if (!$this->keyed) {
            return $this->lookup[$key] ?? -1;
        }
        $position = $this->lookup[self::mac($key)] ?? -1;
        if ($position >= 0 && $this->keys[$position] !== $key) {
            $position = $this->collided[$key] ?? -1;
        }
        return $position;
    }

    /**
     * The keys in document order.
     *
     * @return list<string> the keys
     */
    public function keys(): array
    {
        return $this->keys;
    }

    private function insert(string $mac, string $key, int $position): void
    {
        if (isset($this->lookup[$mac])) {
            // Two different keys with one HMAC: never in practice, and not aimable.
            $this->collided[$key] = $position;
        } else {
            $this->lookup[$mac] = $position;
        }
    }

    private static function mac(string $key): string
    {
        self::$secret ??= random_bytes(16);
        return hash_hmac('md5', $key, self::$secret, true);
    }
}
