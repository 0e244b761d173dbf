<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests\Client;

use Baas\Client\Client;
use Baas\Client\Enums\BeneficiaryType;
use Baas\Client\Enums\CnyDocumentType;
use Baas\Client\Enums\Currency;
use Baas\Client\Enums\OrderByDesc;
use Baas\Client\Enums\OtpType;
use Baas\Client\Enums\PaymentPurpose;
use Baas\Client\Enums\ResultCode;
use Baas\Client\Enums\TxStatus;
use Baas\Client\Records\OrderItem;
use Baas\Runtime\Decimal;
use Baas\Runtime\Document;
use Baas\Runtime\Envelope;
use Baas\Runtime\Exception\ApiError;
use Baas\Runtime\Exception\BaasException;
use Baas\Runtime\Exception\InvalidRequest;
use Baas\Runtime\Exception\OutcomeUnknown;
use Baas\Runtime\Exception\SignatureInvalid;
use Baas\Runtime\Exception\SignatureMissing;
use Baas\Runtime\Exception\TransportError;
use Baas\Runtime\Exception\Untrusted;
use Baas\Runtime\Notification\DeliveryId;
use Baas\Runtime\Notification\FileProcessedStore;
use Baas\Runtime\Read;
use Baas\Runtime\Settlement\Confirmed;
use Baas\Runtime\Settlement\NotConfirmed;
use Baas\Runtime\Settlement\StillUnknown;
use Baas\Runtime\SettlingPending;
use Baas\Runtime\Testing\SandboxProcess;
use Baas\Runtime\Tests\Support;
use Baas\Runtime\Transport\HttpRequest;
use Baas\Runtime\Transport\HttpResponse;
use Baas\Runtime\Transport\Transport;
use Baas\Runtime\Transport\Transports;
use Baas\Runtime\UnknownValue;
use Baas\Runtime\WaitPolicy;
use Baas\Runtime\WireObject;
use Baas\Signing\NotificationException;
use PHPUnit\Framework\TestCase;

/**
 * The shared conformance scenarios (tests/conformance/scenarios/*.json, the same data every SDK
 * runs), in PHP: each scenario against a fresh `baas-sandbox`, through the generated client.
 * Faults are applied at the client's transport (as the Python and TypeScript runners do).
 */
final class ConformanceTest extends TestCase
{
    /** @return array<string, array{string}> */
    public static function scenarios(): array
    {
        $out = [];
        foreach (glob(dirname(__DIR__, 3) . '/tests/conformance/scenarios/*.json') ?: [] as $file) {
            $out[basename($file, '.json')] = [$file];
        }
        return $out;
    }

    public function testTheScenariosAreThere(): void
    {
        self::assertGreaterThanOrEqual(10, count(self::scenarios()));
    }

    /** @dataProvider scenarios */
    public function testScenario(string $file): void
    {
        $binary = Support::sandboxBinary();
        if ($binary === null) {
            self::assertNotSame('1', getenv('BAAS_REQUIRE_SANDBOX'), 'BAAS_REQUIRE_SANDBOX=1 but no baas-sandbox binary');
            self::markTestSkipped('no baas-sandbox binary: cargo build -p baas-sandbox --bin baas-sandbox');
        }
        $scenario = json_decode((string) file_get_contents($file), true, 64, JSON_THROW_ON_ERROR);
        $sandbox = SandboxProcess::start($binary);
        $seen = sys_get_temp_dir() . '/baas-conformance-' . bin2hex(random_bytes(6));
        try {
            $faults = new FaultTransport(Transports::default());
            $client = new Client($sandbox->config(), $faults);
            $run = new ScenarioRun($client, $faults, $sandbox, new FileProcessedStore($seen), $scenario['service_sender'] ?? SandboxProcess::SERVICE_SENDER);
            foreach ($scenario['steps'] as $i => $step) {
                $run->step(basename($file) . ' step ' . ($i + 1), $step);
            }
        } finally {
            $sandbox->stop();
            @unlink($seen);
        }
    }
}

/** The client's transport with the scenarios' faults, counting what leaves. */
final class FaultTransport implements Transport
{
    /** The faults a step may name. */
    public const FAULTS = ['drop_answer', 'lose_request', 'tamper_answer', 'strip_signature'];

    public int $sent = 0;

    public ?string $fault = null;

    public function __construct(private readonly Transport $inner)
    {
    }

