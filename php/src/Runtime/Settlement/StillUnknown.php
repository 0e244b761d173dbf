<?php

declare(strict_types=1);

namespace Baas\Runtime\Settlement;

use Baas\Runtime\Exception\BaasException;
use Baas\Runtime\Settlement;

/**
 * The lookup did not tell: it failed, or its answer carried no state or one this SDK does not
 * list. `$error` says which; settle again later, and never confirm again until a lookup says
 * {@see NotConfirmed}.
 *
 * @implements Settlement<never>
 */
final class StillUnknown implements Settlement
{
    /**
     * @param BaasException $error why the outcome is still unknown
     */
    public function __construct(public readonly BaasException $error)
    {
    }

    /**
     * Whether confirming again is safe. False: nothing is known yet.
     *
     * @return bool whether the application may be confirmed again
     */
    public function safeToConfirmAgain(): bool
    {
        return false;
    }
}
