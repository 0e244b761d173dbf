package com.baas.runtime;

/**
 * A call that may move money failed after its bytes may have reached the service, without a
 * verified answer: it may have taken effect. Never retried: look it up first (by
 * {@link #requestId()}, or with the operation's query call). {@link #getCause()} is the
 * failure of the last attempt.
 */
public final class OutcomeUnknownException extends BaasException {
    private static final long serialVersionUID = 1L;

    /**
     * The unknown outcome of a failure.
     *
     * @param cause the last attempt's failure
     */
    public OutcomeUnknownException(BaasException cause) {
        super("may have taken effect: " + cause.detail() + "; look the application up before sending it again",
                cause);
    }

    /**
     * The last attempt's failure.
     *
     * @return the cause
     */
    @Override
    public synchronized BaasException getCause() {
        return (BaasException) super.getCause();
    }

    /** Always {@link Outcome#UNKNOWN}. */
    @Override
    public Outcome outcome() {
        return Outcome.UNKNOWN;
    }
}
