package com.baas.signing;

/**
 * Why a received body does not verify: {@link Kind#MALFORMED} (not a usable JSON object, or
 * refused by a re-cut rule: {@link #getCause()} is the {@link CanonicalException}),
 * {@link Kind#MISSING} or {@link Kind#MISMATCH}.
 */
public final class VerifyException extends SigningException {
    private static final long serialVersionUID = 1L;

    /** The kinds of failure. */
    public enum Kind {
        /** The body has no canonical string, or a re-cut rule refuses it (see the cause). */
        MALFORMED,
        /** The body has no top-level {@code signature}. */
        MISSING,
        /** The signature does not match the body and the key. */
        MISMATCH
    }

    private final Kind kind;

    private VerifyException(Kind kind, String message, CanonicalException cause) {
        super(message, cause);
        this.kind = kind;
    }

    static VerifyException malformed(CanonicalException cause) {
        return new VerifyException(Kind.MALFORMED, "cannot verify: " + cause.getMessage(), cause);
    }

    static VerifyException missing() {
        return new VerifyException(Kind.MISSING, "the body has no signature", null);
    }

    static VerifyException mismatch() {
        return new VerifyException(Kind.MISMATCH, "the signature does not match the body", null);
    }

    /**
     * The kind of failure.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * For {@link Kind#MALFORMED}, why the body was refused (its rule and path when a re-cut
     * rule refused it).
     *
     * @return the {@link CanonicalException}, or {@code null} for the other kinds
     */
    @Override
    public synchronized CanonicalException getCause() {
        return (CanonicalException) super.getCause();
    }
}
