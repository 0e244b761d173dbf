package com.baas.runtime;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Options of one call: a requestId of the caller's (to reconcile with your own records; a call
 * with its own requestId is never re-sent once it may have left) and a time limit.
 * Immutable: {@code CallOptions.none().requestId("P1-42").timeout(Duration.ofSeconds(5))}.
 */
public final class CallOptions {
    private static final CallOptions NONE = new CallOptions(null, null);

    private final String requestId;
    private final Duration timeout;

    private CallOptions(String requestId, Duration timeout) {
        this.requestId = requestId;
        this.timeout = timeout;
    }

    /**
     * No options: a new requestId per attempt and the configured time limit.
     *
     * @return the empty options
     */
    public static CallOptions none() {
        return NONE;
    }

    /**
     * These options with a requestId of the caller's.
     *
     * @param requestId non-empty printable ASCII without spaces
     * @return new options
     */
    public CallOptions requestId(String requestId) {
        return new CallOptions(Objects.requireNonNull(requestId, "requestId"), timeout);
    }

    /**
     * These options with a time limit for the whole exchange of each attempt.
     *
     * @param timeout the limit
     * @return new options
     */
    public CallOptions timeout(Duration timeout) {
        return new CallOptions(requestId, Objects.requireNonNull(timeout, "timeout"));
    }

    /**
     * The caller's requestId.
     *
     * @return it, or empty
     */
    public Optional<String> requestId() {
        return Optional.ofNullable(requestId);
    }

    /**
     * The time limit.
     *
     * @return it, or empty for the configured one
     */
    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    @Override
    public String toString() {
        return "CallOptions[requestId=" + requestId + ", timeout=" + timeout + "]";
    }
}
