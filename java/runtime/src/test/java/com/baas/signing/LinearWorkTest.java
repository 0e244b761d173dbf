package com.baas.signing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Hostile bodies cost what their size allows, counted (never timed): the members compared
 * while sorting, and the ints the reader keeps, against the body's length. A quadratic sort
 * or a per-pair copy of the path would break these bounds by orders of magnitude.
 */
class LinearWorkTest {
    private static final PrivateKey KEY = new PrivateKey("yourkey");

    private static Flattened read(String body) {
        return Canonical.parse(body.getBytes(StandardCharsets.UTF_8));
    }

    private static double log2(int n) {
        return Math.log(n) / Math.log(2);
    }

    /** One object with {@code n} keys in descending order (the worst case of an insertion sort). */
    private static String wideObject(int n) {
        StringBuilder b = new StringBuilder("{\"o\":{");
        for (int i = n - 1; i >= 0; i--) {
            b.append(String.format("\"k%06d\":%d", i, i)).append(i > 0 ? "," : "");
        }
        return b.append("}}").toString();
    }

    @Test
    void aWideObjectIsSortedInNLogNComparisons() {
        for (int n : new int[] {1_000, 16_000, 64_000}) {
            Flattened flat = read(wideObject(n));
            long comparisons = flat.tape().comparisons;
            assertTrue(comparisons <= 2 * n * log2(n) + 2L * n,
                    n + " keys: " + comparisons + " comparisons, more than n log n");
            // Still right: the first pair is the smallest key.
            assertTrue(flat.canonicalStringExposingKey(KEY).startsWith("o.k000000=0&o.k000001=1&"));
        }
    }

    @Test
    void rowsOfOneShapeAreSortedOnceAndRowsOfManyShapesEachInFewComparisons() {
        int rows = 5_000;
        String[] keys = {"txId", "txType", "amount", "currency", "fee", "remark", "channel", "createTime"};
        StringBuilder same = new StringBuilder("{\"data\":[");
        StringBuilder rotated = new StringBuilder("{\"data\":[");
        for (int r = 0; r < rows; r++) {
            same.append(r > 0 ? "," : "").append('{');
            rotated.append(r > 0 ? "," : "").append('{');
            for (int k = 0; k < keys.length; k++) {
                same.append(k > 0 ? "," : "").append('"').append(keys[k]).append("\":").append(r);
                rotated.append(k > 0 ? "," : "").append('"').append(keys[(k + r) % keys.length]).append("\":").append(r);
            }
            same.append('}');
            rotated.append('}');
        }
        long once = read(same.append("]}").toString()).tape().comparisons;
        assertTrue(once <= keys.length * keys.length, "one shape: " + once + " comparisons (one row sorted)");
        long each = read(rotated.append("]}").toString()).tape().comparisons;
        // Insertion sort of 8 members at most 28 comparisons, then the scan for repeated keys (2 per member).
        assertTrue(each <= (long) rows * (28 + 2 * keys.length), "many shapes: " + each + " comparisons");
    }

    @Test
    void arraysNeedNoComparisonAtAllAndTheReaderKeepsAFewIntsPerByte() {
        String[] hostile = {
            "{\"a\":[" + "1,".repeat(200_000) + "1]}",
            "{\"a\":[" + "{},".repeat(100_000) + "{}]}",
            "{\"a\":[" + "[],".repeat(100_000) + "[]]}",
            "{\"a\":[" + "[1],".repeat(60_000) + "1]}",
        };
        for (String body : hostile) {
            Flattened flat = read(body);
            Tape tape = flat.tape();
            assertEquals(0, tape.comparisons, "an array's elements are never compared");
            // 16 bytes per value and 4 per child, a value at least 2 bytes of the body, arrays grown by doubling.
            long ints = tape.nodes.length + (long) tape.kids.length;
            assertTrue(ints * 4 <= 24L * body.length(), "the reader keeps " + ints * 4 + " bytes for a body of "
                    + body.length());
            // The pairs as written are bounded by the budget, and are what is hashed.
            long canonical = flat.canonicalStringExposingKey(KEY).getBytes(StandardCharsets.UTF_8).length;
            assertTrue(canonical <= (long) body.length() * Canonical.MAX_EXPANSION + Canonical.EXPANSION_ALLOWANCE);
        }
    }

    @Test
    void theIndexOrderIsTheByteOrderForEveryLength() {
        // [0] [10] [100] ... [1] ...: generated, not compared; checked against a byte sort here.
        for (int n : new int[] {1, 9, 10, 11, 99, 100, 101, 1_000, 1_234}) {
            StringBuilder b = new StringBuilder("{\"a\":[");
            for (int i = 0; i < n; i++) {
                b.append(i > 0 ? "," : "").append(i);
            }
            Flattened flat = read(b.append("]}").toString());
            java.util.List<String> pairs = new java.util.ArrayList<>(flat.pairs());
            pairs.add("senderKey=yourkey");
            pairs.sort((x, y) -> java.util.Arrays.compareUnsigned(x.getBytes(StandardCharsets.UTF_8),
                    y.getBytes(StandardCharsets.UTF_8)));
            assertEquals(String.join("&", pairs), flat.canonicalStringExposingKey(KEY), n + " elements");
        }
    }
}
