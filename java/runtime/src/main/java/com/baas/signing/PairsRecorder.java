package com.baas.signing;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Signs a JSON object while it is written, instead of reading the written bytes back: a
 * serializer that writes compact JSON (no whitespace) tells the recorder what it wrote and
 * where, and {@link #finish(byte[])} gives the same {@link Flattened} that
 * {@link Canonical#parseForSigning(byte[])} would give for those bytes (the SDK's
 * {@code JsonWriter} uses it to sign requests). The same rules and limits apply, at the same
 * points of the text: the first refusal is kept and thrown by {@link #finish(byte[])}, so a
 * serializer's own errors come first, as they would before a read back. Positions are byte
 * offsets in the text written; a string value is given with the offset of its first byte
 * after the opening quote. Names are copied (the members of an object are sorted when it
 * closes); values are read from the finished text.
 *
 * <p>A top-level {@code signature} member, or anything the recorder cannot follow, makes
 * {@link #finish(byte[])} return {@code null}: then read the bytes back instead.
 */
public final class PairsRecorder {
    private static final byte[] SIGNATURE = "signature".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SENDER_KEY = Canonical.SENDER_KEY.getBytes(StandardCharsets.US_ASCII);

    private final Tape tape = new Tape(1024);
    private final int[] chain = new int[Canonical.MAX_DEPTH + 2];
    private final int[] base = new int[Canonical.MAX_DEPTH + 2];
    private final int[] next = new int[Canonical.MAX_DEPTH + 2];
    private final long[] pathLengths = new long[Canonical.MAX_DEPTH + 2];
    private final int[] lastObject = new int[Canonical.MAX_DEPTH + 2];
    private int[] stack = new int[64];
    private int sp;
    private int depth;
    /** The member named last, waiting for its value, and its path's length. */
    private int member = -1;
    private long memberLength;
    private long pairBytes;
    private boolean abandoned;
    private CanonicalException refusal;

    /** A recorder for one JSON object. */
    public PairsRecorder() {
        Arrays.fill(lastObject, -1);
    }

    private boolean off() {
        return abandoned || refusal != null;
    }

    private void refuse(CanonicalException e) {
        if (refusal == null) {
            refusal = e;
        }
    }

    private void push(int id) {
        if (sp == stack.length) {
            stack = Arrays.copyOf(stack, sp * 2);
        }
        stack[sp++] = id;
    }

    /** The record for the value about to be written in the container at {@link #depth}, and its path's length. */
    private int valueNode() {
        if (tape.kind(chain[depth]) == Tape.OBJECT) {
            if (member < 0) {
                abandoned = true;
                return -1;
            }
            int id = member;
            member = -1;
            return id;
        }
        int index = next[depth]++;
        int id = tape.add(Tape.NULL);
        tape.setKey(id, index, 0);
        push(id);
        memberLength = pathLengths[depth] + 2 + CanonicalReader.digits(index);
        return id;
    }

    private void withinBudget(int pos) {
        if (pairBytes > (long) pos * Canonical.MAX_EXPANSION + Canonical.EXPANSION_ALLOWANCE) {
            refuse(CanonicalException.at(CanonicalException.Kind.TOO_LARGE,
                    "the flattened pairs are more than " + Canonical.MAX_EXPANSION
                            + " times as long as the body at byte " + pos
                            + " (each value repeats its whole path: long keys above many values)", pos));
        }
    }

    private void open(boolean object) {
        int id;
        long length = 0;
        if (depth == 0) {
            if (!object || tape.count > 0) {
                abandoned = true;
                return;
            }
            id = tape.add(Tape.OBJECT);
        } else {
            id = valueNode();
            if (id < 0) {
                return;
            }
            length = memberLength;
            if (depth + 1 > Canonical.MAX_DEPTH) {
                refuse(CanonicalException.of(CanonicalException.Kind.TOO_DEEP,
                        "JSON nested deeper than " + Canonical.MAX_DEPTH + " levels"));
                return;
            }
        }
        depth++;
        tape.setKind(id, object ? Tape.OBJECT : Tape.ARRAY);
        chain[depth] = id;
        base[depth] = sp;
        next[depth] = 0;
        pathLengths[depth] = length;
    }

    /** An object opens (<code>{</code> written). */
    public void beginObject() {
        if (!off()) {
            open(true);
        }
    }

    /** An array opens ({@code [} written). */
    public void beginArray() {
        if (!off()) {
            open(false);
        }
    }

    /**
     * The innermost object closes.
     *
     * @param end the length of the text written, <code>}</code> included
     */
    public void endObject(int end) {
        close(true, end);
    }

    /**
     * The innermost array closes.
     *
     * @param end the length of the text written, {@code ]} included
     */
    public void endArray(int end) {
        close(false, end);
    }

    private void close(boolean object, int end) {
        if (off()) {
            return;
        }
        if (depth == 0 || (tape.kind(chain[depth]) == Tape.OBJECT) != object || member >= 0) {
            abandoned = true;
            return;
        }
        int id = chain[depth];
        int from = base[depth];
        int n = sp - from;
        if (n == 0 && (depth > 1 || !object)) {
            pairBytes += pathLengths[depth] + 3;
        }
        tape.children(id, stack, from, sp, object);
        sp = from;
        if (object && n > 0) {
            int previous = lastObject[depth];
            lastObject[depth] = id;
            if (previous < 0 || !tape.sameShape(previous, id)) {
                int repeated = tape.sortMembers(id);
                if (repeated >= 0) {
                    refuse(CanonicalException.duplicateKey(tape.path(chain, depth + 1, repeated)));
                    return;
                }
            }
        }
        depth--;
        if (depth > 0) {
            withinBudget(end);
        }
    }

    /** Whether UTF-8 text holds one of {@code & = . [ ]} (no byte of a multi-byte character is one). */
    private static boolean holdsSeparator(byte[] text) {
        for (byte b : text) {
            if (b == '&' || b == '=' || b == '.' || b == '[' || b == ']') {
                return true;
            }
        }
        return false;
    }

    private static boolean holdsAmpersand(byte[] text) {
        for (byte b : text) {
            if (b == '&') {
                return true;
            }
        }
        return false;
    }

    /** A copy of {@code text} in the tape's scratch bytes. */
    private int copy(byte[] text) {
        int ref = tape.scratchReserve(text.length);
        System.arraycopy(text, 0, tape.scratch, Tape.offset(ref), text.length);
        return ref;
    }

    /**
     * A member's name, written as a JSON string.
     *
     * @param name the name's UTF-8 (unescaped); the recorder copies it
     */
    public void name(byte[] name) {
        if (off()) {
            return;
        }
        if (depth == 0 || tape.kind(chain[depth]) != Tape.OBJECT || member >= 0) {
            abandoned = true;
            return;
        }
        boolean top = depth == 1;
        if (top && Arrays.equals(name, SIGNATURE)) {
            abandoned = true;
            return;
        }
        // Keys are compared before the text is finished: the recorder keeps its own copy.
        int id = tape.add(Tape.NULL);
        int length = name.length;
        tape.setKey(id, copy(name), length);
        push(id);
        if (top && Arrays.equals(name, SENDER_KEY)) {
            refuse(CanonicalException.ambiguous(Ambiguity.SENDER_KEY, tape.path(chain, depth + 1, id)));
            return;
        }
        if (length == 0 || holdsSeparator(name)) {
            refuse(CanonicalException.ambiguous(Ambiguity.KEY, tape.path(chain, depth + 1, id)));
            return;
        }
        member = id;
        memberLength = top ? length : pathLengths[depth] + 1 + length;
    }

    /**
     * A string value.
     *
     * @param value its UTF-8 (unescaped); copied only when {@code escaped}
     * @param at where its text starts in the text written (after the opening quote)
     * @param escaped whether the text written holds an escape (then it is not {@code value})
     * @param end the length of the text written, the closing quote included
     */
    public void string(byte[] value, int at, boolean escaped, int end) {
        if (off() || depth == 0) {
            abandoned |= depth == 0;
            return;
        }
        int id = valueNode();
        if (id < 0) {
            return;
        }
        // The value is read from the text written once it is finished, unless it was escaped there.
        int ref = escaped ? copy(value) : at;
        int length = value.length;
        if (holdsAmpersand(value) && Canonical.readsAsPair(value, 0, length)) {
            refuse(CanonicalException.ambiguous(Ambiguity.VALUE_READS_AS_PAIR, tape.path(chain, depth + 1, id)));
            return;
        }
        tape.setKind(id, Tape.STRING);
        tape.set(id, ref, length);
        pairBytes += memberLength + 1 + length;
        withinBudget(end);
    }

    /**
     * A number, {@code true} or {@code false}, written as its JSON text.
     *
     * @param at where its text starts
     * @param length its length
     * @param kind what it is
     */
    public void literal(int at, int length, Literal kind) {
        if (off() || depth == 0) {
            abandoned |= depth == 0;
            return;
        }
        int id = valueNode();
        if (id < 0) {
            return;
        }
        tape.setKind(id, kind == Literal.NUMBER ? Tape.NUMBER : kind == Literal.TRUE ? Tape.TRUE : Tape.FALSE);
        tape.set(id, at, length);
        pairBytes += memberLength + 1 + length;
        withinBudget(at + length);
    }

    /** The kinds of {@link #literal}. */
    public enum Literal {
        /** A JSON number. */
        NUMBER,
        /** {@code true}. */
        TRUE,
        /** {@code false}. */
        FALSE
    }

    /**
     * The body recorded, flattened, as {@link Canonical#parseForSigning(byte[])} would read
     * {@code written}.
     *
     * @param written the text written (the recorder keeps it: do not change it afterwards)
     * @return the body flattened, or {@code null} when the recorder could not follow the
     *     writing (read {@code written} back instead)
     * @throws CanonicalException the first rule or limit the body breaks
     */
    public Flattened finish(byte[] written) {
        if (refusal != null) {
            throw refusal;
        }
        if (abandoned || depth != 0 || tape.count == 0 || written.length > Canonical.MAX_BODY) {
            return null;
        }
        tape.body = written;
        tape.pairBytes = pairBytes;
        return new Flattened(tape, null, false, false, List.of());
    }
}
