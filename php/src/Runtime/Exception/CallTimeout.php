<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

/**
 * No complete answer within the time limit ({@see $after}, seconds).
 */
final class CallTimeout extends BaasException
{
    /**
     * @param float $after the limit, in seconds
     * @param bool $reached whether the request may have reached the service
     */
    public function __construct(public readonly float $after, private readonly bool $reached = true)
    {
        parent::__construct("no response within " . (int) round($after * 1000) . " ms ("
            . ($reached ? "the request may have reached the service" : "no connection was made") . ")");
    }

    /**
     * Whether the request may have reached the service.
     *
     * @return bool false when no connection was made
     */
    public function mayHaveReachedService(): bool
    {
        return $this->reached;
    }

    /**
     * Always: a timeout may pass.
     *
     * @return bool true
     */
    public function isRetryable(): bool
    {
        return true;
    }
}
