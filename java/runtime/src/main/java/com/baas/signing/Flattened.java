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
    private final JsonValue.JsonObject value;
    private final List<String> pairs;
    private final String signature;
    private final boolean hasSignatureKey;
    private final boolean hasSenderKeyPair;
    private final String firstNullPath;

    Flattened(JsonValue.JsonObject value, List<String> pairs, String signature,
            boolean hasSignatureKey, boolean hasSenderKeyPair, String firstNullPath) {
        this.value = value;
        this.pairs = Collections.unmodifiableList(pairs);
        this.signature = signature;
        this.hasSignatureKey = hasSignatureKey;
        this.hasSenderKeyPair = hasSenderKeyPair;
        this.firstNullPath = firstNullPath;
    }

    /**
     * The body read losslessly (numbers as their literal text, members in document order).
     *
     * @return the top-level object
     */
    public JsonValue.JsonObject value() {
        return value;
    }

    /**
     * The {@code path=value} pairs in document order (the top-level {@code signature} left
     * out, {@code senderKey} not added).
     *
     * @return the pairs, unmodifiable
     */
    public List<String> pairs() {
        return pairs;
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
        return Optional.ofNullable(firstNullPath);
    }

    /** The pairs and {@code keyPair}, sorted by their UTF-8 bytes (code point order). */
    private List<String> sorted(String keyPair) {
        List<String> all = new ArrayList<>(pairs.size() + 1);
        all.addAll(pairs);
        all.add(keyPair);
        all.sort(Flattened::compareUtf8);
        return all;
    }

    /**
     * Compares two strings as their UTF-8 bytes compare, which is code point order (UTF-16
     * order, {@link String#compareTo}, differs above U+FFFF).
     */
    static int compareUtf8(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
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
        List<String> out = new ArrayList<>(pairs.size() + 1);
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
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
        List<String> all = sorted(Canonical.SENDER_KEY + "=" + key.expose());
        for (int i = 0; i < all.size(); i++) {
            if (i > 0) {
                sha.update((byte) '&');
            }
            sha.update(all.get(i).getBytes(StandardCharsets.UTF_8));
        }
        return sha.digest();
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
        return "Flattened[pairs=" + pairs.size() + ", signature=" + (signature != null)
                + ", firstNullPath=" + firstNullPath + "]";
    }
}
