package com.baas.runtime;

/** The received answer or notification carries no signature. */
public final class SignatureMissingException extends BaasException {
    private static final long serialVersionUID = 1L;

    /** The error. */
    public SignatureMissingException() {
        super("the received response or notification carries no signature, so it is refused (a success "
                + "response without one is accepted only with Config.acceptUnsignedSuccess)", null);
    }
}
