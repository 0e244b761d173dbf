package com.baas.signing;

import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * The reader and the signer beyond the shared vectors: numbers keep their text, the byte
 * order of the sort, the refusals (malformed JSON, invalid UTF-8, duplicate keys, depth and
 * size limits, R1 to R4), attach, tampering, and the key never shown. Expected signatures
 * and offsets are those of the reference implementation for the same bodies.
 */
public final class CanonicalTest {
    private static final PrivateKey KEY = new PrivateKey("yourkey");

    CanonicalTest() {
    }

    /** Runs every check of this suite under JUnit; a failure lists each failed check. */
    @Test
    void everyCheck() throws Exception {
        main(new String[0]);
    }

    public static void main(String[] args) {
        Checks c = new Checks("CanonicalTest");
        limits(c);
        numbers(c);
        byteOrder(c);
        malformed(c);
        rules(c);
        readsAsPair(c);
        depthAndSize(c);
        attach(c);
        tampering(c);
        readOnDemand(c);
        theKeyIsNeverShown(c);
        c.finish();
    }

    private static void limits(Checks c) {
        c.equal("MAX_DEPTH is the runtime's", 64, Canonical.MAX_DEPTH);
        c.equal("MAX_EXPANSION is the runtime's", 32, Canonical.MAX_EXPANSION);
        c.equal("EXPANSION_ALLOWANCE is the runtime's", 64 * 1024, Canonical.EXPANSION_ALLOWANCE);
        c.equal("MAX_BODY is the runtime's", (1 << 29) - 1, Canonical.MAX_BODY);
    }

    private static void numbers(Checks c) {
        c.run("numbers keep their text", () -> {
            String a = Signer.sign(Checks.utf8("{\"amount\":100.50}"), KEY);
            String b = Signer.sign(Checks.utf8("{\"amount\":100.5}"), KEY);
            c.equal("100.50 signs as 100.50", "ac15a259e922e30897e2449c53aa891b86680eb077b94499c375f92c62bf35d9", a);
            c.equal("100.5 signs as 100.5", "543efacf3b076db8373ef593b5398cf7af4ebcd52124db45d0d593274de549a4", b);
            c.check("100.50 and 100.5 sign differently", !a.equals(b));
            Flattened flat = Canonical.parse(Checks.utf8("{\"a\":100.50,\"b\":\"caf\\u00e9\",\"c\":[1.0e3,-0]}"));
            c.equal("the pairs hold the literal text", List.of("a=100.50", "b=caf\u00e9", "c[0]=1.0e3", "c[1]=-0"),
                    flat.pairs());
            c.equal("the value holds the literal text", new JsonValue.JsonNumber("100.50"), flat.value().get("a"));
            c.equal("as BigDecimal, the scale is kept", "100.50",
                    ((JsonValue.JsonNumber) flat.value().get("a")).bigDecimalValue().toPlainString());
            c.equal("exponents as written", "65022bb2c424db92c70e067384c0b2d8c8f0a9fa2d73d50ef8d6c6a07baf7bd9",
                    Signer.sign(Checks.utf8("{\"a\":1e5,\"b\":-0.5E-3,\"c\":1E+2}"), KEY));
        });
    }

    private static void byteOrder(Checks c) {
        // U+E000 < U+FF61 < U+1F600 as UTF-8 bytes; String.compareTo (UTF-16) would put
        // the emoji (a surrogate pair, 0xD83D...) first.
        c.run("pairs sort by UTF-8 bytes, not UTF-16", () -> {
            byte[] body = Checks.utf8("{\"\uff61\":1,\"\ud83d\ude00\":2,\"\ue000\":3}");
            c.equal("the order of code points", "senderKey=yourkey&\ue000=3&\uff61=1&\ud83d\ude00=2",
                    Canonical.parse(body).canonicalStringExposingKey(KEY));
            c.equal("the reference signature", "3b726440845bbcda1b8ee34a43e7adb83fbeed981f09f1ee93513ca4436094b5",
                    Signer.sign(body, KEY));
        });
    }

