<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

/**
 * A status query reported no final state before the deadline; the operation it follows may
 * still complete. {@see $lastState} is the last state seen, if any.
 */
final class WaitDeadline extends BaasException
{
    /**
     * @param string|null $lastState the last state seen
     * @param float $after seconds waited
     */
    public function __construct(public readonly ?string $lastState, public readonly float $after)
    {
        parent::__construct("no final state reported within " . (int) $after . " s (last state: "
            . ($lastState ?? "none") . ")");
    }
}
