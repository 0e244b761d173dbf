package com.baas.signing;

/**
 * The base of every exception of this library; its message never contains the private key.
 * Unchecked: a body that does not verify aborts whatever was about to use it.
 */
public abstract class SigningException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message.
     *
     * @param message what went wrong (never the key)
     */
    protected SigningException(String message) {
        super(message);
    }

    /**
     * An exception with a message and a cause.
     *
     * @param message what went wrong (never the key)
     * @param cause the underlying exception
     */
    protected SigningException(String message, Throwable cause) {
        super(message, cause);
    }
}
