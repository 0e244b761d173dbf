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
     *     for a new one per attempt
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