    public function send(HttpRequest $request): HttpResponse
    {
        $fault = $this->fault;
        $this->fault = null;
        $this->sent++;
        if ($fault === 'lose_request') {
            // Never forwarded: the service sees nothing, and the client sees what a connection
            // broken after sending shows (it cannot tell the two apart).
            throw new TransportError('conformance: request lost after sending', true);
        }
        $answer = $this->inner->send($request);
        return match ($fault) {
            null => $answer,
            'drop_answer' => throw new TransportError('conformance: answer dropped after sending', true),
            // As the sandbox's own hook does: the msg changes after the answer is signed.
            'tamper_answer' => new HttpResponse($answer->status, preg_replace('/"msg":"/', '"msg":"(tampered) ', $answer->body, 1) ?? ''),
            'strip_signature' => new HttpResponse($answer->status, preg_replace('/,"signature":"[^"]*"|"signature":"[^"]*",?/', '', $answer->body, 1) ?? ''),
            default => throw new \LogicException('unknown fault ' . $fault),
        };
    }
}

/** One scenario's state: the saved values, the client, the notification store. */
final class ScenarioRun
{
    /**
     * The keys a step of each kind may have, and the keys of its `expect`: anything else fails
     * the scenario, so a step this runner does not understand is never skipped.
     */
    private const KEYS = [
        'call' => [
            ['call', 'mode', 'params', 'fault', 'save', 'pending', 'expect'],
            ['outcome', 'sent', 'fields', 'error', 'code', 'result_code', 'retryable', 'violations', 'items'],
        ],
        'settle' => [['settle', 'fault', 'expect'], ['settled', 'state', 'final', 'sent', 'error', 'code', 'retryable']],
        'notification' => [['notification', 'expect'], ['outcome', 'error', 'fields', 'new']],
    ];

    /** @var array<string, string> */
    private array $vars = [];

    /** @var array<string, SettlingPending> the pending applications kept by `"pending": name` */
    private array $pending = [];

    public function __construct(
        private readonly Client $client,
        private readonly FaultTransport $faults,
        private readonly SandboxProcess $sandbox,
        private readonly FileProcessedStore $store,
        private readonly string $serviceSender,
    ) {
    }

    /** @param array<string, mixed> $step */
    public function step(string $at, array $step): void
    {
        $this->checkKeys($at, $step);
        if (isset($step['settle'])) {
            $this->settle($at, $step);
            return;
        }
        if (isset($step['notification'])) {
            $this->notification($at, $step['notification'], $step['expect']);
            return;
        }
        $expect = $this->values($step['expect']);
        $params = $this->values($step['params']);
        $mode = $step['mode'] ?? 'call';
        if (isset($step['pending'])) {
            TestCase::assertSame('call', $mode, "$at: `pending` is for a plain call");
            $mode = 'pending';
        }
        $this->faults->fault = $step['fault'] ?? null;
        $before = $this->faults->sent;
        try {
            $answer = $this->call($step['call'], $mode, $params);
            $error = null;
        } catch (BaasException $e) {
            $answer = null;
            $error = $e;
        } finally {
            $this->faults->fault = null; // never left for a later step
        }
        if (isset($expect['sent'])) {
            TestCase::assertSame((int) $expect['sent'], $this->faults->sent - $before, "$at: sent");
        }
        if ($error !== null) {
            TestCase::assertSame($expect['outcome'], $error->outcome()->value, "$at: outcome of " . $error->getMessage());
            $this->checkError($at, $error, $expect);
            return;
        }
        TestCase::assertSame('ok', $expect['outcome'], "$at: succeeded");
        if ($answer instanceof SettlingPending) {
            $this->pending[$step['pending']] = $answer;
            $this->vars[$step['pending']] = $answer->businessId;
            $answer = $answer->response;
        }
        if (is_array($answer)) {
            $this->checkItems($at, $answer, $expect['items'] ?? []);
            return;
        }
        foreach ($expect['fields'] ?? [] as $field => $text) {
            TestCase::assertSame($text, Read::text($answer->{$field}), "$at: field $field");
        }
        foreach ($step['save'] ?? [] as $var => $field) {
            $this->vars[$var] = (string) Read::text($answer->{$field});
        }
    }

