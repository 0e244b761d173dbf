<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests\Client;

use Baas\Client\Client;
use Baas\Client\Enums\Currency;
use Baas\Client\Enums\NotificationType;
use Baas\Client\Enums\OrderByDesc;
use Baas\Client\Enums\OtpType;
use Baas\Client\Enums\ResultCode;
use Baas\Client\Enums\TxStatus;
use Baas\Client\Enums\TxType;
use Baas\Client\Notifications;
use Baas\Client\Otp\ConfirmOperationRequest;
use Baas\Client\Otp\SendOtpRequest;
use Baas\Client\Records\Account;
use Baas\Client\Records\ClosingBalanceReport;
use Baas\Client\Account\GetAccountDetailsRequest;
use Baas\Client\Account\QueryClosingBalanceRequest;
use Baas\Client\Transfers\ApplyForTransferRequest;
use Baas\Client\Transfers\GetTransListRequest;
use Baas\Client\Transfers\GetTransResultRequest;
use Baas\Runtime\Config;
use Baas\Runtime\Decimal;
use Baas\Runtime\Envelope;
use Baas\Runtime\Exception\ApiError;
use Baas\Runtime\Exception\BaasException;
use Baas\Runtime\Exception\DecodeError;
use Baas\Runtime\Exception\InvalidRequest;
use Baas\Runtime\Outcome;
use Baas\Runtime\Read;
use Baas\Runtime\Testing\MockService;
use Baas\Runtime\Testing\Refusal;
use Baas\Runtime\UnknownValue;
use Baas\Runtime\WaitPolicy;
use Baas\Runtime\WireObject;
use Baas\Signing\JsonObject;
use Baas\Signing\NotificationVerifier;
use Baas\Signing\PrivateKey;
use PHPUnit\Framework\TestCase;

/** The generated client (generated/php) against MockService: what a partner's unit test does. */
final class GeneratedClientTest extends TestCase
{
    private const KEY = 'partner-test-key';

    private MockService $mock;

    private Client $client;

    protected function setUp(): void
    {
        if (!class_exists(Client::class)) {
            self::fail('the generated client is not there: run cargo run -p baas-codegen');
        }
        $this->mock = new MockService(new PrivateKey(self::KEY));
        $this->client = new Client(new Config('https://baas.example.com', 'partner1', new PrivateKey(self::KEY), retryBackoff: 0.0), $this->mock);
    }

    public function testAQueryWithNamedArguments(): void
    {
        $this->mock->on(GetAccountDetailsRequest::class, fn (JsonObject $p): array => [
            'accountId' => $p->get('accountId'), 'balance' => '250000.00', 'currency' => 'KES', 'accountStatus' => 99, 'addedLater' => true,
        ]);
        $account = $this->client->getAccountDetails(accountId: '1000000001');
        self::assertInstanceOf(Account::class, $account);
        self::assertSame('250000.00', (string) $account->balance);
        self::assertSame(Currency::Kes, $account->currency);
        self::assertInstanceOf(UnknownValue::class, $account->accountStatus);
        self::assertSame(99, $account->accountStatus->value);
    }

    public function testRulesAreCheckedBeforeSending(): void
    {
        try {
            $this->client->applyForTransfer(payerAccountId: '', payeeBankCode: '46', payeeAccountId: '07', currency: Currency::Kes, amount: Decimal::of('10.005'), remark: str_repeat('x', 101));
            self::fail('no InvalidRequest');
        } catch (InvalidRequest $e) {
            self::assertSame([['payerAccountId', 'required'], ['amount', 'decimal_places'], ['remark', 'max_chars']],
                array_map(fn ($v) => [$v->field, $v->rule->value], $e->violations));
            self::assertSame(Outcome::NotSent, $e->outcome());
        }
        self::assertSame([], $this->mock->requests());
    }

    public function testAMissingRequiredArgumentFailsBeforeAnythingIsSentNamingIt(): void
    {
        try {
            /** @phpstan-ignore-next-line the point of the test */
            $this->client->applyForTransfer(payerAccountId: '1', payeeBankCode: '46', currency: Currency::Kes, amount: Decimal::of('1.00'));
            self::fail('no error');
        } catch (\ArgumentCountError $e) {
            self::assertStringContainsString('payeeAccountId', $e->getMessage());
        }
        self::assertSame([], $this->mock->requests());
    }

    public function testConstraintsAcrossFieldsAreChecked(): void
    {
        try {
            $this->client->applyForFcExchange(...$this->fxArgs(['sourceAmount' => Decimal::of('10.00'), 'targetAmount' => Decimal::of('10.00')]));
            self::fail('no InvalidRequest');
        } catch (InvalidRequest $e) {
            self::assertSame('exactly_one_of', $e->violations[0]->rule->value);
            self::assertSame('sourceAmount|targetAmount', $e->violations[0]->field);
        }
    }

