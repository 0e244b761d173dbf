<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * A successful call with what its envelope said.
 *
 * @template T
 */
final class Success
{
    /**
     * @param T $data the typed answer
     * @param string $requestId the requestId sent and echoed (verified)
     * @param mixed $rawData `data` as received (numbers as their literal text)
     * @param int $attempts the attempts the call made, the answered one included
     */
    public function __construct(
        public readonly mixed $data,
        public readonly string $requestId,
        public readonly mixed $rawData,
        public readonly int $attempts,
    ) {
    }
}
