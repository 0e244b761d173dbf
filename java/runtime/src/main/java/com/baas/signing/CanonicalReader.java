package com.baas.signing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One pass over a body (already checked to be valid UTF-8): the value tree, the pairs in
 * document order and the checks, refusing as soon as a limit or rule is broken.
 */
final class CanonicalReader {
    private static final String SIGNATURE = "signature";

    private final byte[] body;
    private final boolean nullMembers;
    private boolean unambiguous;
    private int pos;
    /** The UTF-8 length of the last string read. */
    private long lastLength;

    final List<String> pairs = new ArrayList<>();
    private long pairBytes;
    String signature;
    boolean hasSignatureKey;
    boolean hasSenderKeyPair;
    String firstNull;

    CanonicalReader(byte[] body, boolean unambiguous, boolean nullMembers) {
        this.body = body;
        this.unambiguous = unambiguous;
        this.nullMembers = nullMembers;
    }

    private CanonicalException syntax(String expected) {
        return CanonicalException.at(CanonicalException.Kind.SYNTAX,
                "invalid JSON at byte " + pos + ": expected " + expected, pos);
    }

    private void ws() {
        while (pos < body.length) {
            byte c = body[pos];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                pos++;
            } else {
                return;
            }
        }
    }

    private int peek() {
        return pos < body.length ? body[pos] & 0xFF : -1;
    }

    private void withinBudget() {
        if (pairBytes > (long) pos * Canonical.MAX_EXPANSION + Canonical.EXPANSION_ALLOWANCE) {
            throw CanonicalException.at(CanonicalException.Kind.TOO_LARGE,
                    "the flattened pairs are more than " + Canonical.MAX_EXPANSION
                            + " times as long as the body at byte " + pos
                            + " (each value repeats its whole path: long keys above many values)",
                    pos);
        }
    }

    private void pair(String path, long pathLength, String text, long textLength) {
        pairBytes += pathLength + 1 + textLength;
        pairs.add(path + "=" + text);
    }

    JsonValue.JsonObject top() {
        ws();
        if (peek() != '{') {
            throw CanonicalException.of(CanonicalException.Kind.NOT_AN_OBJECT, "body is not a JSON object");
        }
        JsonValue.JsonObject value = object(1, "", 0, true);
        ws();
        if (pos != body.length) {
            throw syntax("end of input");
        }
        return value;
    }

    private static CanonicalException tooDeep() {
        return CanonicalException.of(CanonicalException.Kind.TOO_DEEP,
                "JSON nested deeper than " + Canonical.MAX_DEPTH + " levels");
    }

    private JsonValue.JsonObject object(int depth, String path, long pathLength, boolean top) {
        if (depth > Canonical.MAX_DEPTH) {
            throw tooDeep();
        }
        pos++; // {
        ws();
        Map<String, JsonValue> out = new LinkedHashMap<>();
        if (peek() == '}') {
            pos++;
            if (!top) {
                pair(path, pathLength, "{}", 2);
            }
            return new JsonValue.JsonObject(out);
        }
        String repeated = null;
        while (true) {
            ws();
            if (peek() != '"') {
                throw syntax("a key string");
            }
            String key = string();
            long keyLength = lastLength;
            String member = top ? key : path + "." + key;
            long memberLength = top ? keyLength : pathLength + 1 + keyLength;
            if (unambiguous) {
                if (Canonical.badKey(key)) {
                    throw CanonicalException.ambiguous(Ambiguity.KEY, member);
                }
                if (top && key.equals(Canonical.SENDER_KEY)) {
                    throw CanonicalException.ambiguous(Ambiguity.SENDER_KEY, member);
                }
            } else if (top && key.equals(Canonical.SENDER_KEY)) {
                hasSenderKeyPair = true;
            }
            ws();
            if (peek() != ':') {
                throw syntax("`:`");
            }
            pos++;
            ws();
            JsonValue value = top && key.equals(SIGNATURE)
                    ? signatureValue(depth)
                    : value(depth, member, memberLength, true);
            if (repeated == null && out.containsKey(key)) {
                repeated = member;
            }
            out.put(key, value);
            withinBudget();
            ws();
            int c = peek();
            if (c == ',') {
                pos++;
            } else if (c == '}') {
                pos++;
                break;
            } else {
                throw syntax("`,` or `}`");
            }
        }
        if (repeated != null) {
            throw CanonicalException.duplicateKey(repeated);
        }
        return new JsonValue.JsonObject(out);
    }

    private JsonValue.JsonArray array(int depth, String path, long pathLength) {
        if (depth > Canonical.MAX_DEPTH) {
            throw tooDeep();
        }
        pos++; // [
        ws();
        List<JsonValue> out = new ArrayList<>();
        if (peek() == ']') {
            pos++;
            pair(path, pathLength, "[]", 2);
            return new JsonValue.JsonArray(out);
        }
        int index = 0;
        while (true) {
            String suffix = "[" + index + "]";
            ws();
            out.add(value(depth, path + suffix, pathLength + suffix.length(), false));
            withinBudget();
            index++;
            ws();
            int c = peek();
            if (c == ',') {
                pos++;
            } else if (c == ']') {
                pos++;
                return new JsonValue.JsonArray(out);
            } else {
                throw syntax("`,` or `]`");
            }
        }
    }

    private JsonValue value(int depth, String path, long pathLength, boolean inObject) {
        int c = peek();
        if (c == '{') {
            return object(depth + 1, path, pathLength, false);
        }
        if (c == '[') {
            return array(depth + 1, path, pathLength);
        }
        if (c == '"') {
            String text = string();
            if (unambiguous && Canonical.readsAsPair(text)) {
                throw CanonicalException.ambiguous(Ambiguity.VALUE_READS_AS_PAIR, path);
            }
            pair(path, pathLength, text, lastLength);
            return new JsonValue.JsonString(text);
        }
        if (c == 't') {
            keyword("true");
            pair(path, pathLength, "true", 4);
            return new JsonValue.JsonBoolean(true);
        }
        if (c == 'f') {
            keyword("false");
            pair(path, pathLength, "false", 5);
            return new JsonValue.JsonBoolean(false);
        }
        if (c == 'n') {
            keyword("null");
            if (unambiguous && !(inObject && nullMembers)) {
                throw CanonicalException.ambiguous(Ambiguity.NULL, path);
            }
            if (firstNull == null) {
                firstNull = path;
            }
            return JsonValue.JsonNull.INSTANCE;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            String literal = number();
            pair(path, pathLength, literal, literal.length());
            return new JsonValue.JsonNumber(literal);
        }
        throw syntax("a JSON value");
    }

    /** A number, as {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?} (longest match). */
    private String number() {
        int n = body.length;
        int i = pos;
        if (body[i] == '-') {
            i++;
        }
        if (i < n && body[i] == '0') {
            i++;
        } else if (i < n && body[i] >= '1' && body[i] <= '9') {
            i = digits(i + 1);
        } else {
            throw syntax("a digit");
        }
        if (i + 1 < n && body[i] == '.' && isDigit(body[i + 1])) {
            i = digits(i + 2);
        }
        if (i < n && (body[i] == 'e' || body[i] == 'E')) {
            int j = i + 1;
            if (j < n && (body[j] == '+' || body[j] == '-')) {
                j++;
            }
            if (j < n && isDigit(body[j])) {
                i = digits(j + 1);
            }
        }
        String literal = new String(body, pos, i - pos, StandardCharsets.US_ASCII);
        pos = i;
        return literal;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private int digits(int from) {
        int i = from;
        while (i < body.length && isDigit(body[i])) {
            i++;
        }
        return i;
    }

    private void keyword(String word) {
        int n = word.length();
        if (pos + n > body.length) {
            throw syntax("a JSON value");
        }
        for (int k = 0; k < n; k++) {
            if (body[pos + k] != word.charAt(k)) {
                throw syntax("a JSON value");
            }
        }
        pos += n;
    }

    private static boolean isHex(byte b) {
        return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
    }

    /**
     * The string at {@code pos} (unescaped); its length in UTF-8 bytes in {@link #lastLength}.
     * Any error is reported at the opening quote.
     */
    private String string() {
        int start = pos;
        int n = body.length;
        int i = start + 1;
        boolean escaped = false;
        while (true) {
            if (i >= n) {
                throw syntax("a valid JSON string");
            }
            int c = body[i] & 0xFF;
            if (c == '"') {
                break;
            }
            if (c < 0x20) {
                throw syntax("a valid JSON string");
            }
            if (c == '\\') {
                escaped = true;
                if (i + 1 >= n) {
                    throw syntax("a valid JSON string");
                }
                byte e = body[i + 1];
                if (e == 'u') {
                    if (i + 5 >= n || !isHex(body[i + 2]) || !isHex(body[i + 3])
                            || !isHex(body[i + 4]) || !isHex(body[i + 5])) {
                        throw syntax("a valid JSON string");
                    }
                    i += 6;
                } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f'
                        || e == 'n' || e == 'r' || e == 't') {
                    i += 2;
                } else {
                    throw syntax("a valid JSON string");
                }
            } else {
                i++;
            }
        }
        int end = i;
        pos = end + 1;
        if (!escaped) {
            lastLength = end - start - 1;
            return new String(body, start + 1, end - start - 1, StandardCharsets.UTF_8);
        }
        StringBuilder text = new StringBuilder(end - start);
        int run = start + 1;
        int j = start + 1;
        while (j < end) {
            if (body[j] != '\\') {
                j++;
                continue;
            }
            text.append(new String(body, run, j - run, StandardCharsets.UTF_8));
            byte e = body[j + 1];
            switch (e) {
                case 'b' -> text.append('\b');
                case 'f' -> text.append('\f');
                case 'n' -> text.append('\n');
                case 'r' -> text.append('\r');
                case 't' -> text.append('\t');
                case 'u' -> text.append((char) Integer.parseInt(
                        new String(body, j + 2, 4, StandardCharsets.US_ASCII), 16));
                default -> text.append((char) e); // " \ /
            }
            j += e == 'u' ? 6 : 2;
            run = j;
        }
        text.append(new String(body, run, end - run, StandardCharsets.UTF_8));
        long length = 0;
        for (int k = 0; k < text.length(); k++) {
            char ch = text.charAt(k);
            if (Character.isHighSurrogate(ch) && k + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(k + 1))) {
                length += 4;
                k++;
            } else if (Character.isSurrogate(ch)) {
                pos = start;
                throw syntax("no lone surrogate `\\uD800`-`\\uDFFF`");
            } else {
                length += ch < 0x80 ? 1 : ch < 0x800 ? 2 : 3;
            }
        }
        lastLength = length;
        return text.toString();
    }

    /** The top-level {@code signature}: a string, {@code null}, or refused once read through. */
    private JsonValue signatureValue(int depth) {
        hasSignatureKey = true;
        int c = peek();
        if (c == 'n') {
            keyword("null");
            return JsonValue.JsonNull.INSTANCE;
        }
        if (c == '"') {
            String text = string();
            signature = text;
            return new JsonValue.JsonString(text);
        }
        // Read it all first so that a syntax error is reported as such.
        boolean saved = unambiguous;
        int count = pairs.size();
        long savedBytes = pairBytes;
        unambiguous = false;
        value(depth, SIGNATURE, SIGNATURE.length(), true);
        unambiguous = saved;
        pairs.subList(count, pairs.size()).clear();
        pairBytes = savedBytes;
        throw CanonicalException.of(CanonicalException.Kind.SIGNATURE_NOT_STRING,
                "`signature` is not a string");
    }
}
