package com.baas.signing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Optional;

/**
 * Signing and verification of message bodies (requests, answers, notifications), over the
 * exact bytes sent or received.
 *
 * <p>A request is signed over the bytes that are sent: serialize the envelope without
 * {@code signature}, then {@link #attach(byte[], PrivateKey)} returns those bytes with
 * {@code "signature":"<hex>"} added as the last member, every other byte unchanged. A
 * received body is verified over its own bytes, numbers as their literal text, before it is
 * parsed by anything else. Signatures are compared in constant time.
 *
 * <p>Nothing is signed that a verifier would refuse: a body that breaks a re-cut rule
 * ({@link Ambiguity}) is refused on signing and on verifying. A {@code null} object member is
 * skipped, as the document says (it reads as absent to every receiver), and the signer warns
 * about each one through {@link System.Logger} {@code com.baas.signing} at {@code WARNING}
 * ({@link Flattened#skippedNulls()} lists them for a caller that reads the body with
 * {@link Canonical#parseForSigning}); a {@code null} array element is refused (R2). No
 * exception or message of this class contains the key.
 */
public final class Signer {
    private static final byte[] WHITESPACE = {' ', '\t', '\n', '\r', 0x0B, 0x0C};
    /** Where a signer warns about the {@code null} members it skips ({@code com.baas.signing}). */
    private static final System.Logger LOG = System.getLogger("com.baas.signing");

    private Signer() {
    }

    /**
     * The expected signature of a body and the one it carries (for debugging tools).
     *
     * @param expected the signature the body should carry under the key
     * @param received the one it carries, if any
     */
    public record Check(String expected, Optional<String> received) {
        /**
         * Whether the received signature is the expected one (constant-time comparison).
         *
         * @return true when the signature holds
         */
        public boolean holds() {
            return received.isPresent() && constantTimeEquals(expected, received.get());
        }
    }

    /**
     * The canonical string of a body with the key written {@value PrivateKey#REDACTED}, for
     * debugging a {@code 12005 Invalid signature}. It is shown even for a body that a re-cut
     * rule refuses (use {@link #sign} or {@link #verify} to know whether it is accepted); the
     * top-level {@code signature} is left out.
     *
     * @param body the exact bytes
     * @param key the private key
     * @return the canonical string, the key redacted
     * @throws CanonicalException when the body is not a usable JSON object
     */
    public static String canonical(byte[] body, PrivateKey key) {
        try {
            return Canonical.parseLoose(body).canonicalStringRedacted(key);
        } catch (CanonicalException e) {
            throw e.redactedFor(key);
        }
    }

    /**
     * The lowercase hex signature of a JSON object body (its top-level {@code signature}, if
     * any, left out).
     *
     * @param unsignedBody the exact bytes to send
     * @param key the private key
     * @return 64 lowercase hex digits
     * @throws CanonicalException when the body is not a usable JSON object or breaks a re-cut
     *     rule, a {@code null} array element included (kind {@link CanonicalException.Kind#AMBIGUOUS})
     */
    public static String sign(byte[] unsignedBody, PrivateKey key) {
        try {
            Flattened flat = Canonical.parseForSigning(unsignedBody);
            warnSkipped(flat, key);
            return flat.signatureHex(key);
        } catch (CanonicalException e) {
            throw e.redactedFor(key);
        }
    }

    /** One warning per {@code null} member the signature skips (the key redacted from paths). */
    private static void warnSkipped(Flattened flat, PrivateKey key) {
        for (String path : flat.skippedNulls()) {
            LOG.log(System.Logger.Level.WARNING, "signing skips the null member `" + key.redact(path)
                    + "`: the document leaves nulls out of the signature and the service reads it as absent");
        }
    }

