package com.baas.runtime;

import java.util.Optional;

/** The answer's requestId does not echo the request's: it answers another request. */
public final class RequestIdMismatchException extends BaasException {
    private static final long serialVersionUID = 1L;

    private final String expected;
    private final String received;

    /**
     * A mismatched echo.
     *
     * @param expected the requestId sent
     * @param received the one the answer carries, or {@code null}
     */
    public RequestIdMismatchException(String expected, String received) {
        super(received == null ? "response has no requestId (expected `" + expected + "`)"
                : "response requestId `" + received + "` does not echo `" + expected + "`", null);
        this.expected = expected;
        this.received = received;
    }

    /**
     * The requestId sent.
     *
     * @return the requestId
     */
    public String expected() {
        return expected;
    }

    /**
     * The requestId the answer carries.
     *
     * @return it, or empty
     */
    public Optional<String> received() {
        return Optional.ofNullable(received);
    }
}
