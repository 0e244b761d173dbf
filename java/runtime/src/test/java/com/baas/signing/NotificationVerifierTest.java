package com.baas.signing;

import org.junit.jupiter.api.Test;

import java.time.Duration;

/**
 * The notification verifier: the signature, the sender, the members of a notification and
 * not of an answer, and the time window.
 */
public final class NotificationVerifierTest {
    private static final PrivateKey KEY = new PrivateKey("partner-secret-key");
    private static final String SERVICE = "baas-service";
    private static final long NOW = 1_650_533_105_687L;
    private static final long HOUR = 3_600_000L;

    NotificationVerifierTest() {
    }

    /** A notification body (members as JSON text) signed with {@code key}. */
    private static byte[] signed(String members, PrivateKey key) {
        return Signer.attach(Checks.utf8("{" + members + "}"), key);
    }

    private static String members(String sender, long timestamp) {
        return "\"requestId\":\"N1\",\"sender\":\"" + sender + "\",\"notificationType\":\"0028\",\"locale\":\"en_KE\","
                + "\"timestamp\":" + timestamp + ",\"salt\":\"s1\",\"params\":{\"amount\":100.50,\"txId\":\"TX1\"}";
    }

    /** Runs every check of this suite under JUnit; a failure lists each failed check. */
    @Test
    void everyCheck() throws Exception {
        main(new String[0]);
    }

