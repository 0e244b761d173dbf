<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * A signed request: its requestId (the answer must echo it) and the exact bytes to send.
 */
final class SignedRequest
{
    /**
     * @param string $requestId the requestId
     * @param string $body the bytes, signature included
     */
    public function __construct(public readonly string $requestId, #[\SensitiveParameter] public readonly string $body)
    {
    }
}
