package com.baas.runtime;

import java.util.Optional;

/**
 * The base of every error the SDK throws; unchecked, as in the AWS SDK for Java 2.x and
 * stripe-java.
 *
 * <p>Every error a client call throws names its call: {@link #operation()} (the spec's name,
 * {@code confirmOperation}), {@link #requestId()} (of the last attempt: what to look up,
 * cancel or reconcile) and {@link #attempts()}; its message starts with them.
 * {@link #outcome()} says what is known of the call's effect. No error ever holds the private
 * key.
 */
public abstract class BaasException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The message without the call's name, requestId and attempts. */
    private final String detail;
    private String operation;
    private String requestId;
    private int attempts;

    /**
     * An error with its message.
     *
     * @param detail what went wrong, without the call
     * @param cause the underlying failure, or {@code null}
     */
    protected BaasException(String detail, Throwable cause) {
        super(detail, cause);
        this.detail = detail;
    }

    /**
     * This error, said of a call (the client does it for every error it throws).
     *
     * @param operation the operation's spec name
     * @param requestId the requestId of the last attempt, or {@code null} when none was made
     * @param attempts the attempts made
     * @return this error
     */
    public BaasException inCall(String operation, String requestId, int attempts) {
        this.operation = operation;
        this.requestId = requestId;
        this.attempts = attempts;
        return this;
    }

    /**
     * What went wrong, without the call's name, requestId and attempts.
     *
     * @return the message's detail
     */
    public String detail() {
        return detail;
    }

    /**
     * The operation's spec name, e.g. {@code applyForTransfer}.
     *
     * @return the name, or empty when the error is not of a call
     */
    public Optional<String> operation() {
        return Optional.ofNullable(operation);
    }

    /**
     * The requestId of the last attempt: what to look up before sending a money call again.
     *
     * @return the requestId, or empty when nothing was signed
     */
    public Optional<String> requestId() {
        return Optional.ofNullable(requestId);
    }

    /**
     * The attempts the call made (0 when it was refused before sending).
     *
     * @return the number of attempts
     */
    public int attempts() {
        return attempts;
    }

    /**
     * False only when the request's bytes provably never reached the service.
     *
     * @return whether the service may have seen the request
     */
    public boolean mayHaveReachedService() {
        return true;
    }

    /**
     * Whether trying again may succeed (never for {@link OutcomeUnknownException}).
     *
     * @return true for a retryable failure
     */
    public boolean isRetryable() {
        return false;
    }

    /**
     * What is known of the call's effect.
     *
     * @return {@link Outcome#NOT_SENT}, {@link Outcome#REFUSED} or {@link Outcome#UNKNOWN}
     */
    public Outcome outcome() {
        return mayHaveReachedService() ? Outcome.UNKNOWN : Outcome.NOT_SENT;
    }

    /**
     * The service's result code, for an {@link ApiException}.
     *
     * @return the code, or empty
     */
    public Optional<String> apiCode() {
        return Optional.empty();
    }

    /**
     * The message: the call (operation, requestId, attempts) when known, then the detail.
     *
     * @return the message
     */
    @Override
    public String getMessage() {
        if (operation == null) {
            return detail;
        }
        String tries = attempts == 1 ? "1 attempt" : attempts + " attempts";
        if (requestId != null) {
            return operation + " (requestId " + requestId + ", " + tries + "): " + detail;
        }
        return operation + " (" + tries + "): " + detail;
    }
}
