package com.baas.runtime;

/**
 * A received body was refused although it may carry a valid signature: it could be re-cut
 * into another message, carries members of another kind of message, comes from another
 * sender, or is outside the notification window. Treat it as unsigned.
 */
public final class UntrustedException extends BaasException {
    private static final long serialVersionUID = 1L;

    private final String reason;

    /**
     * A refused body.
     *
     * @param reason why (never holding the key)
     */
    public UntrustedException(String reason) {
        super("received body refused: " + reason, null);
        this.reason = reason;
    }

    /**
     * Why the body was refused.
     *
     * @return the reason
     */
    public String reason() {
        return reason;
    }
}
