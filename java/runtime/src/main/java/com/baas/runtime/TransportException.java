package com.baas.runtime;

/**
 * The HTTP exchange failed. A {@link Transport} throws it: {@link #notSent} when the request
 * provably never left (the connection never opened), {@link #maybeSent} otherwise. Retryable.
 */
public final class TransportException extends BaasException {
    private static final long serialVersionUID = 1L;

    private final boolean reached;

    private TransportException(String message, boolean reached, Throwable cause) {
        super("transport error: " + message + (reached ? " (the request may have reached the service)"
                : " (the request did not leave)"), cause);
        this.reached = reached;
    }

    /**
     * A failure before any byte of the request left (no connection was made).
     *
     * @param message what failed
     * @param cause the transport's own exception, or {@code null}
     * @return the error
     */
    public static TransportException notSent(String message, Throwable cause) {
        return new TransportException(message, false, cause);
    }

    /**
     * A failure after the request's bytes may have left.
     *
     * @param message what failed
     * @param cause the transport's own exception, or {@code null}
     * @return the error
     */
    public static TransportException maybeSent(String message, Throwable cause) {
        return new TransportException(message, true, cause);
    }

    @Override
    public boolean mayHaveReachedService() {
        return reached;
    }

    /** Always: the exchange may succeed next time. */
    @Override
    public boolean isRetryable() {
        return true;
    }
}
