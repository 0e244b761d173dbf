<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * Why a received notification is refused. Treat every kind as "not from the service":
 * answer nothing that acknowledges it and process nothing of it. The message never contains
 * the key.
 */
final class NotificationException extends SigningException
{
    /** Not a usable JSON object, or not a notification (required members missing or of the wrong type). */
    public const MALFORMED = 'malformed';
    /** The body carries no signature. */
    public const SIGNATURE_MISSING = 'signature_missing';
    /** The signature does not hold for the configured key. */
    public const SIGNATURE_INVALID = 'signature_invalid';
    /**
     * The body may carry a valid signature but is refused: it could be re-cut into another
     * message, carries members of an answer, comes from another sender, or is outside the
     * time window.
     */
    public const UNTRUSTED = 'untrusted';

    /**
     * A refusal.
     *
     * @internal thrown by {@see NotificationVerifier}
     * @param string $kind one of the constants of this class
     * @param string $message why (never the key)
     * @param CanonicalException|null $previous the reader's refusal, if any
     */
    public function __construct(private readonly string $kind, string $message, ?CanonicalException $previous = null)
    {
        parent::__construct($message, 0, $previous);
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
}
