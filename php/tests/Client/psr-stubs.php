<?php

declare(strict_types=1);

// The parts of PSR-7, PSR-17 and PSR-18 the README's Psr18Transport uses, declared here only
// for Psr18SnippetTest (the runtime takes no dependency on them; a partner has the real ones).

namespace Psr\Http\Message;

interface StreamInterface extends \Stringable
{
}

interface RequestInterface
{
    public function withHeader(string $name, string $value): static;

    public function withBody(StreamInterface $body): static;
}

interface ResponseInterface
{
    public function getStatusCode(): int;

    public function getBody(): StreamInterface;
}

interface RequestFactoryInterface
{
    public function createRequest(string $method, string $uri): RequestInterface;
}

interface StreamFactoryInterface
{
    public function createStream(string $content = ''): StreamInterface;
}

namespace Psr\Http\Client;

use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

interface ClientExceptionInterface extends \Throwable
{
}

interface NetworkExceptionInterface extends ClientExceptionInterface
{
}

interface ClientInterface
{
    public function sendRequest(RequestInterface $request): ResponseInterface;
}
