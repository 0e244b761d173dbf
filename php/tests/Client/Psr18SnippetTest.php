<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests\Client;

use Baas\Client\Account\GetAccountDetailsRequest;
use Baas\Client\Client;
use Baas\Client\Enums\Currency;
use Baas\Client\Transfers\ApplyForTransferRequest;
use Baas\Runtime\Config;
use Baas\Runtime\Decimal;
use Baas\Runtime\Exception\OutcomeUnknown;
use Baas\Runtime\Exception\TransportError;
use Baas\Runtime\Testing\MockService;
use Baas\Runtime\Transport\HttpRequest;
use Baas\Runtime\Transport\Transport;
use Baas\Signing\PrivateKey;
use PHPUnit\Framework\TestCase;
use Psr\Http\Client\ClientInterface;
use Psr\Http\Client\NetworkExceptionInterface;
use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamFactoryInterface;
use Psr\Http\Message\StreamInterface;

if (!interface_exists(ClientInterface::class)) {
    require_once __DIR__ . '/psr-stubs.php';
}

/** PSR-7 and PSR-18 objects of the smallest kind, a PSR-18 client that calls a MockService. */
final class Psr7Stream implements StreamInterface
{
    public function __construct(public readonly string $text)
    {
    }

    public function __toString(): string
    {
        return $this->text;
    }
}

final class Psr7Request implements RequestInterface
{
    /** @param array<string, string> $headers */
    public function __construct(public readonly string $method, public readonly string $uri, public array $headers = [], public string $body = '')
    {
    }

    public function withHeader(string $name, string $value): static
    {
        $copy = clone $this;
        $copy->headers[$name] = $value;
        return $copy;
    }

    public function withBody(StreamInterface $body): static
    {
        $copy = clone $this;
        $copy->body = (string) $body;
        return $copy;
    }
}

final class Psr7Response implements ResponseInterface
{
    public function __construct(private readonly int $status, private readonly string $body)
    {
    }

    public function getStatusCode(): int
    {
        return $this->status;
    }

    public function getBody(): StreamInterface
    {
        return new Psr7Stream($this->body);
    }
}

final class Psr17Factory implements RequestFactoryInterface, StreamFactoryInterface
{
    public function createRequest(string $method, string $uri): RequestInterface
    {
        return new Psr7Request($method, $uri);
    }

    public function createStream(string $content = ''): StreamInterface
    {
        return new Psr7Stream($content);
    }
}

final class Psr18NetworkError extends \RuntimeException implements NetworkExceptionInterface
{
}

final class Psr18Client implements ClientInterface
{
    public bool $fail = false;

    /** @var list<Psr7Request> */
    public array $seen = [];

    public function __construct(private readonly Transport $service)
    {
    }

    public function sendRequest(RequestInterface $request): ResponseInterface
    {
        \assert($request instanceof Psr7Request);
        $this->seen[] = $request;
        if ($this->fail) {
            throw new Psr18NetworkError('connection reset');
        }
        $answer = $this->service->send(new HttpRequest($request->uri, $request->body, method: $request->method));
        return new Psr7Response($answer->status, $answer->body);
    }
}

/** The README's PSR-18 adapter, as printed there, carrying the generated client's calls. */
final class Psr18SnippetTest extends TestCase
{
    private static function transport(ClientInterface $http): Transport
    {
        if (!class_exists('Psr18Transport', false)) {
            $readme = (string) file_get_contents(dirname(__DIR__, 2) . '/README.md');
            self::assertSame(1, preg_match('/```php\n(final class Psr18Transport .*?)```/s', $readme, $m), 'the README shows no Psr18Transport');
            eval($m[1]);
        }
        $factory = new Psr17Factory();
        $class = 'Psr18Transport';
        $transport = new $class($http, $factory, $factory);
        self::assertInstanceOf(Transport::class, $transport);
        return $transport;
    }

    public function testTheReadmesAdapterCarriesSignedCallsAndSaysAFailureMayHaveArrived(): void
    {
        $key = new PrivateKey('psr-key');
        $mock = new MockService($key);
        $mock->on(GetAccountDetailsRequest::class, fn (): array => ['balance' => '12.30']);
        $mock->on(ApplyForTransferRequest::class, fn (): array => ['txId' => 'T1']);
        $http = new Psr18Client($mock);
        $client = new Client(new Config('https://baas.example.com', 'partner1', $key, maxRetries: 1, retryBackoff: 0.0), self::transport($http));
        self::assertSame('12.30', (string) $client->getAccountDetails(accountId: '1')->balance);
        self::assertSame('application/json; charset=UTF-8', $http->seen[0]->headers['Content-Type']);
        self::assertSame($mock->requests()[0]->body, $http->seen[0]->body, 'the exact bytes signed');
        $http->fail = true;
        try {
            $client->applyForTransfer(payerAccountId: '1', payeeBankCode: '46', payeeAccountId: '2', currency: Currency::Kes, amount: Decimal::of('1.00'));
            self::fail('no error');
        } catch (OutcomeUnknown $e) {
            self::assertInstanceOf(TransportError::class, $e->cause);
            self::assertSame(1, $e->attempts(), 'a money call is not sent again');
        }
    }
}
