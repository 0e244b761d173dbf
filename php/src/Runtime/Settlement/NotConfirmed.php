<?php

declare(strict_types=1);

namespace Baas\Runtime\Settlement;

use Baas\Runtime\Settlement;

/**
 * The application still waits for its OTP: the confirmation never arrived and nothing was
 * confirmed, so confirming again is safe, as `$otpRule` (the spec's words) says.
 *
 * @template S
 * @implements Settlement<S>
 */
final class NotConfirmed implements Settlement
{
    /**
     * @param S $state the state the query reported (one of the spec's `awaiting_otp`)
     * @param string $otpRule when the OTP may be sent again
     */
    public function __construct(public readonly mixed $state, public readonly string $otpRule)
    {
    }

    /**
     * Whether confirming again is safe. True: the confirmation never arrived.
     *
     * @return bool whether the application may be confirmed again
     */
    public function safeToConfirmAgain(): bool
    {
        return true;
    }
}
