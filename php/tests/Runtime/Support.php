<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests;

use Baas\Runtime\Config;
use Baas\Runtime\RuntimeClient;
use Baas\Runtime\Testing\MockService;
use Baas\Runtime\Transport\HttpRequest;
use Baas\Runtime\Transport\HttpResponse;
use Baas\Runtime\Transport\Transport;
use Baas\Signing\PrivateKey;

/** What the tests share. */
final class Support
{
    public const KEY = 'test-key-5f1c9a';

    /** The shared vectors (one copy, in the repository's tests/data): missing is a failure. */
    public static function vectorsFile(): string
    {
        $shared = dirname(__DIR__, 3) . '/tests/data/signing-vectors.json';
        if (!is_file($shared)) {
            throw new \RuntimeException('the shared signing vectors are missing: ' . $shared);
        }
        return $shared;
    }

    /** A client of a mock, retries without waiting. */
    public static function client(Transport $transport, array $retryable = ['10001', '10002'], ?object $logger = null, int $maxRetries = 2): RuntimeClient
    {
        $config = new Config('https://baas.example.com', 'partner1', new PrivateKey(self::KEY), maxRetries: $maxRetries, logger: $logger);
        return new RuntimeClient($config, $transport, $retryable, static function (float $seconds): void {
        });
    }

    public static function mock(): MockService
    {
        return new MockService(new PrivateKey(self::KEY));
    }

    /** The sandbox binary, or null when it is not built. */
    public static function sandboxBinary(): ?string
    {
        $env = getenv('BAAS_SANDBOX');
        if (is_string($env) && $env !== '') {
            return $env;
        }
        $roots = array_filter([getenv('CARGO_TARGET_DIR') ?: null, dirname(__DIR__, 3) . '/target']);
        foreach ($roots as $root) {
            if (is_executable($root . '/debug/baas-sandbox')) {
                return $root . '/debug/baas-sandbox';
            }
        }
        return null;
    }
}

/** A transport that counts what it sends and can change the answer (tamper, replay). */
final class Spy implements Transport
{
    public int $sent = 0;

    /** @var (\Closure(HttpResponse): HttpResponse)|null */
    public ?\Closure $change = null;

    /** @var list<HttpRequest> */
    public array $requests = [];

    public function __construct(private readonly Transport $inner)
    {
    }

    public function send(HttpRequest $request): HttpResponse
    {
        $this->sent++;
        $this->requests[] = $request;
        $response = $this->inner->send($request);
        return $this->change === null ? $response : ($this->change)($response);
    }
}

/** A logger shaped like PSR-3's, keeping what it is given. */
final class MemoryLogger
{
    /** @var list<array{string, string, array<string, mixed>}> */
    public array $records = [];

    /** @param array<string, mixed> $context */
    public function debug(string|\Stringable $message, array $context = []): void
    {
        $this->records[] = ['debug', (string) $message, $context];
    }

    /** @param array<string, mixed> $context */
    public function error(string|\Stringable $message, array $context = []): void
    {
        $this->records[] = ['error', (string) $message, $context];
    }
}
