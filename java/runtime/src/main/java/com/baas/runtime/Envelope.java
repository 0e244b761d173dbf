package com.baas.runtime;

import com.baas.signing.Ambiguity;
import com.baas.signing.Canonical;
import com.baas.signing.CanonicalException;
import com.baas.signing.Flattened;
import com.baas.signing.JsonValue;
import com.baas.signing.PrivateKey;
import com.baas.signing.Signer;
import com.baas.signing.VerifyException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Message envelopes: building and signing requests, opening and verifying answers, over the
 * signing library ({@link Signer}, {@link Canonical}), which stays the only signing code.
 * Besides what the client uses, {@link #signedAnswer} and {@link #verifyRequest} are tools
 * for test servers ({@code MockService} uses them).
 */
public final class Envelope {
    /** The result code of a successful call. */
    public static final String SUCCESS_CODE = "00000";

    private static final SecureRandom RANDOM = new SecureRandom();

    private Envelope() {
    }

    /**
     * A new requestId: the sender followed by 32 random hex digits.
     *
     * @param sender the sender name
     * @return the requestId
     */
    public static String newRequestId(String sender) {
        return sender + random(16);
    }

    /**
     * A new salt: 24 random hex digits.
     *
     * @return the salt
     */
    public static String newSalt() {
        return random(12);
    }

    private static String random(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /**
     * A signed request: its requestId (the answer must echo it) and the exact bytes to send.
     *
     * @param requestId the requestId
     * @param body the bytes, signature included
     */
    public record SignedRequest(String requestId, byte[] body) {
    }

    /**
     * Whether a requestId may be sent: non-empty printable ASCII without spaces.
     *
     * @param requestId the requestId
     * @throws EncodeException when it may not
     */
    static void checkRequestId(String requestId) {
        boolean ok = !requestId.isEmpty() && requestId.chars().allMatch(c -> c >= '!' && c <= '~');
        if (!ok) {
            throw new EncodeException("requestId '" + requestId + "' must be non-empty printable ASCII without spaces");
        }
    }

    /**
     * Signs serialized envelope bytes (without {@code signature}): the same bytes with the
     * signature spliced in. Nothing is signed that could be re-cut or holds a {@code null}:
     * the signing library skips a {@code null} member, but the SDK never sends one.
     *
     * @param unsigned the serialized envelope
     * @param key the key
     * @return the bytes to send
     * @throws EncodeException when the body is not to be signed
     */
    public static byte[] sign(byte[] unsigned, PrivateKey key) {
        try {
            Flattened flat = Canonical.parseForSigning(unsigned);
            if (flat.firstNullPath().isPresent()) {
                throw nullSent(flat.firstNullPath().get(), key);
            }
            if (flat.hasSignatureKey()) {
                throw new EncodeException("the body already has a `signature` (sign it without one); "
                        + "such a message is never signed");
            }
            return Signer.attachSignature(unsigned, flat.signatureHex(key));
        } catch (CanonicalException e) {
            throw refused(e, key);
        }
    }

    private static EncodeException refused(CanonicalException e, PrivateKey key) {
        if (e.kind() == CanonicalException.Kind.AMBIGUOUS && e.rule() == Ambiguity.NULL) {
            return nullSent(e.path(), key);
        }
        return new EncodeException(key.redact(e.getMessage()) + "; such a message is never signed");
    }

    private static EncodeException nullSent(String path, PrivateKey key) {
        return new EncodeException("`" + key.redact(path) + "` is null; a null is never sent (leave the field out)");
    }

    /**
     * The envelope of {@code params} (a new requestId unless given, timestamp, salt),
     * serialized once and signed over those exact bytes.
     *
     * @param params writes the {@code params} object's value
     * @param sender the sender name
     * @param locale the locale
     * @param key the key
     * @param requestId the requestId to send, or {@code null} for a new one
     * @return the signed request
     * @throws EncodeException when the request cannot be signed
     */
    public static SignedRequest signRequest(Consumer<JsonWriter> params, String sender, String locale,
            PrivateKey key, String requestId) {
        String rid = requestId == null ? newRequestId(sender) : requestId;
        checkRequestId(rid);
        JsonWriter w = new JsonWriter().beginObject();
        w.name("requestId").value(rid);
        w.name("sender").value(sender);
        w.name("locale").value(locale);
        w.name("timestamp").value(System.currentTimeMillis());
        w.name("salt").value(newSalt());
        w.name("params");
        params.accept(w);
        return new SignedRequest(rid, sign(w.endObject().toBytes(), key));
    }

    /**
     * A verified success: its {@code data} (an empty object when absent) and the requestId
     * it echoes.
     *
     * @param data the answer's {@code data}, read losslessly
     * @param requestId the echoed requestId
     */
    public record Answer(JsonValue data, String requestId) {
    }

    /**
     * Opens an answer: a JSON object that could not be re-cut, no member of another kind of
     * message, a {@code code}, a signature that holds (an unsigned or wrongly signed refusal is
     * an unverified {@link ApiException}), the requestId echoed; a code other than
     * {@code 00000} is an {@link ApiException}.
     *
     * @param status the HTTP status
     * @param body the exact bytes received
     * @param key the key
     * @param requestId the requestId that was sent
     * @param acceptUnsignedSuccess whether an unsigned success is accepted
     * @param retryableCodes the codes the spec marks retryable
     * @return the verified success
     * @throws BaasException why the answer is not a verified success
     */
    public static Answer openResponse(int status, byte[] body, PrivateKey key, String requestId,
            boolean acceptUnsignedSuccess, Set<String> retryableCodes) {
        com.baas.signing.Answer answer;
        try {
            answer = Signer.verifyAnswer(body, requestId, key);
        } catch (VerifyException e) {
            switch (e.kind()) {
                case WRONG_KIND -> throw new UntrustedException(key.redact(e.getMessage()));
                case MISMATCH -> throw new SignatureInvalidException();
                case REQUEST_ID_MISMATCH -> throw new RequestIdMismatchException(requestId, echoed(body));
                case MISSING -> {
                    if (!acceptUnsignedSuccess) {
                        throw new SignatureMissingException();
                    }
                    return unsignedSuccess(status, body, key, requestId);
                }
                default -> {
                    CanonicalException cause = e.getCause();
                    if (cause != null && cause.kind() == CanonicalException.Kind.AMBIGUOUS) {
                        throw new UntrustedException("it could be re-cut into another message: "
                                + key.redact(cause.getMessage()));
                    }
                    throw new DecodeException(key.redact(e.getMessage()), status, key.redact(DecodeException.snippet(body)));
                }
            }
        }
        JsonValue.JsonObject top = answer.body().value();
        if (!answer.success()) {
            String m = key.redact(answer.msg().orElse(""));
            throw new ApiException(answer.code(), m, top.getString("requestId"), answer.verified(),
                    retryableCodes.contains(answer.code()));
        }
        JsonValue data = top.get("data");
        return new Answer(data == null ? new JsonValue.JsonObject(Map.of()) : data, requestId);
    }

    /** The requestId an answer echoes, read without the rules (for an error's message). */
    private static String echoed(byte[] body) {
        try {
            return Canonical.parseLoose(body).value().getString("requestId");
        } catch (CanonicalException e) {
            return null;
        }
    }

    /** A success without a signature, accepted by configuration: still bound to its requestId. */
    private static Answer unsignedSuccess(int status, byte[] body, PrivateKey key, String requestId) {
        Flattened flat;
        try {
            flat = Canonical.parse(body);
        } catch (CanonicalException e) {
            throw new DecodeException(key.redact(e.getMessage()), status, key.redact(DecodeException.snippet(body)));
        }
        String echoed = flat.value().getString("requestId");
        if (!requestId.equals(echoed)) {
            throw new RequestIdMismatchException(requestId, echoed);
        }
        JsonValue data = flat.value().get("data");
        return new Answer(data == null ? new JsonValue.JsonObject(Map.of()) : data, requestId);
    }

    /**
     * Tool for test servers: a signed answer (fresh timestamp and salt) with the partner's key,
     * as the service signs it.
     *
     * @param requestId the requestId it answers
     * @param sender the service's sender name
     * @param locale the locale
     * @param code the result code
     * @param msg the message
     * @param data writes {@code data}'s value, or {@code null} for none
     * @param key the partner's key
     * @return the answer's bytes
     */
    public static byte[] signedAnswer(String requestId, String sender, String locale, String code, String msg,
            Consumer<JsonWriter> data, PrivateKey key) {
        JsonWriter w = new JsonWriter().beginObject();
        w.name("requestId").value(requestId);
        w.name("sender").value(sender);
        w.name("locale").value(locale);
        w.name("timestamp").value(System.currentTimeMillis());
        w.name("salt").value(newSalt());
        w.name("code").value(code);
        w.name("msg").value(msg);
        if (data != null) {
            w.name("data");
            data.accept(w);
        }
        return sign(w.endObject().toBytes(), key);
    }

    /**
     * A verified request, as a test server sees it.
     *
     * @param requestId its requestId
     * @param sender its sender
     * @param locale its locale
     * @param params its params as sent (numbers as their literal text)
     */
    public record ReceivedRequest(String requestId, String sender, String locale, JsonValue.JsonObject params) {
    }

    /**
     * Tool for test servers: verifies a received request and returns its envelope.
     *
     * @param body the bytes received
     * @param key the partner's key
     * @return the request
     * @throws BaasException when it does not verify or lacks envelope members
     */
    public static ReceivedRequest verifyRequest(byte[] body, PrivateKey key) {
        Flattened flat;
        try {
            flat = Signer.verify(body, key);
        } catch (VerifyException e) {
            if (e.kind() == VerifyException.Kind.MISSING) {
                throw new SignatureMissingException();
            } else if (e.kind() == VerifyException.Kind.MISMATCH) {
                throw new SignatureInvalidException();
            }
            throw new DecodeException("the request is not a usable JSON object: " + key.redact(e.getMessage()));
        }
        JsonValue.JsonObject top = flat.value();
        String rid = top.getString("requestId");
        String sender = top.getString("sender");
        String locale = top.getString("locale");
        if (rid == null || sender == null || locale == null || top.getString("salt") == null
                || !(top.get("timestamp") instanceof JsonValue.JsonNumber)) {
            throw new DecodeException("the request envelope lacks requestId, sender, locale, timestamp or salt");
        }
        JsonValue params = top.get("params");
        if (params != null && !(params instanceof JsonValue.JsonObject)) {
            throw new DecodeException("the request's params is not an object");
        }
        return new ReceivedRequest(rid, sender, locale,
                params == null ? new JsonValue.JsonObject(Map.of()) : (JsonValue.JsonObject) params);
    }
}
