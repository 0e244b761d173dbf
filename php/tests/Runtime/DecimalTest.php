<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests;

use Baas\Runtime\Decimal;
use PHPUnit\Framework\TestCase;

/** The exact decimal: no float, no bcmath. */
final class DecimalTest extends TestCase
{
    public function testItKeepsItsTextAndScale(): void
    {
        self::assertSame('100.50', (string) Decimal::of('100.50'));
        self::assertSame(2, Decimal::of('100.50')->scale());
        self::assertSame('0.05', (string) Decimal::of('000.05'));
        self::assertSame('0', (string) Decimal::of('-0'));
        self::assertSame('-3', (string) Decimal::of(-3));
        self::assertSame('"100.50"', json_encode(Decimal::of('100.50')));
    }

    /** @return list<array{string}> */
    public static function notDecimals(): array
    {
        return [['1e3'], ['+1'], [' 1'], ['1.'], ['.5'], ['1,000'], [''], ['NaN'], ['1.2.3'], ['١']];
    }

    /** @dataProvider notDecimals */
    public function testItRefusesWhatIsNotAPlainDecimal(string $text): void
    {
        self::assertNull(Decimal::tryOf($text));
        $this->expectException(\InvalidArgumentException::class);
        Decimal::of($text);
    }

    public function testItAddsAndSubtractsExactly(): void
    {
        self::assertSame('0.30', (string) Decimal::of('0.10')->plus('0.20'));
        self::assertSame('0.3', (string) Decimal::of('0.1')->plus(Decimal::of('0.2')));
        self::assertSame('-0.05', (string) Decimal::of('0.10')->minus('0.15'));
        self::assertSame('0.00', (string) Decimal::of('0.10')->minus('0.10'));
        self::assertSame('100000000000000000000.01', (string) Decimal::of('99999999999999999999.99')->plus('0.02'));
        self::assertSame('-99999999999999999999.97', (string) Decimal::of('-99999999999999999999.99')->plus('0.02'));
        self::assertSame('1.5', (string) Decimal::sum([Decimal::of('0.5'), Decimal::of('1'), Decimal::of('0.0')]));
        // A float's sum would be 0.30000000000000004.
        $total = Decimal::zero();
        for ($i = 0; $i < 1000; $i++) {
            $total = $total->plus('0.10');
        }
        self::assertSame('100.00', (string) $total);
    }

    public function testItComparesByValue(): void
    {
        self::assertTrue(Decimal::of('100.5')->equals('100.50'));
        self::assertSame(-1, Decimal::of('-2')->compareTo('1'));
        self::assertSame(1, Decimal::of('-1')->compareTo('-2'));
        self::assertSame(1, Decimal::of('10')->compareTo('9.99'));
        self::assertSame(0, Decimal::of('0')->compareTo('-0.00'));
        self::assertTrue(Decimal::of('100.00')->isWhole());
        self::assertFalse(Decimal::of('100.01')->isWhole());
        self::assertTrue(Decimal::of('-0.00')->isZero());
        self::assertFalse(Decimal::of('-0.00')->isNegative());
    }

    public function testAFloatIsRefusedByItsType(): void
    {
        $this->expectException(\TypeError::class);
        Decimal::of(0.1);
    }
}
