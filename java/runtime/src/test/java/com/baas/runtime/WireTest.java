package com.baas.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baas.signing.Canonical;
import com.baas.signing.JsonValue;
import com.baas.signing.PrivateKey;
import com.baas.signing.Signer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Writing what is sent, reading what is received, validation and value sets. */
class WireTest {
    static JsonValue.JsonObject read(String json) {
        return Canonical.parseLoose(json.getBytes(StandardCharsets.UTF_8)).value();
    }

    @Test
    void theWriterWritesExactTextThatSignsAsTheSignerReadsIt() {
        JsonWriter w = new JsonWriter().beginObject()
                .name("amount").value(new BigDecimal("100.50"))
                .name("text").decimalText(new BigDecimal("1E+3"))
                .name("s").value("quote\" back\\ nl\n tab\t ctl\u0001 é 😀 \u2028")
                .name("n").value(-12L)
                .name("b").value(true)
                .name("a").beginArray().value("x").beginObject().endObject().endArray()
                .endObject();
        String text = new String(w.toBytes(), StandardCharsets.UTF_8);
        assertEquals("{\"amount\":100.50,\"text\":\"1000\",\"s\":\"quote\\\" back\\\\ nl\\n tab\\t ctl\\u0001 é 😀 \u2028\","
                + "\"n\":-12,\"b\":true,\"a\":[\"x\",{}]}", text);
        JsonValue.JsonObject back = read(text);
        assertEquals("quote\" back\\ nl\n tab\t ctl\u0001 é 😀 \u2028", back.getString("s"));
        PrivateKey key = new PrivateKey("k");
        byte[] signed = Envelope.sign(w.toBytes(), key);
        assertEquals(Signer.sign(w.toBytes(), key), Signer.verify(signed, key).signature().orElseThrow());
        assertThrows(EncodeException.class, () -> new JsonWriter().value("lone \ud800 surrogate"));
    }

    @Test
    void nullsAreNeverSent() {
        JsonValue.JsonObject withNull = read("{\"a\":null,\"b\":1}");
        assertEquals("{\"b\":1}", new String(new JsonWriter().json(withNull).toBytes(), StandardCharsets.UTF_8));
        assertThrows(EncodeException.class, () -> Envelope.sign("{\"a\":null}".getBytes(StandardCharsets.UTF_8),
                new PrivateKey("k")));
    }

    @Test
    void moneyIsReadExactlyFromTextOrNumberAndNeverFromAnythingElse() {
        JsonValue.JsonObject o = read("{\"s\":\"12.30\",\"n\":12.30,\"e\":1e2,\"bad\":\"12,3\",\"b\":true}");
        assertEquals("12.30", Wire.decimal(o.get("s"), "s").toPlainString());
        assertEquals("12.30", Wire.decimal(o.get("n"), "n").toPlainString());
        assertEquals(0, new BigDecimal("100").compareTo(Wire.decimal(o.get("e"), "e")));
        assertNull(Wire.decimal(o.get("absent"), "absent"));
        DecodeException e = assertThrows(DecodeException.class, () -> Wire.decimal(o.get("bad"), "data.bad"));
        assertTrue(e.getMessage().contains("`data.bad`"), e.getMessage());
        assertThrows(DecodeException.class, () -> Wire.decimal(o.get("b"), "b"));
    }

    @Test
    void looseShapesAreReadAsTheDocumentAllows() {
        JsonValue.JsonObject o = read("{\"i\":\"42\",\"s\":42,\"big\":99999999999999999999,\"l\":[\"a\",null,\"b\"]}");
        assertEquals(42L, Wire.integer(o.get("i"), "i"));
        assertEquals("42", Wire.string(o.get("s"), "s"));
        assertThrows(DecodeException.class, () -> Wire.integer(o.get("big"), "big"));
        assertEquals(List.of("a", "b"), Wire.list(o.get("l"), "l", Wire::string));
        assertThrows(DecodeException.class, () -> Wire.int32(read("{\"x\":3000000000}").get("x"), "x"));
        assertEquals(Map.of(), Wire.object(null, "data").members());
    }