    /** Body (bytes as U+0000-U+00FF), kind, offset (-1: none), path (or null). */
    private record Bad(String body, CanonicalException.Kind kind, long offset, String path) {
    }

    private static void malformed(Checks c) {
        CanonicalException.Kind utf8 = CanonicalException.Kind.INVALID_UTF8;
        CanonicalException.Kind syntax = CanonicalException.Kind.SYNTAX;
        CanonicalException.Kind object = CanonicalException.Kind.NOT_AN_OBJECT;
        CanonicalException.Kind duplicate = CanonicalException.Kind.DUPLICATE_KEY;
        List<Bad> table = List.of(
                new Bad("{\"a\":\"\u00ff\"}", utf8, 6, null),
                new Bad("{\"a\":\"\u00c0\u00af\"}", utf8, 6, null), // overlong
                new Bad("{\"a\":\"\u00ed\u00a0\u0080\"}", utf8, 6, null), // a surrogate
                new Bad("{\"a\":\"\u00e2\u0082\"}", utf8, 6, null), // truncated
                new Bad("{\"ab\":\"\u00f4\u0090\u0080\u0080\"}", utf8, 7, null), // above U+10FFFF
                new Bad("{\"a\":\"\u00e2(\u00a1\"}", utf8, 6, null),
                new Bad("\u00ef\u00bb\u00bf{}", object, -1, null), // a byte order mark
                new Bad("[1]", object, -1, null),
                new Bad("", object, -1, null),
                new Bad("  ", object, -1, null),
                new Bad("{\"a\":1}x", syntax, 7, null),
                new Bad("{\"a\":01}", syntax, 6, null),
                new Bad("{\"a\":NaN}", syntax, 5, null),
                new Bad("{\"a\":1,}", syntax, 7, null),
                new Bad("{\"a\":\"\u0001\"}", syntax, 5, null),
                new Bad("{\"a\":\"\\ud800\"}", syntax, 5, null),
                new Bad("{\"a\":\"\\udc00x\"}", syntax, 5, null),
                new Bad("{\"a\":\"\\ud83d\\u0041\"}", syntax, 5, null),
                new Bad("{\"signature\":[1,}", syntax, 16, null),
                new Bad("{\"a\":-}", syntax, 5, null),
                new Bad("{\"a\":1.}", syntax, 6, null),
                new Bad("{\"a\":1e}", syntax, 6, null),
                new Bad("{\"a\":tru}", syntax, 5, null),
                new Bad("{\"a\" 1}", syntax, 5, null),
                new Bad("{a:1}", syntax, 1, null),
                new Bad("{\"a\":\"x\\q\"}", syntax, 5, null),
                new Bad("{\"a\":\"\\u12g4\"}", syntax, 5, null),
                new Bad("{\"a\":[1,2]  ", syntax, 12, null),
                new Bad("{\"a\":1,\"a\":2}", duplicate, -1, "a"),
                new Bad("{\"a\":{\"b\":1,\"b\":{}}}", duplicate, -1, "a.b"),
                new Bad("{\"signature\":1}", CanonicalException.Kind.SIGNATURE_NOT_STRING, -1, null));
        for (Bad bad : table) {
            String name = "refuses " + bad.body();
            // Refused alike with and without the rules, to sign and to verify.
            for (int mode = 0; mode < 3; mode++) {
                byte[] body = Checks.raw(bad.body());
                final int m = mode;
                CanonicalException e = c.raises(name, CanonicalException.class, () -> {
                    if (m == 0) {
                        Canonical.parseLoose(body);
                    } else if (m == 1) {
                        Canonical.parse(body);
                    } else {
                        Signer.sign(body, KEY);
                    }
                });
                if (e != null) {
                    c.check(name + " (mode " + m + ")", e.kind() == bad.kind()
                            && e.offset().orElse(-1) == bad.offset()
                            && java.util.Objects.equals(e.path(), bad.path()),
                            "expected " + bad.kind() + " at " + bad.offset() + " " + bad.path() + ", got "
                                    + e.kind() + " at " + e.offset() + " " + e.path() + ": " + e.getMessage());
                }
            }
        }
        CanonicalException e = c.raises("a lone surrogate", CanonicalException.class,
                () -> Canonical.parse(Checks.utf8("{\"a\":\"\\ud800\"}")));
        if (e != null) {
            c.equal("the lone surrogate's message",
                    "invalid JSON at byte 5: expected no lone surrogate `\\uD800`-`\\uDFFF`", e.getMessage());
        }
        VerifyException v = c.raises("verify refuses invalid UTF-8", VerifyException.class,
                () -> Signer.verify(Checks.raw("{\"a\":\"\u00ff\",\"signature\":\"00\"}"), KEY));
        if (v != null) {
            c.check("as MALFORMED, invalid_utf8", v.kind() == VerifyException.Kind.MALFORMED
                    && v.getCause().kind() == CanonicalException.Kind.INVALID_UTF8, v.getMessage());
        }
        c.run("a duplicate under a refused key is refused by the rule first", () -> {
            CanonicalException r = c.raises("R1 before the duplicate", CanonicalException.class,
                    () -> Canonical.parse(Checks.utf8("{\"a\":1,\"a\":{\"b.c\":1}}")));
            if (r != null) {
                c.check("R1 at a.b.c", r.rule() == Ambiguity.KEY && "a.b.c".equals(r.path()), r.getMessage());
            }
            CanonicalException d = c.raises("a duplicate, read loosely", CanonicalException.class,
                    () -> Canonical.parseLoose(Checks.utf8("{\"a\":1,\"a\":{\"b.c\":1}}")));
            if (d != null) {
                c.check("duplicate at a", d.kind() == CanonicalException.Kind.DUPLICATE_KEY && "a".equals(d.path()));
            }
        });
    }

