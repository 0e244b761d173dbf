package com.baas.signing;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The shared signing vectors ({@code signing}, {@code refusals}, {@code received_nulls}),
 * which every signer and verifier of the API passes. Argument: the vectors file.
 */
public final class SigningVectorsTest {
    SigningVectorsTest() {
    }

    /** Runs every check of this suite under JUnit; a failure lists each failed check. */
    @Test
    void everyCheck() throws Exception {
        main(new String[0]);
    }

    public static void main(String[] args) throws Exception {
        Checks c = new Checks("SigningVectorsTest");
        JsonValue.JsonObject vectors = Checks.vectors(args);
        List<JsonValue.JsonObject> signing = Checks.section(vectors, "signing");
        List<JsonValue.JsonObject> refusals = Checks.section(vectors, "refusals");
        List<JsonValue.JsonObject> nulls = Checks.section(vectors, "received_nulls");
        c.check("the vectors are there", signing.size() >= 13 && refusals.size() >= 13 && !nulls.isEmpty(),
                signing.size() + " signing, " + refusals.size() + " refusals, " + nulls.size() + " received_nulls");
        for (JsonValue.JsonObject v : signing) {
            signingVector(c, v);
        }
        for (JsonValue.JsonObject v : refusals) {
            refusalVector(c, v);
        }
        for (JsonValue.JsonObject v : nulls) {
            receivedNullVector(c, v);
        }
        c.finish();
    }

    private static void signingVector(Checks c, JsonValue.JsonObject v) {
        String name = "signing \"" + v.getString("name") + "\"";
        PrivateKey key = new PrivateKey(v.getString("key"));
        byte[] body = Checks.utf8(v.getString("body"));
        String expected = v.getString("signature");
        c.run(name, () -> {
            Flattened flat = Canonical.parse(body);
            c.equal(name + ": canonical string", v.getString("canonical"), flat.canonicalStringExposingKey(key));
            c.equal(name + ": signature", expected, Signer.sign(body, key));
            c.equal(name + ": canonical() shows the key redacted",
                    key.redact(v.getString("canonical")), Signer.canonical(body, key));
            byte[] signed = Signer.attach(body, key);
            Flattened verified = Signer.verify(signed, key);
            c.equal(name + ": attach then verify", expected, verified.signature().orElse(null));
            c.check(name + ": check holds", Signer.check(signed, key).holds());
            // The attached body is the signed text plus the signature only.
            String text = Checks.text(body).stripTrailing();
            String head = text.substring(0, text.length() - 1);
            String tail = head.stripTrailing().endsWith("{") ? "" : ",";
            c.equal(name + ": attach changes no other byte",
                    head + tail + "\"signature\":\"" + expected + "\"}", Checks.text(signed));
            c.check(name + ": another key does not verify", mismatch(signed, new PrivateKey(key.expose() + "x")));
        });
    }

    private static boolean mismatch(byte[] body, PrivateKey key) {
        try {
            Signer.verify(body, key);
            return false;
        } catch (VerifyException e) {
            return e.kind() == VerifyException.Kind.MISMATCH;
        }
    }

    private static void refusalVector(Checks c, JsonValue.JsonObject v) {
        String name = "refusal \"" + v.getString("name") + "\"";
        PrivateKey key = new PrivateKey(v.getString("key"));
        byte[] body = Checks.utf8(v.getString("body"));
        String rule = v.getString("rule");
        String path = v.getString("path");
        c.run(name, () -> {
            // Signed with the vector's key: only the rule refuses it.
            Flattened loose = Canonical.parseLoose(body);
            c.equal(name + ": carries the signature the algorithm gives it",
                    loose.signatureHex(key), loose.signature().orElse(null));
            VerifyException refused = c.raises(name + ": verify refuses", VerifyException.class,
                    () -> Signer.verify(body, key));
            if (refused != null) {
                CanonicalException cause = refused.getCause();
                c.check(name + ": verify names the rule and path", refused.kind() == VerifyException.Kind.MALFORMED
                        && cause != null && cause.kind() == CanonicalException.Kind.AMBIGUOUS
                        && cause.rule().id().equals(rule) && cause.path().equals(path),
                        "expected " + rule + " at " + path + ", got " + refused.getMessage());
                c.check(name + ": the message names the rule and path",
                        refused.getMessage().contains("rule " + rule + " at `" + path + "`"), refused.getMessage());
            }
            c.raises(name + ": check refuses", CanonicalException.class, () -> Signer.check(body, key));
            byte[] unsigned = Checks.utf8(v.getString("unsigned"));
            for (String how : List.of("sign", "attach")) {
                CanonicalException e = c.raises(name + ": " + how + " refuses the unsigned body",
                        CanonicalException.class, () -> {
                            if (how.equals("sign")) {
                                Signer.sign(unsigned, key);
                            } else {
                                Signer.attach(unsigned, key);
                            }
                        });
                if (e != null) {
                    c.check(name + ": " + how + " names the rule", e.kind() == CanonicalException.Kind.AMBIGUOUS
                            && e.rule().id().equals(rule), e.getMessage());
                }
            }
            if (v.get("recut") != null) {
                Flattened recut = Canonical.parseLoose(Checks.utf8(v.getString("recut")));
                c.equal(name + ": the re-cut has the same canonical string",
                        loose.canonicalStringExposingKey(key), recut.canonicalStringExposingKey(key));
                if (v.get("recut_is_clean") instanceof JsonValue.JsonBoolean clean && clean.value()) {
                    c.run(name + ": the re-cut is clean", () -> Canonical.parse(Checks.utf8(v.getString("recut"))));
                }
            }
        });
    }