    /** A value set as generated code writes one. */
    static final class Currency extends ValueSet {
        static final Currency KES = new Currency("KES", true);
        static final Currency USD = new Currency("USD", true);

        private Currency(String wire, boolean known) {
            super(wire, known);
        }

        static Currency of(String wire) {
            return switch (wire) {
                case "KES" -> KES;
                case "USD" -> USD;
                default -> new Currency(wire, false);
            };
        }
    }

    @Test
    void aValueSetKeepsAValueItDoesNotKnow() {
        JsonValue.JsonObject o = read("{\"c\":\"KES\",\"d\":\"XAF\",\"n\":8}");
        assertTrue(Wire.valueOf(o.get("c"), "c", Currency::of) == Currency.KES);
        Currency unknown = Wire.valueOf(o.get("d"), "d", Currency::of);
        assertFalse(unknown.isKnown());
        assertEquals("XAF", unknown.wire());
        assertEquals(unknown, Currency.of("XAF"));
        assertNotEquals(unknown, Currency.KES);
        assertEquals("8", Wire.valueOf(o.get("n"), "n", Currency::of).wire());
    }

    @Test
    void theValidatorNamesEachFieldAndRule() {
        Validator v = new Validator();
        FieldPath rows = FieldPath.ROOT.field("oderArray");
        v.maxChars(rows.index(2).field("remark"), "😀😀😀", 2);
        v.minChars(FieldPath.ROOT.field("pin"), "12", 4);
        v.alphanumeric(FieldPath.ROOT.field("ref"), "ab-1");
        v.base64MaxBytes(FieldPath.ROOT.field("img"), "QUJD", 2);
        v.base64MaxBytes(FieldPath.ROOT.field("img2"), "QU=D", 9);
        v.rangeInt(FieldPath.ROOT.field("pageSize"), 51, 1L, 50L);
        v.rangeAmount(FieldPath.ROOT.field("amount"), new BigDecimal("0.50"), new BigDecimal("1"), null);
        v.whole(FieldPath.ROOT.field("units"), new BigDecimal("100.50"));
        v.whole(FieldPath.ROOT.field("units2"), new BigDecimal("100.00"));
        v.maxItems(rows, 3, 2);
        v.requiredIf(FieldPath.ROOT.field("swift"), false, true, "payeeBankCode is 99");
        v.atLeastOneOf(FieldPath.ROOT, Validator.present("phone", false), Validator.present("email", false));
        v.exactlyOneOf(FieldPath.ROOT, Validator.present("a", true), Validator.present("b", true));
        List<String> got = v.violations().stream().map(x -> x.field() + " " + x.rule().wireName()).toList();
        assertEquals(List.of("oderArray[2].remark max_chars", "pin min_chars", "ref alphanumeric",
                "img base64_max_bytes", "img2 base64", "pageSize range", "amount range", "units whole",
                "oderArray max_items", "swift required_if", "phone|email at_least_one_of", "a|b exactly_one_of"), got);
        InvalidRequestException e = assertThrows(InvalidRequestException.class, v::finish);
        assertEquals(12, e.violations().size());
        new Validator().finish();
    }

    @Test
    void aSignedRequestIsOneTheVerifierAccepts() {
        PrivateKey key = new PrivateKey("k");
        Envelope.SignedRequest s = Envelope.signRequest(w -> w.beginObject().name("x").value("1").endObject(),
                "me", "en_KE", key, null);
        Envelope.ReceivedRequest r = Envelope.verifyRequest(s.body(), key);
        assertEquals(s.requestId(), r.requestId());
        assertEquals("1", r.params().getString("x"));
        String unsigned = new String(s.body(), StandardCharsets.UTF_8)
                .replaceFirst(",\"signature\":\"[0-9a-f]{64}\"}$", "}");
        assertArrayEquals(s.body(), Envelope.sign(unsigned.getBytes(StandardCharsets.UTF_8), key),
                "the signature is the last member, every other byte as written");
    }
}
