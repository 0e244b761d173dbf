<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests;

use Baas\Runtime\CallOptions;
use Baas\Runtime\Decimal;
use Baas\Runtime\Exception\ApiError;
use Baas\Runtime\Exception\BaasException;
use Baas\Runtime\Exception\DecodeError;
use Baas\Runtime\Exception\InvalidRequest;
use Baas\Runtime\Exception\OutcomeUnknown;
use Baas\Runtime\Exception\RequestIdMismatch;
use Baas\Runtime\Exception\SignatureInvalid;
use Baas\Runtime\Exception\SignatureMissing;
use Baas\Runtime\Exception\TransportError;
use Baas\Runtime\Exception\Untrusted;
use Baas\Runtime\Exception\WaitDeadline;
use Baas\Runtime\Outcome;
use Baas\Runtime\Pending;
use Baas\Runtime\RuleKind;
use Baas\Runtime\Testing\Failure;
use Baas\Runtime\Testing\Refusal;
use Baas\Runtime\Tests\Fixtures\Account;
use Baas\Runtime\Tests\Fixtures\ApplyForTransferRequest;
use Baas\Runtime\Tests\Fixtures\ConfirmOperationRequest;
use Baas\Runtime\Tests\Fixtures\Currency;
use Baas\Runtime\Tests\Fixtures\GetAccountDetailsRequest;
use Baas\Runtime\Tests\Fixtures\GetTransListRequest;
use Baas\Runtime\Tests\Fixtures\SendOtpRequest;
use Baas\Runtime\Tests\Fixtures\TxStatus;
use Baas\Runtime\Transport\HttpResponse;
use Baas\Runtime\UnknownValue;
use Baas\Runtime\WaitPolicy;
use Baas\Signing\JsonObject;
use PHPUnit\Framework\TestCase;

/** The client against MockService: validate → sign → send → verify → decode, and every failure. */
final class ClientTest extends TestCase
{
    private function transfer(string $amount = '1500.50', ?string $remark = null): ApplyForTransferRequest
    {
        return new ApplyForTransferRequest(
            payerAccountId: '1000000001',
            payeeBankCode: '46',
            payeeAccountId: '0712345678',
            currency: Currency::Kes,
            amount: Decimal::of($amount),
            remark: $remark,
        );
    }

    public function testAQueryIsSignedVerifiedAndDecodedExactly(): void
    {
        $mock = Support::mock();
        $mock->on(GetAccountDetailsRequest::class, fn (JsonObject $p): array => [
            'accountId' => $p->get('accountId'), 'balance' => '250000.00', 'currency' => 'KES', 'createTime' => '1700000000000', 'unknownMember' => 1,
        ]);
        $account = Support::client($mock)->execute(new GetAccountDetailsRequest('1000000001'));
        self::assertInstanceOf(Account::class, $account);
        self::assertSame('1000000001', $account->accountId);
        self::assertSame('250000.00', (string) $account->balance);
        self::assertSame(Currency::Kes, $account->currency);
        self::assertSame(1700000000000, $account->createTime);
        self::assertCount(1, $mock->requests());
        self::assertSame('1000000001', $mock->requests()[0]->params->get('accountId'));
    }

    public function testAValueTheEnumDoesNotListIsReadNotRefused(): void
    {
        $mock = Support::mock();
        $mock->on(GetAccountDetailsRequest::class, fn (): array => ['currency' => 'XAF']);
        $account = Support::client($mock)->execute(new GetAccountDetailsRequest('1'));
        self::assertInstanceOf(UnknownValue::class, $account->currency);
        self::assertSame('XAF', $account->currency->value);
        self::assertSame(Currency::class, $account->currency->set);
    }

    public function testMoneyIsSentAsExactTextNeverAFloat(): void
    {
        $mock = Support::mock();
        $mock->on(ApplyForTransferRequest::class, fn (): array => ['txId' => 'TX1']);
        $spy = new Spy($mock);
        $answer = Support::client($spy)->execute($this->transfer('100.50'));
        self::assertSame('TX1', $answer->txId);
        self::assertStringContainsString('"amount":"100.50"', $spy->requests[0]->body);
        self::assertStringContainsString('"currency":"KES"', $spy->requests[0]->body);
        self::assertStringNotContainsString('remark', $spy->requests[0]->body, 'a null member is left out');
    }

