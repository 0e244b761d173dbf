package com.baas.signing;

import java.math.BigInteger;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Verifies received notification bodies for one partner key and the service's sender name
 * (as the bank gives it). A body is accepted only when all of these hold, so that no other
 * signed message (an answer, another sender's notification, an old notification) passes for
 * one:
 * <ul>
 * <li>the signature holds over the exact bytes received, and the body could not be re-cut
 * into another message (rules R1 to R4, {@link Ambiguity});
 * <li>it is a notification: {@code requestId}, {@code notificationType}, {@code timestamp}
 * and {@code salt} are present, and the members of an answer ({@code code}, {@code msg},
 * {@code data}) are absent;
 * <li>its {@code sender} is the service's, as configured;
 * <li>its {@code timestamp} is at most {@link #DEFAULT_MAX_AGE} old and at most
 * {@link #DEFAULT_MAX_SKEW} ahead of this machine's clock (both configurable).
 * </ul>
 * Repeated deliveries are not detected here: see {@link Notification}.
 */
public final class NotificationVerifier {
    /** The body to answer once a notification is processed (or known as a repeat). */
    public static final String ACK = "ok";
    /** How old a notification's timestamp may be: 24 hours. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofHours(24);
    /** How far ahead of this machine's clock a timestamp may be: 5 minutes. */
    public static final Duration DEFAULT_MAX_SKEW = Duration.ofMinutes(5);

    private static final String[] ANSWER_MEMBERS = {"code", "msg", "data"};

    private final PrivateKey key;
    private final String serviceSender;
    private final Duration maxAge;
    private final Duration maxSkew;

    /**
     * A verifier with the default window (24 hours old, 5 minutes ahead).
     *
     * @param key the partner's private key
     * @param serviceSender the service's {@code sender}, as the bank gives it
     */
    public NotificationVerifier(PrivateKey key, String serviceSender) {
        this(key, serviceSender, DEFAULT_MAX_AGE, DEFAULT_MAX_SKEW);
    }

    /**
     * A verifier with its own window.
     *
     * @param key the partner's private key
     * @param serviceSender the service's {@code sender}, as the bank gives it
     * @param maxAge how old a timestamp may be (keep processed ids far longer: 30 days from processing)
     * @param maxSkew how far ahead of this machine's clock a timestamp may be
     */
    public NotificationVerifier(PrivateKey key, String serviceSender, Duration maxAge, Duration maxSkew) {
        this.key = Objects.requireNonNull(key, "key");
        this.serviceSender = Objects.requireNonNull(serviceSender, "serviceSender");
        this.maxAge = Objects.requireNonNull(maxAge, "maxAge");
        this.maxSkew = Objects.requireNonNull(maxSkew, "maxSkew");
        if (maxAge.isNegative() || maxSkew.isNegative()) {
            throw new IllegalArgumentException("the window's durations cannot be negative");
        }
    }

    /**
     * The service's sender name this verifier accepts.
     *
     * @return the sender
     */
    public String serviceSender() {
        return serviceSender;
    }

    /**
     * How old a timestamp may be (processed ids must be kept far longer: a re-delivery is re-signed).
     *
     * @return the maximum age
     */
    public Duration maxAge() {
        return maxAge;
    }

    /**
     * How far ahead of this machine's clock a timestamp may be.
     *
     * @return the maximum skew
     */
    public Duration maxSkew() {
        return maxSkew;
    }

    /**
     * Verifies a received body against this machine's clock.
     *
     * @param body the exact bytes received
     * @return the notification
     * @throws NotificationException when it is refused ({@link NotificationException#kind()} says why)
     */
    public Notification verify(byte[] body) {
        return verify(body, System.currentTimeMillis());
    }

    /**
     * Verifies a received body at a given time.
     *
     * @param body the exact bytes received
     * @param nowMillis the current time, epoch milliseconds
     * @return the notification
     * @throws NotificationException when it is refused ({@link NotificationException#kind()} says why)
     */
    public Notification verify(byte[] body, long nowMillis) {
        Flattened flat;
        try {
            flat = Canonical.parse(body);
        } catch (CanonicalException e) {
            CanonicalException shown = e.redactedFor(key);
            if (e.kind() == CanonicalException.Kind.AMBIGUOUS) {
                throw untrusted("the notification could be re-cut into another message: "
                        + shown.getMessage(), shown);
            }
            throw malformed("the notification is not a usable JSON object: " + shown.getMessage(), shown);
        }
        try {
            Signer.verifyFlattened(flat, key);
        } catch (VerifyException e) {
            if (e.kind() == VerifyException.Kind.MISSING) {
                throw new NotificationException(NotificationException.Kind.SIGNATURE_MISSING,
                        "the received notification carries no signature, so it is refused", null);
            }
            throw new NotificationException(NotificationException.Kind.SIGNATURE_INVALID,
                    "the signature of the received notification does not verify: check that the "
                            + "configured private key is the one the service signs with, and compare "
                            + "the received body with `BaasSign --verify`", null);
        }
        JsonValue.JsonObject top = flat.value();
        String requestId = text(top, "requestId");
        // A JSON string, as the service sends it ("0028"); a number (28, 28.0, -28) is refused,
        // as every SDK refuses it (the shared vectors' notification_types).
        String notificationType = text(top, "notificationType");
        String salt = text(top, "salt");
        JsonValue timestamp = top.get("timestamp");
        if (requestId == null || notificationType == null || salt == null
                || !(timestamp instanceof JsonValue.JsonNumber number) || !number.isPlainInteger()) {
            throw malformed("not a notification (requestId, notificationType, timestamp and salt "
                    + "are required)", null);
        }
        for (String name : ANSWER_MEMBERS) {
            if (top.get(name) != null) {
                throw untrusted("the body carries `" + name + "`, a member of an answer, not of a "
                        + "notification", null);
            }
        }
        JsonValue params = top.get("params");
        String sender = text(top, "sender");
        String locale = text(top, "locale");
        if (!serviceSender.equals(sender)) {
            throw untrusted("the notification's sender is '" + (sender == null ? "" : sender)
                    + "', not the service's '" + serviceSender + "'", null);
        }
        BigInteger stamp = number.bigIntegerValue();
        BigInteger age = BigInteger.valueOf(nowMillis).subtract(stamp);
        if (age.compareTo(millis(maxAge)) > 0) {
            throw untrusted("the notification is dated " + stamp + ", more than " + maxAge.getSeconds()
                    + " s before now (" + nowMillis + "): refused as stale (a replay, or a window "
                    + "shorter than the re-delivery schedule)", null);
        }
        if (age.negate().compareTo(millis(maxSkew)) > 0) {
            throw untrusted("the notification is dated " + stamp + ", more than " + maxSkew.getSeconds()
                    + " s after now (" + nowMillis + "): check this machine's clock", null);
        }
        if (stamp.bitLength() > 63) {
            throw untrusted("the notification is dated " + stamp + ", outside any time a clock can show", null);
        }
        return new Notification(notificationType, requestId, sender, locale, stamp.longValueExact(),
                params == null ? new JsonValue.JsonObject(Map.of()) : params);
    }

    /** A string member, or {@code null} when absent or {@code null}. */
    private String text(JsonValue.JsonObject top, String name) {
        JsonValue value = top.get(name);
        if (value == null) {
            return null;
        }
        if (value instanceof JsonValue.JsonString s) {
            return s.value();
        }
        throw malformed("not a notification: `" + name + "` is not a string", null);
    }

    private static BigInteger millis(Duration d) {
        return BigInteger.valueOf(d.getSeconds()).multiply(BigInteger.valueOf(1000))
                .add(BigInteger.valueOf(d.getNano() / 1_000_000));
    }

    private NotificationException untrusted(String reason, Throwable cause) {
        return new NotificationException(NotificationException.Kind.UNTRUSTED,
                key.redact("received body refused: " + reason), cause);
    }

    private NotificationException malformed(String message, Throwable cause) {
        return new NotificationException(NotificationException.Kind.MALFORMED,
                key.redact("cannot decode the notification: " + message), cause);
    }

    /**
     * The configuration, the key written {@value PrivateKey#REDACTED}.
     *
     * @return a description for debugging
     */
    @Override
    public String toString() {
        return "NotificationVerifier[key=" + key + ", serviceSender='" + serviceSender
                + "', maxAge=" + maxAge + ", maxSkew=" + maxSkew + "]";
    }
}