    private static void rules(Checks c) {
        record Rule(String body, Ambiguity rule, String path) {
        }
        List<Rule> table = List.of(
                new Rule("{\"a\":[1,null]}", Ambiguity.NULL, "a[1]"),
                new Rule("{\"list\":[[null]]}", Ambiguity.NULL, "list[0][0]"),
                new Rule("{\"x\":\"a&b=c\"}", Ambiguity.VALUE_READS_AS_PAIR, "x"),
                new Rule("{\"senderKey\":\"k\"}", Ambiguity.SENDER_KEY, "senderKey"),
                new Rule("{\"\":1}", Ambiguity.KEY, ""),
                new Rule("{\"a\":null,\"b.c\":1}", Ambiguity.KEY, "b.c"),
                new Rule("{\"signature\":\"abc\",\"a\":\"x&y=1\"}", Ambiguity.VALUE_READS_AS_PAIR, "a"));
        for (Rule r : table) {
            CanonicalException e = c.raises("verify refuses " + r.body(), CanonicalException.class,
                    () -> Canonical.parse(Checks.utf8(r.body())));
            if (e != null) {
                c.check("verify names " + r.rule().id() + " at " + r.path(), e.rule() == r.rule()
                        && r.path().equals(e.path()), e.getMessage());
            }
            c.run("read loosely " + r.body(), () -> Canonical.parseLoose(Checks.utf8(r.body())));
        }
        c.run("a nested senderKey is no R4", () -> Signer.sign(Checks.utf8("{\"a\":{\"senderKey\":\"k\"}}"), KEY));
        c.run("a null member verifies and is skipped", () -> {
            Flattened flat = Canonical.parse(Checks.utf8("{\"a\":null,\"b\":{\"c\":null}}"));
            c.equal("no pairs", List.of(), flat.pairs());
            c.equal("the first null", "a", flat.firstNullPath().orElse(null));
            c.equal("signs as {}", "1f5a8ebed9df0b508f452edb744bab2787c6998001199c75b7e8dd6e72221d08", flat.signatureHex(KEY));
        });
        c.run("a signer skips a null member (issue 34 item 10)", () -> {
            byte[] withNulls = Checks.utf8("{\"x\":1,\"b\":{\"c\":null},\"d\":null,\"e\":[{\"f\":null}]}");
            // An object left with null members only has no pair (it is not written {}).
            c.equal("signs as without them", Signer.sign(Checks.utf8("{\"x\":1}"), KEY),
                    Signer.sign(withNulls, KEY));
            c.equal("every skipped path, in document order", List.of("b.c", "d", "e[0].f"),
                    Canonical.parseForSigning(withNulls).skippedNulls());
        });
        CanonicalException e = c.raises("a signer refuses a null array element", CanonicalException.class,
                () -> Signer.sign(Checks.utf8("{\"x\":1,\"b\":{\"c\":[1,null]}}"), KEY));
        if (e != null) {
            c.check("R2 at b.c[1]", e.rule() == Ambiguity.NULL && "b.c[1]".equals(e.path()), e.getMessage());
        }
    }

