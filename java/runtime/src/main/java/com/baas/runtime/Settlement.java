package com.baas.runtime;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What one lookup says of a confirmation whose outcome was unknown: {@link Confirmed},
 * {@link NotConfirmed} (safe to confirm again) or {@link StillUnknown}. Generated code says which
 * status query and which states (the spec's {@code settled_by} and {@code awaiting_otp});
 * {@link RuntimeClient#settle} does the lookup. Never thrown: every outcome is a value.
 * <pre>{@code
 * switch (pending.settle()) {
 *     case Settlement.Confirmed<TxStatus> c -> ...      // Java 21; or instanceof
 *     ...
 * }
 * }</pre>
 *
 * @param <S> the type of the state the status query reports
 */
public sealed interface Settlement<S> permits Settlement.Confirmed, Settlement.NotConfirmed, Settlement.StillUnknown {

    /**
     * True for {@link NotConfirmed}: confirming again is safe.
     *
     * @return whether the application may be confirmed again
     */
    boolean safeToConfirmAgain();

    /**
     * The application no longer waits for its OTP: the confirmation arrived (or the application
     * ended otherwise: {@code state} says which). Do not confirm again; wait when not final.
     *
     * @param <S> the state's type
     * @param state the state the query reported
     * @param isFinal whether that state is final
     */
    record Confirmed<S>(S state, boolean isFinal) implements Settlement<S> {
        @Override
        public boolean safeToConfirmAgain() {
            return false;
        }
    }

    /**
     * The application still waits for its OTP: the confirmation never arrived and nothing was
     * confirmed, so confirming again is safe, as {@code otpRule} (the spec's words) says.
     *
     * @param <S> the state's type
     * @param state the state the query reported (one of the spec's {@code awaiting_otp})
     * @param otpRule when the OTP may be sent again
     */
    record NotConfirmed<S>(S state, String otpRule) implements Settlement<S> {
        @Override
        public boolean safeToConfirmAgain() {
            return true;
        }
    }

    /**
     * The lookup did not tell: it failed, or its answer carried no state or one this SDK does
     * not list. {@code error} says which; settle again later, and never confirm again until a
     * lookup says {@link NotConfirmed}.
     *
     * @param <S> the state's type
     * @param error why the outcome is still unknown
     */
    record StillUnknown<S>(BaasException error) implements Settlement<S> {
        /**
         * A settlement that is still unknown.
         *
         * @param error why
         */
        public StillUnknown {
            Objects.requireNonNull(error, "error");
        }

        @Override
        public boolean safeToConfirmAgain() {
            return false;
        }
    }

    /**
     * The settlement a successful lookup's state says.
     *
     * @param <S> the state's type
     * @param state the state in the answer (empty when it carries none)
     * @param awaitingOtp the states in which the application still waits for its OTP, as wire text
     * @param finals the final states, as wire text
     * @param otpRule when the OTP may be sent again
     * @param operation the query's name, for the error
     * @param requestId the query's requestId, for the error
     * @param attempts the query's attempts, for the error
     * @return the settlement
     */
    static <S> Settlement<S> read(Optional<S> state, Set<String> awaitingOtp, Set<String> finals, String otpRule,
            String operation, String requestId, int attempts) {
        if (state.isEmpty()) {
            return unknown("the answer carries no state", operation, requestId, attempts);
        }
        S s = state.get();
        if (s instanceof ValueSet v && !v.isKnown()) {
            return unknown("the answer's state " + v.wire() + " is not one this SDK lists", operation, requestId,
                    attempts);
        }
        String text = s instanceof ValueSet v ? v.wire() : String.valueOf(s);
        if (awaitingOtp.contains(text)) {
            return new NotConfirmed<>(s, otpRule);
        }
        return new Confirmed<>(s, finals.contains(text));
    }

    private static <S> Settlement<S> unknown(String why, String operation, String requestId, int attempts) {
        BaasException e = new DecodeException(why + ", so the confirmation's outcome is still unknown")
                .inCall(operation, requestId, attempts);
        return new StillUnknown<>(e);
    }
}
