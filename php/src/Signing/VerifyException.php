<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * Why a received body does not verify. {@see kind()} is one of:
 * - {@see MISSING}: there is no signature;
 * - {@see MISMATCH}: the signature does not hold (wrong key, altered bytes, or a body that
 *   was re-rendered);
 * - {@see REQUEST_ID_MISMATCH}, {@see WRONG_KIND}: from {@see Signer::verifyAnswer()}, an
 *   answer to another request, or a body of another kind;
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
    /** An answer echoes another request's requestId, or a signed one echoes none. */
    public const REQUEST_ID_MISMATCH = 'request_id_mismatch';
    /** A body given as an answer is another kind of message (a notification, a request). */
    public const WRONG_KIND = 'wrong_kind';

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
     * An answer that cannot be read (no `code`, a member of the wrong type).
     *
     * @internal
     * @param string $message why
     * @return self the exception
     */
    public static function malformedAnswer(string $message): self
    {
        return new self(self::MALFORMED, 'cannot decode the answer: ' . $message, null);
    }

    /**
     * A body of another kind given as an answer.
     *
     * @internal
     * @param string $message why
     * @return self the exception
     */
    public static function wrongKind(string $message): self
    {
        return new self(self::WRONG_KIND, 'received body refused: ' . $message, null);
    }

    /**
     * An answer to another request.
     *
     * @internal
     * @param string $expected the requestId sent (redacted)
     * @param string|null $received the one echoed (redacted), if any
     * @return self the exception
     */
    public static function requestIdMismatch(string $expected, ?string $received): self
    {
        return new self(
            self::REQUEST_ID_MISMATCH,
            'the answer is to requestId ' . ($received === null ? '(none)' : "'$received'")
                . ", not to the request sent ('$expected'): refused (a replayed or misrouted answer)",
            null,
        );
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
     * @return string {@see MALFORMED}, {@see MISSING}, {@see MISMATCH},
     *     {@see REQUEST_ID_MISMATCH} or {@see WRONG_KIND}
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
