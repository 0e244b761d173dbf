<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * Why a body has no canonical string, or is refused by a re-cut rule ({@see Ambiguity}).
 *
 * {@see kind()} says which (one of the constants below, the same words as the Python
 * reference's `CanonicalError.kind`); {@see offset()}, {@see path()} and {@see rule()} say
 * where and which rule. The message never contains the private key.
 */
final class CanonicalException extends SigningException
{
    /** The body is not valid UTF-8. */
    public const INVALID_UTF8 = 'invalid_utf8';
    /** The body is not JSON. */
    public const SYNTAX = 'syntax';
    /** The top-level value is not an object. */
    public const NOT_AN_OBJECT = 'not_an_object';
    /** An object has the same key twice. */
    public const DUPLICATE_KEY = 'duplicate_key';
    /** Objects and arrays nested deeper than {@see Canonical::MAX_DEPTH}. */
    public const TOO_DEEP = 'too_deep';
    /** The body, or its flattened pairs, are longer than the limits. */
    public const TOO_LARGE = 'too_large';
    /** The top-level `signature` is neither a string nor `null`. */
    public const SIGNATURE_NOT_STRING = 'signature_not_string';
    /** A body to sign already has a top-level `signature`. */
    public const ALREADY_SIGNED = 'already_signed';
    /** A re-cut rule refuses the body: see {@see rule()} and {@see path()}. */
    public const AMBIGUOUS = 'ambiguous';

    private function __construct(
        private readonly string $kind,
        string $message,
        private readonly ?int $offset,
        private readonly ?string $path,
        private readonly ?Ambiguity $rule,
    ) {
        parent::__construct($message);
    }

    /**
     * A refusal without a place.
     *
     * @internal
     * @param string $kind one of the constants of this class
     * @param string $message what went wrong
     * @return self the exception
     */
    public static function of(string $kind, string $message): self
    {
        return new self($kind, $message, null, null, null);
    }

    /**
     * A refusal at a byte of the body.
     *
     * @internal
     * @param string $kind one of the constants of this class
     * @param string $message what went wrong
     * @param int $offset the byte, from the start of the body
     * @return self the exception
     */
    public static function at(string $kind, string $message, int $offset): self
    {
        return new self($kind, $message, $offset, null, null);
    }

    /**
     * A refusal by a re-cut rule at a path.
     *
     * @internal
     * @param Ambiguity $rule the rule
     * @param string $path the member or element
     * @return self the exception
     */
    public static function ambiguous(Ambiguity $rule, string $path): self
    {
        return new self(
            self::AMBIGUOUS,
            'refused by rule ' . $rule->id() . ' at `' . $path . '`: ' . $rule->describe(),
            null,
            $path,
            $rule,
        );
    }

    /**
     * A duplicate key at a path.
     *
     * @internal
     * @param string $path the repeated member
     * @return self the exception
     */
    public static function duplicateKey(string $path): self
    {
        return new self(self::DUPLICATE_KEY, 'duplicate key `' . $path . '`', null, $path, null);
    }

    /**
     * A new exception with the same facts, created here: its trace starts at the caller (the
     * public entry point, whose body parameter is marked sensitive), not deep in the reader
     * whose arguments hold paths and keys of the body. With a key, the key's text is
     * replaced by `[redacted]` in the message and the path.
     *
     * @internal
     * @param PrivateKey|null $key the key to redact, if any
     * @return self the copy
     */
    public function copy(?PrivateKey $key = null): self
    {
        $message = $this->getMessage();
        $path = $this->path;
        if ($key !== null) {
            $message = $key->redact($message);
            $path = $path === null ? null : $key->redact($path);
        }
        return new self($this->kind, $message, $this->offset, $path, $this->rule);
    }

    /**
     * This exception, or a copy with the key's text replaced by `[redacted]` in its message
     * and path when the key occurs in either.
     *
     * @internal
     * @param PrivateKey $key the key
     * @return self this or the redacted copy
     */
    public function redactedFor(PrivateKey $key): self
    {
        if (!$key->occursIn($this->getMessage()) && !$key->occursIn($this->path)) {
            return $this;
        }
        return $this->copy($key);
    }

    /**
     * The kind of refusal.
     *
     * @return string one of the constants of this class
     */
    public function kind(): string
    {
        return $this->kind;
    }

    /**
     * The byte of the body where the problem was found, when one is known.
     *
     * @return int|null the offset in bytes from the start of the body, or null
     */
    public function offset(): ?int
    {
        return $this->offset;
    }

    /**
     * The path of the member or element (`data.result[0].remark`) for a duplicate key or a
     * re-cut rule, else null.
     *
     * @return string|null the path, or null
     */
    public function path(): ?string
    {
        return $this->path;
    }

    /**
     * The re-cut rule for {@see AMBIGUOUS}, else null.
     *
     * @return Ambiguity|null the rule, or null
     */
    public function rule(): ?Ambiguity
    {
        return $this->rule;
    }
}