    public static void main(String[] args) {
        Checks c = new Checks("NotificationVerifierTest");
        NotificationVerifier verifier = new NotificationVerifier(KEY, SERVICE);
        c.run("a fresh notification from the service", () -> {
            Notification n = verifier.verify(signed(members(SERVICE, NOW - 1000), KEY), NOW);
            c.equal("notificationType", "0028", n.notificationType());
            c.equal("requestId", "N1", n.requestId());
            c.equal("sender", SERVICE, n.sender());
            c.equal("locale", "en_KE", n.locale());
            c.equal("timestamp", NOW - 1000, n.timestamp());
            c.equal("params keep the amount's text", new JsonValue.JsonNumber("100.50"),
                    ((JsonValue.JsonObject) n.params()).get("amount"));
        });
        c.run("the current clock", () -> verifier.verify(signed(members(SERVICE, System.currentTimeMillis()), KEY)));
        refused(c, verifier, "another sender", signed(members("someone-else", NOW), KEY),
                NotificationException.Kind.UNTRUSTED, "sender is 'someone-else'");
        refused(c, verifier, "no sender", signed(members(SERVICE, NOW).replace("\"sender\":\"" + SERVICE + "\",", ""), KEY),
                NotificationException.Kind.UNTRUSTED, "sender is ''");
        refused(c, verifier, "25 hours old", signed(members(SERVICE, NOW - 25 * HOUR), KEY),
                NotificationException.Kind.UNTRUSTED, "refused as stale");
        c.run("exactly 24 hours old", () -> verifier.verify(signed(members(SERVICE, NOW - 24 * HOUR), KEY), NOW));
        refused(c, verifier, "24 hours and 1 ms old", signed(members(SERVICE, NOW - 24 * HOUR - 1), KEY),
                NotificationException.Kind.UNTRUSTED, "86400 s before now");
        c.run("4 minutes ahead", () -> verifier.verify(signed(members(SERVICE, NOW + 4 * 60_000), KEY), NOW));
        refused(c, verifier, "6 minutes ahead", signed(members(SERVICE, NOW + 6 * 60_000), KEY),
                NotificationException.Kind.UNTRUSTED, "check this machine's clock");
        refused(c, verifier, "a timestamp beyond any clock", signed(members(SERVICE, NOW).replace(
                String.valueOf(NOW), "99999999999999999999999"), KEY), NotificationException.Kind.UNTRUSTED, "after now");
        NotificationVerifier strict = new NotificationVerifier(KEY, SERVICE, Duration.ofHours(1), Duration.ZERO);
        refused(c, strict, "2 hours old, with a window of 1 hour", signed(members(SERVICE, NOW - 2 * HOUR), KEY),
                NotificationException.Kind.UNTRUSTED, "3600 s before now");
        refused(c, strict, "1 ms ahead, with no skew allowed", signed(members(SERVICE, NOW + 1), KEY),
                NotificationException.Kind.UNTRUSTED, "0 s after now");
        c.run("30 minutes old, with a window of 1 hour", () -> strict.verify(signed(members(SERVICE, NOW - HOUR / 2), KEY), NOW));
        NotificationVerifier lenient = new NotificationVerifier(KEY, SERVICE, Duration.ofDays(3), Duration.ofMinutes(5));
        c.run("2 days old, with a window of 3 days", () -> lenient.verify(signed(members(SERVICE, NOW - 48 * HOUR), KEY), NOW));

        for (String required : new String[] {"requestId", "notificationType", "salt", "timestamp"}) {
            String without = members(SERVICE, NOW).replaceFirst("\"" + required + "\":(\"[^\"]*\"|[0-9]+),", "");
            refused(c, verifier, "without " + required, signed(without, KEY), NotificationException.Kind.MALFORMED,
                    "requestId, notificationType, timestamp and salt are required");
        }
        refused(c, verifier, "a timestamp as text", signed(members(SERVICE, NOW).replace(String.valueOf(NOW),
                "\"" + NOW + "\""), KEY), NotificationException.Kind.MALFORMED, "are required");
        refused(c, verifier, "a fractional timestamp", signed(members(SERVICE, NOW).replace(String.valueOf(NOW),
                NOW + ".5"), KEY), NotificationException.Kind.MALFORMED, "are required");
        refused(c, verifier, "a requestId as a number", signed(members(SERVICE, NOW).replace("\"N1\"", "1"), KEY),
                NotificationException.Kind.MALFORMED, "`requestId` is not a string");
        // One rule in every language: a string as the service sends it, any number refused.
        for (String number : new String[] {"28", "28.0", "2.8e1", "-28"}) {
            refused(c, verifier, "a notificationType as the number " + number,
                    signed(members(SERVICE, NOW).replace("\"0028\"", number), KEY),
                    NotificationException.Kind.MALFORMED, "`notificationType` is not a string");
        }
        for (String answer : new String[] {"\"code\":\"00000\"", "\"msg\":\"ok\"", "\"data\":{}"}) {
            refused(c, verifier, "carrying " + answer, signed(members(SERVICE, NOW) + "," + answer, KEY),
                    NotificationException.Kind.UNTRUSTED, "a member of an answer");
        }
        c.run("a null code is absent", () -> verifier.verify(
                Checks.utf8(withSignature(members(SERVICE, NOW) + ",\"code\":null")), NOW));
        refused(c, verifier, "unsigned", Checks.utf8("{" + members(SERVICE, NOW) + "}"),
                NotificationException.Kind.SIGNATURE_MISSING, "carries no signature");
        refused(c, verifier, "signed with another key", signed(members(SERVICE, NOW), new PrivateKey("other")),
                NotificationException.Kind.SIGNATURE_INVALID, "does not verify");
        byte[] good = signed(members(SERVICE, NOW), KEY);
        byte[] changed = Checks.text(good).replace("100.50", "900.50").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        refused(c, verifier, "a changed amount", changed, NotificationException.Kind.SIGNATURE_INVALID, "does not verify");
        // Signed as is (the rules would refuse to sign it): the verifier refuses it anyway.
        String recut = members(SERVICE, NOW).replace("\"TX1\"", "\"TX1&params.amount=50000.00\"");
        refused(c, verifier, "a value that reads as pairs (R3)", Checks.utf8(withSignature(recut)),
                NotificationException.Kind.UNTRUSTED, "rule R3 at `params.txId`");
        refused(c, verifier, "not JSON", Checks.utf8("{\"requestId\":"), NotificationException.Kind.MALFORMED,
                "not a usable JSON object");
        refused(c, verifier, "an answer", signed("\"requestId\":\"R1\",\"code\":\"00000\",\"msg\":\"ok\",\"data\":{}", KEY),
                NotificationException.Kind.MALFORMED, "are required");

        // The key never shows: not in the verifier, not in a refusal that quotes the body.
        String secret = KEY.expose();
        c.check("the verifier's toString", !verifier.toString().contains(secret) && verifier.toString().contains("[redacted]"),
                verifier.toString());
        refused(c, verifier, "a sender that is the key", signed(members(secret, NOW), KEY),
                NotificationException.Kind.UNTRUSTED, "sender is '[redacted]'");
        refused(c, verifier, "a key that is the key", Checks.utf8("{\"" + secret + "\":1,\"" + secret + "\":2}"),
                NotificationException.Kind.MALFORMED, "duplicate key `[redacted]`");
        c.raises("a negative window", IllegalArgumentException.class,
                () -> new NotificationVerifier(KEY, SERVICE, Duration.ofHours(-1), Duration.ZERO));
        c.equal("ACK", "ok", NotificationVerifier.ACK);
        c.finish();
    }

    /** The body signed as it is, without the rules (as a careless or hostile signer would). */
    private static String withSignature(String members) {
        byte[] body = Checks.utf8("{" + members + "}");
        return Checks.text(Signer.attachSignature(body, Canonical.parseLoose(body).signatureHex(KEY)));
    }

    private static void refused(Checks c, NotificationVerifier verifier, String name, byte[] body,
            NotificationException.Kind kind, String says) {
        NotificationException e = c.raises(name + " is refused", NotificationException.class,
                () -> verifier.verify(body, NOW));
        if (e != null) {
            c.check(name + ": " + kind, e.kind() == kind && e.getMessage().contains(says),
                    e.kind() + ": " + e.getMessage());
            c.check(name + ": the key is not shown", !CanonicalTest.shows(e, KEY.expose()), e.getMessage());
        }
    }
}
