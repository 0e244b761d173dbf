<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests;

use Baas\Runtime\Exception\CallTimeout;
use Baas\Runtime\Exception\ResponseTooLarge;
use Baas\Runtime\Exception\TransportError;
use Baas\Runtime\Transport\CurlTransport;
use Baas\Runtime\Transport\HttpRequest;
use Baas\Runtime\Transport\StreamTransport;
use Baas\Runtime\Transport\Transport;
use Baas\Runtime\Transport\Transports;
use PHPUnit\Framework\TestCase;

/**
 * Both transports against a loopback server (`php -S`): the exact bytes, any status, chunked
 * answers, the time and size limits, and "not sent" when the connection never opened. The curl
 * one runs when ext-curl is loaded (CI sets BAAS_REQUIRE_EXTENSIONS=1, so it always runs there).
 */
final class TransportTest extends TestCase
{
    /** @var resource|null */
    private static $server = null;

    private static string $base = '';

    public static function setUpBeforeClass(): void
    {
        $port = self::freePort();
        $router = __DIR__ . '/server/router.php';
        self::$server = proc_open([PHP_BINARY, '-S', '127.0.0.1:' . $port, $router], [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        self::$base = 'http://127.0.0.1:' . $port;
        $deadline = microtime(true) + 10;
        while (microtime(true) < $deadline) {
            $socket = @stream_socket_client('tcp://127.0.0.1:' . $port, $errno, $errstr, 0.2);
            if ($socket !== false) {
                fclose($socket);
                return;
            }
            usleep(20000);
        }
        self::fail('php -S did not start');
    }

    public static function tearDownAfterClass(): void
    {
        if (self::$server !== null) {
            proc_terminate(self::$server);
            proc_close(self::$server);
            self::$server = null;
        }
    }

    private static function freePort(): int
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0');
        self::assertNotFalse($socket);
        $name = (string) stream_socket_get_name($socket, false);
        fclose($socket);
        return (int) substr($name, strrpos($name, ':') + 1);
    }

    /** @return array<string, array{Transport}> */
    public static function transports(): array
    {
        $all = ['streams' => [new StreamTransport()]];
        if (extension_loaded('curl')) {
            $all['curl'] = [new CurlTransport()];
        }
        return $all;
    }

    public function testCurlIsTestedWhereCiRequiresIt(): void
    {
        if (getenv('BAAS_REQUIRE_EXTENSIONS') === '1') {
            self::assertTrue(extension_loaded('curl'), 'BAAS_REQUIRE_EXTENSIONS=1 but ext-curl is not loaded');
        }
        self::assertInstanceOf(extension_loaded('curl') ? CurlTransport::class : StreamTransport::class, Transports::default());
    }

    /** @dataProvider transports */
    public function testTheExactBytesGoAndComeBack(Transport $transport): void
    {
        $body = '{"a":"é/\u00e9","n":100.50}';
        $response = $transport->send(new HttpRequest(self::$base . '/echo', $body));
        self::assertSame(200, $response->status);
        $echo = json_decode($response->body, true);
        self::assertSame($body, $echo['body']);
        self::assertSame('POST', $echo['method']);
        self::assertSame('application/json; charset=UTF-8', $echo['type']);
        $get = $transport->send(new HttpRequest(self::$base . '/echo', '', method: 'GET', contentType: 'text/plain'));
        self::assertSame('GET', json_decode($get->body, true)['method']);
    }

    /** @dataProvider transports */
    public function testAnyStatusIsAnAnswer(Transport $transport): void
    {
        $response = $transport->send(new HttpRequest(self::$base . '/status', '{}'));
        self::assertSame(503, $response->status);
        self::assertSame('unavailable', $response->body);
    }

    /** @dataProvider transports */
    public function testAChunkedAnswerIsJoined(Transport $transport): void
    {
        self::assertSame('hello world', $transport->send(new HttpRequest(self::$base . '/chunked', '{}'))->body);
    }

    /** @dataProvider transports */
    public function testAnAnswerOverTheLimitIsNotRead(Transport $transport): void
    {
        $this->expectException(ResponseTooLarge::class);
        $transport->send(new HttpRequest(self::$base . '/big', '{}', maxResponseBytes: 100000));
    }

    /** @dataProvider transports */
    public function testALateAnswerTimesOutAfterTheBytesLeft(Transport $transport): void
    {
        $started = microtime(true);
        try {
            $transport->send(new HttpRequest(self::$base . '/slow', '{}', timeout: 0.5));
            self::fail('no timeout');
        } catch (CallTimeout $e) {
            self::assertTrue($e->mayHaveReachedService());
        }
        self::assertLessThan(1.8, microtime(true) - $started);
    }

    /** @dataProvider transports */
    public function testARefusedConnectionIsNotSent(Transport $transport): void
    {
        $port = self::freePort();
        try {
            $transport->send(new HttpRequest('http://127.0.0.1:' . $port . '/x', '{}', timeout: 5));
            self::fail('no error');
        } catch (TransportError $e) {
            self::assertFalse($e->mayHaveReachedService(), $e->getMessage());
            self::assertSame(\Baas\Runtime\Outcome::NotSent, $e->outcome());
        }
    }
}
