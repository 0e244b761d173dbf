<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * How a status query is polled until a final state: the first delay, doubled up to `$maxDelay`,
 * until `$deadline` (all in seconds).
 */
final class WaitPolicy
{
    /**
     * @param float $firstDelay seconds before the second query
     * @param float $maxDelay the longest delay between queries
     * @param float $deadline seconds after which {@see Exception\WaitDeadline} is thrown
     */
    public function __construct(
        public readonly float $firstDelay = 1.0,
        public readonly float $maxDelay = 30.0,
        public readonly float $deadline = 600.0,
    ) {
    }
}
