<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests;

use Baas\Runtime\Decimal;
use Baas\Runtime\Exception\DecodeError;
use Baas\Runtime\Exception\EncodeError;
use Baas\Runtime\Exception\InvalidRequest;
use Baas\Runtime\FieldPath;
use Baas\Runtime\Json;
use Baas\Runtime\Read;
use Baas\Runtime\RuleKind;
use Baas\Runtime\Tests\Fixtures\Currency;
use Baas\Runtime\Tests\Fixtures\TxStatus;
use Baas\Runtime\UnknownValue;
use Baas\Runtime\Validator;
use Baas\Runtime\WireObject;
use Baas\Signing\Canonical;
use PHPUnit\Framework\TestCase;

/** The validator's rules, the JSON written once, the lenient reading of answers. */
final class ValidatorJsonTest extends TestCase
{
    public function testEveryRuleNamesItsFieldAndKind(): void
    {
        $v = new Validator();
        $root = FieldPath::root();
        $v->maxChars($root->field('name'), 'ééé', 2);
        $v->maxChars($root->field('ok'), 'éé', 2);
        $v->minChars($root->field('short'), 'a', 2);
        $v->alphanumeric($root->field('code'), 'ab-c');
        $v->base64MaxBytes($root->field('file'), 'QUJD', 2);
        $v->base64MaxBytes($root->field('bad64'), 'QU=D', 9);
        $v->rangeInt($root->field('page'), 0, 1, null);
        $v->positiveInt($root->field('n'), 0);
        $v->rangeAmount($root->field('amount'), Decimal::of('0.001'), '0.01', null);
        $v->positiveAmount($root->field('fee'), Decimal::of('0.00'));
        $v->whole($root->field('units'), Decimal::of('1.5'));
        $v->decimalPlaces($root->field('oderArray')->index(2)->field('amount'), Decimal::of('1.005'), 2);
        $v->maxItems($root->field('list'), 3, 2);
        $v->minItems($root->field('list'), 0, 1);
        $v->required($root->field('accountId'), false);
        $v->requiredIf($root->field('payeeAccountName'), false, true, 'the payee is a bank');
        $v->atLeastOneOf($root, ['userId' => false, 'accountId' => false]);
        $v->exactlyOneOf($root, ['a' => true, 'b' => true]);
        $v->listOf($root->field('txStatus'), [TxStatus::Succeeded, 8], TxStatus::class);
        $v->oneOf($root->field('currency'), 'CNY', ['KES', 'USD']);
        $v->oneOf($root->field('fine'), 'KES', ['KES', 'USD']);
        $v->listOf($root->field('codes'), [Currency::Kes, 'XAF'], Currency::class . '|string');
        $v->listOf($root->field('notCodes'), [Currency::Kes, 7], Currency::class . '|string');
        $got = array_map(fn ($x) => $x->field . ' ' . $x->rule->value, $v->violations());
        self::assertSame([
            'name max_chars', 'short min_chars', 'code alphanumeric', 'file base64_max_bytes', 'bad64 base64',
            'page range', 'n positive', 'amount range', 'fee positive', 'units whole', 'oderArray[2].amount decimal_places',
            'list max_items', 'list min_items', 'accountId required', 'payeeAccountName required_if',
            'userId|accountId at_least_one_of', 'a|b exactly_one_of', 'txStatus[1] type',
            'currency one_of', 'notCodes[1] type',
        ], $got);
        try {
            $v->finish();
            self::fail('no InvalidRequest');
        } catch (InvalidRequest $e) {
            self::assertCount(20, $e->violations);
            self::assertSame(RuleKind::DecimalPlaces, $e->of('oderArray[2].amount')[0]->rule);
        }
    }

    public function testTheJsonIsWrittenOnceAndSignable(): void
    {
        $json = Json::encode(new WireObject([
            'a' => 'x/é', 'n' => 5, 'b' => true, 'm' => Decimal::of('1.50'), 'e' => Currency::Kes, 's' => TxStatus::Succeeded,
            'empty' => new WireObject(), 'list' => [], 'skip' => null, 'nested' => ['k' => [1, 2]],
        ]));
        self::assertSame('{"a":"x/é","n":5,"b":true,"m":"1.50","e":"KES","s":8,"empty":{},"list":[],"nested":{"k":[1,2]}}', $json);
        Canonical::parseForSigning($json);
    }

    public function testAFloatANullElementAndBadTextAreNeverSent(): void
    {
        foreach ([
            'a float' => new WireObject(['amount' => 1.5]),
            'a null element' => new WireObject(['list' => ['a', null]]),
            'invalid UTF-8' => new WireObject(['name' => "\xff"]),
            'an object' => new WireObject(['x' => new \DateTime()]),
        ] as $what => $value) {
            try {
                Json::encode($value);
                self::fail($what . ' was encoded');
            } catch (EncodeError $e) {
                self::assertNotSame('', $e->getMessage());
            }
        }
    }

    public function testReadingIsLenientButExact(): void
    {
        $o = Canonical::parse('{"s":12,"i":"42","big":"99999999999999999999","d":100.50,"e":"USD","u":"XAF","t":"8","b":"true","n":null}')->value();
        self::assertSame('12', Read::string($o->get('s'), 's'));
        self::assertSame(42, Read::int($o->get('i'), 'i'));
        self::assertSame('100.50', (string) Read::decimal($o->get('d'), 'd'));
        self::assertSame(Currency::Usd, Read::enum(Currency::class, $o->get('e'), 'e'));
        $unknown = Read::enum(Currency::class, $o->get('u'), 'u');
        self::assertInstanceOf(UnknownValue::class, $unknown);
        self::assertSame('XAF', (string) $unknown);
        self::assertSame(TxStatus::Succeeded, Read::enum(TxStatus::class, $o->get('t'), 't'));
        self::assertTrue(Read::bool($o->get('b'), 'b'));
        self::assertNull(Read::string($o->get('n'), 'n'));
        self::assertNull(Read::string($o->get('absent'), 'absent'));
        $this->expectException(DecodeError::class);
        $this->expectExceptionMessage('`big` must be an integer');
        Read::int($o->get('big'), 'big');
    }
}
