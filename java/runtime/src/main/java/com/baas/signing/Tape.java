package com.baas.signing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A body as {@link CanonicalReader} leaves it: one record of four ints per value, pointing
 * into the body's bytes (or into {@link #scratch} for strings that had escapes), and each
 * container's children twice: in document order, and for an object sorted by the label its
 * pairs start with. Nothing else is built while reading: the canonical string is written from
 * it ({@link CanonicalEmitter}), the {@link JsonValue} tree and the pairs as text only on demand.
 *
 * <p>A record: {@code [kind | keyLength << 3, key, a, b]}. {@code key} is where the member's
 * key starts (a negative value {@code ~k}: at {@code k} in {@link #scratch}), or an array
 * element's index. For a scalar, {@code a}/{@code b} are where its text starts (same encoding)
 * and its length; for a container, where its children start in {@link #kids} and how many
 * there are (for an object, their positions sorted by label follow right after them).
 */
final class Tape {
    static final int OBJECT = 0;
    static final int ARRAY = 1;
    static final int STRING = 2;
    static final int NUMBER = 3;
    static final int TRUE = 4;
    static final int FALSE = 5;
    static final int NULL = 6;

    static final int STRIDE = 4;

    /** The bytes the records point into. */
    final byte[] body;
    byte[] scratch = new byte[0];
    int scratchLength;
    int[] nodes;
    int count;
    int[] kids;
    int kidsLength;
    /** The top-level {@code signature} member, or -1: never a pair. */
    int signatureNode = -1;
    /** Every key is clean (no R1, no top-level {@code senderKey}): the labels sort the pairs. */
    boolean clean = true;
    /** The length of the pairs (without {@code &}), as the reader counted them for its budget. */
    long pairBytes;
    /** How many times two members were compared (for the tests that bound the work). */
    long comparisons;

    Tape(byte[] body) {
        this.body = body;
        int estimate = Math.max(16, body.length / 24);
        nodes = new int[estimate * STRIDE];
        kids = new int[estimate];
    }

    /**
     * The path of record {@code id}, a child of {@code chain[depth - 1]}, where {@code chain[d]}
     * is the container being read at depth {@code d} (the top-level object at 1).
     */
    String path(int[] chain, int depth, int id) {
        StringBuilder b = new StringBuilder();
        for (int d = 2; d <= depth; d++) {
            int node = d == depth ? id : chain[d];
            if (kind(chain[d - 1]) == ARRAY) {
                b.append('[').append(key(node)).append(']');
            } else {
                if (d > 2) {
                    b.append('.');
                }
                b.append(keyText(node));
            }
        }
        return b.toString();
    }

    int add(int kind) {
        if ((count + 1) * STRIDE > nodes.length) {
            nodes = Arrays.copyOf(nodes, nodes.length * 2);
        }
        int id = count++;
        nodes[id * STRIDE] = kind;
        return id;
    }

    int kind(int id) {
        return nodes[id * STRIDE] & 7;
    }

    void setKind(int id, int kind) {
        nodes[id * STRIDE] = (nodes[id * STRIDE] & ~7) | kind;
    }

    int keyLength(int id) {
        return nodes[id * STRIDE] >>> 3;
    }

    int key(int id) {
        return nodes[id * STRIDE + 1];
    }

    void setKey(int id, int start, int length) {
        nodes[id * STRIDE] = (nodes[id * STRIDE] & 7) | (length << 3);
        nodes[id * STRIDE + 1] = start;
    }

    int a(int id) {
        return nodes[id * STRIDE + 2];
    }

    int b(int id) {
        return nodes[id * STRIDE + 3];
    }

    void set(int id, int a, int b) {
        nodes[id * STRIDE + 2] = a;
        nodes[id * STRIDE + 3] = b;
    }

    /** The bytes a text reference points into. */
    byte[] source(int ref) {
        return ref >= 0 ? body : scratch;
    }

    static int offset(int ref) {
        return ref >= 0 ? ref : ~ref;
    }

    /** Appends {@code length} bytes to the scratch buffer, returning the reference to them. */
    int scratchReserve(int length) {
        if (scratchLength + length > scratch.length) {
            scratch = Arrays.copyOf(scratch, Math.max(scratch.length * 2, scratchLength + length + 64));
        }
        int at = scratchLength;
        scratchLength += length;
        return ~at;
    }

    /** Stores the children {@code stack[from..to)} of a container, twice for an object. */
    void children(int id, int[] stack, int from, int to, boolean object) {
        int n = to - from;
        int need = object ? 2 * n : n;
        if (kidsLength + need > kids.length) {
            kids = Arrays.copyOf(kids, Math.max(kids.length * 2, kidsLength + need));
        }
        System.arraycopy(stack, from, kids, kidsLength, n);
        if (object) {
            for (int i = 0; i < n; i++) {
                kids[kidsLength + n + i] = i;
            }
        }
        set(id, kidsLength, n);
        kidsLength += need;
    }

    /** The byte that follows a member's key in its pairs: {@code .}, {@code [} or {@code =}. */
    int separator(int id) {
        int kind = kind(id);
        if (kind == OBJECT && b(id) > 0) {
            return '.';
        }
        return kind == ARRAY && b(id) > 0 ? '[' : '=';
    }

    /**
     * Compares two members of one object by their labels (key and separator) as UTF-8 bytes;
     * 0 only for equal keys. With clean keys (no separator in any), every pair under a member
     * starts with its label and no label is a prefix of another's, so sorting the members of
     * every object by label and writing them in that order is sorting all pairs by bytes.
     */
    int compareMembers(int x, int y) {
        comparisons++;
        int kx = key(x);
        int ky = key(y);
        int lx = keyLength(x);
        int ly = keyLength(y);
        byte[] bx = source(kx);
        byte[] by = source(ky);
        int sx = offset(kx);
        int sy = offset(ky);
        if (lx == ly && mismatch(bx, sx, by, sy, lx) < 0) {
            return 0;
        }
        return compareLabels(bx, sx, lx, separator(x), by, sy, ly, separator(y));
    }

    /** The first index where two runs of {@code length} bytes differ, or -1 (keys are short: a plain loop). */
    static int mismatch(byte[] a, int as, byte[] b, int bs, int length) {
        if (length > 32) {
            return Arrays.mismatch(a, as, as + length, b, bs, bs + length);
        }
        for (int i = 0; i < length; i++) {
            if (a[as + i] != b[bs + i]) {
                return i;
            }
        }
        return -1;
    }

    /** Compares the labels {@code key + separator} of two members as bytes. */
    static int compareLabels(byte[] a, int as, int al, int asep, byte[] b, int bs, int bl, int bsep) {
        int m = mismatch(a, as, b, bs, Math.min(al, bl));
        if (m < 0 && al == bl) {
            return asep - bsep;
        }
        if (m < 0) {
            m = Math.min(al, bl);
        }
        if (m < al && m < bl) {
            return (a[as + m] & 0xFF) - (b[bs + m] & 0xFF);
        }
        if (al < bl) {
            int c = asep - (b[bs + al] & 0xFF);
            return c != 0 ? c : -1;
        }
        int c = (a[as + bl] & 0xFF) - bsep;
        return c != 0 ? c : 1;
    }

    /** Whether a member's key is exactly {@code word} (ASCII). */
    boolean keyIs(int id, byte[] word) {
        int k = key(id);
        return keyLength(id) == word.length && mismatch(source(k), offset(k), word, 0, word.length) < 0;
    }

    String keyText(int id) {
        int k = key(id);
        return new String(source(k), offset(k), keyLength(id), StandardCharsets.UTF_8);
    }

    String text(int id) {
        int ref = a(id);
        return new String(source(ref), offset(ref), b(id), StandardCharsets.UTF_8);
    }

    /** Compares members at positions {@code i} and {@code j} of the object whose children start at {@code at}. */
    private int compareAt(int at, int i, int j) {
        return compareMembers(kids[at + i], kids[at + j]);
    }

    /**
     * Sorts an object's members by label (the positions after its children): insertion sort
     * for the few members objects have, a merge sort (stable) beyond. Returns the first member,
     * in document order, that repeats a key of an earlier one, or -1.
     */
    int sortMembers(int id) {
        int at = a(id);
        int n = b(id);
        int from = at + n;
        if (n <= 16) {
            insertion(at, from, from + n);
        } else {
            mergeSort(at, from, from + n, new int[n]);
        }
        int repeated = -1;
        for (int i = from + 1; i < from + n; i++) {
            // Stable: equal keys stay in document order, so the second of a run is its repeat.
            if (compareAt(at, kids[i - 1], kids[i]) == 0
                    && (i - 2 < from || compareAt(at, kids[i - 2], kids[i]) != 0)
                    && (repeated < 0 || kids[at + kids[i]] < repeated)) {
                repeated = kids[at + kids[i]];
            }
        }
        return repeated;
    }

    private void insertion(int at, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            int v = kids[i];
            int j = i - 1;
            while (j >= from && compareAt(at, kids[j], v) > 0) {
                kids[j + 1] = kids[j];
                j--;
            }
            kids[j + 1] = v;
        }
    }

    private void mergeSort(int at, int from, int to, int[] tmp) {
        if (to - from <= 16) {
            insertion(at, from, to);
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(at, from, mid, tmp);
        mergeSort(at, mid, to, tmp);
        if (compareAt(at, kids[mid - 1], kids[mid]) <= 0) {
            return;
        }
        System.arraycopy(kids, from, tmp, 0, mid - from);
        int i = 0;
        int j = mid;
        int k = from;
        while (i < mid - from && j < to) {
            kids[k++] = compareAt(at, tmp[i], kids[j]) <= 0 ? tmp[i++] : kids[j++];
        }
        while (i < mid - from) {
            kids[k++] = tmp[i++];
        }
    }

    /**
     * Whether object {@code id} has the members of object {@code previous}: the same keys in
     * the same order, each with the same separator. Its order is then the other's (and it has
     * no repeated key), as in a page of rows: the rows after the first need no sort.
     */
    boolean sameShape(int previous, int id) {
        int n = b(id);
        if (b(previous) != n) {
            return false;
        }
        int pa = a(previous);
        int ia = a(id);
        for (int i = 0; i < n; i++) {
            int p = kids[pa + i];
            int x = kids[ia + i];
            int length = keyLength(x);
            if (keyLength(p) != length || separator(p) != separator(x)) {
                return false;
            }
            int kp = key(p);
            int kx = key(x);
            if (mismatch(source(kp), offset(kp), source(kx), offset(kx), length) >= 0) {
                return false;
            }
        }
        System.arraycopy(kids, pa + n, kids, ia + n, n);
        return true;
    }

    /** The value of a record as a {@link JsonValue} (objects keep null members). */
    JsonValue value(int id) {
        switch (kind(id)) {
            case OBJECT -> {
                Map<String, JsonValue> members = new LinkedHashMap<>();
                for (int i = a(id); i < a(id) + b(id); i++) {
                    members.put(keyText(kids[i]), value(kids[i]));
                }
                return new JsonValue.JsonObject(members);
            }
            case ARRAY -> {
                List<JsonValue> elements = new ArrayList<>(b(id));
                for (int i = a(id); i < a(id) + b(id); i++) {
                    elements.add(value(kids[i]));
                }
                return new JsonValue.JsonArray(elements);
            }
            case STRING -> {
                return new JsonValue.JsonString(text(id));
            }
            case NUMBER -> {
                return new JsonValue.JsonNumber(text(id));
            }
            case TRUE -> {
                return new JsonValue.JsonBoolean(true);
            }
            case FALSE -> {
                return new JsonValue.JsonBoolean(false);
            }
            default -> {
                return JsonValue.JsonNull.INSTANCE;
            }
        }
    }
}
