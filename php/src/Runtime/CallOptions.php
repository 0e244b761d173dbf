<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * Options of one call: a requestId of your own (then the call is never re-sent once its bytes may
 * have left, as the id would be reused), a time limit, and the retries allowed.
 */
final class CallOptions
{
    /**
     * @param string|null $requestId the requestId to send (printable ASCII, no spaces), or null
     *     for a new one per attempt. A requestId of your own turns off retries of a failed
     *     attempt that may have reached the service (a timeout, a dropped connection, a
     *     retryable code such as `10001`), queries included: the service refuses a requestId it
     *     has seen (`12002`), so the call is tried again only when the failed attempt provably
     *     never left
     * @param float|null $timeout seconds one attempt may take, or null for the configured one
     * @param int|null $maxRetries further attempts after a retryable failure, or null for the
     *     configured number
     */
    public function __construct(
        public readonly ?string $requestId = null,
        public readonly ?float $timeout = null,
        public readonly ?int $maxRetries = null,
    ) {
    }
}
