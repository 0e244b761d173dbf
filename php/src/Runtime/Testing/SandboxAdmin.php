<?php

declare(strict_types=1);

namespace Baas\Runtime\Testing;

use Baas\Runtime\Exception\BaasException;
use Baas\Runtime\Transport\HttpRequest;
use Baas\Runtime\Transport\StreamTransport;
use Baas\Runtime\Transport\Transport;

/**
 * The sandbox's admin API (unsigned, loopback only): read the OTP of a pending application, put
 * faults in force, move its clock, deliver a notification again, read what happened. Nothing here
 * is meant for the live service.
 *
 * Attach to a sandbox that is already running (`cargo run -p baas-sandbox -- --port 8080`):
 * `new SandboxAdmin('http://127.0.0.1:8080')`.
 */
final class SandboxAdmin
{
    private const ADMIN = '/_sandbox/';

    /**
     * The sandbox's service sender (`baas-sandbox`): the sender of its answers and notifications,
     * for `new NotificationVerifier($key, $admin->serviceSender)`.
     */
    public readonly string $serviceSender;

    private readonly Transport $http;

    /**
     * @param string $baseUrl the sandbox's URL, `http://127.0.0.1:PORT`, as it prints it
     * @param float $timeout seconds a call may take
     * @param Transport|null $transport the transport (PHP's own streams by default)
     * @param string|null $adminToken the token of a sandbox started with `--admin-token` (its
     *     banner prints it), sent in the `X-Sandbox-Admin-Token` header of every admin call
     */
    public function __construct(
        private readonly string $baseUrl,
        private readonly float $timeout = 10.0,
        ?Transport $transport = null,
        #[\SensitiveParameter] private readonly ?string $adminToken = null,
    ) {
        $this->http = $transport ?? new StreamTransport();
        $this->serviceSender = SandboxProcess::SERVICE_SENDER;
    }

    /**
     * What `var_dump` shows: the URL, never the token.
     *
     * @return array<string, mixed> the admin API
     */
    public function __debugInfo(): array
    {
        return ['baseUrl' => $this->baseUrl, 'adminToken' => $this->adminToken === null ? null : '[redacted]'];
    }

    /**
     * Everything the admin page shows: `clock_ms`, `accounts`, `transactions`,
     * `pending_applications`, `requests`, `deliveries`, `faults`, ...
     *
     * @return array<string, mixed> the state
     * @throws SandboxAdminError when the sandbox refuses or cannot be reached
     */
    public function state(): array
    {
        $state = $this->get('api/state');
        if (!is_array($state) || array_is_list($state)) {
            throw new SandboxAdminError("the sandbox's state is not a JSON object");
        }
        return $state;
    }

    /**
     * The applications waiting for their OTP: `business_id`, `operation`, `otp_sent`,
     * `wrong_attempts`, `otp`.
     *
     * @return list<array{business_id: string, operation: string, otp_sent: bool, wrong_attempts: int, otp: string}> the applications
     * @throws SandboxAdminError when the sandbox refuses or cannot be reached
     */
    public function pendingApplications(): array
    {
        /** @var list<array{business_id: string, operation: string, otp_sent: bool, wrong_attempts: int, otp: string}> */
        return $this->rows('api/applications');
    }

    /**
     * The OTP that confirms the pending application `$businessId`.
     *
     * @param string $businessId the application's business id (a transfer's `txId`, ...)
     * @return string the OTP
     * @throws SandboxAdminError naming the pending ones when it is not pending
     */
    public function otp(string $businessId): string
    {
        $pending = $this->pendingApplications();
        foreach ($pending as $application) {
            if ((string) $application['business_id'] === $businessId) {
                return (string) $application['otp'];
            }
        }
        $waiting = implode(', ', array_map(static fn (array $a): string => (string) $a['business_id'], $pending));
        throw new SandboxAdminError("no application '" . $businessId . "' waits for an OTP (pending: " . ($waiting !== '' ? $waiting : 'none') . ')');
    }

    /**
     * Every attempt to deliver a notification, newest first: `notification_type`, `request_id`,
     * `attempt`, `acknowledged`, `outcome`.
     *
     * @return list<array<string, mixed>> the deliveries
     * @throws SandboxAdminError when the sandbox refuses or cannot be reached
     */
    public function deliveries(): array
    {
        return $this->rows('api/deliveries');
    }

