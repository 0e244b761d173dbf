<?php

declare(strict_types=1);

namespace Baas\Runtime\Transport;

use Baas\Runtime\Exception\CallTimeout;
use Baas\Runtime\Exception\ResponseTooLarge;
use Baas\Runtime\Exception\TransportError;

/**
 * A transport on PHP's own sockets (`stream_socket_client`), for PHP builds without ext-curl:
 * HTTP/1.1, one connection per request (`Connection: close`), TLS with the peer's certificate
 * and name verified (`https://` needs ext-openssl, which every PHP that speaks TLS has). It knows
 * whether the request left: a connection that never opened is {@see TransportError} with
 * `mayHaveReachedService()` false; anything after the first byte is written may have reached
 * the service. No proxy: use {@see CurlTransport} or a PSR-18 client behind one.
 */
final class StreamTransport implements Transport
{
    /** The longest head (status line and headers) read, in bytes. */
    private const MAX_HEAD = 64 * 1024;

    /**
     * @param array<string, mixed> $sslOptions `ssl` stream context options to add (`cafile`, ...)
     */
    public function __construct(private readonly array $sslOptions = [])
    {
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
        $url = parse_url($request->url);
        if ($url === false || !isset($url['scheme'], $url['host'])) {
            throw new TransportError("'" . $request->url . "' is not a URL", false);
        }
        $https = strtolower($url['scheme']) === 'https';
        $host = $url['host'];
        $port = $url['port'] ?? ($https ? 443 : 80);
        $target = ($url['path'] ?? '/') . (isset($url['query']) ? '?' . $url['query'] : '');
        $remote = ($https ? 'ssl://' : 'tcp://') . $host . ':' . $port;
        $context = stream_context_create(['ssl' => $this->sslOptions + [
            'verify_peer' => true,
            'verify_peer_name' => true,
            'peer_name' => trim($host, '[]'),
            'SNI_enabled' => true,
        ]]);
        $started = microtime(true);
        $deadline = $started + $request->timeout;
        $errno = 0;
        $errstr = '';
        $socket = @stream_socket_client($remote, $errno, $errstr, min($request->connectTimeout, $request->timeout), STREAM_CLIENT_CONNECT, $context);
        if ($socket === false) {
            if (microtime(true) - $started >= min($request->connectTimeout, $request->timeout) - 0.01) {
                throw new CallTimeout($request->timeout, false);
            }
            $why = $errstr !== '' ? $errstr : (error_get_last()['message'] ?? 'connection failed');
            throw new TransportError('cannot connect to ' . $host . ':' . $port . ': ' . $why, false);
        }
        try {
            $this->write($socket, $this->head($request, $host, $url, $target) . $request->body, $deadline, $request);
            return $this->read($socket, $deadline, $request);
        } finally {
            fclose($socket);
        }
    }

    /**
     * @param array<string, mixed> $url
     */
    private function head(HttpRequest $request, string $host, array $url, string $target): string
    {
        $hostHeader = $host . (isset($url['port']) ? ':' . $url['port'] : '');
        $lines = [
            $request->method . ' ' . $target . ' HTTP/1.1',
            'Host: ' . $hostHeader,
            'Content-Type: ' . $request->contentType,
            'Content-Length: ' . strlen($request->body),
            'Accept: application/json',
            'User-Agent: baas-php-runtime',
            'Connection: close',
        ];
        foreach ($request->headers as $name => $value) {
            $lines[] = $name . ': ' . $value;
        }
        return implode("\r\n", $lines) . "\r\n\r\n";
    }