    /** @return array<string, mixed> */
    private function fxArgs(array $amounts): array
    {
        $r = new \ReflectionMethod(Client::class, 'applyForFcExchange');
        $args = [];
        foreach ($r->getParameters() as $p) {
            if ($p->isOptional()) {
                continue;
            }
            // An open value set's parameter is `Currency|string`: given a case.
            $type = explode('|', (string) $p->getType())[0];
            $args[$p->getName()] = match (true) {
                $type === 'string' => 'x1',
                $type === 'int' => 1,
                $type === Decimal::class => Decimal::of('1.00'),
                enum_exists($type) => $type::cases()[0],
                default => self::fail('unexpected type ' . $type),
            };
        }
        return $amounts + $args;
    }

    public function testAnOtpTransferWaitedToItsFinalState(): void
    {
        $this->mock->on(ApplyForTransferRequest::class, fn (): array => ['txId' => 'TX7']);
        $this->mock->on(SendOtpRequest::class, fn (): array => []);
        $this->mock->on(ConfirmOperationRequest::class, fn (): array => []);
        $polls = 0;
        $this->mock->on(GetTransResultRequest::class, function () use (&$polls): array {
            return ['txId' => 'TX7', 'txStatus' => ++$polls < 3 ? 2 : 8];
        });
        $pending = $this->client->applyForTransferPending(payerAccountId: '1000000001', payeeBankCode: '46', payeeAccountId: '1000000004', currency: Currency::Kes, amount: Decimal::of('250.00'));
        self::assertSame('TX7', $pending->businessId);
        $pending->sendOtp(OtpType::Sms);
        $pending->confirm('123456');
        $result = $this->client->getTransResultUntilFinal(txId: $pending->businessId, policy: new WaitPolicy(0.001, 0.002, 5));
        self::assertSame(TxStatus::Succeeded, $result->txStatus);
        self::assertSame(3, $polls);
        self::assertSame('TX7', $this->mock->requestsOf(ConfirmOperationRequest::class)[0]->params->get('businessId'));
        self::assertSame('sms', $this->mock->requestsOf(SendOtpRequest::class)[0]->params->get('otpType'));
    }

    public function testApplicationsGroupedUnderOneOtp(): void
    {
        $this->mock->on(\Baas\Client\Otp\GroupApplicationsRequest::class, fn (JsonObject $p): array => ['applicationId' => 'G1']);
        $this->mock->on(SendOtpRequest::class, fn (): array => []);
        $this->mock->on(ConfirmOperationRequest::class, fn (): array => []);
        $group = $this->client->groupPending(['TX1', 'TX2']);
        self::assertSame('G1', $group->businessId);
        $group->sendOtp('sms');
        $group->confirm('654321');
        self::assertSame(['TX1', 'TX2'], $this->mock->requestsOf(\Baas\Client\Otp\GroupApplicationsRequest::class)[0]->params->get('applicationIdList'));
        self::assertSame('G1', $this->mock->requestsOf(ConfirmOperationRequest::class)[0]->params->get('businessId'));
    }

    public function testAnOpenValueSetTakesAnyCodeAndOneOfNarrowsARequest(): void
    {
        try {
            $this->client->applyForTransfer(payerAccountId: '1', payeeBankCode: '46', payeeAccountId: '2', currency: Currency::Cny, amount: Decimal::of('1.00'));
            self::fail('no InvalidRequest');
        } catch (InvalidRequest $e) {
            self::assertSame(['currency one_of'], array_map(fn ($v) => $v->field . ' ' . $v->rule->value, $e->violations));
        }
        self::assertCount(0, $this->mock->requests());
        $this->mock->on(GetTransListRequest::class, fn (JsonObject $p): array => ['totalRows' => 1, 'result' => [['txId' => 'T1', 'txType' => 'TTID0099', 'currency' => 'XAU']]]);
        $page = $this->client->getTransList(accountId: '1', txType: [TxType::TransferOut, 'TTID0099'], txStatus: [], startTime: 0, endTime: 1, pageNo: 1, pageSize: 10, orderByDesc: OrderByDesc::NewestFirst);
        self::assertSame(['TTID0002', 'TTID0099'], $this->mock->requestsOf(GetTransListRequest::class)[0]->params->get('txType'));
        self::assertEquals(new UnknownValue('TTID0099', TxType::class), $page->result[0]->txType);
        self::assertEquals(new UnknownValue('XAU', Currency::class), $page->result[0]->currency);
    }

