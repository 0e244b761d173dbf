<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests\Client;

use Baas\Client\Client;
use Baas\Runtime\Envelope;
use Baas\Runtime\Testing\SandboxProcess;
use Baas\Runtime\Tests\Support;
use Baas\Runtime\Transport\HttpRequest;
use Baas\Runtime\Transport\StreamTransport;
use Baas\Runtime\WireObject;
use PHPUnit\Framework\TestCase;

/**
 * The five everyday tasks of issue 32, as a new partner writes them from the README
 * (php/examples/, shown verbatim in php/README.md): installed into a fresh project with Composer
 * from path repositories (Packagist off), run against the sandbox, the notification endpoint
 * served by `php -S` and called by the sandbox itself; every example runs under `php -n` (no
 * curl, mbstring, bcmath or PDO: the transport is PHP's own sockets). CI sets BAAS_REQUIRE_COMPOSER=1 (Debian's
 * `composer`); without Composer the project's vendor/autoload.php requires both autoloaders.
 */
final class PartnerProjectTest extends TestCase
{
    /** The lines (not blank) of the same five tasks in Python, as issue 32 counted them. */
    private const PYTHON_LINES = 144;

    private const EXAMPLES = ['first-call.php', 'refused-transfer.php', 'every-page.php', 'otp-transfer.php', 'notification-endpoint.php'];

    private static string $project = '';

    private static ?SandboxProcess $sandbox = null;

    /** @var resource|null */
    private static $endpoint = null;

    private static int $endpointPort = 0;

    public static function setUpBeforeClass(): void
    {
        $binary = Support::sandboxBinary();
        if ($binary === null) {
            self::assertNotSame('1', getenv('BAAS_REQUIRE_SANDBOX'), 'BAAS_REQUIRE_SANDBOX=1 but no baas-sandbox binary');
            self::markTestSkipped('no baas-sandbox binary');
        }
        $repo = dirname(__DIR__, 3);
        self::$project = sys_get_temp_dir() . '/baas-partner-' . bin2hex(random_bytes(6));
        mkdir(self::$project . '/var', 0700, true);
        foreach (self::EXAMPLES as $example) {
            copy($repo . '/php/examples/' . $example, self::$project . '/' . $example);
        }
        self::install($repo);
        $socket = stream_socket_server('tcp://127.0.0.1:0');
        self::assertNotFalse($socket);
        $name = (string) stream_socket_get_name($socket, false);
        fclose($socket);
        self::$endpointPort = (int) substr($name, strrpos($name, ':') + 1);
        self::$sandbox = SandboxProcess::start($binary, callbackUrl: 'http://127.0.0.1:' . self::$endpointPort . '/');
        self::$endpoint = proc_open(
            [PHP_BINARY, '-n', '-S', '127.0.0.1:' . self::$endpointPort, 'notification-endpoint.php'],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']],
            $pipes,
            self::$project,
            self::env(),
        );
        for ($i = 0; $i < 100 && @fsockopen('127.0.0.1', self::$endpointPort) === false; $i++) {
            usleep(20000);
        }
    }

    private static function install(string $repo): void
    {
        $composer = trim((string) shell_exec('command -v composer'));
        if ($composer === '') {
            self::assertNotSame('1', getenv('BAAS_REQUIRE_COMPOSER'), 'BAAS_REQUIRE_COMPOSER=1 but composer is not installed');
            file_put_contents(self::$project . '/vendor-autoload.php', "<?php\nrequire '$repo/php/autoload.php';\nrequire '$repo/generated/php/autoload.php';\n");
            mkdir(self::$project . '/vendor');
            rename(self::$project . '/vendor-autoload.php', self::$project . '/vendor/autoload.php');
            return;
        }
        // What the README tells a partner to write, pointing at this checkout.
        file_put_contents(self::$project . '/composer.json', json_encode([
            'name' => 'acme/partner',
            'require' => ['baas/client' => '*'],
            'repositories' => [
                ['packagist.org' => false],
                ['type' => 'path', 'url' => $repo . '/php'],
                ['type' => 'path', 'url' => $repo . '/generated/php'],
            ],
        ], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES));
        $out = [];
        $code = 0;
        exec('cd ' . escapeshellarg(self::$project) . ' && COMPOSER_HOME=' . escapeshellarg(self::$project . '/.composer')
            . ' ' . escapeshellarg($composer) . ' install --no-interaction --no-progress 2>&1', $out, $code);
        self::assertSame(0, $code, implode("\n", $out));
        self::assertFileExists(self::$project . '/vendor/baas/runtime/composer.json');
        self::assertFileExists(self::$project . '/vendor/baas/client/src/Client.php');
    }

    public static function tearDownAfterClass(): void
    {
        if (self::$endpoint !== null) {
            proc_terminate(self::$endpoint);
            proc_close(self::$endpoint);
            self::$endpoint = null;
        }
        self::$sandbox?->stop();
        self::$sandbox = null;
        if (self::$project !== '') {
            exec('rm -rf ' . escapeshellarg(self::$project));
        }
    }

