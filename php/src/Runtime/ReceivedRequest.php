<?php

declare(strict_types=1);

namespace Baas\Runtime;

use Baas\Signing\JsonObject;

/**
 * A verified request, as a test server sees it ({@see Envelope::verifyRequest()}).
 */
final class ReceivedRequest
{
    /**
     * @param string $requestId the requestId
     * @param string $sender the sender
     * @param string $locale the locale
     * @param int $timestamp epoch milliseconds
     * @param string $salt the salt
     * @param JsonObject $params the params as sent (numbers as their literal text)
     */
    public function __construct(
        public readonly string $requestId,
        public readonly string $sender,
        public readonly string $locale,
        public readonly int $timestamp,
        public readonly string $salt,
        public readonly JsonObject $params,
    ) {
    }
}