    public function testDatesAreDaysWrittenYyyyMmDd(): void
    {
        $this->mock->on(QueryClosingBalanceRequest::class, fn (): array => ['jobId' => 'J1']);
        $day = (new \DateTimeImmutable('2026-03-01 23:30', new \DateTimeZone('UTC')))->modify('-1 day');
        self::assertSame('J1', $this->client->queryClosingBalance(queryDate: $day)->jobId);
        self::assertSame('2026-02-28', $this->mock->requestsOf(QueryClosingBalanceRequest::class)[0]->params->get('queryDate'));
        self::assertSame('2024-02-29', Read::date('2024-02-29', 'd')?->format('Y-m-d'));
        foreach (['2026-02-30', '27/11/2026', '20261127', '2026-11-27T00:00:00Z'] as $bad) {
            try {
                Read::date($bad, 'queryDate');
                self::fail("read $bad");
            } catch (DecodeError $e) {
                self::assertStringContainsString('queryDate', $e->getMessage());
            }
        }
    }

    public function testEveryPageTotalledPerType(): void
    {
        $this->mock->on(GetTransListRequest::class, function (JsonObject $p): array {
            $page = (int) (string) $p->get('pageNo');
            $rows = $page <= 2 ? [['txId' => "A$page", 'txType' => 'TTID0002', 'amount' => '10.10'], ['txId' => "B$page", 'txType' => 'TTID0003', 'amount' => '0.05']] : [];
            return ['totalRows' => 4, 'result' => $rows];
        });
        $totals = [];
        foreach ($this->client->getTransListItems(accountId: '1', txType: [], txStatus: [TxStatus::Succeeded], startTime: 0, endTime: 1, pageNo: 1, pageSize: 2, orderByDesc: OrderByDesc::NewestFirst) as $row) {
            // txType is the open value set TxType: a case, or an UnknownValue; both hold ->value.
            $code = $row->txType->value;
            $totals[$code] = ($totals[$code] ?? Decimal::zero())->plus($row->amount);
        }
        self::assertSame(['TTID0002' => '20.20', 'TTID0003' => '0.10'], array_map('strval', $totals));
        self::assertCount(2, $this->mock->requests());
    }

    public function testARefusalIsTypedAsAResultCode(): void
    {
        $this->mock->on(ApplyForTransferRequest::class, fn (): Refusal => new Refusal('14009', 'insufficient balance'));
        try {
            $this->client->applyForTransfer(payerAccountId: '1', payeeBankCode: '46', payeeAccountId: '2', currency: Currency::Kes, amount: Decimal::of('1.00'));
            self::fail('no error');
        } catch (ApiError $e) {
            self::assertSame(ResultCode::InsufficientBalance, ResultCode::of($e));
            self::assertSame(Outcome::Refused, $e->outcome());
        }
        self::assertSame(['10001', '10002'], ResultCode::RETRYABLE);
    }

    public function testANotificationsPayloadIsTyped(): void
    {
        $key = new PrivateKey(self::KEY);
        $body = Envelope::sign(new WireObject([
            'requestId' => 'N1', 'sender' => 'baas-sandbox', 'notificationType' => '0015', 'timestamp' => Envelope::nowMillis(),
            'salt' => 's', 'params' => new WireObject(['jobId' => 'JOB1']),
        ]), $key);
        $n = (new NotificationVerifier($key, 'baas-sandbox'))->verify($body);
        self::assertSame(NotificationType::tryFrom('0015'), NotificationType::tryFrom($n->notificationType));
        $payload = Notifications::payload($n);
        self::assertInstanceOf(ClosingBalanceReport::class, $payload);
        self::assertSame('JOB1', $payload->jobId);
    }

    public function testTheGeneratedSourcesAreStrictAndLint(): void
    {
        $root = dirname(__DIR__, 3) . '/generated/php';
        $files = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($root . '/src', \FilesystemIterator::SKIP_DOTS));
        $n = 0;
        foreach ($files as $file) {
            $text = (string) file_get_contents((string) $file);
            self::assertStringContainsString('declare(strict_types=1);', $text, (string) $file);
            self::assertStringContainsString('@generated by baas-codegen', $text, (string) $file);
            $n++;
        }
        self::assertGreaterThan(150, $n);
        // Every class loads (the autoloader finds it, and PHP compiles it).
        foreach (new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($root . '/src', \FilesystemIterator::SKIP_DOTS)) as $file) {
            $class = 'Baas\\Client\\' . str_replace('/', '\\', substr((string) $file, strlen($root . '/src/'), -4));
            self::assertTrue(class_exists($class) || enum_exists($class) || trait_exists($class), $class);
        }
    }
}