    /**
     * The last requests the sandbox answered (newest first), each with its answer, whether its
     * signature verified and, for a `12005`, the canonical string it expected (key redacted).
     *
     * @return list<array<string, mixed>> the requests
     * @throws SandboxAdminError when the sandbox refuses or cannot be reached
     */
    public function requests(): array
    {
        return $this->rows('api/requests');
    }

    /**
     * Puts the faults of a YAML scenario (`faults: [...]`) in force.
     *
     * @param string $scenarioYaml the scenario
     * @return string the sandbox's word (`2 fault(s) added`)
     * @throws SandboxAdminError with its message (naming the line) when it cannot read it
     */
    public function addFaults(string $scenarioYaml): string
    {
        return $this->post('faults', $scenarioYaml, 'application/yaml');
    }

    /**
     * Removes every fault in force.
     *
     * @throws SandboxAdminError when the sandbox refuses or cannot be reached
     */
    public function clearFaults(): void
    {
        $this->post('faults/clear', '', 'text/plain');
    }

    /**
     * Moves the sandbox's clock forward (`86_400_000` closes a day).
     *
     * @param int $ms milliseconds, at least 0
     * @throws SandboxAdminError when the sandbox refuses or cannot be reached
     */
    public function advanceClock(int $ms): void
    {
        if ($ms < 0) {
            throw new \InvalidArgumentException('advanceClock: ' . $ms . ' is not a whole number of milliseconds >= 0');
        }
        $this->post('clock', (string) $ms, 'text/plain');
    }

    /**
     * Delivers the notification `$requestId` again.
     *
     * @param string $requestId the notification's requestId
     * @throws SandboxAdminError when the sandbox refuses or cannot be reached
     */
    public function redeliver(string $requestId): void
    {
        $this->post('redeliver', $requestId, 'text/plain');
    }

    /**
     * @return list<array<string, mixed>>
     */
    private function rows(string $path): array
    {
        $rows = $this->get($path);
        if (!is_array($rows) || !array_is_list($rows)) {
            throw new SandboxAdminError('GET ' . self::ADMIN . $path . ': not a JSON array of objects');
        }
        /** @var list<array<string, mixed>> $rows */
        return $rows;
    }

    private function get(string $path): mixed
    {
        [$status, $body] = $this->exchange('GET', $path, '', 'text/plain');
        if ($status !== 200) {
            throw new SandboxAdminError('GET ' . self::ADMIN . $path . ': HTTP ' . $status . ': ' . trim($body), $status);
        }
        try {
            return json_decode($body, true, 64, JSON_THROW_ON_ERROR);
        } catch (\JsonException $e) {
            throw new SandboxAdminError('GET ' . self::ADMIN . $path . ': not JSON (' . $e->getMessage() . ')');
        }
    }

    private function post(string $path, string $body, string $contentType): string
    {
        [$status, $answer] = $this->exchange('POST', $path, $body, $contentType);
        try {
            $said = json_decode($answer, true, 64, JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            $said = null;
        }
        if ($status === 200 && is_array($said) && isset($said['done'])) {
            return (string) $said['done'];
        }
        $message = is_array($said) && isset($said['error']) ? (string) $said['error'] : trim($answer);
        throw new SandboxAdminError('POST ' . self::ADMIN . $path . ': ' . ($message !== '' ? $message : (string) $status), $status);
    }

    /**
     * @return array{int, string}
     */
    private function exchange(string $method, string $path, string $body, string $contentType): array
    {
        try {
            $headers = $this->adminToken === null ? [] : ['X-Sandbox-Admin-Token' => $this->adminToken];
            $response = $this->http->send(new HttpRequest(rtrim($this->baseUrl, '/') . self::ADMIN . $path, $body, $this->timeout, $this->timeout, 64 * 1024 * 1024, $method, $contentType, $headers));
        } catch (BaasException $e) {
            throw new SandboxAdminError($method . ' ' . self::ADMIN . $path . ': ' . $e->getMessage());
        }
        return [$response->status, $response->body];
    }
}