    public function testInvalidRequestNamesEveryFieldAndRuleAndSendsNothing(): void
    {
        $mock = Support::mock();
        $spy = new Spy($mock);
        try {
            Support::client($spy)->execute(new ApplyForTransferRequest('', '46', '07', Currency::Kes, Decimal::of('1.005'), remark: str_repeat('é', 101)));
            self::fail('no InvalidRequest');
        } catch (InvalidRequest $e) {
            self::assertSame(Outcome::NotSent, $e->outcome());
            self::assertSame('applyForTransfer', $e->operation());
            self::assertSame(0, $e->attempts());
            self::assertSame([
                ['payerAccountId', RuleKind::Required],
                ['amount', RuleKind::DecimalPlaces],
                ['remark', RuleKind::MaxChars],
            ], array_map(fn ($v) => [$v->field, $v->rule], $e->violations));
            self::assertStringContainsString('remark: has 101 characters, at most 100 allowed', $e->getMessage());
            self::assertStringStartsWith('applyForTransfer (0 attempts): invalid request: 3 rules violated', $e->getMessage());
        }
        self::assertSame(0, $spy->sent);
    }

    public function testASignedRefusalIsRefusedWithItsCode(): void
    {
        $mock = Support::mock();
        $mock->on(ApplyForTransferRequest::class, fn (): Refusal => new Refusal('20001', 'Insufficient balance'));
        try {
            Support::client($mock)->execute($this->transfer());
            self::fail('no ApiError');
        } catch (ApiError $e) {
            self::assertSame(Outcome::Refused, $e->outcome());
            self::assertSame('20001', $e->apiCode());
            self::assertTrue($e->verified);
            self::assertFalse($e->isRetryable());
            self::assertSame(1, $e->attempts());
            self::assertSame($mock->requests()[0]->requestId, $e->requestId());
            self::assertStringContainsString('requestId ' . $e->requestId(), $e->getMessage());
        }
    }

    public function testAnUnsignedRefusalOfAMoneyCallIsAnUnknownOutcome(): void
    {
        $mock = Support::mock();
        $mock->on(ApplyForTransferRequest::class, fn (): Refusal => new Refusal('20001', 'Insufficient balance', false));
        try {
            Support::client($mock)->execute($this->transfer());
            self::fail('no error');
        } catch (OutcomeUnknown $e) {
            self::assertSame(Outcome::Unknown, $e->outcome());
            self::assertInstanceOf(ApiError::class, $e->cause);
            self::assertFalse($e->cause->verified);
        }
    }

    public function testARetryableCodeIsRetriedForAQueryWithANewRequestId(): void
    {
        $mock = Support::mock();
        $calls = 0;
        $mock->on(GetAccountDetailsRequest::class, function () use (&$calls): array|Refusal {
            return ++$calls < 3 ? new Refusal('10001', 'system busy, retry later') : ['accountId' => 'A'];
        });
        $success = Support::client($mock)->executeWith(new GetAccountDetailsRequest('A'));
        self::assertSame(3, $success->attempts);
        $ids = array_map(fn ($r) => $r->requestId, $mock->requests());
        self::assertCount(3, array_unique($ids));
        self::assertSame($ids[2], $success->requestId);
    }

    public function testRetriesStopAtMaxRetriesAndTheErrorSaysAttempts(): void
    {
        $mock = Support::mock();
        $mock->on(GetAccountDetailsRequest::class, fn (): Refusal => new Refusal('10002', 'request timeout'));
        try {
            Support::client($mock, maxRetries: 1)->execute(new GetAccountDetailsRequest('A'));
            self::fail('no error');
        } catch (ApiError $e) {
            self::assertTrue($e->isRetryable());
            self::assertSame(2, $e->attempts());
        }
        self::assertCount(2, $mock->requests());
    }

    public function testAMoneyCallIsNeverResentOnceItsBytesMayHaveLeft(): void
    {
        foreach ([Failure::NoAnswer, Failure::GatewayError] as $failure) {
            $mock = Support::mock();
            $mock->on(ApplyForTransferRequest::class, fn (): Failure => $failure);
            try {
                Support::client($mock)->execute($this->transfer());
                self::fail('no error');
            } catch (OutcomeUnknown $e) {
                self::assertSame(Outcome::Unknown, $e->outcome());
                self::assertSame(1, $e->attempts());
                self::assertSame($mock->requests()[0]->requestId, $e->requestId());
                self::assertStringContainsString('look the application up before sending it again', $e->getMessage());
            }
            self::assertCount(1, $mock->requests(), $failure->name);
        }
        // A retryable refusal of a money call is not re-sent either (10002 may have executed).
        $mock = Support::mock();
        $mock->on(ApplyForTransferRequest::class, fn (): Refusal => new Refusal('10002', 'request timeout'));
        try {
            Support::client($mock)->execute($this->transfer());
            self::fail('no error');
        } catch (ApiError $e) {
            self::assertSame(Outcome::Refused, $e->outcome());
        }
        self::assertCount(1, $mock->requests());
    }

