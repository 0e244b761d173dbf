package com.baas.signing;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The canonical string of the signing algorithm, computed from the JSON <em>bytes</em>.
 *
 * <p>A message is flattened to {@code path=value} pairs: object keys joined with {@code .},
 * array elements as {@code path[i]}, an empty object as {@code path={}}, an empty array as
 * {@code path=[]}, nulls skipped, the top-level {@code signature} left out. The pair
 * {@code senderKey=<key>} is added, the complete pair strings are sorted by their UTF-8
 * bytes, joined with {@code &} and hashed with SHA-256 (lowercase hex).
 *
 * <p>The bytes are read by a reader of this library (no JSON library re-renders anything):
 * strings are unescaped, numbers keep their literal text. It refuses, in time linear in the
 * body:
 * <ul>
 * <li>a body that is not valid UTF-8, not JSON, or whose top-level value is not an object;
 * <li>duplicate keys in one object; nesting deeper than {@link #MAX_DEPTH};
 * <li>a body whose pairs, at any point of it, are longer than {@link #MAX_EXPANSION} times
 * the bytes read so far plus {@link #EXPANSION_ALLOWANCE};
 * </ul>
 * and, read {@code unambiguous} (to sign or verify), a body whose canonical string could
 * stand for another body: the re-cut rules R1 to R4 of {@link Ambiguity}.
 */
public final class Canonical {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Deepest nesting of objects and arrays accepted (the top-level object is depth 1). */
    public static final int MAX_DEPTH = 64;
    /** The pairs may be at most this many times as long as the bytes read so far ... */
    public static final int MAX_EXPANSION = 32;
    /** ... plus this many bytes (small bodies nested deep). */
    public static final int EXPANSION_ALLOWANCE = 64 * 1024;
    /** The longest body read, in bytes. */
    public static final int MAX_BODY = (1 << 29) - 1;
    /** The name of the pair that carries the key. */
    public static final String SENDER_KEY = "senderKey";
    /**
     * A body may carry a {@code null} object member, read as absent and skipped when signing
     * (a signer warns about it); a {@code null} array element is refused (R2).
     */
    public static final boolean RECEIVED_NULL_MEMBERS = true;

    private Canonical() {
    }

    /**
     * Reads a received body to verify it: the re-cut rules apply, a {@code null} object
     * member is read as absent.
     *
     * @param body the exact bytes received
     * @return the body flattened
     * @throws CanonicalException when the body is not a usable JSON object or breaks a rule
     */
    public static Flattened parse(byte[] body) {
        return parse(body, true, RECEIVED_NULL_MEMBERS);
    }

    /**
     * Reads a JSON object body.
     *
     * @param body the exact bytes
     * @param unambiguous apply the re-cut rules (to sign or verify); without them any object
     *     is read (to diagnose it), nulls skipped
     * @param nullMembers accept a {@code null} object member (treated as absent), never a
     *     {@code null} array element
     * @return the body flattened
     * @throws CanonicalException when the body is not a usable JSON object or breaks a rule
     */
    public static Flattened parse(byte[] body, boolean unambiguous, boolean nullMembers) {
        Objects.requireNonNull(body, "the body must be bytes");
        if (body.length > MAX_BODY) {
            throw CanonicalException.at(CanonicalException.Kind.TOO_LARGE,
                    "the body is longer than " + MAX_BODY + " bytes", MAX_BODY);
        }
        int bad = firstInvalidUtf8(body);
        if (bad >= 0) {
            throw CanonicalException.at(CanonicalException.Kind.INVALID_UTF8,
                    "body is not valid UTF-8 (byte " + bad + ")", bad);
        }
        // The result reads its values from these bytes when asked (value(), pairs()): its own
        // copy, so that what a caller later does to the array changes nothing that was verified.
        CanonicalReader reader = new CanonicalReader(body.clone(), unambiguous, nullMembers);
        Tape tape = reader.top();
        return new Flattened(tape, reader.signature, reader.hasSignatureKey, reader.hasSenderKeyPair,
                reader.nulls);
    }

    /**
     * Reads a body to sign: the re-cut rules, a {@code null} object member skipped as the
     * document says (its path in {@link Flattened#skippedNulls()}, for the signer to warn
     * about), a {@code null} array element refused (R2: it would move the indexes).
     *
     * @param body the exact bytes to send (without {@code signature})
     * @return the body flattened
     * @throws CanonicalException when the body is not a usable JSON object or breaks a rule
     */
    public static Flattened parseForSigning(byte[] body) {
        return parse(body, true, true);
    }

    /**
     * Reads any JSON object without the re-cut rules (to diagnose a body, or to read JSON
     * losslessly); the limits still apply.
     *
     * @param body the bytes
     * @return the body flattened
     * @throws CanonicalException when the body is not a usable JSON object
     */
    public static Flattened parseLoose(byte[] body) {
        return parse(body, false, true);
    }

    /**
     * Rule R3: {@code value} holds {@code &}, then a key (characters other than
     * {@code & = . [ ]}), any number of {@code .key} or {@code [digits]}, then {@code =}.
     *
     * @param value a string value
     * @return true when the value reads as a pair
     */
    public static boolean readsAsPair(String value) {
        int n = value.length();
        int amp = value.indexOf('&');
        while (amp >= 0) {
            int i = amp + 1;
            int end = keyRun(value, i);
            if (end > i) {
                i = end;
                while (i < n) {
                    char c = value.charAt(i);
                    if (c == '=') {
                        return true;
                    } else if (c == '.') {
                        end = keyRun(value, i + 1);
                        if (end == i + 1) {
                            break;
                        }
                        i = end;
                    } else if (c == '[') {
                        int j = i + 1;
                        while (j < n && value.charAt(j) >= '0' && value.charAt(j) <= '9') {
                            j++;
                        }
                        if (j == i + 1 || j >= n || value.charAt(j) != ']') {
                            break;
                        }
                        i = j + 1;
                    } else {
                        break;
                    }
                }
            }
            amp = value.indexOf('&', amp + 1);
        }
        return false;
    }

    /**
     * Rule R3 on UTF-8 bytes (the special characters are ASCII, and no byte of a multi-byte
     * character is one): {@code &}, a key, any number of {@code .key} or {@code [digits]}, {@code =}.
     */
    static boolean readsAsPair(byte[] src, int from, int length) {
        int n = from + length;
        for (int amp = from; amp < n; amp++) {
            if (src[amp] != '&') {
                continue;
            }
            int i = amp + 1;
            int end = keyRun(src, i, n);
            if (end == i) {
                continue;
            }
            i = end;
            while (i < n) {
                byte c = src[i];
                if (c == '=') {
                    return true;
                } else if (c == '.') {
                    end = keyRun(src, i + 1, n);
                    if (end == i + 1) {
                        break;
                    }
                    i = end;
                } else if (c == '[') {
                    int j = i + 1;
                    while (j < n && src[j] >= '0' && src[j] <= '9') {
                        j++;
                    }
                    if (j == i + 1 || j >= n || src[j] != ']') {
                        break;
                    }
                    i = j + 1;
                } else {
                    break;
                }
            }
        }
        return false;
    }

    private static int keyRun(byte[] src, int from, int n) {
        int i = from;
        while (i < n) {
            byte b = src[i];
            if (b == '&' || b == '=' || b == '.' || b == '[' || b == ']') {
                return i;
            }
            i++;
        }
        return i;
    }

    /** The end of the run of key characters (not {@code & = . [ ]}) starting at {@code from}. */
    private static int keyRun(String value, int from) {
        int i = from;
        while (i < value.length() && !isSpecial(value.charAt(i))) {
            i++;
        }
        return i;
    }

    static boolean isSpecial(char c) {
        return c == '&' || c == '=' || c == '.' || c == '[' || c == ']';
    }

    /** Rule R1: an empty key, or one holding a separator. */
    static boolean badKey(String key) {
        if (key.isEmpty()) {
            return true;
        }
        for (int i = 0; i < key.length(); i++) {
            if (isSpecial(key.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The offset of the first byte of the first ill-formed UTF-8 sequence (overlong forms,
     * surrogates and code points above U+10FFFF are ill-formed), or -1 when there is none.
     */
    static int firstInvalidUtf8(byte[] b) {
        int n = b.length;
        int i = 0;
        while (i < n) {
            // ASCII eight bytes at a time.
            while (i + 8 <= n && ((long) LONGS.get(b, i) & 0x8080808080808080L) == 0) {
                i += 8;
            }
            if (i >= n) {
                break;
            }
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            int need;
            int lo = 0x80;
            int hi = 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                need = 1;
            } else if (c >= 0xE0 && c <= 0xEF) {
                need = 2;
                if (c == 0xE0) {
                    lo = 0xA0;
                } else if (c == 0xED) {
                    hi = 0x9F;
                }
            } else if (c >= 0xF0 && c <= 0xF4) {
                need = 3;
                if (c == 0xF0) {
                    lo = 0x90;
                } else if (c == 0xF4) {
                    hi = 0x8F;
                }
            } else {
                return i;
            }
            if (i + need >= n) {
                return i;
            }
            int second = b[i + 1] & 0xFF;
            if (second < lo || second > hi) {
                return i;
            }
            for (int k = 2; k <= need; k++) {
                int cont = b[i + k] & 0xFF;
                if (cont < 0x80 || cont > 0xBF) {
                    return i;
                }
            }
            i += need + 1;
        }
        return -1;
    }
}
