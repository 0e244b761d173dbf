<?php

declare(strict_types=1);

namespace Baas\Runtime\Settlement;

use Baas\Runtime\Settlement;

/**
 * The application no longer waits for its OTP: the confirmation arrived (or the application
 * ended otherwise: `$state` says which). Do not confirm again; wait when `$isFinal` is false.
 *
 * @template S
 * @implements Settlement<S>
 */
final class Confirmed implements Settlement
{
    /**
     * @param S $state the state the query reported
     * @param bool $isFinal whether that state is final
     */
    public function __construct(public readonly mixed $state, public readonly bool $isFinal)
    {
    }

    /**
     * Whether confirming again is safe. False: the confirmation arrived; confirming again would confirm twice.
     *
     * @return bool whether the application may be confirmed again
     */
    public function safeToConfirmAgain(): bool
    {
        return false;
    }
}
