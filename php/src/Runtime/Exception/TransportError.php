<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

/**
 * The HTTP exchange failed. {@see mayHaveReachedService()} says whether the bytes may have
 * left (a connection refused or a name that does not resolve: they did not).
 */
final class TransportError extends BaasException
{
    /**
     * @param string $message what failed
     * @param bool $reached whether the request may have reached the service
     * @param \Throwable|null $previous the cause
     */
    public function __construct(string $message, private readonly bool $reached, ?\Throwable $previous = null)
    {
        parent::__construct("transport error: " . $message . " ("
            . ($reached ? "the request may have reached the service" : "the request did not leave") . ")", $previous);
    }

    /**
     * Whether the request may have reached the service.
     *
     * @return bool false when the connection never opened
     */
    public function mayHaveReachedService(): bool
    {
        return $this->reached;
    }

    /**
     * Always: a transport failure may pass.
     *
     * @return bool true
     */
    public function isRetryable(): bool
    {
        return true;
    }
}
