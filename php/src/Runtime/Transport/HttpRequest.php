<?php

declare(strict_types=1);

namespace Baas\Runtime\Transport;

/**
 * One HTTP request a transport sends: a POST of the signed JSON bytes (or, for the sandbox's admin
 * API, another method), with the limits of the call.
 */
final class HttpRequest
{
    /**
     * @param string $url the URL
     * @param string $body the exact bytes to send
     * @param float $timeout seconds the exchange may take in all
     * @param float $connectTimeout seconds to open the connection
     * @param int $maxResponseBytes the longest answer read
     * @param string $method the HTTP method
     * @param string $contentType the body's media type
     * @param array<string, string> $headers further headers
     */
    public function __construct(
        public readonly string $url,
        #[\SensitiveParameter] public readonly string $body,
        public readonly float $timeout = 30.0,
        public readonly float $connectTimeout = 10.0,
        public readonly int $maxResponseBytes = 8 * 1024 * 1024,
        public readonly string $method = 'POST',
        public readonly string $contentType = 'application/json; charset=UTF-8',
        public readonly array $headers = [],
    ) {
    }

    /**
     * What `var_dump` shows: the body's length, not the body.
     *
     * @return array<string, mixed> the request without its body
     */
    public function __debugInfo(): array
    {
        return ['method' => $this->method, 'url' => $this->url, 'body' => strlen($this->body) . ' bytes'];
    }
}
