<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests;

use Baas\Runtime\Testing\SandboxAdmin;
use Baas\Runtime\Testing\SandboxAdminError;
use Baas\Runtime\Transport\HttpRequest;
use Baas\Runtime\Transport\HttpResponse;
use Baas\Runtime\Transport\Transport;
use PHPUnit\Framework\TestCase;

/** The admin API helper against canned answers: paths, the token header, refusals. */
final class SandboxAdminTest extends TestCase
{
    /** @param array<string, HttpResponse> $answers by "METHOD path" */
    private static function admin(array $answers, ?string $token = null, ?array &$seen = null): SandboxAdmin
    {
        $seen = [];
        $transport = new class ($answers, $seen) implements Transport {
            /** @param array<string, HttpResponse> $answers */
            public function __construct(private array $answers, private ?array &$seen)
            {
            }

            public function send(HttpRequest $request): HttpResponse
            {
                $this->seen[] = $request;
                $key = $request->method . ' ' . (string) parse_url($request->url, PHP_URL_PATH);
                return $this->answers[$key] ?? new HttpResponse(404, 'no such path');
            }
        };
        return new SandboxAdmin('http://127.0.0.1:9', 5.0, $transport, $token);
    }

    public function testTheOtpOfAPendingApplication(): void
    {
        $rows = '[{"business_id":"TX1","operation":"applyForTransfer","otp_sent":true,"wrong_attempts":0,"otp":"123456"}]';
        $admin = self::admin(['GET /_sandbox/api/applications' => new HttpResponse(200, $rows)], 'tok-1', $seen);
        self::assertSame('123456', $admin->otp('TX1'));
        self::assertSame(['X-Sandbox-Admin-Token' => 'tok-1'], $seen[0]->headers);
        try {
            $admin->otp('TX2');
            self::fail('no error');
        } catch (SandboxAdminError $e) {
            self::assertStringContainsString("no application 'TX2' waits for an OTP (pending: TX1)", $e->getMessage());
        }
        ob_start();
        var_dump($admin);
        self::assertStringNotContainsString('tok-1', (string) ob_get_clean());
    }

    public function testActionsSayWhatTheSandboxSaid(): void
    {
        $admin = self::admin([
            'POST /_sandbox/faults' => new HttpResponse(200, '{"done":"2 fault(s) added"}'),
            'POST /_sandbox/clock' => new HttpResponse(400, '{"error":"line 1: not a number"}'),
        ], null, $seen);
        self::assertSame('2 fault(s) added', $admin->addFaults("faults: []\n"));
        self::assertSame([], $seen[0]->headers);
        self::assertSame('application/yaml', $seen[0]->contentType);
        try {
            $admin->advanceClock(5);
            self::fail('no error');
        } catch (SandboxAdminError $e) {
            self::assertSame(400, $e->status);
            self::assertStringContainsString('line 1: not a number', $e->getMessage());
        }
        $this->expectException(\InvalidArgumentException::class);
        $admin->advanceClock(-1);
    }
}
