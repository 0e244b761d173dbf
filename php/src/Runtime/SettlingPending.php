<?php

declare(strict_types=1);

namespace Baas\Runtime;

use Baas\Runtime\Exception\DecodeError;

/**
 * An application waiting for its OTP whose confirmation can be settled: when `confirm()` throws
 * {@see Exception\OutcomeUnknown}, `settle()` tells with one lookup whether the confirmation
 * arrived. Generated code makes one for each operation the spec settles by a status query
 * (`settled_by`), giving the lookup as its own call.
 *
 * @template R the answer of the call that made the application
 * @template S the answer of sending the OTP
 * @template C the answer of confirming
 * @template T the state the status query reports
 * @extends Pending<R, S, C>
 */
final class SettlingPending extends Pending
{
    /**
     * @param string $businessId the id the OTP steps name
     * @param R $response the answer of the call that made it
     * @param \Closure(\BackedEnum|string, ?CallOptions): S $sendOtp sends the OTP by a channel
     * @param \Closure(string, ?CallOptions): C $confirm confirms with the OTP
     * @param \Closure(string): Settlement<T> $settle looks the application up by its business id
     */
    public function __construct(
        string $businessId,
        mixed $response,
        \Closure $sendOtp,
        \Closure $confirm,
        private readonly \Closure $settle,
    ) {
        parent::__construct($businessId, $response, $sendOtp, $confirm);
    }

    /**
     * The handle of a successful call whose answer carries the business id.
     *
     * @template U
     * @param Success<U> $success the call
     * @param string|null $businessId the business id read from its answer
     * @param string $field the answer's field that holds it, for the error
     * @param string $operation the operation, for the error
     * @param \Closure(\BackedEnum|string, ?CallOptions): mixed $sendOtp sends the OTP
     * @param \Closure(string, ?CallOptions): mixed $confirm confirms
     * @param \Closure(string): Settlement<mixed> $settle looks the application up
     * @return self<U, mixed, mixed, mixed> the handle
     * @throws DecodeError when the answer carries no business id
     */
    public static function settling(Success $success, ?string $businessId, string $field, string $operation, \Closure $sendOtp, \Closure $confirm, \Closure $settle): self
    {
        $pending = Pending::of($success, $businessId, $field, $operation, $sendOtp, $confirm);
        return new self($pending->businessId, $pending->response, $sendOtp, $confirm, $settle);
    }

    /**
     * Settles a confirmation whose outcome is unknown: sends the application's status query once
     * with its business id. {@see Settlement\Confirmed} (with the state and whether it is final)
     * when it no longer waits for its OTP: do not confirm again. {@see Settlement\NotConfirmed}
     * when it still waits for it: the confirmation never arrived, so confirming again is safe, as
     * its `otpRule` says. {@see Settlement\StillUnknown} (with the error) when the lookup fails or
     * its answer carries no state, or one this SDK does not list. Never throws a
     * {@see Exception\BaasException}.
     *
     * @return Settlement<T> what the lookup says
     */
    public function settle(): Settlement
    {
        return ($this->settle)($this->businessId);
    }
}
