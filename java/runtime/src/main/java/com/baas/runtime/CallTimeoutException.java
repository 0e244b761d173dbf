package com.baas.runtime;

import java.time.Duration;

/** No complete answer within the time limit. Retryable. */
public final class CallTimeoutException extends BaasException {
    private static final long serialVersionUID = 1L;

    private final Duration after;
    private final boolean reached;

    /**
     * A time limit reached.
     *
     * @param after the limit
     * @param mayHaveReachedService false only when no connection was made
     */
    public CallTimeoutException(Duration after, boolean mayHaveReachedService) {
        super("no response within " + after.toMillis() + " ms ("
                + (mayHaveReachedService ? "the request may have reached the service" : "no connection was made")
                + ")", null);
        this.after = after;
        this.reached = mayHaveReachedService;
    }

    /**
     * The time limit that was reached.
     *
     * @return the limit
     */
    public Duration after() {
        return after;
    }

    @Override
    public boolean mayHaveReachedService() {
        return reached;
    }

    /** Always. */
    @Override
    public boolean isRetryable() {
        return true;
    }
}
