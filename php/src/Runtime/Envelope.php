<?php

declare(strict_types=1);

namespace Baas\Runtime;

use Baas\Runtime\Exception\ApiError;
use Baas\Runtime\Exception\DecodeError;
use Baas\Runtime\Exception\EncodeError;
use Baas\Runtime\Exception\RequestIdMismatch;
use Baas\Runtime\Exception\SignatureInvalid;
use Baas\Runtime\Exception\SignatureMissing;
use Baas\Runtime\Exception\Untrusted;
use Baas\Signing\Ambiguity;
use Baas\Signing\Canonical;
use Baas\Signing\CanonicalException;
use Baas\Signing\Flattened;
use Baas\Signing\JsonNumber;
use Baas\Signing\JsonObject;
use Baas\Signing\KeyIndex;
use Baas\Signing\PrivateKey;
use Baas\Signing\Signer;
use Baas\Signing\VerifyException;

/**
 * Message envelopes: a request serialized once and signed over those exact bytes, and an answer
 * opened only when it is signed, of the right kind and bound to the request it answers. Besides
 * what the client uses, {@see signedAnswer()} and {@see verifyRequest()} serve test servers
 * ({@see Testing\MockService}).
 */
final class Envelope
{
    /** The result code of success. */
    public const SUCCESS = '00000';

    /** Members of a notification or a request: an answer carrying one is refused. */
    private const NOT_ANSWER_MEMBERS = ['notificationType', 'params'];

    private function __construct()
    {
    }

    /**
     * A new requestId: the sender followed by 32 random hex digits.
     *
     * @param string $sender the sender name
     * @return string the requestId
     */
    public static function newRequestId(string $sender): string
    {
        return $sender . bin2hex(random_bytes(16));
    }

    /**
     * Now, in epoch milliseconds.
     *
     * @return int the time
     */
    public static function nowMillis(): int
    {
        return (int) floor(microtime(true) * 1000);
    }

    /**
     * Serializes an envelope without `signature`, signs those bytes and adds the signature.
     * Nothing is signed that a verifier would refuse (a re-cut shape, a null): the pairs are
     * taken as the body is written ({@see Json::encodeWithPairs()}), and the body is read back
     * only when the writer cannot vouch for them (then that reading decides).
     *
     * @param WireObject $envelope the envelope
     * @param PrivateKey $key the key
     * @return string the bytes to send
     * @throws EncodeError when it cannot be sent
     */
    public static function sign(WireObject $envelope, PrivateKey $key): string
    {
        // Signed while written: the pairs come from the writer, the body is not read back.
        [$body, $pairs] = Json::encodeWithPairs($envelope);
        if ($pairs !== null) {
            return Signer::attachSignature($body, Flattened::ofWrittenPairs($pairs, $body)->signatureHex($key));
        }
        try {
            $flat = Canonical::parseForSigning($body);
        } catch (CanonicalException $e) {
            if ($e->rule() === Ambiguity::NULL) {
                throw new EncodeError('`' . $e->path() . '` is null; a null is never sent (leave the field out)');
            }
            throw new EncodeError($e->redactedFor($key)->getMessage() . '; such a message is never signed');
        }
        if ($flat->hasSignatureKey()) {
            throw new EncodeError('the body already has a `signature` (sign it without one)');
        }
        return Signer::attachSignature($body, $flat->signatureHex($key));
    }

    /**
     * The envelope of `params` (a new requestId unless given, the time, a salt), serialized and
     * signed over those exact bytes.
     *
     * @param WireObject $params the params
     * @param string $sender the sender name
     * @param string $locale the locale
     * @param PrivateKey $key the key
     * @param string|null $requestId the requestId, or null for a new one
     * @return SignedRequest the requestId and the bytes
     * @throws EncodeError when it cannot be sent
     */
    public static function signRequest(WireObject $params, string $sender, string $locale, PrivateKey $key, ?string $requestId = null): SignedRequest
    {
        $id = $requestId ?? self::newRequestId($sender);
        if ($id === '' || preg_match('/^[!-~]+$/D', $id) !== 1) {
            throw new EncodeError('requestId ' . json_encode($id, JSON_INVALID_UTF8_SUBSTITUTE) . ' must be non-empty printable ASCII without spaces');
        }
        return new SignedRequest($id, self::sign(new WireObject([
            'requestId' => $id,
            'sender' => $sender,
            'locale' => $locale,
            'timestamp' => self::nowMillis(),
            'salt' => bin2hex(random_bytes(12)),
            'params' => $params,
        ]), $key));
    }

