/**
 * What generated code describes and this runtime does: the shape of every request and answer
 * as data (field wire names, types, rules), from which requests are validated and written and
 * answers read. Generated types say the same at compile time; these descriptors hold at run
 * time too (a caller without TypeScript, or one that casts).
 */

import { isIsoDate } from "./date.js";
import { isDecimalText } from "./decimal.js";
import { documentOfText, documentText } from "./document.js";
import { JsonNumber, type JsonObject, type JsonValue } from "./canonical.js";
import { FieldPath, Validator } from "./validate.js";

/** The type of one value. */
export type Ty =
  | { readonly k: "string" }
  | { readonly k: "int" }
  | { readonly k: "long" }
  | { readonly k: "decimal"; readonly wire: "string" | "number" }
  | { readonly k: "bool" }
  /** A day of the calendar, `YYYY-MM-DD` (an {@link import("./date.js").IsoDate}). */
  | { readonly k: "date" }
  /** A document's bytes (a `Uint8Array`), sent as standard Base64 with padding. */
  | { readonly k: "document" }
  /** Received only: a string, number or boolean whose JSON type is not shown, as its text. */
  | { readonly k: "scalar" }
  | { readonly k: "json" }
  | {
      readonly k: "enum";
      readonly name: string;
      readonly wire: "string" | "integer";
      readonly values: readonly (string | number)[];
      /** An open set: a request may carry a value it does not list (any string). */
      readonly open?: true;
    }
  | { readonly k: "record"; readonly record: () => RecordShape }
  | { readonly k: "array"; readonly item: Ty };

/** A rule check of one value: a {@link Validator} method and its arguments. */
export type RuleCheck =
  | readonly ["max_chars", number]
  | readonly ["min_chars", number]
  | readonly ["alphanumeric"]
  | readonly ["base64_max_bytes", number]
  | readonly ["max_bytes", number]
  | readonly ["range_int", number | null, number | null]
  | readonly ["positive_int"]
  | readonly ["range_amount", string | null, string | null]
  | readonly ["positive_amount"]
  | readonly ["whole"]
  | readonly ["decimal_places", number]
  | readonly ["one_of", readonly string[]];

/** A rule check of an array as a whole. */
export type ArrayCheck = readonly ["max_items", number] | readonly ["min_items", number];

export interface FieldShape {
  readonly wire: string;
  readonly ty: Ty;
  /** Required in the sent shape. */
  readonly required: boolean;
  /** Checks of the value (of each element, for an array). */
  readonly checks?: readonly RuleCheck[];
  readonly arrayChecks?: readonly ArrayCheck[];
}

/**
 * A parameter named by a constraint: its wire name and whether its type has an empty value (a
 * string's `""`, a document of no bytes), so that present means set and non-empty.
 */
export type ParamRef = readonly [wire: string, nonEmpty: boolean];

export type Condition =
  | { readonly k: "equals"; readonly field: string; readonly value: string }
  | { readonly k: "sum_greater_than"; readonly array: string; readonly item: string; readonly value: string };

export type Constraint =
  | { readonly k: "required_if"; readonly field: ParamRef; readonly when: Condition; readonly words: string }
  | { readonly k: "at_least_one_of"; readonly fields: readonly ParamRef[] }
  | { readonly k: "exactly_one_of"; readonly fields: readonly ParamRef[] };

export interface RecordShape {
  readonly name: string;
  readonly fields: readonly FieldShape[];
  readonly constraints?: readonly Constraint[];
}

// ---- validating --------------------------------------------------------------------------

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

/** An empty string, or a document (a `Uint8Array`) of no bytes: as missing as an absent value where one is needed. */
function isEmpty(value: unknown): boolean {
  return value === "" || (value instanceof Uint8Array && value.byteLength === 0);
}

/**
 * Whether `value` is the empty value of a field of kind `k`, for the kinds that have one (the
 * codegen plan's `Emptiness`, from `TypeRef::emptiness`; a codegen test keeps these cases
 * equal to it): a string's `""`, a document of no bytes. A required field may not hold it.
 */
function emptyOf(k: Ty["k"], value: unknown): boolean {
  switch (k) {
    case "string":
      return value === "";
    case "document":
      return value instanceof Uint8Array && value.byteLength === 0;
    default:
      return false;
  }
}

function present(record: Readonly<Record<string, unknown>>, [wire, nonEmpty]: ParamRef): boolean {
  const value = record[wire];
  return value !== undefined && value !== null && !(nonEmpty && isEmpty(value));
}

