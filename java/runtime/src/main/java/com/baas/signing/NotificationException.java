package com.baas.signing;

/**
 * Why a received notification is refused. Treat every kind as "not from the service":
 * answer nothing that acknowledges it and process nothing of it.
 */
public final class NotificationException extends SigningException {
    private static final long serialVersionUID = 1L;

    /** The kinds of refusal. */
    public enum Kind {
        /** Not a usable JSON object, or not a notification (required members missing or of the wrong type). */
        MALFORMED,
        /** The body carries no signature. */
        SIGNATURE_MISSING,
        /** The signature does not hold for the configured key. */
        SIGNATURE_INVALID,
        /**
         * The body may carry a valid signature but is refused: it could be re-cut into
         * another message, carries members of an answer, comes from another sender, or is
         * outside the time window.
         */
        UNTRUSTED
    }

    private final Kind kind;

    NotificationException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /**
     * The kind of refusal.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }
}