    /** @return array<string, string> */
    private static function env(): array
    {
        $sandbox = self::$sandbox;
        self::assertNotNull($sandbox);
        return [
            'BAAS_URL' => $sandbox->url,
            'BAAS_SENDER' => $sandbox->sender,
            'BAAS_PRIVATE_KEY' => $sandbox->privateKey()->expose(),
            'BAAS_SERVICE_SENDER' => SandboxProcess::SERVICE_SENDER,
            'PATH' => (string) getenv('PATH'),
        ];
    }

    /** Runs an example; `$answer` is called with each line it prints and may return input. */
    private static function runExample(string $example, ?\Closure $answer = null): string
    {
        // `php -n`: no extension but those PHP is built with (Debian's plain php-cli has no more).
        $process = proc_open([PHP_BINARY, '-n', $example], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, self::$project, self::env());
        self::assertIsResource($process);
        $printed = '';
        while (($line = fgets($pipes[1])) !== false) {
            $printed .= $line;
            $input = $answer === null ? null : $answer($line);
            if ($input !== null) {
                fwrite($pipes[0], $input . "\n");
                fflush($pipes[0]);
            }
        }
        fclose($pipes[0]);
        $errors = (string) stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        self::assertSame(0, proc_close($process), $example . ": $printed$errors");
        return $printed;
    }

    public function testTheFiveTasksAreNoLongerThanInPython(): void
    {
        $lines = 0;
        foreach (self::EXAMPLES as $example) {
            $lines += count(array_filter(file(self::$project . '/' . $example) ?: [], static fn (string $l): bool => trim($l) !== ''));
        }
        self::assertLessThanOrEqual(self::PYTHON_LINES, $lines);
    }

    public function testTheReadmeShowsEachExampleAsItRuns(): void
    {
        $readme = (string) file_get_contents(dirname(__DIR__, 2) . '/README.md');
        foreach (self::EXAMPLES as $example) {
            self::assertStringContainsString((string) file_get_contents(dirname(__DIR__, 2) . '/examples/' . $example), $readme, $example);
        }
    }

    public function testFirstCallReadsTheBalance(): void
    {
        self::assertSame("balance: 250000.00 KES\n", self::runExample('first-call.php'));
    }

    public function testARefusedTransferIsHandled(): void
    {
        self::assertSame("refused: insufficient balance\n", self::runExample('refused-transfer.php'));
    }

    public function testEveryPageTotalledPerType(): void
    {
        self::assertMatchesRegularExpression('/^(TTID\d{4}: \d+\.\d{2}\n)+$/', self::runExample('every-page.php'));
    }

    public function testAnOtpTransferWaitedToItsFinalState(): void
    {
        $admin = self::$sandbox?->admin();
        self::assertNotNull($admin);
        $printed = self::runExample('otp-transfer.php', static function (string $line) use ($admin): ?string {
            return preg_match('/^OTP sent for (\S+)$/', trim($line), $m) === 1 ? $admin->otp($m[1]) : null;
        });
        self::assertStringEndsWith("transfer succeeded\n", $printed);
    }

    public function testTheNotificationEndpointTakesTheSandboxsDeliveriesAndRefusesATamperedOne(): void
    {
        $sandbox = self::$sandbox;
        self::assertNotNull($sandbox);
        $client = new Client($sandbox->config());
        $client->queryClosingBalance(queryDate: new \DateTimeImmutable('yesterday', new \DateTimeZone('UTC')));
        $acknowledged = [];
        for ($i = 0; $i < 200 && $acknowledged === []; $i++) {
            usleep(25000);
            $acknowledged = array_filter($sandbox->admin()->deliveries(), static fn (array $d): bool => $d['acknowledged'] === true);
        }
        self::assertNotEmpty($acknowledged, 'the sandbox delivered no notification the endpoint acknowledged');
        self::assertStringContainsString('0015 ', (string) file_get_contents(self::$project . '/var/processed.log'));
        self::assertStringContainsString('ClosingBalanceReport', (string) file_get_contents(self::$project . '/var/processed.log'));

        $body = Envelope::sign(new WireObject([
            'requestId' => 'N-PARTNER-1', 'sender' => SandboxProcess::SERVICE_SENDER, 'notificationType' => '0015',
            'timestamp' => Envelope::nowMillis(), 'salt' => 'abc', 'params' => new WireObject(['jobId' => 'JOB9']),
        ]), $sandbox->privateKey());
        $post = fn (string $b) => (new StreamTransport())->send(new HttpRequest('http://127.0.0.1:' . self::$endpointPort . '/', $b));
        $tampered = $post(str_replace('JOB9', 'JOB8', $body));
        self::assertSame([400, 'refused'], [$tampered->status, $tampered->body]);
        self::assertSame([200, 'ok'], [$post($body)->status, $post($body)->body]);
        self::assertSame(1, substr_count((string) file_get_contents(self::$project . '/var/processed.log'), 'N-PARTNER-1'), 'processed once');
    }
}
