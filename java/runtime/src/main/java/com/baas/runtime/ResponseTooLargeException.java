package com.baas.runtime;

/** The answer's body is larger than {@link Config#maxResponseBytes()}. */
public final class ResponseTooLargeException extends BaasException {
    private static final long serialVersionUID = 1L;

    private final long limit;

    /**
     * A body over the limit.
     *
     * @param limit the limit, in bytes
     */
    public ResponseTooLargeException(long limit) {
        super("response body larger than the limit of " + limit + " bytes", null);
        this.limit = limit;
    }

    /**
     * The limit that was passed.
     *
     * @return bytes
     */
    public long limit() {
        return limit;
    }
}
