<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests\Client;

use Baas\Client\Client;
use Baas\Client\Enums\Currency;
use Baas\Client\Enums\NetworkProvider;
use Baas\Client\Enums\OtpType;
use Baas\Client\Enums\TxStatus;
use Baas\Client\Enums\UtilityPaymentStatus;
use Baas\Client\Transfers\ApplyForTransferRequest;
use Baas\Client\Transfers\GetTransResultRequest;
use Baas\Runtime\Config;
use Baas\Runtime\Decimal;
use Baas\Runtime\Exception\DecodeError;
use Baas\Runtime\Exception\OutcomeUnknown;
use Baas\Runtime\Settlement\Confirmed;
use Baas\Runtime\Settlement\NotConfirmed;
use Baas\Runtime\Settlement\StillUnknown;
use Baas\Runtime\Testing\Failure;
use Baas\Runtime\Testing\MockService;
use Baas\Runtime\Testing\Refusal;
use Baas\Runtime\Testing\SandboxProcess;
use Baas\Runtime\Tests\Support;
use Baas\Signing\PrivateKey;
use PHPUnit\Framework\TestCase;

/**
 * Settling a confirmation whose outcome is unknown (issue 34 item 9): against the sandbox with its
 * `lose_request` fault (the confirmation never arrived: not confirmed, confirmed again once with
 * the same OTP) and `drop_answer` (it arrived: confirmed), and on MockService for the lookups
 * that say nothing.
 */
final class SettleTest extends TestCase
{
    private const PAYER = '1000000001';
    private const PAYEE = '1000000004';

    private static function sandbox(): SandboxProcess
    {
        $binary = Support::sandboxBinary();
        if ($binary === null) {
            self::assertNotSame('1', getenv('BAAS_REQUIRE_SANDBOX'), 'BAAS_REQUIRE_SANDBOX=1 but no baas-sandbox binary');
            self::markTestSkipped('no baas-sandbox binary: cargo build -p baas-sandbox --bin baas-sandbox');
        }
        return SandboxProcess::start($binary);
    }

    private static function balance(Client $client, string $account): string
    {
        return (string) $client->getAccountDetails(accountId: $account)->balance;
    }

    /** @return list<string> the codes of the confirmations the sandbox logged, newest first */
    private static function confirmations(SandboxProcess $sandbox): array
    {
        $codes = [];
        foreach ($sandbox->admin()->requests() as $r) {
            if (($r['operation'] ?? null) === 'confirmOperation') {
                $codes[] = (string) $r['code'];
            }
        }
        return $codes;
    }

    private static function fault(SandboxProcess $sandbox, string $kind, string $businessId): void
    {
        $sandbox->admin()->addFaults("faults:\n  - operation: confirmOperation\n    when: { businessId: {$businessId} }\n    fault: {$kind}\n");
    }

    public function testAConfirmationLostBeforeItArrivedIsNotConfirmedThenConfirmedOnceWithTheSameOtp(): void
    {
        $sandbox = self::sandbox();
        try {
            $client = new Client($sandbox->config());
            $before = [self::balance($client, self::PAYER), self::balance($client, self::PAYEE)];
            $pending = $client->applyForTransferPending(
                payerAccountId: self::PAYER, payeeBankCode: '46', payeeAccountId: self::PAYEE,
                currency: Currency::Kes, amount: Decimal::of('1000.50'),
            );
            $pending->sendOtp(OtpType::Sms);
            $otp = $sandbox->admin()->otp($pending->businessId);
            self::fault($sandbox, 'lose_request', $pending->businessId);
            try {
                $pending->confirm($otp);
                self::fail('the confirmation was lost');
            } catch (OutcomeUnknown $e) {
                self::assertFalse($e->isRetryable());
            }
            self::assertSame($before, [self::balance($client, self::PAYER), self::balance($client, self::PAYEE)]);
            self::assertSame(['lost'], self::confirmations($sandbox));

            $settled = $pending->settle();
            self::assertInstanceOf(NotConfirmed::class, $settled);
            self::assertSame(TxStatus::Submitted, $settled->state);
            self::assertTrue($settled->safeToConfirmAgain());
            self::assertStringContainsString('same OTP', $settled->otpRule);
            $pending->confirm($otp); // the same OTP, as the rule says
            $again = $pending->settle();
            self::assertInstanceOf(Confirmed::class, $again);
            self::assertSame([TxStatus::Succeeded, true], [$again->state, $again->isFinal]);
            self::assertSame(['248999.50', '101000.50'], [self::balance($client, self::PAYER), self::balance($client, self::PAYEE)]);
            self::assertSame(['00000', 'lost'], self::confirmations($sandbox));
        } finally {
            $sandbox->stop();
        }
    }

