package com.baas.runtime;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;

/**
 * The answer (or a received value) could not be decoded: {@link #status()} is the HTTP status
 * when there was one, the message quotes the first bytes of the body (with the key redacted
 * by the client).
 */
public final class DecodeException extends BaasException {
    private static final long serialVersionUID = 1L;
    /** The longest body excerpt quoted, in bytes. */
    public static final int SNIPPET_MAX_BYTES = 256;

    private final int status;

    /**
     * A decoding failure of a value (no body quoted).
     *
     * @param message what could not be decoded, with its path
     */
    public DecodeException(String message) {
        super("cannot decode the response: " + message, null);
        this.status = -1;
    }

    /**
     * A decoding failure of a received body.
     *
     * @param message what could not be decoded
     * @param status the HTTP status, or -1
     * @param snippet the start of the body, already redacted ({@link #snippet})
     */
    public DecodeException(String message, int status, String snippet) {
        super("cannot decode the response" + (status >= 0 ? " (HTTP " + status + ")" : "") + ": " + message
                + "; body starts '" + snippet + "'", null);
        this.status = status;
    }

    /**
     * The HTTP status of the answer.
     *
     * @return the status, or empty
     */
    public OptionalInt status() {
        return status < 0 ? OptionalInt.empty() : OptionalInt.of(status);
    }

    /** A 502, 503 or 504 page instead of an answer may be gone on the next try. */
    @Override
    public boolean isRetryable() {
        return status == 502 || status == 503 || status == 504;
    }

    /**
     * At most {@link #SNIPPET_MAX_BYTES} bytes of text from the start of a body (invalid UTF-8
     * shown as U+FFFD), with {@code …} when something was cut.
     *
     * @param body the body
     * @return its start as text
     */
    public static String snippet(byte[] body) {
        int n = Math.min(body.length, SNIPPET_MAX_BYTES);
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        CharBuffer out = CharBuffer.allocate(n + 1);
        decoder.decode(ByteBuffer.wrap(body, 0, n), out, n == body.length);
        if (n == body.length) {
            decoder.flush(out);
        }
        out.flip();
        return out + (n < body.length ? "…" : "");
    }
}