function wireText(value: unknown): string | undefined {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

function holds(record: Readonly<Record<string, unknown>>, when: Condition): boolean {
  if (when.k === "equals") return wireText(record[when.field]) === when.value;
  const items = record[when.array];
  if (!Array.isArray(items)) return false;
  let sum = 0n;
  let scale = 0;
  // Exact sum: every addend brought to the largest scale seen.
  const parts: [bigint, number][] = [];
  for (const item of items as unknown[]) {
    const text = isObject(item) ? item[when.item] : undefined;
    if (typeof text === "string" && isDecimalText(text)) {
      const [whole = "", fraction = ""] = text.replace("-", "").split(".");
      const units = BigInt(whole + fraction) * (text.startsWith("-") ? -1n : 1n);
      parts.push([units, fraction.length]);
      scale = Math.max(scale, fraction.length);
    }
  }
  for (const [units, s] of parts) sum += units * 10n ** BigInt(scale - s);
  const [w = "", f = ""] = when.value.replace("-", "").split(".");
  let limit = BigInt(w + f) * (when.value.startsWith("-") ? -1n : 1n);
  let target = sum;
  if (f.length > scale) target *= 10n ** BigInt(f.length - scale);
  else limit *= 10n ** BigInt(scale - f.length);
  return target > limit;
}

/** Records every violated rule of `value` (a record of `shape`) at `at`. */
export function validateRecord(v: Validator, shape: RecordShape, value: unknown, at: FieldPath): void {
  if (!isObject(value)) {
    v.push(at.toString() === "" ? "params" : at, "type", `must be an object (${shape.name}), not ${typeName(value)}`);
    return;
  }
  const known = new Set<string>();
  for (const field of shape.fields) {
    known.add(field.wire);
    const p = at.field(field.wire);
    const item = value[field.wire];
    if (item === undefined || item === null) {
      if (field.required) v.required(p, false);
      continue;
    }
    // An empty required text or document is `required`, then its rules run as for any
    // value (as the other runtimes order them).
    if (field.required && emptyOf(field.ty.k, item)) v.required(p, false);
    validateValue(v, field, field.ty, item, p);
  }
  for (const name of Object.keys(value)) {
    if (!known.has(name)) v.push(at.field(name), "type", `is not a field of ${shape.name}`);
  }
  for (const c of shape.constraints ?? []) {
    switch (c.k) {
      case "required_if":
        v.required_if(at.field(c.field[0]), present(value, c.field), holds(value, c.when), c.words);
        break;
      case "at_least_one_of":
        v.at_least_one_of(at, c.fields.map((f) => [f[0], present(value, f)] as const));
        break;
      case "exactly_one_of":
        v.exactly_one_of(at, c.fields.map((f) => [f[0], present(value, f)] as const));
        break;
    }
  }
}

function validateValue(v: Validator, field: FieldShape, ty: Ty, value: unknown, at: FieldPath): void {
  switch (ty.k) {
    case "string":
    case "scalar":
      if (typeof value !== "string") return v.push(at, "type", `must be a string, not ${typeName(value)}`);
      return checks(v, field, at, { text: value });
    case "int":
    case "long": {
      const bits = ty.k === "int" ? 32 : 64;
      if (typeof value !== "number" || !Number.isSafeInteger(value)) {
        return v.push(at, "type", `must be an integer, not ${typeof value === "number" ? value : typeName(value)}`);
      }
      if (bits === 32 && (value < -(2 ** 31) || value >= 2 ** 31)) {
        return v.push(at, "type", `is ${value}, outside the 32-bit integers the wire takes`);
      }
      return checks(v, field, at, { integer: value });
    }
    case "decimal": {
      const d = v.decimal(at, value);
      if (d !== undefined) checks(v, field, at, { amount: d });
      return;
    }
    case "bool":
      if (typeof value !== "boolean") v.push(at, "type", `must be a boolean, not ${typeName(value)}`);
      return;
    case "date":
      if (!isIsoDate(value)) v.push(at, "type", `must be a date YYYY-MM-DD of the calendar (isoDate(...)), not ${JSON.stringify(value) ?? typeName(value)}`);
      return;
    case "document":
      if (!(value instanceof Uint8Array)) {
        const hint = typeof value === "string" ? ": give its bytes, e.g. await Document.fromPath(path)" : "";
        return v.push(at, "type", `must be a Uint8Array, not ${typeName(value)}${hint}`);
      }
      return checks(v, field, at, { size: value.byteLength });
    case "json":
      return;
    case "enum":
      if (ty.open === true && ty.wire === "string") {
        if (typeof value !== "string") return v.push(at, "type", `must be a ${ty.name} (a string), not ${typeName(value)}`);
        return checks(v, field, at, { text: value });
      }
      if (!ty.values.includes(value as string | number)) {
        return v.push(at, "type", `must be a ${ty.name} (${ty.values.map((x) => JSON.stringify(x)).join(", ")}), not ${JSON.stringify(value)}`);
      }
      if (typeof value === "string") checks(v, field, at, { text: value });
      return;
    case "record":
      return validateRecord(v, ty.record(), value, at);
    case "array": {
      if (!Array.isArray(value)) return v.push(at, "type", `must be an array, not ${typeName(value)}`);
      for (const c of field.arrayChecks ?? []) v[c[0]](at, value.length, c[1]);
      value.forEach((element: unknown, i) => {
        const q = at.index(i);
        if (element === undefined || element === null) v.push(q, "type", "must not be null");
        else validateValue(v, field, ty.item, element, q);
      });
      return;
    }
  }
}

type Checked = { text: string } | { integer: number } | { amount: import("./decimal.js").Decimal } | { size: number };

/** The value as text: a rule check of text reached a value of another type (a descriptor not generated for this runtime). */
function text(c: RuleCheck, value: Checked): string {
  if ("text" in value) return value.text;
  throw new TypeError(`the rule check ${c[0]} applies to text, and the descriptor gives it another value`);
}

function size(c: RuleCheck, value: Checked): number {
  if ("size" in value) return value.size;
  throw new TypeError(`the rule check ${c[0]} applies to documents, and the descriptor gives it another value`);
}

function integer(c: RuleCheck, value: Checked): number {
  if ("integer" in value) return value.integer;
  throw new TypeError(`the rule check ${c[0]} applies to integers, and the descriptor gives it another value`);
}

function amount(c: RuleCheck, value: Checked): import("./decimal.js").Decimal {
  if ("amount" in value) return value.amount;
  throw new TypeError(`the rule check ${c[0]} applies to decimals, and the descriptor gives it another value`);
}

/**
 * Runs each rule check of `field` on `value`. The switch is exhaustive: a rule kind added to
 * {@link RuleCheck} without a case here does not compile (the `never` below).
 */
function checks(v: Validator, field: FieldShape, at: FieldPath, value: Checked): void {
  for (const c of field.checks ?? []) {
    switch (c[0]) {
      case "max_chars":
      case "min_chars":
      case "base64_max_bytes":
        v[c[0]](at, text(c, value), c[1]);
        break;
      case "max_bytes":
        v.max_bytes(at, size(c, value), c[1]);
        break;
      case "alphanumeric":
        v.alphanumeric(at, text(c, value));
        break;
      case "range_int":
        v.range_int(at, integer(c, value), c[1], c[2]);
        break;
      case "positive_int":
        v.positive_int(at, integer(c, value));
        break;
      case "range_amount":
        v.range_amount(at, amount(c, value), c[1], c[2]);
        break;
      case "positive_amount":
        v.positive_amount(at, amount(c, value));
        break;
      case "whole":
        v.whole(at, amount(c, value));
        break;
      case "decimal_places":
        v.decimal_places(at, amount(c, value), c[1]);
        break;
      case "one_of":
        v.one_of(at, text(c, value), c[1]);
        break;
      default: {
        const unknown: never = c;
        throw new TypeError(`no validator for the rule check ${JSON.stringify(unknown)}`);
      }
    }
  }
}

// ---- writing -------------------------------------------------------------------------------

/** A value that cannot be written (the validator refuses it first; a caller that skipped it). */
export class WriteError extends Error {
  override readonly name = "WriteError";
}

/** Compact JSON of the params object of `shape`, fields in the spec's order. */
export function writeRecord(shape: RecordShape, value: unknown, at = ""): string {
  if (!isObject(value)) throw new WriteError(`\`${at || "params"}\` is not an object`);
  const parts: string[] = [];
  for (const field of shape.fields) {
    const item = value[field.wire];
    if (item === undefined) continue;
    const path = at ? `${at}.${field.wire}` : field.wire;
    if (item === null) throw new WriteError(`\`${path}\` is null; a null is never sent (leave the field out)`);
    parts.push(`${JSON.stringify(field.wire)}:${writeValue(field.ty, item, path)}`);
  }
  return `{${parts.join(",")}}`;
}

function writeValue(ty: Ty, value: unknown, at: string): string {
  switch (ty.k) {
    case "decimal":
      if (typeof value !== "string" || !isDecimalText(value)) throw new WriteError(`\`${at}\` is not a decimal text`);
      return ty.wire === "number" ? value : JSON.stringify(value);
    case "document":
      if (!(value instanceof Uint8Array)) throw new WriteError(`\`${at}\` is not a Uint8Array`);
      return JSON.stringify(documentText(value));
    case "record":
      return writeRecord(ty.record(), value, at);
    case "array":
      if (!Array.isArray(value)) throw new WriteError(`\`${at}\` is not an array`);
      return `[${value.map((item: unknown, i) => writeValue(ty.item, item, `${at}[${i}]`)).join(",")}]`;
    default:
      return writeJson(value, at);
  }
}

/** Compact JSON of any value to send: numbers must be safe integers (or {@link JsonNumber}s). */
export function writeJson(value: unknown, at = ""): string {
  if (value instanceof JsonNumber) return value.text;
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) {
      throw new WriteError(`\`${at}\` is ${value}; numbers are sent exactly (pass a decimal text or a JsonNumber)`);
    }
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map((v: unknown, i) => writeJson(v, `${at}[${i}]`)).join(",")}]`;
  if (isObject(value)) {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      parts.push(`${JSON.stringify(k)}:${writeJson(v, at ? `${at}.${k}` : k)}`);
    }
    return `{${parts.join(",")}}`;
  }
  if (value === null) throw new WriteError(`\`${at}\` is null; a null is never sent (leave the field out)`);
  throw new WriteError(`\`${at}\` cannot be sent as JSON (${typeof value})`);
}

