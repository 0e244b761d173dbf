package com.baas.signing;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code baas-sign} command, run in this process: its output and exit codes, the key
 * never printed. Argument: the vectors file.
 */
public final class BaasSignTest {
    static final String EXAMPLE = "{\"requestId\":\"APPREQ00990320fed02000\",\"sender\":\"client1\",\"locale\":\"en_KE\","
            + "\"timestamp\":1650533105687,\"salt\":\"QcEwsZ123da\",\"params\":{\"name\":\"Tester\"}}";
    static final String SIGNATURE = "ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2";
    static final String CANONICAL = "locale=en_KE&params.name=Tester&requestId=APPREQ00990320fed02000"
            + "&salt=QcEwsZ123da&sender=client1&senderKey=[redacted]&timestamp=1650533105687";

    BaasSignTest() {
    }

    /** One run: exit code, stdout, stderr. */
    record Run(int code, String out, String err) {
        boolean shows(String secret) {
            return out.contains(secret) || err.contains(secret);
        }
    }

    static Run run(String key, String body, String... args) {
        return run(key, Checks.utf8(body), args);
    }

    static Run run(String key, byte[] body, String... args) {
        Map<String, String> env = new HashMap<>();
        if (key != null) {
            env.put(BaasSign.KEY_VARIABLE, key);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = BaasSign.run(args, new ByteArrayInputStream(body), out, err, env);
        return new Run(code, Checks.text(out.toByteArray()), Checks.text(err.toByteArray()));
    }

    /** Runs every check of this suite under JUnit; a failure lists each failed check. */
    @Test
    void everyCheck() throws Exception {
        main(new String[0]);
    }

    public static void main(String[] args) throws Exception {
        Checks c = new Checks("BaasSignTest");
        Run empty = run("", EXAMPLE + "\n");
        c.check("an empty key is no key (as baas-sign): exit 2, naming the variable",
                empty.code() == 2 && empty.err().contains(BaasSign.KEY_VARIABLE), empty.toString());
        Run sign = run("yourkey", EXAMPLE + "\n");
        c.equal("sign: the README's example", CANONICAL + "\n" + SIGNATURE + "\n", sign.out());
        c.equal("sign: exit 0", 0, sign.code());
        Run attach = run("yourkey", EXAMPLE + "\n", "--attach");
        String signed = EXAMPLE.substring(0, EXAMPLE.length() - 1) + ",\"signature\":\"" + SIGNATURE + "\"}";
        c.equal("attach: the body to send", signed + "\n", attach.out());
        c.equal("attach: exit 0", 0, attach.code());
        Run verify = run("yourkey", attach.out(), "--verify");
        c.equal("verify: signature OK", "signature OK: " + SIGNATURE + "\n", verify.out());
        c.equal("verify: exit 0", 0, verify.code());
        Run wrong = run("otherkey", attach.out(), "--verify");
        c.check("verify with another key: exit 1, MISMATCH, both signatures, the canonical string",
                wrong.code() == 1 && wrong.err().contains("signature MISMATCH") && wrong.err().contains("received: " + SIGNATURE)
                        && wrong.err().contains("expected: ") && wrong.err().contains("senderKey=[redacted]")
                        && !wrong.shows("otherkey"), wrong.toString());
        Run missing = run("yourkey", EXAMPLE, "--verify");
        c.check("verify without a signature: exit 1, MISSING", missing.code() == 1
                && missing.err().contains("signature MISSING") && missing.err().contains("expected: " + SIGNATURE),
                missing.toString());
        Run again = run("yourkey", attach.out(), "--attach");
        c.check("attach of a signed body: exit 2", again.code() == 2 && again.err().contains("already has a `signature`"),
                again.toString());
        Run help = run(null, "", "--help");
        c.check("--help: exit 0, usage", help.code() == 0 && help.out().startsWith("usage: baas-sign"), help.toString());

        Object[][] exits = {
            {new String[] {}, "not json", "k", 2},
            {new String[] {}, "{\"a\":1,\"a\":2}", "k", 2},
            {new String[] {}, EXAMPLE, null, 2},
            {new String[] {"--verify", "--attach"}, EXAMPLE, "k", 2},
            {new String[] {"--attach", "--verify"}, EXAMPLE, "k", 2},
            {new String[] {"--bogus"}, EXAMPLE, "k", 2},
            {new String[] {"x"}, EXAMPLE, "k", 2},
            {new String[] {"--attach"}, "{\"note\":\"yourkey\"}", "yourkey", 2},
            {new String[] {"--attach"}, "{\"note\":\"\\u0079ourkey\"}", "yourkey", 2},
            {new String[] {"--attach"}, "{\"yourkey\":1}", "yourkey", 2},
            {new String[] {}, "{\"senderKey\":\"yourkey\"}", "yourkey", 2},
            {new String[] {"--verify"}, "{\"senderKey\":\"yourkey\"}", "yourkey", 1},
            {new String[] {}, "{\"a\":null}", "k", 0},
            {new String[] {}, "{\"a\":[1,null]}", "k", 2},
            {new String[] {"--attach"}, "{\"a\":[null]}", "k", 2},
            {new String[] {"--verify"}, "{\"a\":[1,null]}", "k", 1},
            {new String[] {"--verify"}, "{\"a\":1,\"signature\":7}", "k", 2},
            {new String[] {}, "{\"note\":\"yourkey\"}", "yourkey", 0},
            {new String[] {}, "{}", "", 2},
        };
        for (Object[] row : exits) {
            String[] a = (String[]) row[0];
            String key = (String) row[2];
            Run r = run(key, (String) row[1], a);
            String name = "exit " + row[3] + " for " + String.join(" ", a) + " " + row[1];
            c.equal(name, row[3], r.code());
            if (key != null && !key.isEmpty()) {
                c.check(name + ": the key is not printed", !r.shows(key), r.toString());
            }
        }
        Run warned = run("yourkey", "{\"senderKey\":\"yourkey\"}");
        c.check("a top-level senderKey draws the warning", warned.err().contains("warning: the input has a top-level "
                + "`senderKey`") && warned.err().contains("not signed: refused by rule R4"), warned.toString());
        Run invalid = run("k", Checks.raw("{\"a\":\"\u00ff\"}"));
        c.check("invalid UTF-8: exit 2", invalid.code() == 2 && invalid.err().contains("not valid UTF-8 (byte 6)"),
                invalid.toString());

        JsonValue.JsonObject vectors = Checks.vectors(args);
        for (JsonValue.JsonObject v : Checks.section(vectors, "signing")) {
            String name = "signing \"" + v.getString("name") + "\"";
            Run r = run(v.getString("key"), v.getString("body"));
            c.check(name + ": sign prints the signature last", r.code() == 0 && r.out().endsWith(v.getString("signature") + "\n"),
                    r.toString());
            c.check(name + ": the key is not printed", !r.shows(v.getString("key")), r.toString());
            Run attached = run(v.getString("key"), v.getString("body"), "--attach");
            Run verified = run(v.getString("key"), attached.out(), "--verify");
            c.equal(name + ": attach then verify", 0, verified.code());
        }
        for (JsonValue.JsonObject v : Checks.section(vectors, "refusals")) {
            String name = "refusal \"" + v.getString("name") + "\"";
            String key = v.getString("key");
            Run r = run(key, v.getString("body"), "--verify");
            c.check(name + ": --verify exits 1 naming the rule", r.code() == 1 && r.err().contains("REFUSED: refused by rule "
                    + v.getString("rule") + " at `" + v.getString("path") + "`"), r.toString());
            c.check(name + ": the key is not printed", !r.shows(key), r.toString());
            c.equal(name + ": sign exits 2", 2, run(key, v.getString("unsigned")).code());
            c.equal(name + ": attach exits 2", 2, run(key, v.getString("unsigned"), "--attach").code());
        }
        for (JsonValue.JsonObject v : Checks.section(vectors, "received_nulls")) {
            String name = "received_nulls \"" + v.getString("name") + "\"";
            String key = v.getString("key");
            String signature = Canonical.parse(Checks.utf8(v.getString("body"))).signature().orElseThrow();
            c.equal(name + ": --verify exits 0", 0, run(key, v.getString("body"), "--verify").code());
            List<String> skipped = new ArrayList<>();
            for (JsonValue p : ((JsonValue.JsonArray) v.get("skipped")).elements()) {
                skipped.add(((JsonValue.JsonString) p).value());
            }
            Run r = run(key, v.getString("unsigned"));
            c.check(name + ": sign exits 0 with the body's signature last", r.code() == 0
                    && r.out().endsWith("\n" + signature + "\n"), r.toString());
            c.equal(name + ": one warning line per skipped null member", skipped.size(),
                    (int) r.err().lines().filter(l -> l.startsWith("baas-sign: warning: `")).count());
            for (String p : skipped) {
                c.check(name + ": the warning names " + p, r.err().contains("warning: `" + p + "` is null: skipped"),
                        r.err());
            }
            c.check(name + ": the key is not printed", !r.shows(key), r.toString());
            Run attached = run(key, v.getString("unsigned"), "--attach");
            c.equal(name + ": attach prints the body received", v.getString("body") + "\n", attached.out());
            c.equal(name + ": attach exits 0", 0, attached.code());
            c.equal(name + ": attach warns too", skipped.size(),
                    (int) attached.err().lines().filter(l -> l.startsWith("baas-sign: warning: `")).count());
            String inArray = v.getString("unsigned").replace("null", "[1,null]");
            Run refused = run(key, inArray);
            c.check(name + ": a null array element: sign exits 2 naming R2", refused.code() == 2
                    && refused.err().contains("rule R2 at `" + v.getString("path") + "[1]`"), refused.toString());
            c.equal(name + ": a null array element: attach exits 2", 2, run(key, inArray, "--attach").code());
        }
        c.finish();
    }
}
