package com.baas.signing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes the pairs of a {@link Tape}: sorted into SHA-256 (the signature), or as text (the
 * canonical string, the pairs in document order).
 *
 * <p>Sorted without sorting the pairs: when every key is clean, each object's members are
 * already sorted by label (the tape did it when the object closed) and an array's elements go
 * in the order of their indexes' decimal text followed by {@code ]} ({@code [10]} before
 * {@code [1]}, as bytes), which is generated, not compared. Writing the tree in that order is
 * the byte order of the whole pairs. When a key holds a separator (read without the rules, to
 * diagnose a body), the pairs are built and sorted as bytes instead
 * ({@link Arrays#compareUnsigned(byte[], byte[])}).
 */
final class CanonicalEmitter {
    private static final byte[] EMPTY_OBJECT = {'{', '}'};
    private static final byte[] EMPTY_ARRAY = {'[', ']'};
    private static final byte[] SENDER_KEY = Canonical.SENDER_KEY.getBytes(StandardCharsets.US_ASCII);

    private final Tape tape;
    private final int[] kids;
    private final MessageDigest sha;
    private final List<Object> out;
    private final boolean asText;
    private byte[] buf;
    private int len;
    private byte[] path = new byte[256];
    private int pathLength;
    private boolean first = true;
    private byte[] keyPair;

    private CanonicalEmitter(Tape tape, MessageDigest sha, List<Object> out, boolean asText) {
        this.tape = tape;
        this.kids = tape.kids;
        this.sha = sha;
        this.out = out;
        this.asText = asText;
        // Into SHA-256 in chunks of at most 8 KiB; no larger than the canonical string itself.
        this.buf = new byte[sha != null ? (int) Math.min(8192, 64 + tape.pairBytes + 2L * tape.count) : 256];
    }

    /** Feeds the canonical string (the pairs and {@code keyPair}, sorted, joined by {@code &}) into {@code sha}. */
    static void digest(Tape tape, byte[] keyPair, MessageDigest sha) {
        if (tape.clean) {
            CanonicalEmitter e = new CanonicalEmitter(tape, sha, null, false);
            e.keyPair = keyPair;
            e.sorted(0);
            if (e.keyPair != null) {
                e.keyPair();
            }
            e.flush();
            return;
        }
        List<byte[]> pairs = sortedBytes(tape, keyPair);
        for (int i = 0; i < pairs.size(); i++) {
            if (i > 0) {
                sha.update((byte) '&');
            }
            sha.update(pairs.get(i));
        }
    }

    /** The pairs and {@code keyPair}, as strings, sorted by their UTF-8 bytes. */
    static List<String> sortedText(Tape tape, byte[] keyPair) {
        List<String> result = new ArrayList<>();
        if (tape.clean) {
            List<Object> raw = new ArrayList<>();
            CanonicalEmitter e = new CanonicalEmitter(tape, null, raw, true);
            e.keyPair = keyPair;
            e.sorted(0);
            if (e.keyPair != null) {
                e.keyPair();
            }
            for (Object o : raw) {
                result.add((String) o);
            }
            return result;
        }
        for (byte[] pair : sortedBytes(tape, keyPair)) {
            result.add(new String(pair, StandardCharsets.UTF_8));
        }
        return result;
    }

    /** The pairs in document order, as strings. */
    static List<String> documentOrder(Tape tape) {
        List<Object> raw = new ArrayList<>();
        new CanonicalEmitter(tape, null, raw, true).inOrder(0);
        List<String> result = new ArrayList<>(raw.size());
        for (Object o : raw) {
            result.add((String) o);
        }
        return result;
    }

    private static List<byte[]> sortedBytes(Tape tape, byte[] keyPair) {
        List<Object> raw = new ArrayList<>();
        new CanonicalEmitter(tape, null, raw, false).inOrder(0);
        List<byte[]> pairs = new ArrayList<>(raw.size() + 1);
        for (Object o : raw) {
            pairs.add((byte[]) o);
        }
        pairs.add(keyPair);
        pairs.sort(Arrays::compareUnsigned);
        return pairs;
    }

    // ------------------------------------------------------------------ writing

    private void put(byte b) {
        if (len == buf.length) {
            room(1);
        }
        buf[len++] = b;
    }

    private void put(byte[] src, int from, int length) {
        if (len + length > buf.length) {
            if (sha != null && length > buf.length / 2) {
                flush();
                sha.update(src, from, length);
                return;
            }
            room(length);
        }
        System.arraycopy(src, from, buf, len, length);
        len += length;
    }

    private void room(int length) {
        if (sha != null) {
            flush();
        } else {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + length));
        }
    }

    private void flush() {
        if (sha != null && len > 0) {
            sha.update(buf, 0, len);
            len = 0;
        }
    }

    private void pair(byte[] src, int from, int length) {
        if (out == null) {
            if (!first) {
                put((byte) '&');
            }
            first = false;
            put(path, 0, pathLength);
            put((byte) '=');
            put(src, from, length);
            return;
        }
        len = 0;
        put(path, 0, pathLength);
        put((byte) '=');
        put(src, from, length);
        out.add(asText ? new String(buf, 0, len, StandardCharsets.UTF_8) : Arrays.copyOf(buf, len));
    }

    /** Writes the {@code senderKey} pair, once. */
    private void keyPair() {
        byte[] k = keyPair;
        keyPair = null;
        if (out == null) {
            if (!first) {
                put((byte) '&');
            }
            first = false;
            put(k, 0, k.length);
        } else {
            out.add(asText ? new String(k, StandardCharsets.UTF_8) : k.clone());
        }
    }

    private void scalar(int id) {
        int ref = tape.a(id);
        pair(tape.source(ref), Tape.offset(ref), tape.b(id));
    }

    private void pathRoom(int more) {
        if (pathLength + more > path.length) {
            path = Arrays.copyOf(path, Math.max(path.length * 2, pathLength + more));
        }
    }

    /** Appends a member's key (after a {@code .} unless at the top) to the path. */
    private void member(int id, boolean top) {
        int k = tape.key(id);
        int length = tape.keyLength(id);
        pathRoom(length + 1);
        if (!top) {
            path[pathLength++] = '.';
        }
        System.arraycopy(tape.source(k), Tape.offset(k), path, pathLength, length);
        pathLength += length;
    }

    /** Appends {@code [index]} to the path. */
    private void element(int index) {
        pathRoom(12);
        path[pathLength++] = '[';
        int digits = CanonicalReader.digits(index);
        for (int i = pathLength + digits - 1; i >= pathLength; i--) {
            path[i] = (byte) ('0' + index % 10);
            index /= 10;
        }
        pathLength += digits;
        path[pathLength++] = ']';
    }

    // ------------------------------------------------------------------ the two orders

    private void sorted(int id) {
        int kind = tape.kind(id);
        if (kind == Tape.OBJECT) {
            int n = tape.b(id);
            boolean top = id == 0;
            if (n == 0) {
                if (!top) {
                    pair(EMPTY_OBJECT, 0, 2);
                }
                return;
            }
            int saved = pathLength;
            int at = tape.a(id);
            for (int i = at + n; i < at + 2 * n; i++) {
                int child = kids[at + kids[i]];
                if (top && keyPair != null && beforeKeyPair(child)) {
                    keyPair();
                }
                if (tape.kind(child) == Tape.NULL || child == tape.signatureNode) {
                    continue;
                }
                member(child, top);
                sorted(child);
                pathLength = saved;
            }
        } else if (kind == Tape.ARRAY) {
            int n = tape.b(id);
            if (n == 0) {
                pair(EMPTY_ARRAY, 0, 2);
                return;
            }
            int from = tape.a(id);
            for (int d = 0; d <= 9 && d < n; d++) {
                indexes(from, n, d);
            }
        } else if (kind != Tape.NULL) {
            scalar(id);
        }
    }

    /**
     * Writes element {@code index} after every index whose decimal text extends its own
     * ({@code [10]}..{@code [19]} and theirs before {@code [1]}: a digit sorts before {@code ]}).
     */
    private void indexes(int from, int n, int index) {
        if (index != 0) {
            long next = index * 10L;
            for (int d = 0; d <= 9 && next + d < n; d++) {
                indexes(from, n, (int) (next + d));
            }
        }
        int child = kids[from + index];
        if (tape.kind(child) == Tape.NULL) {
            return;
        }
        int saved = pathLength;
        element(index);
        sorted(child);
        pathLength = saved;
    }

    /** Whether the {@code senderKey} pair sorts before member {@code child} of the top object. */
    private boolean beforeKeyPair(int child) {
        int k = tape.key(child);
        return Tape.compareLabels(SENDER_KEY, 0, SENDER_KEY.length, '=',
                tape.source(k), Tape.offset(k), tape.keyLength(child), tape.separator(child)) < 0;
    }

    private void inOrder(int id) {
        int kind = tape.kind(id);
        if (kind == Tape.OBJECT) {
            int n = tape.b(id);
            boolean top = id == 0;
            if (n == 0) {
                if (!top) {
                    pair(EMPTY_OBJECT, 0, 2);
                }
                return;
            }
            int saved = pathLength;
            for (int i = tape.a(id); i < tape.a(id) + n; i++) {
                int child = kids[i];
                if (tape.kind(child) == Tape.NULL || child == tape.signatureNode) {
                    continue;
                }
                member(child, top);
                inOrder(child);
                pathLength = saved;
            }
        } else if (kind == Tape.ARRAY) {
            int n = tape.b(id);
            if (n == 0) {
                pair(EMPTY_ARRAY, 0, 2);
                return;
            }
            int saved = pathLength;
            for (int i = 0; i < n; i++) {
                int child = kids[tape.a(id) + i];
                if (tape.kind(child) == Tape.NULL) {
                    continue;
                }
                element(i);
                inOrder(child);
                pathLength = saved;
            }
        } else if (kind != Tape.NULL) {
            scalar(id);
        }
    }
}
