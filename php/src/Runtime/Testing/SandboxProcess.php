<?php

declare(strict_types=1);

namespace Baas\Runtime\Testing;

use Baas\Runtime\Config;
use Baas\Signing\NotificationVerifier;
use Baas\Signing\PrivateKey;

/**
 * A `baas-sandbox` program (the service's loopback stand-in) run on a free port for your
 * integration tests: start it, build a client for it, read OTPs and faults through
 * {@see admin()}, stop it.
 *
 *     $sandbox = SandboxProcess::start();
 *     $client = new Client($sandbox->config());
 *     ...
 *     $sandbox->stop();
 *
 * The binary is `$binary`, else `$BAAS_SANDBOX`, else `baas-sandbox` on the `PATH`. What it
 * prints goes to a temporary file (read with {@see output()}), so it never blocks on a full pipe.
 */
final class SandboxProcess
{
    /**
     * The sandbox's service sender: the `sender` of every answer and notification it signs, what
     * a notification verifier is given. The live service's sender name comes from your bank.
     */
    public const SERVICE_SENDER = 'baas-sandbox';

    private const LISTENING = 'baas-sandbox listening on ';

    /** @var resource|null */
    private $process;

    private ?SandboxAdmin $admin = null;

    /**
     * @param resource $process
     */
    private function __construct(
        $process,
        private readonly string $outputFile,
        public readonly string $url,
        /** The partner's sender name the sandbox expects (`sandbox-partner`). */
        public readonly string $sender,
        /** The sender of its answers and notifications, as its banner prints it (`baas-sandbox`). */
        public readonly string $serviceSender,
        private readonly PrivateKey $key,
        private readonly bool $adminOn,
        private readonly ?string $adminToken,
    ) {
        $this->process = $process;
    }

