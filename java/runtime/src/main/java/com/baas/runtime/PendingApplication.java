package com.baas.runtime;

import java.util.Objects;

/**
 * An application waiting for its OTP: the answer of the call that made it, its business id
 * and the requestId it was sent with. The generated {@code Pending} extends it with the steps
 * that finish it ({@code sendOtp}, {@code confirm}), typed.
 *
 * @param <R> the response of the call that made the application
 */
public abstract class PendingApplication<R> {
    private final String businessId;
    private final R response;
    private final String requestId;

    /**
     * The handle of a successful call whose answer carries the business id.
     *
     * @param success the call's success
     * @param businessId the business id the OTP steps name ({@code txId}, an application id, or
     *     the requestId), or {@code null} when the answer lacks it
     * @param field the answer field that carries it, for the error
     * @param operation the operation's name, for the error
     * @throws DecodeException when the business id is absent or empty
     */
    protected PendingApplication(Success<R> success, String businessId, String field, String operation) {
        if (businessId == null || businessId.isEmpty()) {
            throw (DecodeException) new DecodeException("the response carries no `" + field
                    + "`, the application's business id").inCall(operation, success.requestId(), success.attempts());
        }
        this.businessId = businessId;
        this.response = Objects.requireNonNull(success.data());
        this.requestId = success.requestId();
    }

    /**
     * The id the OTP steps name (also what a status query or a cancellation takes).
     *
     * @return the business id
     */
    public final String businessId() {
        return businessId;
    }

    /**
     * The answer of the call that made the application.
     *
     * @return the response
     */
    public final R response() {
        return response;
    }

    /**
     * The requestId the application was sent with.
     *
     * @return the requestId
     */
    public final String requestId() {
        return requestId;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[businessId=" + businessId + ", requestId=" + requestId + "]";
    }
}