    private static void readsAsPair(Checks c) {
        String[] no = {"Tom & Jerry", "a&b", "a=b&c", "&=x", "&a..b=", "&a[]=", "&a[1]b=", "&", "", "&a.=", "&a[1=",
            "x&a]b="};
        String[] yes = {"x&data.result[1].amount=9", "a&b=c", "Tom & Jerry = x", "&a[0][12].b=", "&&a=", "a&b&c=d",
            "&\u00e9.\ud83d\ude00=", "&a[1]=", "& x.y =", "&a.b[2][3].c.d="};
        for (String s : no) {
            c.check("R3 does not read \"" + s + "\" as a pair", !Canonical.readsAsPair(s));
        }
        for (String s : yes) {
            c.check("R3 reads \"" + s + "\" as a pair", Canonical.readsAsPair(s));
        }
    }

    private static void depthAndSize(Checks c) {
        int max = Canonical.MAX_DEPTH;
        c.run("nesting of 64 is read", () -> Canonical.parse(Checks.utf8(
                "{\"a\":" + "[".repeat(max - 1) + "]".repeat(max - 1) + "}")));
        CanonicalException deep = c.raises("nesting of 65 is refused", CanonicalException.class,
                () -> Canonical.parse(Checks.utf8("{\"a\":" + "[".repeat(max) + "]".repeat(max) + "}")));
        if (deep != null) {
            c.equal("as too_deep", CanonicalException.Kind.TOO_DEEP, deep.kind());
        }
        c.run("objects nested 64 deep are read", () -> Canonical.parse(Checks.utf8(
                "{\"a\":".repeat(max - 1) + "{}" + "}".repeat(max - 1))));
        CanonicalException objects = c.raises("objects nested 65 deep are refused", CanonicalException.class,
                () -> Canonical.parse(Checks.utf8("{\"a\":".repeat(max) + "{}" + "}".repeat(max))));
        if (objects != null) {
            c.equal("as too_deep", CanonicalException.Kind.TOO_DEEP, objects.kind());
        }
        long start = System.nanoTime();
        CanonicalException far = c.raises("nesting of 100000 is refused", CanonicalException.class,
                () -> Canonical.parse(Checks.utf8("{\"a\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}")));
        c.check("without a stack overflow, at once", far != null && far.kind() == CanonicalException.Kind.TOO_DEEP
                && System.nanoTime() - start < 2_000_000_000L);
        // A long key above many short values: the pairs would be quadratic in the body.
        String body = "{\"" + "k".repeat(4096) + "\":[" + "1,".repeat(19_999) + "1]}";
        CanonicalException large = c.raises("a quadratic expansion is refused", CanonicalException.class,
                () -> Canonical.parse(Checks.utf8(body)));
        if (large != null) {
            c.check("as too_large, where it goes over", large.kind() == CanonicalException.Kind.TOO_LARGE
                    && large.offset().isPresent() && large.offset().getAsLong() < body.length(), large.getMessage());
        }
        String dense = "{\"data\":{\"list\":[" + "1,".repeat(49_999) + "1]}}";
        c.run("a dense legitimate body is read", () -> {
            Flattened flat = Canonical.parse(Checks.utf8(dense));
            long total = 0;
            for (String p : flat.pairs()) {
                total += Checks.utf8(p).length;
            }
            c.check("within the budget", total <= (long) dense.length() * Canonical.MAX_EXPANSION
                    + Canonical.EXPANSION_ALLOWANCE);
        });
    }

