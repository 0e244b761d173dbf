package com.baas.runtime;

import java.time.Duration;
import java.util.Objects;

/**
 * How a waiter polls a status query until a final state: the first delay, doubled up to
 * {@code maxDelay}, until {@code deadline} (then {@link WaitDeadlineException}).
 *
 * @param firstDelay the wait before the second query
 * @param maxDelay the longest wait between two queries
 * @param deadline how long to wait in all
 */
public record WaitPolicy(Duration firstDelay, Duration maxDelay, Duration deadline) {
    /**
     * A policy.
     *
     * @param firstDelay the first wait
     * @param maxDelay the longest wait
     * @param deadline the whole wait
     */
    public WaitPolicy {
        Objects.requireNonNull(firstDelay, "firstDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        Objects.requireNonNull(deadline, "deadline");
        if (firstDelay.isNegative() || maxDelay.isNegative() || deadline.isNegative()) {
            throw new IllegalArgumentException("a wait policy's durations cannot be negative");
        }
    }

    /**
     * The default: 1 s, doubled up to 30 s, for 10 minutes.
     *
     * @return the default policy
     */
    public static WaitPolicy defaults() {
        return new WaitPolicy(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofMinutes(10));
    }
}
