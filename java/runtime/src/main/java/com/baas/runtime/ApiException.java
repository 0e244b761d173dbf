package com.baas.runtime;

import java.util.Optional;

/**
 * The service answered with a result code other than {@code 00000}.
 *
 * <p>{@link #verified()} is false when the answer was unsigned (the API document allows
 * failures with only {@code code} and {@code msg}) or its signature did not hold: its content
 * is then not authenticated and the outcome is {@link Outcome#UNKNOWN}, not
 * {@link Outcome#REFUSED}. {@link #isRetryable()} says whether the spec marks the code
 * retryable (the generated {@code ResultCode} gives the code a type).
 */
public final class ApiException extends BaasException {
    private static final long serialVersionUID = 1L;

    private final String code;
    private final String msg;
    private final String responseRequestId;
    private final boolean verified;
    private final boolean retryable;

    /**
     * A refusal.
     *
     * @param code the result code
     * @param msg the service's message
     * @param responseRequestId the requestId the answer echoes, or {@code null}
     * @param verified whether the answer's signature held
     * @param retryable whether the spec marks the code retryable
     */
    public ApiException(String code, String msg, String responseRequestId, boolean verified, boolean retryable) {
        super(text(code, msg, responseRequestId, verified), null);
        this.code = code;
        this.msg = msg;
        this.responseRequestId = responseRequestId;
        this.verified = verified;
        this.retryable = retryable;
    }

    private static String text(String code, String msg, String echoed, boolean verified) {
        StringBuilder b = new StringBuilder("API error ").append(code).append(": ").append(msg);
        if (echoed != null) {
            b.append(" (requestId ").append(echoed).append(')');
        }
        if (!verified) {
            b.append(" [response not verified: unsigned or signature mismatch]");
            if ("12005".equals(code)) {
                b.append("; check the private key and the signed text with `java -jar baas-runtime.jar`");
            }
        }
        return b.toString();
    }

    /**
     * The result code, e.g. {@code 14009}.
     *
     * @return the code
     */
    public String code() {
        return code;
    }

    /**
     * The service's message.
     *
     * @return the message, empty when there was none
     */
    public String msg() {
        return msg;
    }

    /**
     * The requestId the answer echoes.
     *
     * @return the echoed requestId, or empty
     */
    public Optional<String> responseRequestId() {
        return Optional.ofNullable(responseRequestId);
    }

    /**
     * Whether the answer's signature held (only then is the refusal authenticated).
     *
     * @return true for a signed refusal
     */
    public boolean verified() {
        return verified;
    }

    @Override
    public Optional<String> apiCode() {
        return Optional.of(code);
    }

    @Override
    public boolean isRetryable() {
        return retryable;
    }

    /** {@link Outcome#REFUSED} when verified, else {@link Outcome#UNKNOWN}. */
    @Override
    public Outcome outcome() {
        return verified ? Outcome.REFUSED : Outcome.UNKNOWN;
    }
}
