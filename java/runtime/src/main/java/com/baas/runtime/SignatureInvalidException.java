package com.baas.runtime;

/** The signature of the received answer or notification does not hold. */
public final class SignatureInvalidException extends BaasException {
    private static final long serialVersionUID = 1L;

    /** The error. */
    public SignatureInvalidException() {
        super("the signature of the received response or notification does not verify: check that the "
                + "configured private key is the one the service signs with, and compare the received body "
                + "with `java -jar baas-runtime.jar --verify`", null);
    }
}
