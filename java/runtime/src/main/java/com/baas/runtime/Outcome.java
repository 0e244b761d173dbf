package com.baas.runtime;

/** What is known of a failed call's effect: every {@link BaasException} says one of these. */
public enum Outcome {
    /**
     * Nothing was sent (an invalid request, the configuration, encoding, or a connection that
     * provably never opened): safe to fix and send again.
     */
    NOT_SENT,
    /**
     * The service answered with a result code other than success, in an answer whose
     * signature holds. An unsigned or wrongly signed refusal proves nothing: {@link #UNKNOWN}.
     */
    REFUSED,
    /** The bytes may have reached the service and no verified answer came back. */
    UNKNOWN
}