    /**
     * Signs a serialized JSON object and returns the bytes to send: the body with
     * {@code "signature":"<hex>"} added as its last member, every other byte unchanged
     * (whitespace after the final <code>}</code> is dropped).
     *
     * @param unsignedBody the serialized envelope, without {@code signature}
     * @param key the private key
     * @return the bytes to send
     * @throws CanonicalException when the body already has a top-level {@code signature}
     *     (even {@code null}; kind {@link CanonicalException.Kind#ALREADY_SIGNED}), breaks a
     *     re-cut rule (a {@code null} array element included), or is not a usable JSON object
     */
    public static byte[] attach(byte[] unsignedBody, PrivateKey key) {
        try {
            Flattened flat = Canonical.parseForSigning(unsignedBody);
            if (flat.hasSignatureKey()) {
                throw CanonicalException.of(CanonicalException.Kind.ALREADY_SIGNED,
                        "the body already has a `signature` (sign it without one)");
            }
            warnSkipped(flat, key);
            return attachSignature(unsignedBody, flat.signatureHex(key));
        } catch (CanonicalException e) {
            throw e.redactedFor(key);
        }
    }

    /**
     * Adds {@code ,"signature":"<hex>"} before the final <code>}</code> of a serialized JSON
     * object that has no {@code signature} yet (no comma after <code>{</code>): the sent text
     * is the signed text plus the signature. Whitespace after the final <code>}</code> is dropped.
     *
     * @param body a serialized JSON object
     * @param signatureHex the signature to add
     * @return the body with the signature
     * @throws CanonicalException when the body does not end with an object's <code>}</code>
     */
    public static byte[] attachSignature(byte[] body, String signatureHex) {
        int end = stripEnd(body, body.length);
        if (end == 0 || body[end - 1] != '}') {
            throw CanonicalException.of(CanonicalException.Kind.NOT_AN_OBJECT, "body is not a JSON object");
        }
        int head = stripEnd(body, end - 1);
        if (head == 0) {
            throw CanonicalException.of(CanonicalException.Kind.NOT_AN_OBJECT, "body is not a JSON object");
        }
        String comma = body[head - 1] == '{' ? "" : ",";
        byte[] tail = (comma + "\"signature\":\"" + signatureHex + "\"}").getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(body, end - 1 + tail.length);
        System.arraycopy(tail, 0, out, end - 1, tail.length);
        return out;
    }

    private static int stripEnd(byte[] body, int end) {
        int i = end;
        while (i > 0 && isWhitespace(body[i - 1])) {
            i--;
        }
        return i;
    }

    private static boolean isWhitespace(byte b) {
        for (byte w : WHITESPACE) {
            if (w == b) {
                return true;
            }
        }
        return false;
    }

    /**
     * Verifies the top-level {@code signature} of a received body and returns it read
     * losslessly. For an answer, use {@link #verifyAnswer}, which also checks that it
     * answers your request; for a notification, {@link NotificationVerifier}. A body that
     * breaks a re-cut rule is refused before its signature is looked at; a {@code null}
     * object member reads as absent.
     *
     * @param receivedBody the exact bytes received
     * @param key the private key
     * @return the verified body, flattened ({@link Flattened#value()} is its JSON)
     * @throws VerifyException when the signature is missing ({@link VerifyException.Kind#MISSING}),
     *     wrong ({@link VerifyException.Kind#MISMATCH}), or the body is refused
     *     ({@link VerifyException.Kind#MALFORMED}, the rule and path in its cause)
     */
    public static Flattened verify(byte[] receivedBody, PrivateKey key) {
        Flattened flat;
        try {
            flat = Canonical.parse(receivedBody);
        } catch (CanonicalException e) {
            throw VerifyException.malformed(e.redactedFor(key));
        }
        verifyFlattened(flat, key);
        return flat;
    }