// ---- reading -------------------------------------------------------------------------------

/** A received value of another shape than the spec's, at `path`. */
export class ShapeError extends Error {
  override readonly name = "ShapeError";
  constructor(
    readonly path: string,
    expected: string,
    value: JsonValue,
  ) {
    super(`\`${path}\`: expected ${expected}, found ${shown(value)}`);
  }
}

function shown(value: JsonValue): string {
  if (value instanceof JsonNumber) return value.text.slice(0, 64);
  return (JSON.stringify(value) ?? "undefined").slice(0, 64);
}

const INTEGER = /^-?[0-9]+$/;

/** Reads a received record leniently: unknown members ignored, `null` members absent. */
export function readRecord(shape: RecordShape, value: JsonValue, at: string): JsonObject {
  if (value === null) return Object.create(null) as JsonObject;
  if (typeof value !== "object" || Array.isArray(value) || value instanceof JsonNumber) {
    throw new ShapeError(at || "data", "an object", value);
  }
  const out: Record<string, unknown> = {};
  for (const field of shape.fields) {
    const item = value[field.wire];
    if (item === undefined || item === null) continue;
    out[field.wire] = readValue(field.ty, item, at ? `${at}.${field.wire}` : field.wire);
  }
  return out as JsonObject;
}

function readInteger(value: JsonValue, at: string, bits: number): number {
  const text = value instanceof JsonNumber ? value.text : typeof value === "string" ? value : undefined;
  if (text !== undefined && INTEGER.test(text)) {
    const n = Number(text);
    const limit = bits === 32 ? 2 ** 31 : Number.MAX_SAFE_INTEGER;
    if (Number.isSafeInteger(n) && n >= -limit && n <= limit - (bits === 32 ? 1 : 0)) return n;
  }
  throw new ShapeError(at, bits === 32 ? "a 32-bit integer" : "an integer (a safe JavaScript integer)", value);
}

