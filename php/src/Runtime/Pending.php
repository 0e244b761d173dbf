<?php

declare(strict_types=1);

namespace Baas\Runtime;

use Baas\Runtime\Exception\DecodeError;

/**
 * An application waiting for its OTP (a transfer applied for, ...): its business id and the
 * answer of the call that made it, with the two steps that finish it. Generated code makes one
 * for each operation the spec confirms by OTP, giving the steps as its own calls.
 *
 * @template R the answer of the call that made the application
 * @template S the answer of sending the OTP
 * @template C the answer of confirming
 */
class Pending
{
    /**
     * @param string $businessId the id the OTP steps name (a transfer's `txId`, ...)
     * @param R $response the answer of the call that made it
     * @param \Closure(\BackedEnum|string, ?CallOptions): S $sendOtp sends the OTP by a channel
     * @param \Closure(string, ?CallOptions): C $confirm confirms with the OTP
     */
    public function __construct(
        public readonly string $businessId,
        public readonly mixed $response,
        private readonly \Closure $sendOtp,
        private readonly \Closure $confirm,
    ) {
    }

    /**
     * The handle of a successful call whose answer carries the business id.
     *
     * @template T
     * @param Success<T> $success the call
     * @param string|null $businessId the business id read from its answer (or its requestId)
     * @param string $field the answer's field that holds it, for the error
     * @param string $operation the operation, for the error
     * @param \Closure(\BackedEnum|string, ?CallOptions): mixed $sendOtp sends the OTP
     * @param \Closure(string, ?CallOptions): mixed $confirm confirms
     * @return self<T, mixed, mixed> the handle
     * @throws DecodeError when the answer carries no business id
     */
    public static function of(Success $success, ?string $businessId, string $field, string $operation, \Closure $sendOtp, \Closure $confirm): self
    {
        if ($businessId === null || $businessId === '') {
            throw (new DecodeError('the response carries no `' . $field . '`, the application\'s business id'))
                ->inCall($operation, $success->requestId, $success->attempts);
        }
        return new self($businessId, $success->data, $sendOtp, $confirm);
    }

    /**
     * Sends the application's OTP to its owner by `$channel` (`sendOtp`).
     *
     * @param \BackedEnum|string $channel the channel (the OTP type value set)
     * @param CallOptions|null $options per-call options
     * @return S the answer
     */
    public function sendOtp(\BackedEnum|string $channel, ?CallOptions $options = null): mixed
    {
        return ($this->sendOtp)($channel, $options);
    }

    /**
     * Confirms the application with the OTP its owner received (`confirmOperation`): this is
     * what releases the money. A confirmation whose outcome is unknown throws
     * {@see Exception\OutcomeUnknown}: look the application up before confirming again.
     *
     * @param string $otp the OTP
     * @param CallOptions|null $options per-call options
     * @return C the answer
     */
    public function confirm(string $otp, ?CallOptions $options = null): mixed
    {
        return ($this->confirm)($otp, $options);
    }
}
