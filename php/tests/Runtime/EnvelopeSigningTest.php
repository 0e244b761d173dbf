<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests;

use Baas\Runtime\Decimal;
use Baas\Runtime\Envelope;
use Baas\Runtime\Exception\EncodeError;
use Baas\Runtime\Json;
use Baas\Runtime\WireObject;
use Baas\Signing\Ambiguity;
use Baas\Signing\Canonical;
use Baas\Signing\CanonicalException;
use Baas\Signing\FastReader;
use Baas\Signing\JsonNumber;
use Baas\Signing\PrivateKey;
use Baas\Signing\Signer;
use PHPUnit\Framework\TestCase;

/**
 * Envelope::sign signs a request while writing it (the pairs taken by the JSON writer, the
 * body never read back): on seeded envelopes of every shape, the bytes and the signature are
 * those of writing then reading back, and so are the refusals.
 */
final class EnvelopeSigningTest extends TestCase
{
    private const KEYS = ['a', 'b', 'amount', 'k1', 'é', '0', '12', 'x_y', 'a.b', 'a&b', 'a=b', 'a[0]', '', 'signature', 'senderKey'];
    private const STRINGS = ['x', '', 'Tom & Jerry', 'a&b=c', 'x&data.result[1].amount=9', 'é🎉', "line\nbreak", "\u{2028}", '"q"', '\\', '/', "\x01"];

    /** What writing then reading back gives: the bytes and signature, or the error. */
    private static function readBack(WireObject $envelope, PrivateKey $key): string
    {
        try {
            $body = Json::encode($envelope);
        } catch (EncodeError $e) {
            return 'EncodeError ' . $e->getMessage();
        }
        try {
            $flat = Canonical::parseForSigning($body);
        } catch (CanonicalException $e) {
            return 'EncodeError ' . (new EncodeError($e->rule() === Ambiguity::NULL
                ? '`' . $e->path() . '` is null; a null is never sent (leave the field out)'
                : $e->redactedFor($key)->getMessage() . '; such a message is never signed'))->getMessage();
        }
        if ($flat->hasSignatureKey()) {
            return 'EncodeError ' . (new EncodeError('the body already has a `signature` (sign it without one)'))->getMessage();
        }
        return Signer::attachSignature($body, $flat->signatureHex($key));
    }

    private static function signed(WireObject $envelope, PrivateKey $key): string
    {
        try {
            return Envelope::sign($envelope, $key);
        } catch (EncodeError $e) {
            return 'EncodeError ' . $e->getMessage();
        }
    }

    private static function value(int $depth): mixed
    {
        $roll = mt_rand(0, 99);
        if ($roll < 12 && $depth < 8) {
            return self::object($depth + 1);
        }
        if ($roll < 20 && $depth < 8) {
            $list = [];
            for ($i = mt_rand(0, 12); $i > 0; $i--) {
                $list[] = self::value($depth + 1);
            }
            return $list;
        }
        return match (mt_rand(0, 9)) {
            0 => mt_rand(-5, 5) * 10 ** mt_rand(0, 12),
            1 => mt_rand(0, 1) === 1,
            2 => Decimal::of(['0.10', '100.50', '-3', '12345678901234567890.5'][mt_rand(0, 3)]),
            3 => mt_rand(0, 9) === 0 ? new JsonNumber('1.50') : null,
            default => self::STRINGS[mt_rand(0, count(self::STRINGS) - 1)] . (mt_rand(0, 1) ? 'v' . mt_rand(0, 99) : ''),
        };
    }

    private static function object(int $depth): WireObject
    {
        $members = [];
        for ($i = mt_rand(0, 6); $i > 0; $i--) {
            $key = mt_rand(0, 3) > 0 ? 'k' . mt_rand(0, 20) : self::KEYS[mt_rand(0, count(self::KEYS) - 1)];
            $members[$key] = self::value($depth);
        }
        return new WireObject($members);
    }

    public function testSigningWhileWritingGivesTheBytesAndSignatureOfReadingBack(): void
    {
        $key = new PrivateKey('envelope-key');
        mt_srand(36);
        $written = 0;
        for ($n = 0; $n < 1500; $n++) {
            $envelope = self::object(0);
            self::assertSame(self::readBack($envelope, $key), self::signed($envelope, $key), (string) $n);
            try {
                [, $pairs] = Json::encodeWithPairs($envelope);
                $written += $pairs === null ? 0 : 1;
            } catch (EncodeError) {
            }
        }
        // Most envelopes are signed as written (the others are read back, which decides).
        self::assertGreaterThan(500, $written);
    }

    public function testDeepOrLongEnvelopesAreReadBack(): void
    {
        $key = new PrivateKey('envelope-key');
        $deep = 'x';
        for ($i = 0; $i < 63; $i++) {
            $deep = new WireObject(['d' => $deep]);
        }
        self::assertNull(Json::encodeWithPairs(new WireObject(['a' => $deep]))[1]);
        self::assertSame(self::readBack(new WireObject(['a' => $deep]), $key), self::signed(new WireObject(['a' => $deep]), $key));
        $long = new WireObject(['params' => new WireObject(['file' => str_repeat('QUJD', 40000)])]);
        self::assertNull(Json::encodeWithPairs($long)[1]);
        self::assertSame(self::readBack($long, $key), self::signed($long, $key));
        self::assertNotNull(Json::encodeWithPairs(new WireObject(['params' => new WireObject(['a' => '1'])]))[1]);
    }

    public function testAnAnswerIsVerifiedAndDecodedFromOneReading(): void
    {
        $key = new PrivateKey('envelope-key');
        $rows = [];
        for ($i = 0; $i < 300; $i++) {
            $rows[] = '{"txId":"TX' . $i . '","fee":0.50,"amount":"' . $i . '.10","status":' . ($i % 9) . ',"note":null}';
        }
        // Short (the numbers integers, decoded as they are) and long (rewritten) answers.
        foreach (['{"requestId":"R1","code":"00000","msg":"ok","data":{"n":-12,"list":[1,2]}}',
            '{"requestId":"R1","code":"00000","msg":"ok","data":{"totalRows":300,"result":[' . implode(',', $rows) . ']}}'] as $body) {
            $signed = Signer::attach($body, $key);
            FastReader::$rewrites = 0;
            $data = Envelope::openAnswer(200, $signed, $key, 'R1');
            // One reading: numbers rewritten at most once (reading then decoding rewrote twice).
            self::assertLessThanOrEqual(1, FastReader::$rewrites);
            self::assertSame(strlen($body) > 8192 ? 1 : 0, FastReader::$rewrites);
            $expected = (new \Baas\Signing\CanonicalReader($signed, true, true))->top()->get('data');
            self::assertEquals($expected, $data);
        }
        self::assertInstanceOf(JsonNumber::class, $data->get('result')[299]->get('fee'));
        self::assertSame('0.50', $data->get('result')[299]->get('fee')->literal);
        self::assertSame('-12', Envelope::openAnswer(200, Signer::attach('{"requestId":"R1","code":"00000","data":{"n":-12}}', $key), $key, 'R1')
            ->get('n')->literal);
    }
}