    private static void attach(Checks c) {
        c.equal("attach to {}", "{\"signature\":\"ab\"}", Checks.text(Signer.attachSignature(Checks.utf8("{}"), "ab")));
        c.equal("attach drops trailing whitespace", "{\"a\":1,\"signature\":\"ab\"}",
                Checks.text(Signer.attachSignature(Checks.utf8("{\"a\":1} \n"), "ab")));
        c.equal("attach keeps inner whitespace", "{ \"a\" : 1 ,\"signature\":\"ab\"}",
                Checks.text(Signer.attachSignature(Checks.utf8("{ \"a\" : 1 }"), "ab")));
        for (String bad : new String[] {"[1]", "}", ""}) {
            c.raises("attach refuses " + bad, CanonicalException.class,
                    () -> Signer.attachSignature(Checks.utf8(bad), "ab"));
        }
        for (String signed : new String[] {"{\"a\":1,\"signature\":\"00\"}", "{\"signature\":null}"}) {
            CanonicalException e = c.raises("attach refuses " + signed, CanonicalException.class,
                    () -> Signer.attach(Checks.utf8(signed), KEY));
            if (e != null) {
                c.equal("already_signed", CanonicalException.Kind.ALREADY_SIGNED, e.kind());
            }
        }
        c.run("sign ignores a signature already there", () -> c.equal("as without it",
                Signer.sign(Checks.utf8("{\"a\":1}"), KEY), Signer.sign(Checks.utf8("{\"a\":1,\"signature\":\"x\"}"), KEY)));
    }

    private static void tampering(Checks c) {
        byte[] body = Checks.utf8("{\"requestId\":\"APPREQ00990320fed02000\",\"sender\":\"client1\",\"locale\":\"en_KE\","
                + "\"timestamp\":1650533105687,\"salt\":\"QcEwsZ123da\",\"params\":{\"name\":\"Tester\",\"amount\":100.50}}");
        byte[] signed = Signer.attach(body, KEY);
        c.run("the signed body verifies", () -> Signer.verify(signed, KEY));
        VerifyException missing = c.raises("no signature", VerifyException.class, () -> Signer.verify(body, KEY));
        c.check("is MISSING", missing != null && missing.kind() == VerifyException.Kind.MISSING);
        VerifyException other = c.raises("another key", VerifyException.class,
                () -> Signer.verify(signed, new PrivateKey("otherkey")));
        c.check("is MISMATCH", other != null && other.kind() == VerifyException.Kind.MISMATCH);
        // Every single changed byte fails verification (a value, a key, the structure or the
        // signature itself).
        int accepted = 0;
        for (int i = 0; i < signed.length; i++) {
            byte[] changed = signed.clone();
            changed[i] ^= 0x01;
            try {
                Signer.verify(changed, KEY);
                accepted++;
                c.check("byte " + i + " changed is refused", false, Checks.text(changed));
            } catch (VerifyException expected) {
                // refused
            }
        }
        c.equal("no changed byte verifies", 0, accepted);
        String trailing = Checks.text(signed).replace("100.50", "100.5");
        c.raises("100.50 re-rendered as 100.5 does not verify", VerifyException.class,
                () -> Signer.verify(Checks.utf8(trailing), KEY));
        c.run("whitespace between tokens is not signed", () -> Signer.verify(
                Checks.utf8(Checks.text(signed).replace(",\"salt\":", " ,\n\t\"salt\" : ")), KEY));
        c.check("constant-time equality", Signer.constantTimeEquals("ab", "ab") && !Signer.constantTimeEquals("ab", "ac")
                && !Signer.constantTimeEquals("ab", "abc") && !Signer.constantTimeEquals("abc", "ab"));
    }

