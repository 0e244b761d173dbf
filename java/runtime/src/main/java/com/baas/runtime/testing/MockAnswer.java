package com.baas.runtime.testing;

import com.baas.signing.Canonical;
import com.baas.signing.JsonValue;
import java.nio.charset.StandardCharsets;

/**
 * What a {@link MockService} stub answers: a success with its {@code data}, a refusal, or a
 * failure of the exchange itself.
 */
public sealed interface MockAnswer {
    /**
     * A signed success (code {@code 00000}) with this {@code data}.
     *
     * @param data the data object
     */
    record Data(JsonValue.JsonObject data) implements MockAnswer {
    }

    /**
     * A refusal with a result code other than success.
     *
     * @param code the result code, e.g. {@code 14009}
     * @param msg its message
     * @param signed false to answer it unsigned, as a stranger on the path could
     */
    record Refusal(String code, String msg, boolean signed) implements MockAnswer {
    }

    /** A failure of the exchange itself. */
    enum Failure implements MockAnswer {
        /** The connection never opened: nothing was sent. */
        NOT_SENT,
        /** The request left and no answer came back: the outcome is unknown. */
        NO_ANSWER,
        /** An HTTP 502 page instead of an answer. */
        GATEWAY_ERROR
    }

    /**
     * A success whose {@code data} is this JSON object text (money as text keeps its scale).
     *
     * @param json e.g. <code>{"accountId":"1000000001","balance":"250000.00"}</code>
     * @return the answer
     * @throws IllegalArgumentException when the text is not a JSON object
     */
    static MockAnswer data(String json) {
        try {
            return new Data(Canonical.parseLoose(json.getBytes(StandardCharsets.UTF_8)).value());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("a mock answer's data must be a JSON object: " + e.getMessage(), e);
        }
    }

    /**
     * A success without {@code data}.
     *
     * @return the answer
     */
    static MockAnswer ok() {
        return new Data(null);
    }

    /**
     * A signed refusal.
     *
     * @param code the result code
     * @param msg its message
     * @return the answer
     */
    static MockAnswer refusal(String code, String msg) {
        return new Refusal(code, msg, true);
    }

    /**
     * An unsigned refusal (its outcome is unknown to the client).
     *
     * @param code the result code
     * @param msg its message
     * @return the answer
     */
    static MockAnswer unsignedRefusal(String code, String msg) {
        return new Refusal(code, msg, false);
    }
}
