<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * Why a received body does not verify. {@see kind()} is one of:
 * - {@see MISSING}: there is no signature;
 * - {@see MISMATCH}: the signature does not hold (wrong key, altered bytes, or a body that
 *   was re-rendered);
 * - {@see MALFORMED}: the body is not a usable JSON object, or a re-cut rule refuses it:
 *   {@see cause()} (also `getPrevious()`) is the {@see CanonicalException}, and
 *   {@see rule()} and {@see path()} name the rule and where.
 *
 * Treat an answer that does not verify as unsigned: its `code` proves nothing.
 */
final class VerifyException extends SigningException
{
    /** The body has no canonical string, or a re-cut rule refuses it (see the cause). */
    public const MALFORMED = 'malformed';
    /** The body has no top-level `signature`. */
    public const MISSING = 'missing';
    /** The signature does not match the body and the key. */
    public const MISMATCH = 'mismatch';

    private function __construct(
        private readonly string $kind,
        string $message,
        private readonly ?CanonicalException $cause,
    ) {
        parent::__construct($message, 0, $cause);
    }

    /**
     * The body is refused before its signature is looked at.
     *
     * @internal
     * @param CanonicalException $cause why (already redacted)
     * @return self the exception
     */
    public static function malformed(CanonicalException $cause): self
    {
        return new self(self::MALFORMED, 'cannot verify: ' . $cause->getMessage(), $cause);
    }

    /**
     * There is no signature.
     *
     * @internal
     * @return self the exception
     */
    public static function missing(): self
    {
        return new self(self::MISSING, 'the body has no signature', null);
    }

    /**
     * The signature does not hold.
     *
     * @internal
     * @return self the exception
     */
    public static function mismatch(): self
    {
        return new self(self::MISMATCH, 'the signature does not match the body', null);
    }

    /**
     * The kind of failure.
     *
     * @return string {@see MALFORMED}, {@see MISSING} or {@see MISMATCH}
     */
    public function kind(): string
    {
        return $this->kind;
    }

    /**
     * For {@see MALFORMED}, why the body was refused.
     *
     * @return CanonicalException|null the refusal, or null for the other kinds
     */
    public function cause(): ?CanonicalException
    {
        return $this->cause;
    }

    /**
     * The re-cut rule that refused the body, if one did.
     *
     * @return Ambiguity|null the rule, or null
     */
    public function rule(): ?Ambiguity
    {
        return $this->cause?->rule();
    }

    /**
     * Where the body was refused (a re-cut rule or a duplicate key), if known.
     *
     * @return string|null the path, or null
     */
    public function path(): ?string
    {
        return $this->cause?->path();
    }
}