    /**
     * received_nulls: the body verifies (a null member read as absent), and every signer
     * signs the unsigned body to the body's signature, skipping the null members at
     * {@code skipped} and warning about each one; a null array element stays refused (R2) by
     * verifiers and signers alike, and the SDK's own envelope never sends a null.
     */
    private static void receivedNullVector(Checks c, JsonValue.JsonObject v) {
        String name = "received_nulls \"" + v.getString("name") + "\"";
        PrivateKey key = new PrivateKey(v.getString("key"));
        byte[] body = Checks.utf8(v.getString("body"));
        String path = v.getString("path");
        List<String> skipped = new ArrayList<>();
        for (JsonValue p : ((JsonValue.JsonArray) v.get("skipped")).elements()) {
            skipped.add(((JsonValue.JsonString) p).value());
        }
        c.run(name, () -> {
            Flattened flat = Signer.verify(body, key);
            c.equal(name + ": verifies, the null read as absent", path, flat.firstNullPath().orElse(null));
            c.equal(name + ": every null member skipped", skipped, flat.skippedNulls());
            for (String p : skipped) {
                c.check(name + ": the null member " + p + " is no pair",
                        flat.pairs().stream().noneMatch(pair -> pair.startsWith(p + "=") || pair.startsWith(p + ".")),
                        flat.pairs().toString());
            }
            String signature = flat.signature().orElseThrow();
            byte[] unsigned = Checks.utf8(v.getString("unsigned"));
            List<String> warned = warnings(() -> c.equal(name + ": sign skips the null members", signature,
                    Signer.sign(unsigned, key)));
            c.equal(name + ": sign warns once per skipped member", skipped.size(), warned.size());
            for (int i = 0; i < Math.min(skipped.size(), warned.size()); i++) {
                c.check(name + ": the warning names " + skipped.get(i), warned.get(i).contains("`" + skipped.get(i) + "`"),
                        warned.get(i));
            }
            warned = warnings(() -> c.equal(name + ": attach gives the body received", v.getString("body"),
                    Checks.text(Signer.attach(unsigned, key))));
            c.equal(name + ": attach warns once per skipped member", skipped.size(), warned.size());
            c.equal(name + ": parseForSigning lists them", skipped, Canonical.parseForSigning(unsigned).skippedNulls());
            c.raises(name + ": the SDK's envelope never sends a null", com.baas.runtime.EncodeException.class,
                    () -> com.baas.runtime.Envelope.sign(unsigned, key));
            // The same bodies with the null in an array instead are refused (R2).
            String inArray = v.getString("body").replace("null", "[1,null]");
            VerifyException e = c.raises(name + ": a null array element is refused", VerifyException.class,
                    () -> Signer.verify(Checks.utf8(inArray), key));
            if (e != null) {
                c.check(name + ": R2 at the element", e.getCause() != null && e.getCause().rule() == Ambiguity.NULL
                        && e.getCause().path().equals(path + "[1]"), e.getMessage());
            }
            byte[] unsignedInArray = Checks.utf8(v.getString("unsigned").replace("null", "[1,null]"));
            for (String how : List.of("sign", "attach")) {
                CanonicalException refused = c.raises(name + ": " + how + " refuses a null array element",
                        CanonicalException.class, () -> {
                            if (how.equals("sign")) {
                                Signer.sign(unsignedInArray, key);
                            } else {
                                Signer.attach(unsignedInArray, key);
                            }
                        });
                if (refused != null) {
                    c.check(name + ": " + how + " names R2 at the element", refused.rule() == Ambiguity.NULL
                            && (path + "[1]").equals(refused.path()), refused.getMessage());
                }
            }
        });
    }

    /** The messages {@code com.baas.signing} logs at WARNING or above while {@code body} runs. */
    static List<String> warnings(Checks.Body body) throws Exception {
        Logger logger = Logger.getLogger("com.baas.signing");
        List<String> seen = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    seen.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        boolean parents = logger.getUseParentHandlers();
        logger.setUseParentHandlers(false);
        logger.addHandler(handler);
        try {
            body.run();
        } finally {
            logger.removeHandler(handler);
            logger.setUseParentHandlers(parents);
        }
        return seen;
    }
}