    /**
     * Starts the program on a free loopback port and waits until it says where it listens, its
     * sender and its key.
     *
     * @param string|null $binary the program, or null for `$BAAS_SANDBOX` or the `PATH`
     * @param string|null $callbackUrl where notifications go
     * @param string|null $scenario a YAML file of faults in force from the start
     * @param string|null $stateFile keep the state across runs (SQLite)
     * @param bool $admin whether the admin API is on
     * @param string|null $adminToken make the admin API require this token (`--admin-token`),
     *     which {@see admin()} sends
     * @param float $startupTimeout seconds to wait for the banner
     * @return self the running sandbox
     * @throws \RuntimeException (with what it printed) when it exits or takes too long
     */
    public static function start(
        ?string $binary = null,
        ?string $callbackUrl = null,
        ?string $scenario = null,
        ?string $stateFile = null,
        bool $admin = true,
        #[\SensitiveParameter] ?string $adminToken = null,
        float $startupTimeout = 30.0,
    ): self {
        $args = [self::binary($binary), '--port', '0'];
        foreach (['--callback' => $callbackUrl, '--scenario' => $scenario, '--state' => $stateFile] as $flag => $value) {
            if ($value !== null) {
                array_push($args, $flag, $value);
            }
        }
        if (!$admin) {
            $args[] = '--no-admin';
        }
        if ($adminToken !== null) {
            array_push($args, '--admin-token', $adminToken);
        }
        $output = tempnam(sys_get_temp_dir(), 'baas-sandbox-');
        if ($output === false) {
            throw new \RuntimeException('cannot create a temporary file for the sandbox\'s output');
        }
        $process = proc_open($args, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $output, 'w'], 2 => ['redirect', 1]], $pipes);
        if (!is_resource($process)) {
            throw new \RuntimeException('cannot run ' . $args[0]);
        }
        $deadline = microtime(true) + $startupTimeout;
        while (true) {
            $printed = (string) @file_get_contents($output);
            $url = self::line($printed, self::LISTENING);
            $sender = self::line($printed, 'sender:');
            $key = self::line($printed, 'key:');
            if ($url !== null && $sender !== null && $key !== null) {
                $words = preg_split('/\s+/', $key) ?: [''];
                $service = preg_split('/\s+/', self::line($printed, 'service:') ?? '') ?: [''];
                $serviceSender = $service[0] !== '' ? $service[0] : self::SERVICE_SENDER;
                return new self($process, $output, $url, $sender, $serviceSender, new PrivateKey($words[0]), $admin, $adminToken);
            }
            if (!proc_get_status($process)['running'] || microtime(true) > $deadline) {
                proc_terminate($process, 9);
                proc_close($process);
                @unlink($output);
                $shown = $adminToken === null ? $args : array_map(static fn (string $a): string => $a === $adminToken ? '[redacted]' : $a, $args);
                throw new \RuntimeException('the sandbox did not start (' . implode(' ', $shown) . "):\n" . ($printed !== '' ? $printed : '(nothing)'));
            }
            usleep(20000);
        }
    }

    /**
     * What `var_dump` shows: where it listens and its sender, never its key or admin token.
     *
     * @return array<string, mixed> the sandbox
     */
    public function __debugInfo(): array
    {
        return ['url' => $this->url, 'sender' => $this->sender, 'serviceSender' => $this->serviceSender, 'running' => $this->process !== null];
    }

    /**
     * The key the sandbox signs and verifies with (a test key).
     *
     * @return PrivateKey the key
     */
    public function privateKey(): PrivateKey
    {
        return $this->key;
    }

    /**
     * A client configuration for this sandbox (its URL, sender and key).
     *
     * @param float $requestTimeout seconds one attempt may take
     * @param int $maxRetries further attempts after a retryable failure
     * @return Config the configuration
     */
    public function config(float $requestTimeout = 10.0, int $maxRetries = 2): Config
    {
        return new Config($this->url, $this->sender, $this->key, requestTimeout: $requestTimeout, maxRetries: $maxRetries, retryBackoff: 0.05);
    }

    /**
     * A verifier of the notifications this sandbox sends (its key, its service sender).
     *
     * @return NotificationVerifier the verifier
     */
    public function notificationVerifier(): NotificationVerifier
    {
        return new NotificationVerifier($this->key, $this->serviceSender);
    }

    /**
     * Its admin API.
     *
     * @return SandboxAdmin the admin API
     * @throws \LogicException when it runs without one, or is stopped
     */
    public function admin(): SandboxAdmin
    {
        if (!$this->adminOn) {
            throw new \LogicException('the sandbox runs without its admin API (admin: false)');
        }
        if ($this->process === null) {
            throw new \LogicException('the sandbox is not running');
        }
        return $this->admin ??= new SandboxAdmin($this->url, adminToken: $this->adminToken);
    }

    /**
     * What the program printed so far.
     *
     * @return string its output
     */
    public function output(): string
    {
        return (string) @file_get_contents($this->outputFile);
    }

    /**
     * Stops the program (SIGTERM, then SIGKILL after 10 s). Safe to call twice.
     */
    public function stop(): void
    {
        $process = $this->process;
        $this->process = null;
        $this->admin = null;
        if ($process === null) {
            return;
        }
        if (proc_get_status($process)['running']) {
            proc_terminate($process, 15);
            $deadline = microtime(true) + 10;
            while (proc_get_status($process)['running'] && microtime(true) < $deadline) {
                usleep(20000);
            }
            if (proc_get_status($process)['running']) {
                proc_terminate($process, 9);
            }
        }
        proc_close($process);
        @unlink($this->outputFile);
    }

    /** Stops the program if it still runs. */
    public function __destruct()
    {
        $this->stop();
    }

    private static function line(string $printed, string $prefix): ?string
    {
        foreach (explode("\n", $printed) as $line) {
            if (str_starts_with($line, $prefix)) {
                $rest = trim(substr($line, strlen($prefix)));
                return $rest !== '' ? $rest : null;
            }
        }
        return null;
    }

    private static function binary(?string $binary): string
    {
        if ($binary !== null) {
            return $binary;
        }
        $env = getenv('BAAS_SANDBOX');
        if (is_string($env) && $env !== '') {
            return $env;
        }
        foreach (explode(PATH_SEPARATOR, (string) getenv('PATH')) as $dir) {
            if ($dir !== '' && is_executable($dir . '/baas-sandbox')) {
                return $dir . '/baas-sandbox';
            }
        }
        throw new \RuntimeException('no baas-sandbox program: pass $binary, set BAAS_SANDBOX, or put it on the PATH');
    }
}
