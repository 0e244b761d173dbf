package com.baas.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baas.signing.Canonical;
import com.baas.signing.CanonicalException;
import com.baas.signing.Flattened;
import com.baas.signing.PairsRecorder;
import com.baas.signing.PrivateKey;
import com.baas.signing.Signer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Signing while writing gives what reading the written bytes back gives: the signature, or the
 * same refusal (kind, rule, path, message). Thousands of seeded random bodies written through
 * {@link JsonWriter}: keys holding separators, a top-level {@code senderKey} or
 * {@code signature}, escapes, values that read as pairs, repeated keys, empty containers,
 * nesting past the limit and pairs past the expansion budget.
 */
class RecordedSigningTest {
    private static final PrivateKey KEY = new PrivateKey("yourkey");
    private static final String[] KEYS = {"a", "b", "amount", "amount2", "txId", "senderKey", "signature", "",
        "a.b", "x&y", "k=v", "[0]", "l]", "\u00e9", "\u65e5\u672c", "\ud83d\ude00", "line\nbreak", "q\"uote",
        "back\\slash", "ctl\u0001", "sender", "sendera", "B", "z"};
    private static final String[] STRINGS = {"", "x", "Tom & Jerry", "a&b=c", "x&data.y=1", "&a[0]=", "a=b&c",
        "\u00e9\u65e5\u672c", "\ud83d\ude00", "tab\there", "q\"", "\\", "\u2028", "&", "&&a=", "a&b", "100.50",
        "yourkey", "&x.y[2]=v"};
    private static final String[] NUMBERS = {"0", "-0", "1", "100.50", "1e5", "-2.5E-3", "12345678901234567890.10"};

    private static void value(JsonWriter w, Random r, int depth) {
        int roll = r.nextInt(100);
        if (roll < 12 && depth < 6) {
            object(w, r, depth + 1);
        } else if (roll < 22 && depth < 6) {
            w.beginArray();
            int n = r.nextInt(10) == 0 ? 12 + r.nextInt(20) : r.nextInt(4);
            for (int i = 0; i < n; i++) {
                value(w, r, depth + 1);
            }
            w.endArray();
        } else if (roll < 55) {
            w.value(STRINGS[r.nextInt(STRINGS.length)]);
        } else if (roll < 70) {
            w.number(NUMBERS[r.nextInt(NUMBERS.length)]);
        } else if (roll < 78) {
            w.value(new BigDecimal(NUMBERS[r.nextInt(NUMBERS.length)]));
        } else if (roll < 88) {
            w.value(r.nextLong() >> r.nextInt(64));
        } else {
            w.value(r.nextBoolean());
        }
    }

    private static void object(JsonWriter w, Random r, int depth) {
        w.beginObject();
        int n = r.nextInt(8) == 0 ? 14 + r.nextInt(10) : r.nextInt(5);
        for (int i = 0; i < n; i++) {
            // Mostly safe keys, sometimes one a rule refuses or one written twice.
            String key = r.nextInt(6) == 0 ? KEYS[r.nextInt(KEYS.length)] : "k" + r.nextInt(depth == 1 ? 40 : 12);
            w.name(key);
            value(w, r, depth);
        }
        w.endObject();
    }

    private static void body(JsonWriter w, Random r) {
        int shape = r.nextInt(40);
        if (shape == 0) {
            // Nesting near and past the limit.
            int levels = Canonical.MAX_DEPTH - 2 + r.nextInt(5);
            w.beginObject().name("a");
            for (int i = 1; i < levels; i++) {
                w.beginArray();
            }
            for (int i = 1; i < levels; i++) {
                w.endArray();
            }
            w.endObject();
        } else if (shape == 1) {
            // A long key above many values: past the expansion budget, or just under it.
            w.beginObject().name("k".repeat(2000 + r.nextInt(3000))).beginArray();
            int n = 500 + r.nextInt(1500);
            for (int i = 0; i < n; i++) {
                w.value(1);
            }
            w.endArray().endObject();
        } else {
            object(w, r, 1);
        }
    }

    /** What reading gives: the signature, or the refusal. */
    private static String outcome(Flattened flat) {
        return "signed " + flat.signatureHex(KEY);
    }

    private static String outcome(CanonicalException e) {
        return "refused " + e.kind() + " " + e.rule() + " at " + e.path() + ": " + e.getMessage() + " @" + e.offset();
    }

    @Test
    void signingWhileWritingIsReadingBack() {
        Random r = new Random(36);
        int recorded = 0;
        int refused = 0;
        int fellBack = 0;
        for (int i = 0; i < 6000; i++) {
            PairsRecorder recorder = new PairsRecorder();
            JsonWriter w = new JsonWriter(recorder);
            body(w, r);
            byte[] bytes = w.toBytes();
            String read;
            try {
                read = outcome(Canonical.parseForSigning(bytes));
            } catch (CanonicalException e) {
                read = outcome(e);
            }
            String written;
            try {
                Flattened flat = recorder.finish(bytes);
                if (flat == null) {
                    fellBack++;
                    assertTrue(new String(bytes, StandardCharsets.UTF_8).contains("\"signature\":"),
                            "only a top-level signature makes the recorder give up");
                    continue;
                }
                written = outcome(flat);
            } catch (CanonicalException e) {
                written = outcome(e);
            }
            assertEquals(read, written, new String(bytes, StandardCharsets.UTF_8));
            if (written.startsWith("refused")) {
                refused++;
            } else {
                recorded++;
            }
        }
        // The corpus exercises every branch.
        assertTrue(recorded > 1000 && refused > 1000 && fellBack > 20,
                recorded + " signed, " + refused + " refused, " + fellBack + " read back");
    }

    @Test
    void theSdksRequestsAreSignedWhileWrittenAndVerify() {
        Envelope.SignedRequest request = Envelope.signRequest(w -> w.beginObject().name("amount")
                .value(new BigDecimal("100.50")).name("remark").value("Tom & Jerry").name("items").beginArray()
                .beginObject().name("q").value(2).endObject().endArray().endObject(), "client1", "en_KE", KEY, null);
        Flattened flat = Signer.verify(request.body(), KEY);
        assertNotNull(flat.signature().orElse(null));
        assertEquals(request.requestId(), flat.value().getString("requestId"));
        EncodeException e = org.junit.jupiter.api.Assertions.assertThrows(EncodeException.class,
                () -> Envelope.signRequest(w -> w.beginObject().name("remark").value("x&data.y=1").endObject(),
                        "client1", "en_KE", KEY, null));
        assertTrue(e.getMessage().contains("rule R3 at `params.remark`"), e.getMessage());
        assertNull(new PairsRecorder().finish(new byte[0]), "nothing recorded: read back");
    }
}
