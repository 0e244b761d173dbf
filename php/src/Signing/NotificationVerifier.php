<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * Verifies received notification bodies for one partner key and the service's sender name
 * (as the bank gives it). A body is accepted only when all of these hold, so that no other
 * signed message (an answer, another sender's notification, an old notification) passes for
 * one:
 * - the signature holds over the exact bytes received, and the body could not be re-cut
 *   into another message (rules R1 to R4, {@see Ambiguity});
 * - it is a notification: `requestId`, `notificationType`, `timestamp` and `salt` are
 *   present, and the members of an answer (`code`, `msg`, `data`) are absent;
 * - its `sender` is the service's, as configured;
 * - its `timestamp` is at most {@see DEFAULT_MAX_AGE} seconds old and at most
 *   {@see DEFAULT_MAX_SKEW} seconds ahead of this machine's clock (both configurable).
 *
 * Repeated deliveries are not detected here: see {@see Notification}.
 */
final class NotificationVerifier implements \Stringable
{
    /** The body to answer once a notification is processed (or known as a repeat). */
    public const ACK = 'ok';
    /** How old a notification's timestamp may be: 24 hours, in seconds. */
    public const DEFAULT_MAX_AGE = 24 * 60 * 60;
    /** How far ahead of this machine's clock a timestamp may be: 5 minutes, in seconds. */
    public const DEFAULT_MAX_SKEW = 5 * 60;

    private const ANSWER_MEMBERS = ['code', 'msg', 'data'];

    /**
     * A verifier.
     *
     * @param PrivateKey $key the partner's private key
     * @param string $serviceSender the service's `sender`, as the bank gives it
     * @param int $maxAge how old a timestamp may be, in seconds (keep processed ids at least
     *     this long)
     * @param int $maxSkew how far ahead of this machine's clock a timestamp may be, in seconds
     * @throws \InvalidArgumentException when a duration is negative
     */
    public function __construct(
        private readonly PrivateKey $key,
        private readonly string $serviceSender,
        private readonly int $maxAge = self::DEFAULT_MAX_AGE,
        private readonly int $maxSkew = self::DEFAULT_MAX_SKEW,
    ) {
        if ($maxAge < 0 || $maxSkew < 0) {
            throw new \InvalidArgumentException("the window's durations cannot be negative");
        }
    }

    /**
     * The service's sender name this verifier accepts.
     *
     * @return string the sender
     */
    public function serviceSender(): string
    {
        return $this->serviceSender;
    }

    /**
     * How old a timestamp may be; also how long processed ids must be kept.
     *
     * @return int seconds
     */
    public function maxAge(): int
    {
        return $this->maxAge;
    }

    /**
     * How far ahead of this machine's clock a timestamp may be.
     *
     * @return int seconds
     */
    public function maxSkew(): int
    {
        return $this->maxSkew;
    }

    /**
     * Verifies a received body, against this machine's clock or a given time.
     *
     * @param string $body the exact bytes received (`file_get_contents('php://input')`)
     * @param int|null $nowMillis the current time in epoch milliseconds, or null for the clock
     * @return Notification the notification
     * @throws NotificationException when it is refused ({@see NotificationException::kind()} says why)
     */
    public function verify(#[\SensitiveParameter] string $body, ?int $nowMillis = null): Notification
    {
        $now = $nowMillis ?? (int) floor(microtime(true) * 1000);
        try {
            $flat = Canonical::parseWithValue($body);
        } catch (CanonicalException $e) {
            $shown = $e->redactedFor($this->key);
            if ($e->kind() === CanonicalException::AMBIGUOUS) {
                throw $this->untrusted(
                    'the notification could be re-cut into another message: ' . $shown->getMessage(),
                    $shown,
                );
            }
            throw $this->malformed('the notification is not a usable JSON object: ' . $shown->getMessage(), $shown);
        }
        try {
            Signer::verifyFlattened($flat, $this->key);
        } catch (VerifyException $e) {
            if ($e->kind() === VerifyException::MISSING) {
                throw new NotificationException(
                    NotificationException::SIGNATURE_MISSING,
                    'the received notification carries no signature, so it is refused',
                );
            }
            throw new NotificationException(
                NotificationException::SIGNATURE_INVALID,
                'the signature of the received notification does not verify: check that the '
                    . 'configured private key is the one the service signs with, and compare '
                    . 'the received body with `baas-sign --verify`',
            );
        }
        $top = $flat->value();
        $requestId = $this->text($top, 'requestId');
        // A JSON string, as the service sends it ("0028"); a number (28, 28.0, -28) is refused,
        // as every SDK refuses it (the shared vectors' notification_types).
        $notificationType = $this->text($top, 'notificationType');
        $salt = $this->text($top, 'salt');
        $timestamp = $top->get('timestamp');
        if ($requestId === null || $notificationType === null || $salt === null
            || !$timestamp instanceof JsonNumber || !$timestamp->isPlainInteger()) {
            throw $this->malformed(
                'not a notification (requestId, notificationType, timestamp and salt are required)',
            );
        }
        foreach (self::ANSWER_MEMBERS as $name) {
            if ($top->get($name) !== null) {
                throw $this->untrusted(
                    'the body carries `' . $name . '`, a member of an answer, not of a notification',
                );
            }
        }
        $params = $top->get('params');
        $sender = $this->text($top, 'sender');
        $locale = $this->text($top, 'locale');
        if ($sender === null || $sender !== $this->serviceSender) {
            throw $this->untrusted("the notification's sender is '" . ($sender ?? '')
                . "', not the service's '" . $this->serviceSender . "'");
        }
        $stamp = self::epochMillis($timestamp->literal);
        $shown = is_int($stamp) ? (string) $stamp : $timestamp->literal;
        // Out of the range of an int: before or after any time a clock can show.
        $age = is_int($stamp) ? $now - $stamp : ($stamp === 'before' ? INF : -INF);
        if ($age > $this->maxAge * 1000) {
            throw $this->untrusted('the notification is dated ' . $shown . ', more than ' . $this->maxAge
                . ' s before now (' . $now . '): refused as stale (a replay, or a window shorter '
                . 'than the re-delivery schedule)');
        }
        if (-$age > $this->maxSkew * 1000) {
            throw $this->untrusted('the notification is dated ' . $shown . ', more than ' . $this->maxSkew
                . ' s after now (' . $now . "): check this machine's clock");
        }
        if (!is_int($stamp)) {
            throw $this->untrusted('the notification is dated ' . $shown . ', outside any time a clock can show');
        }
        return new Notification(
            $notificationType,
            $requestId,
            $sender,
            $locale,
            $stamp,
            $params ?? new JsonObject(new KeyIndex(), []),
        );
    }

    /**
     * A plain integer literal as an int, or `before` / `after` when it is out of an int's
     * range (before or after any time).
     */
    private static function epochMillis(string $literal): int|string
    {
        $negative = str_starts_with($literal, '-');
        $digits = $negative ? substr($literal, 1) : $literal;
        $max = (string) PHP_INT_MAX;
        if (strlen($digits) < strlen($max) || (strlen($digits) === strlen($max) && strcmp($digits, $max) <= 0)) {
            return (int) $literal;
        }
        return $negative ? 'before' : 'after';
    }

    /** A string member, or null when absent or `null`. */
    private function text(JsonObject $top, string $name): ?string
    {
        $value = $top->get($name);
        if ($value === null || is_string($value)) {
            return $value;
        }
        throw $this->malformed('not a notification: `' . $name . '` is not a string');
    }

    private function untrusted(#[\SensitiveParameter] string $reason, ?CanonicalException $cause = null): NotificationException
    {
        return new NotificationException(
            NotificationException::UNTRUSTED,
            $this->key->redact('received body refused: ' . $reason),
            $cause,
        );
    }

    private function malformed(#[\SensitiveParameter] string $message, ?CanonicalException $cause = null): NotificationException
    {
        return new NotificationException(
            NotificationException::MALFORMED,
            $this->key->redact('cannot decode the notification: ' . $message),
            $cause,
        );
    }

    /**
     * The configuration, the key written `[redacted]`.
     *
     * @return string a description for debugging
     */
    public function __toString(): string
    {
        return 'NotificationVerifier[key=' . $this->key . ", serviceSender='" . $this->serviceSender
            . "', maxAge=" . $this->maxAge . 's, maxSkew=' . $this->maxSkew . 's]';
    }
}
