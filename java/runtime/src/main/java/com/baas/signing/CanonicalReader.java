package com.baas.signing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One pass over a body (already checked to be valid UTF-8) into a {@link Tape}, with the
 * checks, refusing as soon as a limit or rule is broken. No string, map or pair is built while
 * reading: keys and values stay where they are in the body (strings with escapes are unescaped
 * into the tape's scratch bytes), each object's members are sorted by label when it closes
 * (which also finds a repeated key), and a path is written out only for a refusal or a null.
 */
final class CanonicalReader {
    private static final byte[] SIGNATURE = "signature".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SENDER_KEY = Canonical.SENDER_KEY.getBytes(StandardCharsets.US_ASCII);

    /** Byte classes: {@link #STOP} ends the plain run of a string, {@link #SPECIAL} & = . [ ], {@link #AMP} &. */
    private static final byte[] CLASS = new byte[256];
    private static final int STOP = 1;
    private static final int SPECIAL = 2;
    private static final int AMP = 4;

    static {
        for (int c = 0; c < 0x20; c++) {
            CLASS[c] = STOP;
        }
        CLASS['"'] = STOP;
        CLASS['\\'] = STOP;
        for (char c : new char[] {'&', '=', '.', '[', ']'}) {
            CLASS[c] = SPECIAL;
        }
        CLASS['&'] = SPECIAL | AMP;
    }

    private final byte[] body;
    private final boolean nullMembers;
    private boolean unambiguous;
    private int pos;
    /** Where the last string read starts ({@link Tape#source} encoding) and its UTF-8 length. */
    private int strRef;
    private int strLength;
    /** The classes ({@link #SPECIAL}, {@link #AMP}) of the last string's characters. */
    private int strFlags;

    final Tape tape;
    private long pairBytes;
    /** The children of the open containers, innermost last. */
    private int[] stack = new int[64];
    private int sp;
    /** The record being read at each depth (depth 1: the top-level object). */
    private final int[] chain = new int[Canonical.MAX_DEPTH + 2];
    /** The last object closed at each depth, whose member order the next one may share. */
    private final int[] lastObject = new int[Canonical.MAX_DEPTH + 2];
    String signature;
    boolean hasSignatureKey;
    boolean hasSenderKeyPair;
    /** The paths of the nulls read (skipped), in document order. */
    final List<String> nulls = new ArrayList<>(0);

    CanonicalReader(byte[] body, boolean unambiguous, boolean nullMembers) {
        this.body = body;
        this.unambiguous = unambiguous;
        this.nullMembers = nullMembers;
        this.tape = new Tape(body);
        Arrays.fill(lastObject, -1);
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

    private void push(int id) {
        if (sp == stack.length) {
            stack = Arrays.copyOf(stack, sp * 2);
        }
        stack[sp++] = id;
    }

    /** The path of record {@code id}, read at {@code depth} (its container at depth - 1). */
    private String path(int depth, int id) {
        return tape.path(chain, depth, id);
    }

    Tape top() {
        ws();
        if (peek() != '{') {
            throw CanonicalException.of(CanonicalException.Kind.NOT_AN_OBJECT, "body is not a JSON object");
        }
        int id = tape.add(Tape.OBJECT);
        object(1, id, 0, true);
        ws();
        if (pos != body.length) {
            throw syntax("end of input");
        }
        tape.pairBytes = pairBytes;
        return tape;
    }

    private static CanonicalException tooDeep() {
        return CanonicalException.of(CanonicalException.Kind.TOO_DEEP,
                "JSON nested deeper than " + Canonical.MAX_DEPTH + " levels");
    }

    /** Reads the object at {@code pos} into record {@code id}, which is at {@code depth}. */
    private void object(int depth, int id, long pathLength, boolean top) {
        if (depth > Canonical.MAX_DEPTH) {
            throw tooDeep();
        }
        tape.setKind(id, Tape.OBJECT);
        chain[depth] = id;
        pos++; // {
        ws();
        int base = sp;
        if (peek() == '}') {
            pos++;
            if (!top) {
                pairBytes += pathLength + 3;
            }
            tape.children(id, stack, base, base, true);
            return;
        }
        while (true) {
            ws();
            if (peek() != '"') {
                throw syntax("a key string");
            }
            string();
            int member = tape.add(Tape.NULL);
            tape.setKey(member, strRef, strLength);
            push(member);
            long memberLength = top ? strLength : pathLength + 1 + strLength;
            boolean isSignature = top && tape.keyIs(member, SIGNATURE);
            if (top && tape.keyIs(member, SENDER_KEY)) {
                if (unambiguous) {
                    throw CanonicalException.ambiguous(Ambiguity.SENDER_KEY, path(depth + 1, member));
                }
                hasSenderKeyPair = true;
                tape.clean = false;
            }
            if (badKey()) {
                if (unambiguous) {
                    throw CanonicalException.ambiguous(Ambiguity.KEY, path(depth + 1, member));
                }
                tape.clean = false;
            }
            ws();
            if (peek() != ':') {
                throw syntax("`:`");
            }
            pos++;
            ws();
            if (isSignature) {
                tape.signatureNode = member;
                signatureValue(depth, member);
            } else {
                value(depth, member, memberLength, true);
            }
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
        tape.children(id, stack, base, sp, true);
        sp = base;
        int previous = lastObject[depth];
        lastObject[depth] = id;
        if (previous >= 0 && tape.sameShape(previous, id)) {
            return;
        }
        int repeated = tape.sortMembers(id);
        if (repeated >= 0) {
            throw CanonicalException.duplicateKey(path(depth + 1, repeated));
        }
    }

    /** Rule R1 on the key just read: empty, or holding one of {@code & = . [ ]}. */
    private boolean badKey() {
        return strLength == 0 || (strFlags & SPECIAL) != 0;
    }

    private void array(int depth, int id, long pathLength) {
        if (depth > Canonical.MAX_DEPTH) {
            throw tooDeep();
        }
        tape.setKind(id, Tape.ARRAY);
        chain[depth] = id;
        pos++; // [
        ws();
        int base = sp;
        if (peek() == ']') {
            pos++;
            pairBytes += pathLength + 3;
            tape.children(id, stack, base, base, false);
            return;
        }
        int index = 0;
        while (true) {
            ws();
            int element = tape.add(Tape.NULL);
            tape.setKey(element, index, 0);
            push(element);
            value(depth, element, pathLength + 2 + digits(index), false);
            withinBudget();
            index++;
            ws();
            int c = peek();
            if (c == ',') {
                pos++;
            } else if (c == ']') {
                pos++;
                tape.children(id, stack, base, sp, false);
                sp = base;
                return;
            } else {
                throw syntax("`,` or `]`");
            }
        }
    }

    /** The number of decimal digits of {@code i} (not negative). */
    static int digits(int i) {
        int n = 1;
        while (i >= 10) {
            i /= 10;
            n++;
        }
        return n;
    }

    /** Reads the value at {@code pos} into record {@code id}, a child of the container at {@code depth}. */
    private void value(int depth, int id, long pathLength, boolean inObject) {
        int c = peek();
        if (c == '"') {
            string();
            if (unambiguous && (strFlags & AMP) != 0
                    && Canonical.readsAsPair(tape.source(strRef), Tape.offset(strRef), strLength)) {
                throw CanonicalException.ambiguous(Ambiguity.VALUE_READS_AS_PAIR, path(depth + 1, id));
            }
            tape.setKind(id, Tape.STRING);
            tape.set(id, strRef, strLength);
            pairBytes += pathLength + 1 + strLength;
        } else if (c == '{') {
            object(depth + 1, id, pathLength, false);
        } else if (c == '[') {
            array(depth + 1, id, pathLength);
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            int start = pos;
            number();
            tape.setKind(id, Tape.NUMBER);
            tape.set(id, start, pos - start);
            pairBytes += pathLength + 1 + (pos - start);
        } else if (c == 't') {
            keyword("true");
            tape.setKind(id, Tape.TRUE);
            tape.set(id, pos - 4, 4);
            pairBytes += pathLength + 5;
        } else if (c == 'f') {
            keyword("false");
            tape.setKind(id, Tape.FALSE);
            tape.set(id, pos - 5, 5);
            pairBytes += pathLength + 6;
        } else if (c == 'n') {
            keyword("null");
            if (unambiguous && !(inObject && nullMembers)) {
                throw CanonicalException.ambiguous(Ambiguity.NULL, path(depth + 1, id));
            }
            tape.setKind(id, Tape.NULL);
            nulls.add(path(depth + 1, id));
        } else {
            throw syntax("a JSON value");
        }
    }

    /** A number, as {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?} (longest match). */
    private void number() {
        int n = body.length;
        int i = pos;
        if (body[i] == '-') {
            i++;
        }
        if (i < n && body[i] == '0') {
            i++;
        } else if (i < n && body[i] >= '1' && body[i] <= '9') {
            i = digitsFrom(i + 1);
        } else {
            throw syntax("a digit");
        }
        if (i + 1 < n && body[i] == '.' && isDigit(body[i + 1])) {
            i = digitsFrom(i + 2);
        }
        if (i < n && (body[i] == 'e' || body[i] == 'E')) {
            int j = i + 1;
            if (j < n && (body[j] == '+' || body[j] == '-')) {
                j++;
            }
            if (j < n && isDigit(body[j])) {
                i = digitsFrom(j + 1);
            }
        }
        pos = i;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private int digitsFrom(int from) {
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
     * The string at {@code pos}: where its text is in {@link #strRef} (unescaped into the
     * scratch bytes when it has escapes), its UTF-8 length in {@link #strLength}. Any error
     * is reported at the opening quote.
     */
    private void string() {
        int start = pos;
        int n = body.length;
        int i = start + 1;
        boolean escaped = false;
        int flags = 0;
        while (true) {
            if (i >= n) {
                throw syntax("a valid JSON string");
            }
            int c = body[i] & 0xFF;
            int k = CLASS[c];
            if (k == 0) {
                i++;
                continue;
            }
            if (k != STOP) {
                flags |= k;
                i++;
                continue;
            }
            if (c == '"') {
                break;
            }
            if (c < 0x20) {
                throw syntax("a valid JSON string");
            }
            // A backslash.
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
        }
        int end = i;
        pos = end + 1;
        if (!escaped) {
            strRef = start + 1;
            strLength = end - start - 1;
            strFlags = flags;
            return;
        }
        unescape(start, end);
        byte[] text = tape.scratch;
        int from = Tape.offset(strRef);
        flags = 0;
        for (int j = from; j < from + strLength; j++) {
            int k = CLASS[text[j] & 0xFF];
            if (k != STOP) {
                flags |= k;
            }
        }
        strFlags = flags;
    }

    /** Unescapes the string between the quotes at {@code start} and {@code end} into scratch bytes. */
    private void unescape(int start, int end) {
        // The unescaped text is never longer than the escaped one (\\uXXXX is 6 bytes for at most 3).
        int ref = tape.scratchReserve(end - start - 1);
        byte[] out = tape.scratch;
        int o = Tape.offset(ref);
        int j = start + 1;
        while (j < end) {
            byte b = body[j];
            if (b != '\\') {
                out[o++] = b;
                j++;
                continue;
            }
            byte e = body[j + 1];
            if (e != 'u') {
                out[o++] = switch (e) {
                    case 'b' -> '\b';
                    case 'f' -> '\f';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    case 't' -> '\t';
                    default -> e; // " \ /
                };
                j += 2;
                continue;
            }
            int cp = hex4(j + 2);
            j += 6;
            if (Character.isHighSurrogate((char) cp) && j < end && body[j] == '\\' && body[j + 1] == 'u'
                    && Character.isLowSurrogate((char) hex4(j + 2))) {
                cp = Character.toCodePoint((char) cp, (char) hex4(j + 2));
                j += 6;
            } else if (Character.isSurrogate((char) cp)) {
                pos = start;
                throw syntax("no lone surrogate `\\uD800`-`\\uDFFF`");
            }
            if (cp < 0x80) {
                out[o++] = (byte) cp;
            } else if (cp < 0x800) {
                out[o++] = (byte) (0xC0 | cp >> 6);
                out[o++] = (byte) (0x80 | cp & 0x3F);
            } else if (cp < 0x10000) {
                out[o++] = (byte) (0xE0 | cp >> 12);
                out[o++] = (byte) (0x80 | cp >> 6 & 0x3F);
                out[o++] = (byte) (0x80 | cp & 0x3F);
            } else {
                out[o++] = (byte) (0xF0 | cp >> 18);
                out[o++] = (byte) (0x80 | cp >> 12 & 0x3F);
                out[o++] = (byte) (0x80 | cp >> 6 & 0x3F);
                out[o++] = (byte) (0x80 | cp & 0x3F);
            }
        }
        int length = o - Tape.offset(ref);
        tape.scratchLength = Tape.offset(ref) + length;
        strRef = ref;
        strLength = length;
    }

    private int hex4(int at) {
        int v = 0;
        for (int k = 0; k < 4; k++) {
            v = v << 4 | Character.digit(body[at + k], 16);
        }
        return v;
    }

    /** The top-level {@code signature}: a string, {@code null}, or refused once read through. */
    private void signatureValue(int depth, int id) {
        hasSignatureKey = true;
        int c = peek();
        if (c == 'n') {
            keyword("null");
            tape.setKind(id, Tape.NULL);
            return;
        }
        if (c == '"') {
            string();
            tape.setKind(id, Tape.STRING);
            tape.set(id, strRef, strLength);
            signature = tape.text(id);
            return;
        }
        // Read it all first so that a syntax error is reported as such.
        long savedBytes = pairBytes;
        unambiguous = false;
        value(depth, id, SIGNATURE.length, true);
        pairBytes = savedBytes;
        throw CanonicalException.of(CanonicalException.Kind.SIGNATURE_NOT_STRING,
                "`signature` is not a string");
    }
}