    /** @param array<string, mixed> $params */
    private function call(string $operation, string $mode, array $params): mixed
    {
        $args = [];
        foreach ($params as $name => $value) {
            $args[$name] = match ($name) {
                'currency' => Currency::from($value),
                'amount' => Decimal::of($value),
                'otpType' => OtpType::from($value),
                'orderByDesc' => OrderByDesc::from($value),
                'txStatus' => array_map(static fn (int|string $s): TxStatus => TxStatus::from((int) $s), $value),
                'beneficiaryType' => BeneficiaryType::from($value),
                'paymentPurpose' => PaymentPurpose::from($value),
                'supportDocumentType', 'companyRegisDocumentType', 'invoiceDocumentType' => CnyDocumentType::from($value),
                // A document, given as its Base64 text as the wire carries it.
                'supportDocumentFile', 'companyRegisDocumentFile', 'invoice' => Document::fromBytes((string) base64_decode($value, true)),
                'oderArray' => array_map(static fn (array $o): OrderItem => new OrderItem(
                    productName: $o['productName'],
                    quantity: $o['quantity'],
                    amount: Decimal::of($o['amount']),
                    orderTime: $o['orderTime'],
                    platform: $o['platform'],
                ), $value),
                default => $value,
            };
        }
        $c = $this->client;
        return match ([$operation, $mode]) {
            ['getAccountDetails', 'call'] => $c->getAccountDetails(...$args),
            ['applyForTransfer', 'call'] => $c->applyForTransfer(...$args),
            ['applyForTransfer', 'pending'] => $c->applyForTransferPending(...$args),
            ['sendOtp', 'call'] => $c->sendOtp(...$args),
            ['confirmOperation', 'call'] => $c->confirmOperation(...$args),
            ['getTransResult', 'call'] => $c->getTransResult(...$args),
            ['getTransResult', 'until_final'] => $c->getTransResultUntilFinal(...$args, policy: new WaitPolicy(0.05, 0.5, 30)),
            ['getTransList', 'call'] => $c->getTransList(...$args),
            ['getTransList', 'pages'] => iterator_to_array($c->getTransListItems(...$args), false),
            ['applyForCnyExpress', 'call'] => $c->applyForCnyExpress(...$args),
            default => throw new \LogicException("the runner does not know $operation in mode $mode"),
        };
    }

    /** @param array<string, mixed> $step */
    private function checkKeys(string $at, array $step): void
    {
        $kind = null;
        foreach (['notification', 'settle', 'call'] as $k) {
            if (array_key_exists($k, $step)) {
                $kind = $k;
                break;
            }
        }
        TestCase::assertNotNull($kind, "$at: a step is a call, a settle or a notification");
        [$keys, $expectKeys] = self::KEYS[$kind];
        TestCase::assertSame([], array_values(array_diff(array_keys($step), $keys)), "$at: unknown step keys");
        TestCase::assertSame([], array_values(array_diff(array_keys($step['expect'] ?? []), $expectKeys)), "$at: unknown expect keys");
        if (isset($step['fault'])) {
            TestCase::assertContains($step['fault'], FaultTransport::FAULTS, "$at: unknown fault {$step['fault']}");
        }
    }

    /**
     * `{"settle": name}`: the pending application's `settle()`, one lookup.
     *
     * @param array<string, mixed> $step
     */
    private function settle(string $at, array $step): void
    {
        $expect = $step['expect'] ?? [];
        TestCase::assertArrayHasKey('settled', $expect, "$at: a settle step expects `settled`");
        $pending = $this->pending[$step['settle']] ?? throw new \LogicException("$at: no pending application {$step['settle']}");
        $this->faults->fault = $step['fault'] ?? null;
        $before = $this->faults->sent;
        try {
            $settled = $pending->settle();
        } finally {
            $this->faults->fault = null;
        }
        if (isset($expect['sent'])) {
            TestCase::assertSame((int) $expect['sent'], $this->faults->sent - $before, "$at: sent");
        }
        [$kind, $state, $final] = match (true) {
            $settled instanceof Confirmed => ['confirmed', Read::text($settled->state), $settled->isFinal],
            $settled instanceof NotConfirmed => ['not_confirmed', Read::text($settled->state), null],
            $settled instanceof StillUnknown => ['still_unknown', null, null],
            default => throw new \LogicException("$at: a settlement this runner does not know: " . $settled::class),
        };
        TestCase::assertSame($kind === 'not_confirmed', $settled->safeToConfirmAgain(), "$at: safeToConfirmAgain");
        TestCase::assertSame($expect['settled'], $kind, "$at: settled");
        if (array_key_exists('state', $expect)) {
            TestCase::assertSame($expect['state'], $state, "$at: state");
        }
        if (array_key_exists('final', $expect)) {
            TestCase::assertSame($expect['final'], $final, "$at: final");
        }
        if ($settled instanceof StillUnknown) {
            $this->checkError($at, $settled->error, $expect);
        }
    }

