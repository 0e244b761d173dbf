<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests;

use Baas\Runtime\Envelope;
use Baas\Runtime\Exception\EncodeError;
use Baas\Runtime\Exception\Untrusted;
use Baas\Runtime\WireObject;
use Baas\Signing\Canonical;
use Baas\Signing\CanonicalException;
use Baas\Signing\JsonObject;
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

    /** @return array<string, array{array<string, mixed>}> */
    public static function receivedNulls(): array
    {
        $out = [];
        foreach (self::vectors()['received_nulls'] as $v) {
            $out[$v['name']] = [$v];
        }
        return $out;
    }

    /**
     * @dataProvider receivedNulls
     * @param array<string, mixed> $v
     */
    public function testAReceivedNullMemberReadsAsAbsent(array $v): void
    {
        $key = new PrivateKey($v['key']);
        Signer::verify($v['body'], $key);
        self::assertSame($v['path'], Canonical::parse($v['body'])->firstNullPath());
        self::assertSame($v['skipped'], Canonical::parse($v['body'])->skippedNulls());
        if (str_starts_with($v['path'], 'data.')) {
            // The runtime opens such an answer: the null member reads as absent.
            $data = Envelope::openAnswer(200, $v['body'], $key, 'R1');
            self::assertInstanceOf(JsonObject::class, $data);
            self::assertNull($data->get(substr($v['path'], 5)));
            self::assertGreaterThan(0, count($data));
        }
    }

    /**
     * The document skips nulls when signing: a signer signs the body with its null members
     * left out, and warns about each through the logger given.
     *
     * @dataProvider receivedNulls
     * @param array<string, mixed> $v
     */
    public function testASignerSkipsNullMembersAndWarns(array $v): void
    {
        $key = new PrivateKey($v['key']);
        $signature = Canonical::parse($v['body'])->signature();
        $logger = new class () {
            /** @var list<string> */
            public array $paths = [];

            /** @param array<string, mixed> $context */
            public function warning(string $message, array $context = []): void
            {
                $this->paths[] = $context['path'];
            }
        };
        self::assertSame($signature, Signer::sign($v['unsigned'], $key, $logger));
        self::assertSame($v['skipped'], $logger->paths);
        self::assertSame($v['body'], Signer::attach($v['unsigned'], $key));
        // A null array element still moves the indexes: refused (R2).
        try {
            Signer::sign(str_replace(':null', ':[null]', $v['unsigned']), $key);
            self::fail('signed a null array element');
        } catch (CanonicalException $e) {
            self::assertSame('R2', $e->rule()?->id());
            self::assertSame($v['path'] . '[0]', $e->path());
        }
    }

    /** The SDK client never sends a null: a null member is left out of the bytes it signs. */
    public function testTheClientNeverSendsANull(): void
    {
        $key = new PrivateKey('yourkey');
        $body = Envelope::sign(new WireObject(['requestId' => 'R9', 'params' => new WireObject(['a' => '1', 'remark' => null])]), $key);
        self::assertStringNotContainsString('null', $body);
        self::assertSame([], Canonical::parse($body)->skippedNulls());
        $this->expectException(EncodeError::class);
        Envelope::sign(new WireObject(['requestId' => 'R9', 'params' => new WireObject(['list' => ['a', null]])]), $key);
    }
}
