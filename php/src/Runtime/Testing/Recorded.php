<?php

declare(strict_types=1);

namespace Baas\Runtime\Testing;

use Baas\Signing\JsonObject;

/**
 * One request a {@see MockService} received, its signature verified.
 */
final class Recorded
{
    /**
     * @param string $path the wire path
     * @param string $requestId the requestId
     * @param JsonObject $params the params as sent (numbers as their literal text)
     * @param string $body the exact bytes received
     */
    public function __construct(
        public readonly string $path,
        public readonly string $requestId,
        public readonly JsonObject $params,
        public readonly string $body,
    ) {
    }
}