    /**
     * Verifies a received answer as the answer to the request whose requestId was
     * {@code requestId}: use this, not {@link #verify}, for every answer. Besides the
     * signature over the exact bytes, it refuses a signed answer to another request (an
     * old success replayed), a notification or a request passed off as an answer, and an
     * answer carrying a notification's or a request's members. A refusal ({@code code} not
     * {@code 00000}) that is unsigned or wrongly signed is returned with
     * {@link Answer#verified()} false (the document allows unsigned refusals; trust nothing
     * in it); a success must be signed.
     *
     * @param receivedBody the exact bytes received
     * @param requestId the requestId of the request sent
     * @param key the private key
     * @return the answer
     * @throws VerifyException {@link VerifyException.Kind#WRONG_KIND} (a
     *     {@code notificationType} or {@code params}), {@link VerifyException.Kind#MALFORMED}
     *     (not a usable JSON object, a re-cut rule, no {@code code}, a member of the wrong
     *     type), {@link VerifyException.Kind#MISSING} or {@link VerifyException.Kind#MISMATCH}
     *     (a success whose signature is absent or does not hold),
     *     {@link VerifyException.Kind#REQUEST_ID_MISMATCH} (another requestId echoed, or none
     *     in a signed answer)
     */
    public static Answer verifyAnswer(byte[] receivedBody, String requestId, PrivateKey key) {
        Flattened flat;
        try {
            flat = Canonical.parse(receivedBody);
        } catch (CanonicalException e) {
            throw VerifyException.malformed(e.redactedFor(key));
        }
        JsonValue.JsonObject top = flat.value();
        for (String member : new String[] {"notificationType", "params"}) {
            if (top.get(member) != null) {
                throw VerifyException.wrongKind("the answer carries `" + member
                        + "`, a member of another kind of message (a notification or a request)");
            }
        }
        String code = answerText(top, "code");
        String echoed = answerText(top, "requestId");
        String msg = answerText(top, "msg");
        if (code == null) {
            throw VerifyException.malformedAnswer("the answer has no `code`");
        }
        boolean success = Answer.SUCCESS.equals(code);
        boolean verified = true;
        try {
            verifyFlattened(flat, key);
        } catch (VerifyException e) {
            if (success) {
                throw e;
            }
            verified = false;
        }
        boolean unsignedRefusalWithoutId = echoed == null && !verified && !success;
        if (!requestId.equals(echoed) && !unsignedRefusalWithoutId) {
            throw VerifyException.requestIdMismatch(key.redact(requestId), echoed == null ? null : key.redact(echoed));
        }
        return new Answer(code, Optional.ofNullable(msg), verified, flat);
    }

    /** A string member of an answer, or null when absent or null. */
    private static String answerText(JsonValue.JsonObject top, String name) {
        JsonValue value = top.get(name);
        if (value == null) {
            return null;
        }
        if (value instanceof JsonValue.JsonString s) {
            return s.value();
        }
        throw VerifyException.malformedAnswer("the answer's `" + name + "` is not a string");
    }

    /**
     * Verifies a body already flattened by {@link Canonical#parse(byte[])} (with the rules).
     *
     * @param flat the body
     * @param key the private key
     * @throws VerifyException when the signature is missing or wrong
     */
    public static void verifyFlattened(Flattened flat, PrivateKey key) {
        Optional<String> received = flat.signature();
        if (received.isEmpty()) {
            throw VerifyException.missing();
        }
        if (!constantTimeEquals(flat.signatureHex(key), received.get())) {
            throw VerifyException.mismatch();
        }
    }

    /**
     * The expected signature of a received body and the one it carries; a body that breaks
     * a re-cut rule is refused as {@link #verify} refuses it.
     *
     * @param receivedBody the exact bytes received
     * @param key the private key
     * @return both signatures
     * @throws CanonicalException when the body is not a usable JSON object or breaks a rule
     */
    public static Check check(byte[] receivedBody, PrivateKey key) {
        try {
            Flattened flat = Canonical.parse(receivedBody);
            return new Check(flat.signatureHex(key), flat.signature());
        } catch (CanonicalException e) {
            throw e.redactedFor(key);
        }
    }

    /**
     * Equality of two texts in time independent of where they differ
     * ({@link MessageDigest#isEqual}).
     *
     * @param expected the expected text (its length sets the time taken)
     * @param received the received text
     * @return true when equal
     */
    public static boolean constantTimeEquals(String expected, String received) {
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                received.getBytes(StandardCharsets.UTF_8));
    }
}
