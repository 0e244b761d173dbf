<?php

declare(strict_types=1);

namespace Baas\Runtime;

use Baas\Runtime\Settlement\Confirmed;
use Baas\Runtime\Settlement\NotConfirmed;
use Baas\Runtime\Settlement\StillUnknown;

/**
 * What one lookup says of a confirmation whose outcome was unknown: {@see Confirmed},
 * {@see NotConfirmed} (safe to confirm again) or {@see StillUnknown}. Generated code says which
 * status query and which states (the spec's `settled_by` and `awaiting_otp`);
 * {@see RuntimeClient::settle()} does the lookup. Never thrown: every outcome is a value
 * (`match (true) { $s instanceof NotConfirmed => ..., ... }`).
 *
 * @template S the state the status query reports
 */
interface Settlement
{
    /**
     * True for {@see NotConfirmed}: confirming again is safe.
     *
     * @return bool whether the application may be confirmed again
     */
    public function safeToConfirmAgain(): bool;
}
