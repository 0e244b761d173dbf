package com.baas.runtime;

import java.time.Duration;
import java.util.Optional;

/**
 * A status query reported no final state before the {@link WaitPolicy}'s deadline; the
 * operation it follows may still complete.
 */
public final class WaitDeadlineException extends BaasException {
    private static final long serialVersionUID = 1L;

    private final String lastState;
    private final Duration after;

    /**
     * A deadline passed.
     *
     * @param lastState the last state seen, or {@code null}
     * @param after how long the wait took
     */
    public WaitDeadlineException(String lastState, Duration after) {
        super("no final state reported within " + after.toSeconds() + " s (last state: "
                + (lastState == null ? "none" : lastState) + ")", null);
        this.lastState = lastState;
        this.after = after;
    }

    /**
     * The last state a query reported.
     *
     * @return its wire text, or empty
     */
    public Optional<String> lastState() {
        return Optional.ofNullable(lastState);
    }

    /**
     * How long the wait took.
     *
     * @return the time waited
     */
    public Duration after() {
        return after;
    }
}