    /** value() and pairs() are built when asked, from the reader's own copy of the bytes. */
    private static void readOnDemand(Checks c) {
        c.run("what was verified is what value() and pairs() give, whatever happens to the array", () -> {
            byte[] body = Signer.attach(Checks.utf8("{\"a\":\"x\",\"b\":[1,{\"c\":true}]}"), KEY);
            Flattened flat = Signer.verify(body, KEY);
            java.util.Arrays.fill(body, (byte) ' ');
            c.equal("value()", "{a=JsonString[value=x], b=JsonArray[elements=[JsonNumber[literal=1], "
                    + "JsonObject[members={c=JsonBoolean[value=true]}]]], signature=JsonString[value="
                    + flat.signature().orElse("") + "]}", flat.value().members().toString());
            c.equal("pairs()", List.of("a=x", "b[0]=1", "b[1].c=true"), flat.pairs());
            c.check("value() is built once", flat.value() == flat.value());
        });
    }

    private static void theKeyIsNeverShown(Checks c) {
        String secret = "s3cret";
        PrivateKey key = new PrivateKey(secret);
        c.equal("toString", "[redacted]", key.toString());
        c.equal("in text", "key [redacted]", "key " + key);
        Object asObject = key;
        c.check("not Serializable", !(asObject instanceof java.io.Serializable));
        c.check("equal keys", key.equals(new PrivateKey(secret)) && !key.equals(new PrivateKey("other")));
        c.run("the redacted canonical string", () -> {
            String text = Signer.canonical(Checks.utf8("{\"note\":\"my key is s3cret\",\"x\":1}"), key);
            c.check("hides the key everywhere", !text.contains(secret) && text.contains("senderKey=[redacted]")
                    && text.contains("note=my key is [redacted]"), text);
        });
        // Bodies that put the key where a refusal quotes them: keys, paths, signatures.
        String[] bodies = {
            "{\"s3cret\":1,\"s3cret\":2}", "{\"a.s3cret\":1}", "{\"s3cret\":[1,null]}", "{\"x\":\"v&s3cret=1\"}",
            "{\"a\":{\"s3cret\":1,\"s3cret\":2}}", "{\"s3cret\":1,\"signature\":\"0\"}", "{\"s3cret\":1}",
            "{\"senderKey\":\"s3cret\"}", "{\"s3cret\":nul}", "{\"s3cret\":null}", "{\"signature\":\"s3cret\"}"};
        for (String b : bodies) {
            byte[] body = Checks.utf8(b);
            for (int mode = 0; mode < 5; mode++) {
                final int m = mode;
                try {
                    switch (m) {
                        case 0 -> Signer.sign(body, key);
                        case 1 -> Signer.attach(body, key);
                        case 2 -> Signer.verify(body, key);
                        case 3 -> Signer.check(body, key);
                        default -> c.check("canonical() of " + b, !Signer.canonical(body, key).contains(secret));
                    }
                } catch (SigningException e) {
                    c.check("the key is not in the message (" + b + ", mode " + m + ")", !shows(e, secret),
                            e.toString());
                    if (e instanceof CanonicalException ce) {
                        c.check("nor in the path (" + b + ")", ce.path() == null || !ce.path().contains(secret));
                    }
                }
            }
        }
        c.check("a flattened body's toString", !Canonical.parse(Checks.utf8("{\"a\":1}")).toString().contains("yourkey"));
        c.check("a check's toString", !Signer.check(Signer.attach(Checks.utf8("{\"a\":1}"), KEY), KEY).toString()
                .contains("yourkey"));
    }

    /** Whether the key shows in the exception or any of its causes. */
    static boolean shows(Throwable e, String secret) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains(secret) || t.toString().contains(secret)) {
                return true;
            }
        }
        return false;
    }
}
