<?php

declare(strict_types=1);

namespace Baas\Runtime\Transport;

use Baas\Runtime\Exception\CallTimeout;
use Baas\Runtime\Exception\ResponseTooLarge;
use Baas\Runtime\Exception\TransportError;

/**
 * A transport on ext-curl (the default when it is loaded): the exact bytes as the POST body, no
 * redirects, only http and https, the answer's length limited as it arrives. A failure before
 * curl began sending (no name, no connection, a TLS handshake refused) is
 * {@see TransportError} with `mayHaveReachedService()` false.
 */
final class CurlTransport implements Transport
{
    /** curl errors that happen before any request byte is sent. */
    private const BEFORE_SENDING = [1, 2, 3, 5, 6, 7, 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 83, 90, 91];

    /**
     * @param array<int, mixed> $options further `CURLOPT_*` options (a proxy, a CA file, ...)
     */
    public function __construct(private readonly array $options = [])
    {
        if (!extension_loaded('curl')) {
            throw new \LogicException('ext-curl is not loaded: use StreamTransport');
        }
    }

    /**
     * Sends the request (see {@see Transport::send()}).
     *
     * @param HttpRequest $request the request
     * @return HttpResponse the answer
     * @throws TransportError|CallTimeout|ResponseTooLarge when no usable answer came
     */
    public function send(HttpRequest $request): HttpResponse
    {
        $handle = curl_init();
        $body = '';
        $tooLarge = false;
        $max = $request->maxResponseBytes;
        $headers = ['Content-Type: ' . $request->contentType, 'Accept: application/json', 'Expect:'];
        foreach ($request->headers as $name => $value) {
            $headers[] = $name . ': ' . $value;
        }
        curl_setopt_array($handle, $this->options + [
            CURLOPT_URL => $request->url,
            CURLOPT_CUSTOMREQUEST => $request->method,
            CURLOPT_POSTFIELDS => $request->body,
            CURLOPT_HTTPHEADER => $headers,
            CURLOPT_USERAGENT => 'baas-php-runtime',
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            CURLOPT_NOSIGNAL => true,
            CURLOPT_TIMEOUT_MS => max(1, (int) ceil($request->timeout * 1000)),
            CURLOPT_CONNECTTIMEOUT_MS => max(1, (int) ceil(min($request->connectTimeout, $request->timeout) * 1000)),
            CURLOPT_SSL_VERIFYPEER => true,
            CURLOPT_SSL_VERIFYHOST => 2,
            CURLOPT_WRITEFUNCTION => static function ($handle, string $chunk) use (&$body, &$tooLarge, $max): int {
                if (strlen($body) + strlen($chunk) > $max) {
                    $tooLarge = true;
                    return 0; // aborts the transfer
                }
                $body .= $chunk;
                return strlen($chunk);
            },
        ]);
        curl_exec($handle);
        $errno = curl_errno($handle);
        $error = curl_error($handle);
        $status = (int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE);
        $began = (float) curl_getinfo($handle, CURLINFO_PRETRANSFER_TIME) > 0.0;
        curl_close($handle);
        if ($tooLarge) {
            throw new ResponseTooLarge($max);
        }
        if ($errno === 0) {
            return new HttpResponse($status, $body);
        }
        $reached = $began && !in_array($errno, self::BEFORE_SENDING, true);
        if ($errno === 28) {
            throw new CallTimeout($request->timeout, $reached);
        }
        throw new TransportError('curl error ' . $errno . ': ' . $error, $reached);
    }
}