    /**
     * Opens the answer to a request: a JSON object that could not be re-cut, no member of a
     * request or notification, a `code`, a signature that holds (an unsigned or wrongly signed
     * refusal is an unverified {@see ApiError}), and the request's requestId echoed; a code other
     * than `00000` throws {@see ApiError}.
     *
     * @param int|null $status the HTTP status
     * @param string $body the exact bytes received
     * @param PrivateKey $key the key
     * @param string $requestId the requestId the request was sent with
     * @param bool $acceptUnsignedSuccess accept a success without a signature
     * @return mixed `data` (an empty object when absent)
     * @throws ApiError|DecodeError|SignatureMissing|SignatureInvalid|RequestIdMismatch|Untrusted
     */
    public static function openAnswer(?int $status, #[\SensitiveParameter] string $body, PrivateKey $key, string $requestId, bool $acceptUnsignedSuccess = false): mixed
    {
        $flat = self::read($status, $body, $key);
        $top = $flat->value();
        foreach (self::NOT_ANSWER_MEMBERS as $name) {
            if ($top->get($name) !== null) {
                throw new Untrusted('the answer carries `' . $name . '`, a member of another kind of message');
            }
        }
        $code = $top->get('code');
        $echoed = $top->get('requestId');
        $msg = $top->get('msg');
        if ($code instanceof JsonNumber) {
            $code = $code->literal;
        }
        if (!is_string($code) || ($echoed !== null && !is_string($echoed)) || ($msg !== null && !is_string($msg))) {
            throw new DecodeError($code === null ? 'the response has no `code`'
                : 'the response envelope\'s code, requestId or msg is not a string', $status, $key->redact($body));
        }
        $success = $code === self::SUCCESS;
        $verified = true;
        try {
            Signer::verifyFlattened($flat, $key);
        } catch (VerifyException $e) {
            $verified = false;
            if ($success && !($e->kind() === VerifyException::MISSING && $acceptUnsignedSuccess)) {
                throw $e->kind() === VerifyException::MISSING ? new SignatureMissing() : new SignatureInvalid();
            }
        }
        if ($echoed !== $requestId && !($echoed === null && !$verified && !$success)) {
            throw new RequestIdMismatch($requestId, $echoed);
        }
        if (!$success) {
            throw new ApiError($code, $key->redact($msg ?? ''), $echoed, $verified);
        }
        return $top->get('data') ?? new JsonObject(new KeyIndex(), []);
    }

    /**
     * Tool for test servers: a signed answer (the time, a salt), with `data` when given.
     *
     * @param string $requestId the requestId to echo
     * @param string $sender the answering sender
     * @param string $locale the locale
     * @param string $code the result code
     * @param string $msg the message
     * @param mixed $data `data`, or null for none
     * @param PrivateKey $key the partner's key
     * @return string the bytes to answer
     * @throws EncodeError when it cannot be written
     */
    public static function signedAnswer(string $requestId, string $sender, string $locale, string $code, string $msg, mixed $data, PrivateKey $key): string
    {
        return self::sign(new WireObject([
            'requestId' => $requestId,
            'sender' => $sender,
            'locale' => $locale,
            'timestamp' => self::nowMillis(),
            'salt' => bin2hex(random_bytes(12)),
            'code' => $code,
            'msg' => $msg,
            'data' => $data,
        ]), $key);
    }

    /**
     * Tool for test servers: verifies a received request and returns its envelope.
     *
     * @param string $body the exact bytes received
     * @param PrivateKey $key the partner's key
     * @return ReceivedRequest the envelope
     * @throws DecodeError|SignatureMissing|SignatureInvalid|Untrusted when it is refused
     */
    public static function verifyRequest(#[\SensitiveParameter] string $body, PrivateKey $key): ReceivedRequest
    {
        $flat = self::read(null, $body, $key);
        try {
            Signer::verifyFlattened($flat, $key);
        } catch (VerifyException $e) {
            throw $e->kind() === VerifyException::MISSING ? new SignatureMissing() : new SignatureInvalid();
        }
        $top = $flat->value();
        $timestamp = $top->get('timestamp');
        $params = $top->get('params') ?? new JsonObject(new KeyIndex(), []);
        $texts = [];
        foreach (['requestId', 'sender', 'locale', 'salt'] as $name) {
            $texts[$name] = $top->get($name);
        }
        $texts = array_filter($texts, 'is_string');
        if (count($texts) !== 4 || !$timestamp instanceof JsonNumber || !$timestamp->isPlainInteger() || !$params instanceof JsonObject) {
            throw new DecodeError('not a request envelope (requestId, sender, locale, salt, an integer timestamp, params an object)', null, $key->redact($body));
        }
        return new ReceivedRequest($texts['requestId'], $texts['sender'], $texts['locale'], (int) $timestamp->literal, $texts['salt'], $params);
    }

    private static function read(?int $status, #[\SensitiveParameter] string $body, PrivateKey $key): Flattened
    {
        try {
            return Canonical::parseWithValue($body);
        } catch (CanonicalException $e) {
            $shown = $e->redactedFor($key)->getMessage();
            if ($e->kind() === CanonicalException::AMBIGUOUS) {
                throw new Untrusted('it could be re-cut into another message: ' . $shown);
            }
            throw new DecodeError('body is not a usable JSON object: ' . $shown, $status, $key->redact($body));
        }
    }
}