    /**
     * @param resource $socket
     */
    private function write($socket, #[\SensitiveParameter] string $bytes, float $deadline, HttpRequest $request): void
    {
        $written = 0;
        $length = strlen($bytes);
        while ($written < $length) {
            $this->until($socket, $deadline, $request, $written > 0);
            $n = @fwrite($socket, substr($bytes, $written, 65536));
            if ($n === false || $n === 0) {
                if (stream_get_meta_data($socket)['timed_out']) {
                    throw new CallTimeout($request->timeout, true);
                }
                // The first write may have put bytes on the wire before failing.
                throw new TransportError('the connection closed while sending', true);
            }
            $written += $n;
        }
    }

    /**
     * @param resource $socket
     */
    private function read($socket, float $deadline, HttpRequest $request): HttpResponse
    {
        $buffer = '';
        $head = null;
        $framing = null;
        while (true) {
            if ($head === null && ($end = strpos($buffer, "\r\n\r\n")) !== false) {
                [$status, $headers] = self::parseHead(substr($buffer, 0, $end));
                $buffer = substr($buffer, $end + 4);
                if ($status >= 100 && $status < 200) {
                    continue; // an interim answer (100 Continue): the real one follows
                }
                $head = [$status, $headers];
                $framing = isset($headers['transfer-encoding']) && stripos($headers['transfer-encoding'], 'chunked') !== false
                    ? 'chunked'
                    : (isset($headers['content-length']) ? (int) $headers['content-length'] : null);
                if (is_int($framing) && $framing > $request->maxResponseBytes) {
                    throw new ResponseTooLarge($request->maxResponseBytes);
                }
            }
            if ($head !== null) {
                if (is_int($framing) && strlen($buffer) >= $framing) {
                    return new HttpResponse($head[0], substr($buffer, 0, $framing));
                }
                if ($framing === 'chunked' && ($body = self::dechunk($buffer)) !== null) {
                    return new HttpResponse($head[0], $body);
                }
                if (strlen($buffer) > $request->maxResponseBytes + ($framing === 'chunked' ? 65536 : 0)) {
                    throw new ResponseTooLarge($request->maxResponseBytes);
                }
            } elseif (strlen($buffer) > self::MAX_HEAD) {
                throw new TransportError('the answer\'s head is longer than ' . self::MAX_HEAD . ' bytes', true);
            }
            $this->until($socket, $deadline, $request, true);
            $chunk = @fread($socket, 65536);
            if (($chunk === false || $chunk === '') && stream_get_meta_data($socket)['timed_out']) {
                throw new CallTimeout($request->timeout, true);
            }
            if ($chunk === false || ($chunk === '' && feof($socket))) {
                if ($head !== null && $framing === null) {
                    return new HttpResponse($head[0], $buffer); // delimited by the connection's end
                }
                throw new TransportError('the connection closed before a complete answer', true);
            }
            $buffer .= $chunk;
        }
    }

    /**
     * Sets the socket's timeout to what is left before the deadline.
     *
     * @param resource $socket
     */
    private function until($socket, float $deadline, HttpRequest $request, bool $reached): void
    {
        $left = $deadline - microtime(true);
        if ($left <= 0) {
            throw new CallTimeout($request->timeout, $reached);
        }
        stream_set_timeout($socket, (int) $left, (int) (($left - (int) $left) * 1e6));
    }

    /**
     * @return array{int, array<string, string>}
     */
    private static function parseHead(string $head): array
    {
        $lines = explode("\r\n", $head);
        if (preg_match('#^HTTP/1\.[01] (\d{3})#', $lines[0], $m) !== 1) {
            throw new TransportError('the answer is not HTTP/1.1', true);
        }
        $headers = [];
        foreach (array_slice($lines, 1) as $line) {
            $colon = strpos($line, ':');
            if ($colon !== false) {
                $headers[strtolower(trim(substr($line, 0, $colon)))] = trim(substr($line, $colon + 1));
            }
        }
        return [(int) $m[1], $headers];
    }

    /** The body of a complete chunked encoding, or null while it is incomplete. */
    private static function dechunk(string $buffer): ?string
    {
        $body = '';
        $at = 0;
        while (true) {
            $eol = strpos($buffer, "\r\n", $at);
            if ($eol === false) {
                return null;
            }
            $sizeText = trim(explode(';', substr($buffer, $at, $eol - $at), 2)[0]);
            if (preg_match('/^[0-9A-Fa-f]{1,8}$/D', $sizeText) !== 1) {
                throw new TransportError('the answer\'s chunked encoding is broken', true);
            }
            $size = (int) hexdec($sizeText);
            if ($size === 0) {
                $rest = substr($buffer, $eol + 2);
                return str_starts_with($rest, "\r\n") || str_contains($rest, "\r\n\r\n") ? $body : null;
            }
            if (strlen($buffer) < $eol + 2 + $size + 2) {
                return null;
            }
            $body .= substr($buffer, $eol + 2, $size);
            $at = $eol + 2 + $size + 2;
        }
    }
}
