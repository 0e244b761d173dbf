<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests;

use Baas\Runtime\Decimal;
use Baas\Runtime\Exception\ApiError;
use Baas\Runtime\Outcome;
use Baas\Runtime\Pending;
use Baas\Runtime\RuntimeClient;
use Baas\Runtime\Testing\SandboxAdminError;
use Baas\Runtime\Testing\SandboxProcess;
use Baas\Runtime\Tests\Fixtures\ApplyForTransferRequest;
use Baas\Runtime\Tests\Fixtures\ConfirmOperationRequest;
use Baas\Runtime\Tests\Fixtures\Currency;
use Baas\Runtime\Tests\Fixtures\GetAccountDetailsRequest;
use Baas\Runtime\Tests\Fixtures\GetTransListRequest;
use Baas\Runtime\Tests\Fixtures\OtpType;
use Baas\Runtime\Tests\Fixtures\SendOtpRequest;
use Baas\Runtime\Transport\StreamTransport;
use PHPUnit\Framework\TestCase;

/**
 * The runtime against the `baas-sandbox` binary, with hand-written operations: the service's real
 * signatures, OTP flow, paging and refusals. Skipped when the binary is not built, except in CI
 * (BAAS_REQUIRE_SANDBOX=1).
 */
final class SandboxTest extends TestCase
{
    private static ?SandboxProcess $sandbox = null;

    public static function setUpBeforeClass(): void
    {
        $binary = Support::sandboxBinary();
        if ($binary === null) {
            if (getenv('BAAS_REQUIRE_SANDBOX') === '1') {
                self::fail('BAAS_REQUIRE_SANDBOX=1 but no baas-sandbox binary (BAAS_SANDBOX, CARGO_TARGET_DIR/debug, target/debug)');
            }
            self::markTestSkipped('no baas-sandbox binary: cargo build -p baas-sandbox --bin baas-sandbox');
        }
        self::$sandbox = SandboxProcess::start($binary);
    }

    public static function tearDownAfterClass(): void
    {
        self::$sandbox?->stop();
        self::$sandbox = null;
    }

    private static function client(): RuntimeClient
    {
        $sandbox = self::$sandbox;
        self::assertNotNull($sandbox);
        return new RuntimeClient($sandbox->config(), new StreamTransport(), ['10001', '10002']);
    }

    public function testTheSandboxSaysWhoItIs(): void
    {
        self::assertSame('sandbox-partner', self::$sandbox?->sender);
        self::assertSame('baas-sandbox', self::$sandbox?->notificationVerifier()->serviceSender());
        // Issue 34: the banner prints the service sender, and both helpers expose it.
        self::assertStringContainsString("\nservice: baas-sandbox ", (string) self::$sandbox?->output());
        self::assertSame('baas-sandbox', self::$sandbox?->serviceSender);
        self::assertSame('baas-sandbox', self::$sandbox?->admin()->serviceSender);
        self::assertSame('baas-sandbox', (new \Baas\Runtime\Testing\SandboxAdmin((string) self::$sandbox?->url))->serviceSender);
        self::assertStringStartsWith('http://127.0.0.1:', (string) self::$sandbox?->url);
    }

    public function testAQueryReadsTheSeededBalanceExactly(): void
    {
        $account = self::client()->execute(new GetAccountDetailsRequest('1000000002'));
        self::assertSame('1000000002', $account->accountId);
        self::assertInstanceOf(Decimal::class, $account->balance);
        self::assertMatchesRegularExpression('/^\d+\.\d{2}$/', (string) $account->balance);
    }

    public function testAnOtpTransferMovesTheMoneyOnce(): void
    {
        $client = self::client();
        $before = $client->execute(new GetAccountDetailsRequest('1000000001'))->balance;
        $success = $client->executeWith(new ApplyForTransferRequest('1000000001', '46', '1000000004', Currency::Kes, Decimal::of('250.00'), remark: 'php runtime'));
        $pending = Pending::of(
            $success,
            $success->data->txId,
            'txId',
            'applyForTransfer',
            fn ($channel, $options) => $client->execute(new SendOtpRequest((string) $success->data->txId, OtpType::Sms), $options),
            fn (string $otp, $options) => $client->execute(new ConfirmOperationRequest((string) $success->data->txId, $otp), $options),
        );
        $pending->sendOtp(OtpType::Sms);
        $admin = self::$sandbox?->admin();
        self::assertNotNull($admin);
        $pending->confirm($admin->otp($pending->businessId));
        $after = $client->execute(new GetAccountDetailsRequest('1000000001'))->balance;
        self::assertNotNull($before);
        self::assertSame((string) $before->minus('250.00'), (string) $after);
        $this->expectException(SandboxAdminError::class);
        $admin->otp($pending->businessId); // confirmed: no longer pending
    }

    public function testAWrongOtpIsRefusedWithAVerifiedCode(): void
    {
        $client = self::client();
        $applied = $client->execute(new ApplyForTransferRequest('1000000001', '46', '1000000004', Currency::Kes, Decimal::of('1.00')));
        $client->execute(new SendOtpRequest((string) $applied->txId, OtpType::Sms));
        try {
            $client->execute(new ConfirmOperationRequest((string) $applied->txId, '000000x'));
            self::fail('a wrong OTP was accepted');
        } catch (ApiError $e) {
            self::assertSame(Outcome::Refused, $e->outcome());
            self::assertTrue($e->verified);
            self::assertSame('confirmOperation', $e->operation());
        }
    }

    public function testEveryPageIsReadOnceEach(): void
    {
        $client = self::client();
        $first = $client->execute(new GetTransListRequest('1000000001', [], [], 0, 4102444800000, 1, 50));
        $ids = [];
        foreach ($client->items(new GetTransListRequest('1000000001', [], [], 0, 4102444800000, 1, 1)) as $item) {
            $ids[] = $item->txId;
        }
        self::assertGreaterThanOrEqual(2, count($ids));
        self::assertSame($first->totalRows, count($ids));
        self::assertSame($ids, array_values(array_unique($ids)));
    }
}
