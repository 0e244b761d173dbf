<?php

declare(strict_types=1);

namespace Baas\Runtime\Testing;

use Baas\Runtime\Envelope;
use Baas\Runtime\Exception\BaasException;
use Baas\Runtime\Exception\TransportError;
use Baas\Runtime\Json;
use Baas\Runtime\Request;
use Baas\Runtime\Transport\HttpRequest;
use Baas\Runtime\Transport\HttpResponse;
use Baas\Runtime\Transport\Transport;
use Baas\Runtime\WireObject;
use Baas\Signing\JsonObject;
use Baas\Signing\PrivateKey;

/**
 * The service, mocked for your PHPUnit tests: a {@see Transport} that verifies each request's
 * signature, answers from stubs per operation, signs its answers with your key and records the
 * requests, so the client under test validates, signs, verifies and decodes exactly as in
 * production, without a network:
 *
 *     $mock = new MockService($key);
 *     $mock->on(GetAccountDetailsRequest::class, fn (JsonObject $params) => ['balance' => '10.00']);
 *     $client = new Client($config, $mock);
 */
final class MockService implements Transport
{
    /** @var array<string, \Closure(JsonObject): mixed> stubs by wire path */
    private array $stubs = [];

    /** @var list<Recorded> */
    private array $requests = [];

    /**
     * @param PrivateKey $key the partner's key (the one the client signs with)
     * @param string $sender the sender of the answers
     */
    public function __construct(private readonly PrivateKey $key, private readonly string $sender = 'mock-service')
    {
    }

    /**
     * Answers an operation with what `$answer` returns for the request's params: its `data` (an
     * array, a `WireObject` or null; signed, code `00000`), a {@see Refusal} or a {@see Failure}.
     * Replaces an earlier stub.
     *
     * @param class-string<Request<mixed>> $operation the generated request class
     * @param \Closure(JsonObject): mixed $answer the stub
     */
    public function on(string $operation, \Closure $answer): void
    {
        $this->stubs[$operation::operation()->path] = $answer;
    }

    /**
     * Every request received, in order.
     *
     * @return list<Recorded> the requests
     */
    public function requests(): array
    {
        return $this->requests;
    }

    /**
     * The requests of one operation, in order.
     *
     * @param class-string<Request<mixed>> $operation the generated request class
     * @return list<Recorded> its requests
     */
    public function requestsOf(string $operation): array
    {
        $path = $operation::operation()->path;
        return array_values(array_filter($this->requests, static fn (Recorded $r): bool => $r->path === $path));
    }

    /**
     * Answers a request as the service would (see the class's doc).
     *
     * @param HttpRequest $request the request
     * @return HttpResponse the answer
     * @throws TransportError for a {@see Failure} stub
     */
    public function send(HttpRequest $request): HttpResponse
    {
        $path = (string) parse_url($request->url, PHP_URL_PATH);
        try {
            $received = Envelope::verifyRequest($request->body, $this->key);
        } catch (BaasException) {
            // As the service: an unsigned refusal echoing nothing of the request.
            return new HttpResponse(200, '{"code":"12005","msg":"Invalid signature"}');
        }
        $this->requests[] = new Recorded($path, $received->requestId, $received->params, $request->body);
        $stub = $this->stubs[$path] ?? null;
        if ($stub === null) {
            return new HttpResponse(500, 'no stub for ' . $path);
        }
        $answer = $stub($received->params);
        if ($answer === Failure::NotSent) {
            throw new TransportError('mock: the connection never opened', false);
        }
        if ($answer === Failure::NoAnswer) {
            throw new TransportError('mock: no answer', true);
        }
        if ($answer === Failure::GatewayError) {
            return new HttpResponse(502, '<html>502 Bad Gateway</html>');
        }
        if ($answer instanceof Refusal) {
            if (!$answer->signed) {
                return new HttpResponse(200, Json::encode(['code' => $answer->code, 'msg' => $answer->msg]));
            }
            return new HttpResponse(200, Envelope::signedAnswer($received->requestId, $this->sender, $received->locale, $answer->code, $answer->msg, null, $this->key));
        }
        $data = $answer === [] ? new WireObject() : $answer; // `{}`, not `[]`
        return new HttpResponse(200, Envelope::signedAnswer($received->requestId, $this->sender, $received->locale, Envelope::SUCCESS, 'success', $data, $this->key));
    }
}