    /** @param array<string, mixed> $expect */
    private function checkError(string $at, BaasException $e, array $expect): void
    {
        $kinds = [
            'invalid_request' => InvalidRequest::class, 'api' => ApiError::class, 'outcome_unknown' => OutcomeUnknown::class,
            'signature_invalid' => SignatureInvalid::class, 'signature_missing' => SignatureMissing::class, 'untrusted' => Untrusted::class,
        ];
        if (isset($expect['error'])) {
            TestCase::assertInstanceOf($kinds[$expect['error']], $e, "$at: error kind");
        }
        if (isset($expect['code'])) {
            TestCase::assertSame($expect['code'], $e->apiCode(), "$at: code");
        }
        if (isset($expect['result_code'])) {
            $code = ResultCode::of($e);
            TestCase::assertInstanceOf(ResultCode::class, $code, "$at: result code");
            TestCase::assertSame($expect['result_code'], strtolower((string) preg_replace('/(?<!^)[A-Z]/', '_$0', $code->name)), "$at: result_code");
        }
        if (isset($expect['retryable'])) {
            TestCase::assertSame($expect['retryable'], $e->isRetryable(), "$at: retryable");
        }
        if (isset($expect['violations'])) {
            TestCase::assertInstanceOf(InvalidRequest::class, $e);
            TestCase::assertSame($expect['violations'], array_map(fn ($v) => [$v->field, $v->rule->value], $e->violations), "$at: violations");
        }
    }

    /**
     * @param list<object> $items
     * @param array<string, mixed> $expect
     */
    private function checkItems(string $at, array $items, array $expect): void
    {
        if (isset($expect['count'])) {
            TestCase::assertSame((int) $expect['count'], count($items), "$at: count");
        }
        if (isset($expect['min_count'])) {
            TestCase::assertGreaterThanOrEqual((int) $expect['min_count'], count($items), "$at: min_count");
        }
        if (isset($expect['unique'])) {
            $values = array_map(fn (object $i): ?string => Read::text($i->{$expect['unique']}), $items);
            TestCase::assertSame(count($values), count(array_unique($values)), "$at: unique {$expect['unique']}");
        }
        if (isset($expect['contains'])) {
            $found = array_filter($items, function (object $i) use ($expect): bool {
                foreach ($expect['contains'] as $field => $text) {
                    if (Read::text($i->{$field}) !== $text) {
                        return false;
                    }
                }
                return true;
            });
            TestCase::assertNotEmpty($found, "$at: contains " . json_encode($expect['contains']));
        }
    }

    /**
     * @param array<string, mixed> $n
     * @param array<string, mixed> $expect
     */
    private function notification(string $at, array $n, array $expect): void
    {
        $requestId = $n['requestId'];
        $body = Envelope::sign(new WireObject([
            'requestId' => $requestId, 'sender' => $n['sender'], 'notificationType' => $n['type'], 'locale' => 'en_KE',
            'timestamp' => Envelope::nowMillis() - (int) ($n['age_seconds'] ?? 0) * 1000, 'salt' => bin2hex(random_bytes(12)),
            'params' => new WireObject($n['params']),
        ]), $this->sandbox->privateKey());
        if (!empty($n['tamper'])) {
            $body = preg_replace('/"' . preg_quote($requestId, '/') . '"/', '"' . $requestId . 'X"', $body, 1) ?? '';
        }
        $verifier = new \Baas\Signing\NotificationVerifier($this->sandbox->privateKey(), $this->serviceSender);
        try {
            $got = $verifier->verify($body);
        } catch (NotificationException $e) {
            TestCase::assertSame('refused', $expect['outcome'], "$at: refused: " . $e->getMessage());
            $kinds = [
                'untrusted' => NotificationException::UNTRUSTED, 'signature_invalid' => NotificationException::SIGNATURE_INVALID,
                'signature_missing' => NotificationException::SIGNATURE_MISSING,
            ];
            TestCase::assertSame($kinds[$expect['error']], $e->kind(), "$at: error");
            return;
        }
        TestCase::assertSame('ok', $expect['outcome'], "$at: accepted");
        foreach ($expect['fields'] ?? [] as $field => $text) {
            TestCase::assertSame($text, $got->{$field}, "$at: $field");
        }
        $id = DeliveryId::of($got);
        $new = !$this->store->isProcessed($id);
        if (isset($expect['new'])) {
            TestCase::assertSame($expect['new'], $new, "$at: new");
        }
        if ($new) {
            $this->store->record($id);
        }
    }

    /** Values with `${var}` and `${otp:var}` replaced. */
    private function values(mixed $value): mixed
    {
        if (is_array($value)) {
            return array_map(fn (mixed $v): mixed => $this->values($v), $value);
        }
        if (!is_string($value) || preg_match('/^\$\{(otp:)?([A-Za-z_]+)\}$/D', $value, $m) !== 1) {
            return $value;
        }
        $saved = $this->vars[$m[2]] ?? throw new \LogicException("no saved value {$m[2]}");
        return $m[1] === 'otp:' ? $this->sandbox->admin()->otp($saved) : $saved;
    }
}
