/**
 * Money is decimal text (`"100.50"`), never a JavaScript `number` (a binary float cannot hold
 * `0.1` exactly). {@link Decimal} is the helper to read, compare and add such texts exactly.
 */

/** An amount of money as its decimal text, e.g. `"100.50"` (no exponent, no `+`). */
export type Amount = string;

const DECIMAL_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;
const NUMBER_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** True when `text` is a plain decimal as amounts are sent: `-?digits(.digits)?`. */
export function isDecimalText(text: string): boolean {
  return DECIMAL_TEXT.test(text);
}

/** An exact decimal: `units × 10^-scale`. */
export class Decimal {
  private constructor(
    /** The digits as an integer. */
    readonly units: bigint,
    /** Digits after the point (`100.50` has 2). */
    readonly scale: number,
  ) {}

  /**
   * Reads a decimal text (`"100.50"`, `"-3"`; a JSON number's text such as `1.5e3` too).
   * Throws a `RangeError` for anything else.
   */
  static parse(text: string): Decimal {
    if (!NUMBER_TEXT.test(text)) {
      throw new RangeError(`not a decimal number: ${JSON.stringify(text.slice(0, 64))}`);
    }
    const [mantissa = "", exp = "0"] = text.toLowerCase().split("e");
    const negative = mantissa.startsWith("-");
    const body = negative ? mantissa.slice(1) : mantissa;
    const [whole = "", fraction = ""] = body.split(".");
    const exponent = Number(exp);
    if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 10_000) {
      throw new RangeError("decimal exponent out of range");
    }
    let units = BigInt(whole + fraction);
    let scale = fraction.length - exponent;
    if (scale < 0) {
      units *= 10n ** BigInt(-scale);
      scale = 0;
    }
    return new Decimal(negative ? -units : units, scale);
  }

  /** The decimal of an integer number (never a fraction: money is not a float). */
  static fromInteger(n: number | bigint): Decimal {
    if (typeof n === "number" && !Number.isSafeInteger(n)) {
      throw new RangeError("Decimal.fromInteger takes a safe integer");
    }
    return new Decimal(BigInt(n), 0);
  }

  private aligned(other: Decimal): [bigint, bigint, number] {
    const scale = Math.max(this.scale, other.scale);
    return [
      this.units * 10n ** BigInt(scale - this.scale),
      other.units * 10n ** BigInt(scale - other.scale),
      scale,
    ];
  }

  /** Negative, zero or positive as this is less than, equal to or greater than `other`. */
  compare(other: Decimal | string): number {
    const [a, b] = this.aligned(typeof other === "string" ? Decimal.parse(other) : other);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  equals(other: Decimal | string): boolean {
    return this.compare(other) === 0;
  }

  plus(other: Decimal | string): Decimal {
    const [a, b, scale] = this.aligned(typeof other === "string" ? Decimal.parse(other) : other);
    return new Decimal(a + b, scale);
  }

  minus(other: Decimal | string): Decimal {
    const [a, b, scale] = this.aligned(typeof other === "string" ? Decimal.parse(other) : other);
    return new Decimal(a - b, scale);
  }

  isZero(): boolean {
    return this.units === 0n;
  }

  isNegative(): boolean {
    return this.units < 0n;
  }

  /** True when it has no fractional part (`100.00` is whole). */
  isWhole(): boolean {
    return this.scale === 0 || this.units % 10n ** BigInt(this.scale) === 0n;
  }

  /** The same value with `places` digits after the point (only ever adds zeros). */
  withScale(places: number): Decimal {
    if (places < this.scale) {
      throw new RangeError(`cannot drop digits: ${this.toString()} has ${this.scale} places`);
    }
    return new Decimal(this.units * 10n ** BigInt(places - this.scale), places);
  }

  /** The text to send, keeping the scale: `100.50`. */
  toString(): Amount {
    const negative = this.units < 0n;
    const digits = (negative ? -this.units : this.units).toString().padStart(this.scale + 1, "0");
    const text =
      this.scale === 0
        ? digits
        : `${digits.slice(0, digits.length - this.scale)}.${digits.slice(digits.length - this.scale)}`;
    return negative ? `-${text}` : text;
  }

  toJSON(): string {
    return this.toString();
  }
}
