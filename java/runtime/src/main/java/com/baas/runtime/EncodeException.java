package com.baas.runtime;

/** The request could not be serialized or signed; nothing was sent. */
public final class EncodeException extends BaasException {
    private static final long serialVersionUID = 1L;

    /**
     * An encoding failure.
     *
     * @param message what could not be encoded
     */
    public EncodeException(String message) {
        super("cannot encode the request: " + message, null);
    }

    /** Never sent. */
    @Override
    public boolean mayHaveReachedService() {
        return false;
    }
}
