package com.baas.signing;

/**
 * Why a received body does not verify: {@link Kind#MALFORMED} (not a usable JSON object, or
 * refused by a re-cut rule: {@link #getCause()} is the {@link CanonicalException}),
 * {@link Kind#MISSING} or {@link Kind#MISMATCH}; for an answer ({@link Signer#verifyAnswer})
 * also {@link Kind#REQUEST_ID_MISMATCH} and {@link Kind#WRONG_KIND}.
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
        MISMATCH,
        /** An answer echoes another request's requestId, or a signed one echoes none. */
        REQUEST_ID_MISMATCH,
        /** A body given as an answer is another kind of message (a notification, a request). */
        WRONG_KIND
    }

    private final Kind kind;

    private VerifyException(Kind kind, String message, CanonicalException cause) {
        super(message, cause);
        this.kind = kind;
    }

    static VerifyException malformed(CanonicalException cause) {
        return new VerifyException(Kind.MALFORMED, "cannot verify: " + cause.getMessage(), cause);
    }

    static VerifyException malformedAnswer(String message) {
        return new VerifyException(Kind.MALFORMED, "cannot decode the answer: " + message, null);
    }

    static VerifyException wrongKind(String message) {
        return new VerifyException(Kind.WRONG_KIND, "received body refused: " + message, null);
    }

    static VerifyException requestIdMismatch(String expected, String received) {
        return new VerifyException(Kind.REQUEST_ID_MISMATCH, "the answer is to requestId "
                + (received == null ? "(none)" : "'" + received + "'") + ", not to the request sent ('"
                + expected + "'): refused (a replayed or misrouted answer)", null);
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
