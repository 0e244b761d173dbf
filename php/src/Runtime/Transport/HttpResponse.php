<?php

declare(strict_types=1);

namespace Baas\Runtime\Transport;

/**
 * An HTTP answer: its status and its exact bytes.
 */
final class HttpResponse
{
    /**
     * @param int $status the HTTP status
     * @param string $body the exact bytes received
     */
    public function __construct(public readonly int $status, public readonly string $body)
    {
    }
}
