package com.baas.signing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.Optional;

/**
 * The partner's private key: the {@code senderKey} of the signing algorithm.
 *
 * <p>{@link #toString()} shows {@value #REDACTED}; the key never appears in an exception
 * message of this library, and the class is not {@link java.io.Serializable}, so it cannot
 * be written into a log, a session or a cache by accident. {@link #expose()} gives the text
 * to the signer only.
 */
public final class PrivateKey {
    /** What is shown in place of the key. */
    public static final String REDACTED = "[redacted]";

    private final String secret;

    /**
     * A key from its text.
     *
     * @param secret the key as the bank gave it
     */
    public PrivateKey(String secret) {
        this.secret = Objects.requireNonNull(secret, "a PrivateKey is built from text");
    }

    /**
     * The key in an environment variable.
     *
     * @param name the variable, e.g. {@code BAAS_PRIVATE_KEY}
     * @return the key, or empty when the variable is unset
     */
    public static Optional<PrivateKey> fromEnv(String name) {
        String value = System.getenv(name);
        return value == null ? Optional.empty() : Optional.of(new PrivateKey(value));
    }

    /**
     * The key in a UTF-8 file; one trailing line break ({@code \n} or {@code \r\n}) is dropped.
     *
     * @param path the file
     * @return the key
     * @throws IOException when the file cannot be read
     */
    public static PrivateKey fromFile(Path path) throws IOException {
        String text = Files.readString(path, StandardCharsets.UTF_8);
        if (text.endsWith("\r\n")) {
            text = text.substring(0, text.length() - 2);
        } else if (text.endsWith("\n")) {
            text = text.substring(0, text.length() - 1);
        }
        return new PrivateKey(text);
    }

    /**
     * The key's text, for the signer only: never log or print it.
     *
     * @return the key's text
     */
    public String expose() {
        return secret;
    }

    /**
     * Whether the key is the empty text.
     *
     * @return true for an empty key
     */
    public boolean isEmpty() {
        return secret.isEmpty();
    }

    /**
     * {@code text} with every occurrence of the key replaced by {@value #REDACTED}.
     *
     * @param text any text, e.g. a message about a body that contains the key
     * @return the text without the key
     */
    public String redact(String text) {
        if (text == null || secret.isEmpty()) {
            return text;
        }
        return text.replace(secret, REDACTED);
    }

    /**
     * Whether {@code text} contains the key.
     *
     * @param text any text
     * @return true when the (non-empty) key occurs in it
     */
    public boolean occursIn(String text) {
        return text != null && !secret.isEmpty() && text.contains(secret);
    }

    /**
     * Always {@value #REDACTED}.
     *
     * @return {@value #REDACTED}
     */
    @Override
    public String toString() {
        return REDACTED;
    }

    /**
     * Two keys are equal when their texts are, compared in constant time.
     *
     * @param other another object
     * @return true for a key with the same text
     */
    @Override
    public boolean equals(Object other) {
        if (!(other instanceof PrivateKey)) {
            return false;
        }
        return MessageDigest.isEqual(
                secret.getBytes(StandardCharsets.UTF_8),
                ((PrivateKey) other).secret.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A hash of the key's length only (nothing of its text).
     *
     * @return the hash code
     */
    @Override
    public int hashCode() {
        return Objects.hash("PrivateKey", secret.length());
    }
}
