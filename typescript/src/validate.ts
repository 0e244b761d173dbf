/**
 * Validation of requests before anything is signed or sent: one method per rule kind of the
 * spec, named as the other runtimes of this SDK family name them (`max_chars`, `range_int`,
 * ...). Every violation of one request is collected and reported together, each naming its
 * field path (`oderArray[2].amount`) and rule.
 */

import { Decimal, isDecimalText } from "./decimal.js";
import { InvalidRequest } from "./errors.js";

/** The rule a violation breaks (`type`: a value of another type than the field's). */
export type RuleKind =
  | "max_chars"
  | "min_chars"
  | "alphanumeric"
  | "base64"
  | "base64_max_bytes"
  | "range"
  | "positive"
  | "whole"
  | "decimal_places"
  | "max_items"
  | "min_items"
  | "one_of"
  | "required"
  | "required_if"
  | "at_least_one_of"
  | "exactly_one_of"
  | "type";

/** One violated rule: the field's path (for rules across fields, paths joined with `|`). */
export interface Violation {
  readonly field: string;
  readonly rule: RuleKind;
  readonly message: string;
}

/** Where a value sits in a request. */
export class FieldPath {
  static readonly ROOT = new FieldPath(undefined, "");
  private constructor(
    private readonly parent: FieldPath | undefined,
    private readonly segment: string,
  ) {}
  field(name: string): FieldPath {
    return new FieldPath(this, this.parent === undefined ? name : `.${name}`);
  }
  index(i: number): FieldPath {
    return new FieldPath(this, `[${i}]`);
  }
  toString(): string {
    const parts: string[] = [];
    for (let node: FieldPath | undefined = this; node !== undefined; node = node.parent) {
      parts.push(node.segment);
    }
    return parts.reverse().join("");
  }
}

function chars(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** Collects violations; {@link Validator.finish} throws them all as {@link InvalidRequest}. */
export class Validator {
  readonly violations: Violation[] = [];

  push(at: FieldPath | string, rule: RuleKind, message: string): void {
    this.violations.push({ field: at.toString(), rule, message });
  }

  max_chars(at: FieldPath, value: string, max: number): void {
    const n = chars(value);
    if (n > max) this.push(at, "max_chars", `has ${n} characters, at most ${max} allowed`);
  }

  min_chars(at: FieldPath, value: string, min: number): void {
    const n = chars(value);
    if (n < min) this.push(at, "min_chars", `has ${n} characters, at least ${min} required`);
  }

  alphanumeric(at: FieldPath, value: string): void {
    const bad = /[^A-Za-z0-9]/u.exec(value);
    if (bad !== null) {
      this.push(at, "alphanumeric", `must contain only ASCII letters and digits, found ${JSON.stringify(bad[0])}`);
    }
  }

  base64_max_bytes(at: FieldPath, value: string, max: number): void {
    const why = base64Problem(value);
    if (why !== undefined) {
      this.push(at, "base64", `is not valid Base64: ${why}`);
      return;
    }
    const padding = value.endsWith("==") ? 2 : value.endsWith("=") ? 1 : 0;
    const n = (value.length / 4) * 3 - padding;
    if (n > max) this.push(at, "base64_max_bytes", `decodes to ${n} bytes, at most ${max} allowed`);
  }

  /** A document of at most `max` bytes: its own size (the Base64 text sent is a third larger). */
  max_bytes(at: FieldPath, size: number, max: number): void {
    if (size > max) this.push(at, "base64_max_bytes", `is ${size} bytes, at most ${max} allowed`);
  }

  range_int(at: FieldPath, value: number, min: number | null, max: number | null): void {
    if (min !== null && value < min) this.push(at, "range", `is ${value}, must be at least ${min}`);
    else if (max !== null && value > max) this.push(at, "range", `is ${value}, must be at most ${max}`);
  }

  positive_int(at: FieldPath, value: number): void {
    if (value <= 0) this.push(at, "positive", `is ${value}, must be greater than 0`);
  }

  range_amount(at: FieldPath, value: Decimal, min: string | null, max: string | null): void {
    if (min !== null && value.compare(min) < 0) this.push(at, "range", `is ${value}, must be at least ${min}`);
    else if (max !== null && value.compare(max) > 0) this.push(at, "range", `is ${value}, must be at most ${max}`);
  }

  positive_amount(at: FieldPath, value: Decimal): void {
    if (value.compare("0") <= 0) this.push(at, "positive", `is ${value}, must be greater than 0`);
  }

  whole(at: FieldPath, value: Decimal): void {
    if (!value.isWhole()) this.push(at, "whole", `is ${value}, must be a whole number`);
  }

  decimal_places(at: FieldPath, value: Decimal, places: number): void {
    if (value.scale > places) {
      this.push(at, "decimal_places", `is ${value}, at most ${places} decimal places allowed`);
    }
  }

  max_items(at: FieldPath, length: number, max: number): void {
    if (length > max) this.push(at, "max_items", `has ${length} items, at most ${max} allowed`);
  }

  min_items(at: FieldPath, length: number, min: number): void {
    if (length < min) this.push(at, "min_items", `has ${length} items, at least ${min} required`);
  }

  /** One of the `allowed` wire values (a value set's field that takes fewer of its values in this request). */
  one_of(at: FieldPath, value: string, allowed: readonly string[]): void {
    if (!allowed.includes(value)) this.push(at, "one_of", `is \`${value}\`, must be one of ${allowed.join(", ")}`);
  }

  required(at: FieldPath, present: boolean): void {
    if (!present) this.push(at, "required", "is required");
  }

  required_if(at: FieldPath, present: boolean, conditionHolds: boolean, condition: string): void {
    if (conditionHolds && !present) this.push(at, "required_if", `is required when ${condition}`);
  }

  at_least_one_of(parent: FieldPath, fields: readonly (readonly [string, boolean])[]): void {
    if (!fields.some(([, present]) => present)) {
      const paths = fields.map(([name]) => parent.field(name).toString());
      this.push(paths.join("|"), "at_least_one_of", `at least one of ${paths.join(", ")} is required`);
    }
  }

  exactly_one_of(parent: FieldPath, fields: readonly (readonly [string, boolean])[]): void {
    const n = fields.filter(([, present]) => present).length;
    if (n !== 1) {
      const paths = fields.map(([name]) => parent.field(name).toString());
      this.push(paths.join("|"), "exactly_one_of", `exactly one of ${paths.join(", ")} is required, ${n} given`);
    }
  }

  /** A decimal text as a {@link Decimal}, or a `type` violation. */
  decimal(at: FieldPath, value: unknown): Decimal | undefined {
    if (typeof value === "string" && isDecimalText(value)) return Decimal.parse(value);
    const what =
      typeof value === "number"
        ? "a number: money is exact, pass its text (\"100.50\")"
        : typeof value === "string"
          ? JSON.stringify(value.slice(0, 32))
          : typeof value;
    this.push(at, "type", `must be a decimal text such as "100.50", not ${what}`);
    return undefined;
  }

  /** Throws {@link InvalidRequest} with every violation, if any. */
  finish(): void {
    if (this.violations.length > 0) throw new InvalidRequest(this.violations);
  }
}

function base64Problem(value: string): string | undefined {
  if (Buffer.byteLength(value, "utf8") % 4 !== 0) return "length is not a multiple of 4";
  const stripped = value.replace(/=+$/u, "");
  if (value.length - stripped.length > 2) return "more than two `=` at the end";
  if (!/^[A-Za-z0-9+/]*$/u.test(stripped)) return "a character outside A-Z a-z 0-9 + / (or `=` before the end)";
  return undefined;
}
