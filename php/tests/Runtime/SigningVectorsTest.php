<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests;

use Baas\Runtime\Envelope;
use Baas\Runtime\Exception\Untrusted;
use Baas\Signing\Canonical;
use Baas\Signing\PrivateKey;
use Baas\Signing\Signer;
use Baas\Signing\VerifyException;
use PHPUnit\Framework\TestCase;

/**
 * The shared signing vectors (tests/data/signing-vectors.json, which every signer and verifier
 * we ship passes), through the signer and through the runtime's answer opener.
 */
final class SigningVectorsTest extends TestCase
{
    /** @return array<string, mixed> */
    private static function vectors(): array
    {
        $vectors = json_decode((string) file_get_contents(Support::vectorsFile()), true, 512, JSON_THROW_ON_ERROR);
        self::assertIsArray($vectors);
        return $vectors;
    }

    /** @return array<string, array{array<string, mixed>}> */
    public static function signing(): array
    {
        $out = [];
        foreach (self::vectors()['signing'] as $v) {
            $out[$v['name']] = [$v];
        }
        return $out;
    }

    /** @return array<string, array{array<string, mixed>}> */
    public static function refusals(): array
    {
        $out = [];
        foreach (self::vectors()['refusals'] as $v) {
            $out[$v['name']] = [$v];
        }
        return $out;
    }

    public function testTheVectorsAreThere(): void
    {
        $v = self::vectors();
        self::assertGreaterThanOrEqual(13, count($v['signing']));
        self::assertGreaterThanOrEqual(13, count($v['refusals']));
        self::assertGreaterThanOrEqual(1, count($v['received_nulls']));
    }

    /**
     * @dataProvider signing
     * @param array<string, mixed> $v
     */
    public function testEachSigningVectorSignsAndVerifies(array $v): void
    {
        $key = new PrivateKey($v['key']);
        self::assertSame($v['canonical'], Canonical::parse($v['body'])->canonicalStringExposingKey($key));
        self::assertSame($v['signature'], Signer::sign($v['body'], $key));
        $signed = Signer::attach($v['body'], $key);
        Signer::verify($signed, $key);
        $this->expectException(VerifyException::class);
        Signer::verify($signed, new PrivateKey($v['key'] . 'x'));
    }

    /**
     * @dataProvider refusals
     * @param array<string, mixed> $v
     */
    public function testEachRefusalIsRefusedNamingItsRuleAndPath(array $v): void
    {
        $key = new PrivateKey($v['key']);
        try {
            Signer::verify($v['body'], $key);
            self::fail('verified');
        } catch (VerifyException $e) {
            self::assertSame($v['rule'], $e->rule()?->id());
            self::assertSame($v['path'], $e->path());
        }
        // The runtime opens no answer that could be re-cut, whatever its signature.
        try {
            Envelope::openAnswer(200, $v['body'], $key, 'R1');
            self::fail('opened');
        } catch (Untrusted $e) {
            self::assertStringContainsString('re-cut', $e->getMessage());
        }
    }

    public function testAReceivedNullMemberReadsAsAbsent(): void
    {
        foreach (self::vectors()['received_nulls'] as $v) {
            $key = new PrivateKey($v['key']);
            Signer::verify($v['body'], $key);
            self::assertSame($v['path'], Canonical::parse($v['body'])->firstNullPath());
        }
    }
}