/** Reads one received value of type `ty` (never `null`: the caller skips absent values). */
export function readValue(ty: Ty, value: JsonValue, at: string): unknown {
  switch (ty.k) {
    case "string":
      if (typeof value === "string") return value;
      if (value instanceof JsonNumber && INTEGER.test(value.text)) return value.text;
      if (typeof value === "boolean") return value ? "true" : "false";
      throw new ShapeError(at, "a string", value);
    case "int":
      return readInteger(value, at, 32);
    case "long":
      return readInteger(value, at, 64);
    case "decimal": {
      const text = value instanceof JsonNumber ? value.text : typeof value === "string" ? value : undefined;
      if (text !== undefined && /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/u.test(text)) return text;
      throw new ShapeError(at, "a decimal number", value);
    }
    case "bool":
      if (typeof value === "boolean") return value;
      throw new ShapeError(at, "a boolean", value);
    case "date":
      if (isIsoDate(value)) return value;
      throw new ShapeError(at, "a date YYYY-MM-DD", value);
    case "document":
      if (typeof value === "string") return documentOfText(value);
      throw new ShapeError(at, "a document as Base64 text", value);
    case "scalar":
      if (typeof value === "string") return value;
      if (value instanceof JsonNumber) return value.text;
      if (typeof value === "boolean") return value ? "true" : "false";
      throw new ShapeError(at, "a string, number or boolean", value);
    case "json":
      return value;
    case "enum": {
      if (ty.wire === "integer") return readInteger(value, at, 64);
      if (typeof value === "string") return value;
      if (value instanceof JsonNumber && INTEGER.test(value.text)) return value.text;
      throw new ShapeError(at, `a ${ty.name} value`, value);
    }
    case "record":
      return readRecord(ty.record(), value, at);
    case "array":
      if (!Array.isArray(value)) throw new ShapeError(at, "an array", value);
      return value.map((item, i) => {
        if (item === null) throw new ShapeError(`${at}[${i}]`, "a value", item);
        return readValue(ty.item, item, `${at}[${i}]`);
      });
  }
}
