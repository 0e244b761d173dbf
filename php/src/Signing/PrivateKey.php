<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * The partner's private key: the `senderKey` of the signing algorithm.
 *
 * The key is shown as `[redacted]` by string conversion, `var_dump`, `print_r`,
 * `var_export`, `debug_zval_dump`, `get_object_vars`, an `(array)` cast and `json_encode`:
 * the object holds no property at all (its text is kept in a private `WeakMap` of the
 * class). It cannot be serialized or cloned, and it never appears in an exception message
 * of this library. {@see expose()} gives the text to the signer only.
 */
final class PrivateKey implements \Stringable
{
    /** What is shown in place of the key. */
    public const REDACTED = '[redacted]';

    /** @var \WeakMap<PrivateKey, string>|null the keys' texts, out of every dump of the objects */
    private static ?\WeakMap $secrets = null;

    /**
     * A key from its text.
     *
     * @param string $secret the key as the bank gave it
     */
    public function __construct(#[\SensitiveParameter] string $secret)
    {
        self::$secrets ??= new \WeakMap();
        self::$secrets[$this] = $secret;
    }

    /**
     * The key in an environment variable (read with `getenv`).
     *
     * @param string $name the variable, by default `BAAS_PRIVATE_KEY`
     * @return self|null the key, or null when the variable is unset or empty (an empty key
     *     is a configuration mistake, never a key)
     */
    public static function fromEnv(string $name = 'BAAS_PRIVATE_KEY'): ?self
    {
        $value = getenv($name);
        if (!is_string($value) || $value === '') {
            return null;
        }
        return new self($value);
    }

    /**
     * The key in a UTF-8 file; one trailing line break (`\n` or `\r\n`) is dropped.
     *
     * @param string $path the file
     * @return self the key
     * @throws \RuntimeException when the file cannot be read (the message names the file only)
     */
    public static function fromFile(string $path): self
    {
        $text = is_file($path) && is_readable($path) ? @file_get_contents($path) : false;
        if (!is_string($text)) {
            throw new \RuntimeException('cannot read the private key file ' . $path);
        }
        if (str_ends_with($text, "\r\n")) {
            $text = substr($text, 0, -2);
        } elseif (str_ends_with($text, "\n")) {
            $text = substr($text, 0, -1);
        }
        return new self($text);
    }

    /**
     * The key's text, for the signer only: never log or print it.
     *
     * @return string the key's text
     */
    public function expose(): string
    {
        return self::$secrets[$this] ?? '';
    }

    /**
     * Whether the key is the empty text.
     *
     * @return bool true for an empty key
     */
    public function isEmpty(): bool
    {
        return $this->expose() === '';
    }

    /**
     * The text with every occurrence of the key replaced by `[redacted]`.
     *
     * @param string $text any text, e.g. a message about a body that contains the key
     * @return string the text without the key
     */
    public function redact(#[\SensitiveParameter] string $text): string
    {
        $secret = $this->expose();
        return $secret === '' ? $text : str_replace($secret, self::REDACTED, $text);
    }

    /**
     * Whether the (non-empty) key occurs in a text.
     *
     * @param string|null $text any text, or null
     * @return bool true when the key occurs in it
     */
    public function occursIn(#[\SensitiveParameter] ?string $text): bool
    {
        $secret = $this->expose();
        return $text !== null && $secret !== '' && str_contains($text, $secret);
    }

    /**
     * Whether two keys have the same text, compared in constant time.
     *
     * @param PrivateKey $other another key
     * @return bool true for a key with the same text
     */
    public function equals(PrivateKey $other): bool
    {
        return hash_equals($this->expose(), $other->expose());
    }

    /**
     * Always `[redacted]`.
     *
     * @return string `[redacted]`
     */
    public function __toString(): string
    {
        return self::REDACTED;
    }

    /**
     * What `var_dump` and `print_r` show: the key redacted.
     *
     * @return array<string, string> `['key' => '[redacted]']`
     */
    public function __debugInfo(): array
    {
        return ['key' => self::REDACTED];
    }

    /**
     * Refused: a key is never serialized (into a session, a cache or a log).
     *
     * @return array<string, mixed> never
     * @throws \LogicException always
     */
    public function __serialize(): array
    {
        throw new \LogicException('a PrivateKey cannot be serialized');
    }

    /**
     * Refused: a key is never read back from serialized data.
     *
     * @param array<string, mixed> $data ignored
     * @throws \LogicException always
     */
    public function __unserialize(array $data): void
    {
        throw new \LogicException('a PrivateKey cannot be unserialized');
    }

    /**
     * Refused: build another key from its text instead.
     *
     * @throws \LogicException always
     */
    public function __clone()
    {
        throw new \LogicException('a PrivateKey cannot be cloned');
    }
}
