<?php

declare(strict_types=1);

namespace Baas\Runtime;

use Baas\Runtime\Exception\ConfigError;
use Baas\Signing\PrivateKey;

/**
 * How a client reaches the service: its base URL, your sender name and private key, and the
 * limits of a call. The key shows as `[redacted]` in `var_dump`, `print_r` and strings.
 */
final class Config
{
    /** The default longest answer read, in bytes (8 MiB). */
    public const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

    /**
     * @param string $baseUrl the service's base URL, `https://…` (`http://` only for loopback)
     * @param string $sender your sender name, as your bank gives it
     * @param PrivateKey $privateKey your key (`PrivateKey::fromEnv('BAAS_PRIVATE_KEY')`)
     * @param string $locale the envelope's locale
     * @param float $requestTimeout seconds one attempt may take in all
     * @param float $connectTimeout seconds to open the connection
     * @param int $maxRetries further attempts after a retryable failure (0: none)
     * @param float $retryBackoff seconds before the first retry, doubled each time (at most 10 s)
     * @param int $maxResponseBytes the longest answer read
     * @param bool $acceptUnsignedSuccess accept a `00000` answer with no signature (never in
     *     production: its content is not authenticated)
     * @param object|null $logger a PSR-3 logger (`Psr\Log\LoggerInterface`) or any object with a
     *     `debug(string $message, array $context)` method: one record per call, never the key,
     *     the params only with `$logParams`
     * @param bool $logParams log each call's params (they may hold personal data)
     */
    public function __construct(
        public readonly string $baseUrl,
        public readonly string $sender,
        public readonly PrivateKey $privateKey,
        public readonly string $locale = 'en_KE',
        public readonly float $requestTimeout = 30.0,
        public readonly float $connectTimeout = 10.0,
        public readonly int $maxRetries = 2,
        public readonly float $retryBackoff = 0.5,
        public readonly int $maxResponseBytes = self::DEFAULT_MAX_RESPONSE_BYTES,
        public readonly bool $acceptUnsignedSuccess = false,
        public readonly ?object $logger = null,
        public readonly bool $logParams = false,
    ) {
    }

    /**
     * Refuses a configuration that cannot work, naming the setting.
     *
     * @throws ConfigError when a setting is wrong
     */
    public function check(): void
    {
        $url = parse_url($this->baseUrl);
        if ($url === false || !isset($url['scheme'], $url['host']) || !in_array($url['scheme'], ['http', 'https'], true)) {
            throw new ConfigError('baseUrl', "'" . $this->baseUrl . "' is not an http(s) URL");
        }
        if ($url['scheme'] === 'http' && !self::isLoopback($url['host'])) {
            throw new ConfigError('baseUrl', 'plain http is allowed for loopback only (the sandbox); use https');
        }
        if ($this->sender === '' || preg_match('/^[!-~]+$/D', $this->sender) !== 1) {
            throw new ConfigError('sender', 'must be non-empty printable ASCII without spaces');
        }
        if ($this->privateKey->isEmpty()) {
            throw new ConfigError('privateKey', 'is empty');
        }
        if ($this->requestTimeout <= 0 || $this->connectTimeout <= 0) {
            throw new ConfigError('requestTimeout', 'timeouts must be greater than 0');
        }
        if ($this->maxRetries < 0 || $this->retryBackoff < 0) {
            throw new ConfigError('maxRetries', 'retries and backoff must not be negative');
        }
        if ($this->maxResponseBytes <= 0) {
            throw new ConfigError('maxResponseBytes', 'must be greater than 0');
        }
        if ($this->logger !== null && !method_exists($this->logger, 'debug')) {
            throw new ConfigError('logger', get_debug_type($this->logger) . ' has no debug() method (a PSR-3 logger has)');
        }
    }

    /**
     * The URL of an operation's path.
     *
     * @param string $path the wire path, e.g. `/query/getAccountDetails`
     * @return string the URL
     */
    public function url(string $path): string
    {
        return rtrim($this->baseUrl, '/') . '/' . ltrim($path, '/');
    }

    private static function isLoopback(string $host): bool
    {
        $host = trim($host, '[]');
        return $host === 'localhost' || $host === '::1' || str_starts_with($host, '127.');
    }
}