    public function testAConfirmationWhoseAnswerWasLostIsConfirmedAndAPaymentSettlesByItsQuery(): void
    {
        $sandbox = self::sandbox();
        try {
            $client = new Client($sandbox->config());
            $pending = $client->applyForTransferPending(
                payerAccountId: self::PAYER, payeeBankCode: '46', payeeAccountId: self::PAYEE,
                currency: Currency::Kes, amount: Decimal::of('1000.50'),
            );
            $pending->sendOtp(OtpType::Sms);
            self::fault($sandbox, 'drop_answer', $pending->businessId);
            try {
                $pending->confirm($sandbox->admin()->otp($pending->businessId));
                self::fail('the answer was lost');
            } catch (OutcomeUnknown) {
            }
            $settled = $pending->settle();
            self::assertInstanceOf(Confirmed::class, $settled);
            self::assertSame([TxStatus::Succeeded, true, false], [$settled->state, $settled->isFinal, $settled->safeToConfirmAgain()]);
            self::assertSame('248999.50', self::balance($client, self::PAYER));
            self::assertSame(['00000'], self::confirmations($sandbox));

            $payment = $client->airtimePaymentPending(
                accountId: self::PAYER, mobileNumber: '254700000001', networkProvider: NetworkProvider::First, amount: Decimal::of('100'),
            );
            $payment->sendOtp(OtpType::Sms);
            self::fault($sandbox, 'lose_request', $payment->businessId);
            try {
                $payment->confirm($sandbox->admin()->otp($payment->businessId));
                self::fail('the confirmation was lost');
            } catch (OutcomeUnknown) {
            }
            $paid = $payment->settle();
            self::assertInstanceOf(NotConfirmed::class, $paid);
            self::assertSame(UtilityPaymentStatus::WaitingForOtp, $paid->state);
        } finally {
            $sandbox->stop();
        }
    }

    public function testALookupThatFailsOrSaysNothingIsStillUnknown(): void
    {
        $key = new PrivateKey('unit-test-key');
        $mock = new MockService($key);
        $answer = null;
        $mock->on(ApplyForTransferRequest::class, fn (): array => ['txId' => 'T1']);
        $mock->on(GetTransResultRequest::class, function () use (&$answer): mixed {
            return $answer;
        });
        $client = new Client(new Config('https://baas.example.com', 'partner1', $key, maxRetries: 0, retryBackoff: 0.0), $mock);
        $pending = $client->applyForTransferPending(
            payerAccountId: self::PAYER, payeeBankCode: '46', payeeAccountId: self::PAYEE,
            currency: Currency::Kes, amount: Decimal::of('5.00'),
        );
        foreach ([new Refusal('10001', 'busy'), Failure::NoAnswer] as $a) {
            $answer = $a;
            $settled = $pending->settle();
            self::assertInstanceOf(StillUnknown::class, $settled);
            self::assertSame('getTransResult', $settled->error->operation());
            self::assertFalse($settled->safeToConfirmAgain());
        }
        foreach ([[['txId' => 'T1'], 'no state'], [['txId' => 'T1', 'txStatus' => 3], 'not one this SDK lists']] as [$data, $says]) {
            $answer = $data;
            $settled = $pending->settle();
            self::assertInstanceOf(StillUnknown::class, $settled);
            self::assertInstanceOf(DecodeError::class, $settled->error);
            self::assertStringContainsString($says, $settled->error->getMessage());
        }
        $answer = ['txId' => 'T1', 'txStatus' => 2];
        $processing = $pending->settle();
        self::assertInstanceOf(Confirmed::class, $processing);
        self::assertSame([TxStatus::Processing, false], [$processing->state, $processing->isFinal]);
        self::assertCount(5, $mock->requestsOf(GetTransResultRequest::class));
    }
}
