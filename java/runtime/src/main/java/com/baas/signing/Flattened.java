package com.baas.signing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The pairs of one JSON object body (without {@code senderKey}) and what a signer or a
 * verifier needs of it. Built by {@link Canonical#parse(byte[])} and its siblings.
 */
public final class Flattened {
    private static final MessageDigest SHA256;

    static {
        try {
            SHA256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Tape tape;
    private final String signature;
    private final boolean hasSignatureKey;
    private final boolean hasSenderKeyPair;
    private final List<String> nullPaths;
    private JsonValue.JsonObject value;
    private List<String> pairs;

    Flattened(Tape tape, String signature, boolean hasSignatureKey, boolean hasSenderKeyPair,
            List<String> nullPaths) {
        this.tape = tape;
        this.signature = signature;
        this.hasSignatureKey = hasSignatureKey;
        this.hasSenderKeyPair = hasSenderKeyPair;
        this.nullPaths = List.copyOf(nullPaths);
    }

    /**
     * The body read losslessly (numbers as their literal text, members in document order),
     * built when first asked for.
     *
     * @return the top-level object
     */
    public JsonValue.JsonObject value() {
        JsonValue.JsonObject v = value;
        if (v == null) {
            v = (JsonValue.JsonObject) tape.value(0);
            value = v;
        }
        return v;
    }

    /**
     * The {@code path=value} pairs in document order (the top-level {@code signature} left
     * out, {@code senderKey} not added), written out when first asked for.
     *
     * @return the pairs, unmodifiable
     */
    public List<String> pairs() {
        List<String> p = pairs;
        if (p == null) {
            p = Collections.unmodifiableList(CanonicalEmitter.documentOrder(tape));
            pairs = p;
        }
        return p;
    }

    /**
     * The top-level {@code signature} when it is a string.
     *
     * @return the received signature, or empty
     */
    public Optional<String> signature() {
        return Optional.ofNullable(signature);
    }

    /**
     * Whether the body has a top-level {@code signature} member (even {@code null}).
     *
     * @return true when it has one
     */
    public boolean hasSignatureKey() {
        return hasSignatureKey;
    }

    /**
     * Whether the body has a top-level {@code senderKey} (seen only when read without the
     * re-cut rules, which refuse it).
     *
     * @return true when it has one
     */
    public boolean hasSenderKeyPair() {
        return hasSenderKeyPair;
    }

    /**
     * The path of the first {@code null} (skipped in the canonical string), if any.
     *
     * @return the path, or empty
     */
    public Optional<String> firstNullPath() {
        return nullPaths.isEmpty() ? Optional.empty() : Optional.of(nullPaths.get(0));
    }

    /**
     * The paths of every {@code null} the canonical string skips, in document order: the
     * object members holding {@code null} (read with the rules, a {@code null} array element
     * is refused, R2; read without them, those too). A signer warns about each one.
     *
     * @return the paths, unmodifiable (empty when the body holds no {@code null})
     */
    public List<String> skippedNulls() {
        return nullPaths;
    }

    /** The tape read (for the tests that bound the reader's work and memory). */
    Tape tape() {
        return tape;
    }

    /** The pairs and {@code keyPair}, sorted by their UTF-8 bytes (code point order). */
    private List<String> sorted(String keyPair) {
        return CanonicalEmitter.sortedText(tape, keyPair.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The canonical string with the key itself in the {@code senderKey} pair: what is hashed.
     * Never print or log it; {@link #canonicalStringRedacted(PrivateKey)} is for showing.
     *
     * @param key the private key
     * @return the canonical string, holding the key
     */
    public String canonicalStringExposingKey(PrivateKey key) {
        return String.join("&", sorted(Canonical.SENDER_KEY + "=" + key.expose()));
    }

    /**
     * The canonical string with the key shown as {@value PrivateKey#REDACTED} wherever it
     * appears: in the added pair, and inside any other pair.
     *
     * @param key the private key
     * @return the canonical string, safe to show
     */
    public String canonicalStringRedacted(PrivateKey key) {
        String keyPair = Canonical.SENDER_KEY + "=" + key.expose();
        List<String> out = new ArrayList<>();
        for (String pair : sorted(keyPair)) {
            int eq = pair.indexOf('=');
            if (pair.substring(0, eq).equals(Canonical.SENDER_KEY)) {
                out.add(Canonical.SENDER_KEY + "=" + PrivateKey.REDACTED);
            } else {
                out.add(key.redact(pair));
            }
        }
        return String.join("&", out);
    }

    /**
     * SHA-256 of the canonical string.
     *
     * @param key the private key
     * @return the 32-byte digest
     */
    public byte[] digest(PrivateKey key) {
        MessageDigest sha = sha256();
        CanonicalEmitter.digest(tape, (Canonical.SENDER_KEY + "=" + key.expose()).getBytes(StandardCharsets.UTF_8), sha);
        return sha.digest();
    }

    /** A fresh SHA-256 (a clone of one made once: cheaper than the provider lookup each time). */
    private static MessageDigest sha256() {
        try {
            return (MessageDigest) SHA256.clone();
        } catch (CloneNotSupportedException e) {
            try {
                return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException again) {
                throw new IllegalStateException("every Java runtime has SHA-256", again);
            }
        }
    }

    /**
     * The signature for {@code key}: the digest in lowercase hex.
     *
     * @param key the private key
     * @return 64 lowercase hex digits
     */
    public String signatureHex(PrivateKey key) {
        return HexFormat.of().formatHex(digest(key));
    }

    /**
     * The pairs and flags, never the key.
     *
     * @return a description for debugging
     */
    @Override
    public String toString() {
        return "Flattened[pairs=" + pairs().size() + ", signature=" + (signature != null)
                + ", firstNullPath=" + firstNullPath().orElse(null) + "]";
    }
}
