<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * Signing and verification of message bodies (requests, answers, notifications), over the
 * exact bytes sent or received.
 *
 * A request is signed over the bytes that are sent: serialize the envelope without
 * `signature`, then {@see attach()} returns those bytes with `"signature":"<hex>"` added as
 * the last member, every other byte unchanged. A received body is verified over its own
 * bytes, numbers as their literal text, before anything (`json_decode`) reads it.
 * Signatures are compared in constant time (`hash_equals`).
 *
 * Nothing is signed that a verifier would refuse: a body that breaks a re-cut rule
 * ({@see Ambiguity}) is refused on signing and on verifying. A `null` object member is
 * skipped, as the document says (a null member added or removed changes nothing a receiver
 * reads): the body is signed, and each skipped member is reported to the logger given
 * ({@see sign()}, {@see attach()}) and listed by {@see Canonical::parseForSigning()}'s
 * {@see Flattened::skippedNulls()}; a `null` array element (it moves the indexes) is refused
 * (R2). No exception of this class contains the key.
 */
final class Signer
{
    /** What is dropped after the final `}` by {@see attachSignature()}. */
    private const WHITESPACE = " \t\n\r\x0B\x0C";

    private function __construct()
    {
    }

    /**
     * The canonical string of a body with the key written `[redacted]`, for debugging a
     * `12005 Invalid signature`. It is shown even for a body that a re-cut rule refuses (use
     * {@see sign()} or {@see verify()} to know whether it is accepted); the top-level
     * `signature` is left out.
     *
     * @param string $body the exact bytes
     * @param PrivateKey $key the private key
     * @return string the canonical string, the key redacted
     * @throws CanonicalException when the body is not a usable JSON object
     */
    public static function canonical(#[\SensitiveParameter] string $body, PrivateKey $key): string
    {
        try {
            return Canonical::parseLoose($body)->canonicalStringRedacted($key);
        } catch (CanonicalException $e) {
            throw $e->redactedFor($key);
        }
    }

    /**
     * The lowercase hex signature of a JSON object body (its top-level `signature`, if any,
     * left out). A `null` member is skipped, and reported to `$logger`.
     *
     * @param string $unsignedBody the exact bytes to send
     * @param PrivateKey $key the private key
     * @param object|null $logger a PSR-3 logger (`Psr\Log\LoggerInterface`) or any object with
     *     a `warning(string $message, array $context)` method: one warning per skipped `null`
     *     member, its path in the context's `path`
     * @return string 64 lowercase hex digits
     * @throws CanonicalException when the body is not a usable JSON object, breaks a re-cut
     *     rule or holds a `null` array element (kind {@see CanonicalException::AMBIGUOUS})
     */
    public static function sign(#[\SensitiveParameter] string $unsignedBody, PrivateKey $key, ?object $logger = null): string
    {
        try {
            $flat = Canonical::parseForSigning($unsignedBody);
        } catch (CanonicalException $e) {
            throw $e->redactedFor($key);
        }
        self::warnSkipped($flat, $key, $logger);
        return $flat->signatureHex($key);
    }

    /**
     * The warning about a `null` member skipped when signing (the key redacted).
     *
     * @param string $path the member's path
     * @param PrivateKey $key the private key
     * @return string one line
     */
    public static function skippedWarning(string $path, PrivateKey $key): string
    {
        return $key->redact('`' . $path . '` is null: left out of the signature, as the document skips null '
            . 'values (a member absent or null reads the same; better leave it out)');
    }

    /** Reports each skipped `null` member to the logger, if any. */
    private static function warnSkipped(Flattened $flat, PrivateKey $key, ?object $logger): void
    {
        if ($logger === null || !method_exists($logger, 'warning')) {
            return;
        }
        foreach ($flat->skippedNulls() as $path) {
            $logger->warning('baas.sign: ' . self::skippedWarning($path, $key), ['path' => $key->redact($path)]);
        }
    }

    /**
     * Signs a serialized JSON object and returns the bytes to send: the body with
     * `"signature":"<hex>"` added as its last member, every other byte unchanged (whitespace
     * after the final `}` is dropped). Send exactly these bytes.
     *
     * @param string $unsignedBody the serialized envelope, without `signature`
     * @param PrivateKey $key the private key
     * @param object|null $logger told about each skipped `null` member, as by {@see sign()}
     * @return string the bytes to send
     * @throws CanonicalException when the body already has a top-level `signature` (even
     *     `null`; kind {@see CanonicalException::ALREADY_SIGNED}), breaks a re-cut rule,
     *     holds a `null` array element, or is not a usable JSON object
     */
    public static function attach(#[\SensitiveParameter] string $unsignedBody, PrivateKey $key, ?object $logger = null): string
    {
        try {
            $flat = Canonical::parseForSigning($unsignedBody);
            if ($flat->hasSignatureKey()) {
                throw CanonicalException::of(
                    CanonicalException::ALREADY_SIGNED,
                    'the body already has a `signature` (sign it without one)',
                );
            }
            $signed = self::attachSignature($unsignedBody, $flat->signatureHex($key));
        } catch (CanonicalException $e) {
            throw $e->redactedFor($key);
        }
        self::warnSkipped($flat, $key, $logger);
        return $signed;
    }

    /**
     * Adds `,"signature":"<hex>"` before the final `}` of a serialized JSON object that has
     * no `signature` yet (no comma after `{`): the sent text is the signed text plus the
     * signature. Whitespace after the final `}` is dropped. The body is not read: use
     * {@see attach()}, which also signs it and refuses what must not be signed.
     *
     * @param string $body a serialized JSON object
     * @param string $signatureHex the signature to add
     * @return string the body with the signature
     * @throws CanonicalException when the body does not end with an object's `}`
     */
    public static function attachSignature(#[\SensitiveParameter] string $body, string $signatureHex): string
    {
        $text = rtrim($body, self::WHITESPACE);
        if (!str_ends_with($text, '}')) {
            throw CanonicalException::of(CanonicalException::NOT_AN_OBJECT, 'body is not a JSON object');
        }
        $open = substr($text, 0, -1);
        $head = rtrim($open, self::WHITESPACE);
        if ($head === '') {
            throw CanonicalException::of(CanonicalException::NOT_AN_OBJECT, 'body is not a JSON object');
        }
        $comma = str_ends_with($head, '{') ? '' : ',';
        return $open . $comma . '"signature":"' . $signatureHex . '"}';
    }

    /**
     * Verifies the top-level `signature` of a received body (for an answer, use
     * {@see verifyAnswer()}, which also checks that it answers your request; for a
     * notification, {@see NotificationVerifier}). A body that breaks a re-cut rule
     * is refused before its signature is looked at; a `null` object member reads as absent.
     * Call it on the exact bytes received, before `json_decode` or anything else reads them.
     *
     * @param string $receivedBody the exact bytes received
     * @param PrivateKey $key the private key
     * @throws VerifyException when the signature is missing ({@see VerifyException::MISSING}),
     *     wrong ({@see VerifyException::MISMATCH}), or the body is refused
     *     ({@see VerifyException::MALFORMED}, the rule and path in its cause)
     */
    public static function verify(#[\SensitiveParameter] string $receivedBody, PrivateKey $key): void
    {
        try {
            Canonical::checkLength($receivedBody);
            // The fast reading lists a short body's pairs with the key's own pair, to be
            // joined and hashed at once.
            $fast = FastReader::read($receivedBody, $key->expose());
            if ($fast !== null && $fast[1] === FastReader::KEYED) {
                if ($fast[2] === null) {
                    throw VerifyException::missing();
                }
                if (!hash_equals(Sha256::of(implode('&', $fast[0])), $fast[2])) {
                    throw VerifyException::mismatch();
                }
                return;
            }
            $flat = $fast !== null ? Canonical::ofFastReading($fast, $receivedBody) : Canonical::readFully($receivedBody, true, true);
        } catch (CanonicalException $e) {
            throw VerifyException::malformed($e->redactedFor($key));
        }
        self::verifyFlattened($flat, $key);
    }

    /**
     * Verifies a received answer as the answer to the request whose requestId was
     * `$requestId`: use this, not {@see verify()}, for every answer. Besides the signature
     * over the exact bytes, it refuses a signed answer to another request (an old success
     * replayed), a notification or a request passed off as an answer, and an answer carrying
     * a notification's or a request's members. A refusal (`code` not `00000`) that is unsigned
     * or wrongly signed is returned with `verified` false (the document allows unsigned
     * refusals; trust nothing in it); a success must be signed.
     *
     * @param string $receivedBody the exact bytes received
     * @param string $requestId the requestId of the request sent
     * @param PrivateKey $key the private key
     * @return Answer the answer
     * @throws VerifyException {@see VerifyException::WRONG_KIND} (a `notificationType` or
     *     `params`), {@see VerifyException::MALFORMED} (not a usable JSON object, a re-cut rule,
     *     no `code`, a member of the wrong type), {@see VerifyException::MISSING} or
     *     {@see VerifyException::MISMATCH} (a success whose signature is absent or does not
     *     hold), {@see VerifyException::REQUEST_ID_MISMATCH} (another requestId echoed, or none
     *     in a signed answer)
     */
    public static function verifyAnswer(
        #[\SensitiveParameter] string $receivedBody,
        string $requestId,
        PrivateKey $key,
    ): Answer {
        try {
            $flat = Canonical::parseWithValue($receivedBody);
        } catch (CanonicalException $e) {
            throw VerifyException::malformed($e->redactedFor($key));
        }
        $top = $flat->value();
        foreach (['notificationType', 'params'] as $member) {
            if ($top->get($member) !== null) {
                throw VerifyException::wrongKind('the answer carries `' . $member
                    . '`, a member of another kind of message (a notification or a request)');
            }
        }
        $code = self::answerText($top, 'code');
        $echoed = self::answerText($top, 'requestId');
        $msg = self::answerText($top, 'msg');
        if ($code === null) {
            throw VerifyException::malformedAnswer('the answer has no `code`');
        }
        $success = $code === Answer::SUCCESS;
        $verified = true;
        try {
            self::verifyFlattened($flat, $key);
        } catch (VerifyException $e) {
            if ($success) {
                throw $e;
            }
            $verified = false;
        }
        $unsignedRefusalWithoutId = $echoed === null && !$verified && !$success;
        if ($echoed !== $requestId && !$unsignedRefusalWithoutId) {
            throw VerifyException::requestIdMismatch(
                $key->redact($requestId),
                $echoed === null ? null : $key->redact($echoed),
            );
        }
        return new Answer($code, $msg, $verified, $flat);
    }

    /** A string member of an answer, or null when absent or `null`. */
    private static function answerText(JsonObject $top, string $name): ?string
    {
        $value = $top->get($name);
        if ($value === null || is_string($value)) {
            return $value;
        }
        throw VerifyException::malformedAnswer('the answer\'s `' . $name . '` is not a string');
    }

    /**
     * Verifies a body already read by {@see Canonical::parse()} (with the rules), to verify
     * and keep the lossless tree ({@see Flattened::value()}) from one reading.
     *
     * @param Flattened $flat the body
     * @param PrivateKey $key the private key
     * @throws VerifyException when the signature is missing or wrong
     */
    public static function verifyFlattened(#[\SensitiveParameter] Flattened $flat, PrivateKey $key): void
    {
        $received = $flat->signature();
        if ($received === null) {
            throw VerifyException::missing();
        }
        if (!self::constantTimeEquals($flat->signatureHex($key), $received)) {
            throw VerifyException::mismatch();
        }
    }

    /**
     * The expected signature of a received body and the one it carries; a body that breaks
     * a re-cut rule is refused as {@see verify()} refuses it.
     *
     * @param string $receivedBody the exact bytes received
     * @param PrivateKey $key the private key
     * @return Check both signatures
     * @throws CanonicalException when the body is not a usable JSON object or breaks a rule
     */
    public static function check(#[\SensitiveParameter] string $receivedBody, PrivateKey $key): Check
    {
        try {
            $flat = Canonical::parse($receivedBody);
            return new Check($flat->signatureHex($key), $flat->signature());
        } catch (CanonicalException $e) {
            throw $e->redactedFor($key);
        }
    }

    /**
     * Equality of two texts in time independent of where they differ (`hash_equals`).
     *
     * @param string $expected the expected text (its length sets the time taken)
     * @param string $received the received text
     * @return bool true when equal
     */
    public static function constantTimeEquals(string $expected, string $received): bool
    {
        return hash_equals($expected, $received);
    }
}