    public function testAMoneyCallThatProvablyNeverLeftIsRetried(): void
    {
        $mock = Support::mock();
        $calls = 0;
        $mock->on(ApplyForTransferRequest::class, function () use (&$calls): array|Failure {
            return ++$calls === 1 ? Failure::NotSent : ['txId' => 'TX2'];
        });
        $success = Support::client($mock)->executeWith($this->transfer());
        self::assertSame('TX2', $success->data->txId);
        self::assertSame(2, $success->attempts);
    }

    public function testAQueryWithTheCallersRequestIdIsNotResentAfterItMayHaveLeft(): void
    {
        $mock = Support::mock();
        $mock->on(GetAccountDetailsRequest::class, fn (): Failure => Failure::NoAnswer);
        try {
            Support::client($mock)->execute(new GetAccountDetailsRequest('A'), new CallOptions(requestId: 'partner1-own-0001'));
            self::fail('no error');
        } catch (TransportError $e) {
            self::assertSame('partner1-own-0001', $e->requestId());
            self::assertSame(Outcome::Unknown, $e->outcome());
        }
        self::assertCount(1, $mock->requests());
    }

    public function testATamperedAnswerIsRefused(): void
    {
        $mock = Support::mock();
        $mock->on(GetAccountDetailsRequest::class, fn (): array => ['balance' => '10.00']);
        $spy = new Spy($mock);
        $spy->change = fn (HttpResponse $r): HttpResponse => new HttpResponse(200, str_replace('10.00', '99.00', $r->body));
        $this->expectException(SignatureInvalid::class);
        Support::client($spy)->execute(new GetAccountDetailsRequest('A'));
    }

    public function testAnUnsignedSuccessIsRefused(): void
    {
        $mock = Support::mock();
        $mock->on(GetAccountDetailsRequest::class, fn (): array => ['balance' => '10.00']);
        $spy = new Spy($mock);
        $spy->change = fn (HttpResponse $r): HttpResponse => new HttpResponse(200, (string) preg_replace('/,"signature":"[0-9a-f]+"/', '', $r->body));
        try {
            Support::client($spy)->execute(new GetAccountDetailsRequest('A'));
            self::fail('no error');
        } catch (SignatureMissing $e) {
            self::assertSame(Outcome::Unknown, $e->outcome());
        }
    }

    public function testAReplayedAnswerToAnotherRequestIsRefused(): void
    {
        $mock = Support::mock();
        $mock->on(ConfirmOperationRequest::class, fn (): array => []);
        $spy = new Spy($mock);
        $client = Support::client($spy);
        $client->execute(new ConfirmOperationRequest('TX1', '123456'));
        $old = null;
        $spy->change = function (HttpResponse $r) use (&$old): HttpResponse {
            return $old ??= $r;
        };
        $client->execute(new ConfirmOperationRequest('TX2', '123456')); // records the answer
        try {
            $client->execute(new ConfirmOperationRequest('TX3', '654321'));
            self::fail('a signed success answering another request was accepted');
        } catch (OutcomeUnknown $e) {
            self::assertInstanceOf(RequestIdMismatch::class, $e->cause);
        }
    }

    public function testANotificationIsNoAnswer(): void
    {
        $mock = Support::mock();
        $mock->on(GetAccountDetailsRequest::class, fn (): array => []);
        $spy = new Spy($mock);
        $spy->change = function (HttpResponse $r): HttpResponse {
            return new HttpResponse(200, str_replace('"code":"00000"', '"notificationType":"0028","code":"00000"', $r->body));
        };
        try {
            Support::client($spy)->execute(new GetAccountDetailsRequest('A'));
            self::fail('no error');
        } catch (Untrusted $e) {
            self::assertStringContainsString('notificationType', $e->getMessage());
        }
    }

    public function testADataOfTheWrongShapeIsADecodeErrorNamingThePath(): void
    {
        $mock = Support::mock();
        $mock->on(GetAccountDetailsRequest::class, fn (): array => ['balance' => ['x']]);
        try {
            Support::client($mock)->execute(new GetAccountDetailsRequest('A'));
            self::fail('no error');
        } catch (DecodeError $e) {
            self::assertStringContainsString('`balance` must be a decimal, not an array', $e->getMessage());
        }
    }

