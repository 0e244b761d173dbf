<?php

declare(strict_types=1);

namespace Baas\Runtime\Transport;

use Baas\Runtime\Exception\CallTimeout;
use Baas\Runtime\Exception\ResponseTooLarge;
use Baas\Runtime\Exception\TransportError;

/**
 * Sends one HTTP request and returns the answer's status and exact bytes: {@see CurlTransport}
 * when ext-curl is there, {@see StreamTransport} (PHP's own sockets) otherwise, or your own (a
 * PSR-18 client fits in a few lines: see the README). Any status is an answer; only a failure to
 * get one throws, saying whether the request may have left.
 */
interface Transport
{
    /**
     * Sends the request.
     *
     * @param HttpRequest $request the request
     * @return HttpResponse the answer
     * @throws TransportError when no answer came (`mayHaveReachedService()` says whether the
     *     bytes may have left)
     * @throws CallTimeout when the answer took longer than the request's timeout
     * @throws ResponseTooLarge when the answer is longer than the request's limit
     */
    public function send(HttpRequest $request): HttpResponse;
}