    public function testPagesAreAGeneratorOfItemsAcrossPages(): void
    {
        $mock = Support::mock();
        $mock->on(GetTransListRequest::class, function (JsonObject $p): array {
            $page = (int) (string) $p->get('pageNo');
            $rows = [];
            for ($i = 1; $i <= ($page < 3 ? 2 : 1); $i++) {
                $rows[] = ['txId' => 'T' . $page . $i, 'txStatus' => $page === 3 ? 99 : 8, 'amount' => '1.10'];
            }
            return ['totalRows' => 5, 'result' => $rows];
        });
        $client = Support::client($mock);
        $items = $client->items(new GetTransListRequest('A', [], [TxStatus::Succeeded], 0, 1, 1, 2));
        self::assertSame(0, count($mock->requests()), 'nothing is fetched before it is read');
        $seen = [];
        $total = Decimal::zero();
        foreach ($items as $item) {
            $seen[] = $item->txId;
            $total = $total->plus($item->amount);
        }
        self::assertSame(['T11', 'T12', 'T21', 'T22', 'T31'], $seen);
        self::assertSame('5.50', (string) $total);
        self::assertCount(3, $mock->requests());
        self::assertSame('[8]', json_encode(array_map(fn ($x) => (int) (string) $x, $mock->requests()[0]->params->get('txStatus'))));
    }

    public function testWaitUntilPollsToAFinalStateAndGivesUpAtTheDeadline(): void
    {
        $mock = Support::mock();
        $calls = 0;
        $mock->on(GetAccountDetailsRequest::class, function () use (&$calls): array|Refusal {
            $calls++;
            return $calls === 2 ? new Refusal('10001', 'busy') : ['accountName' => $calls >= 4 ? 'done' : 'waiting'];
        });
        $client = Support::client($mock, maxRetries: 0);
        $account = $client->waitUntil(new GetAccountDetailsRequest('A'), fn (Account $a): ?string => $a->accountName, ['done'], new WaitPolicy(0.01, 0.02, 5));
        self::assertSame('done', $account->accountName);
        self::assertSame(4, $calls);
        try {
            $client->waitUntil(new GetAccountDetailsRequest('A'), fn (Account $a): ?string => 'waiting', ['done'], new WaitPolicy(1, 1, 0.5));
            self::fail('no deadline');
        } catch (WaitDeadline $e) {
            self::assertSame('waiting', $e->lastState);
            self::assertSame('getAccountDetails', $e->operation());
        }
    }

    public function testPendingSendsTheOtpAndConfirmsWithTheBusinessId(): void
    {
        $mock = Support::mock();
        $mock->on(ApplyForTransferRequest::class, fn (): array => ['txId' => 'TX9']);
        $mock->on(SendOtpRequest::class, fn (): array => []);
        $mock->on(ConfirmOperationRequest::class, fn (): array => []);
        $client = Support::client($mock);
        $success = $client->executeWith($this->transfer());
        $pending = Pending::of(
            $success,
            $success->data->txId,
            'txId',
            'applyForTransfer',
            fn ($channel, $options) => $client->execute(new SendOtpRequest('TX9', \Baas\Runtime\Tests\Fixtures\OtpType::from(is_string($channel) ? $channel : (string) $channel->value)), $options),
            fn (string $otp, $options) => $client->execute(new ConfirmOperationRequest('TX9', $otp), $options),
        );
        self::assertSame('TX9', $pending->businessId);
        $pending->sendOtp('sms');
        $pending->confirm('123456');
        self::assertSame('TX9', $mock->requestsOf(ConfirmOperationRequest::class)[0]->params->get('businessId'));
        self::assertSame('sms', $mock->requestsOf(SendOtpRequest::class)[0]->params->get('otpType'));
        $this->expectException(DecodeError::class);
        Pending::of($success, null, 'txId', 'applyForTransfer', fn () => null, fn () => null);
    }

    public function testTheKeyNeverShowsInDumpsErrorsOrLogs(): void
    {
        $mock = Support::mock();
        $mock->on(GetAccountDetailsRequest::class, fn (): Refusal => new Refusal('12005', Support::KEY . ' Invalid signature', false));
        $logger = new MemoryLogger();
        $client = Support::client($mock, logger: $logger);
        $shown = print_r($client, true) . var_export($client->config, true);
        ob_start();
        var_dump($client);
        $shown .= (string) ob_get_clean();
        try {
            $client->execute(new GetAccountDetailsRequest('A'));
        } catch (BaasException $e) {
            $shown .= $e->getMessage() . $e->getTraceAsString() . (string) $e;
        }
        self::assertNotEmpty($logger->records);
        $shown .= print_r($logger->records, true);
        self::assertStringContainsString('[redacted]', $shown);
        self::assertStringNotContainsString(Support::KEY, $shown);
    }
}
