/**
 * The canonical string of the signing algorithm, computed from JSON *bytes*.
 *
 * A message is flattened to `path=value` pairs: object keys joined with `.`, array elements as
 * `path[i]`, an empty object as `path={}`, an empty array as `path=[]`, nulls skipped, the
 * top-level `signature` left out. The pair `senderKey=<key>` is added, the pairs are sorted by
 * their UTF-8 bytes, joined with `&` and hashed with SHA-256 (lowercase hex).
 *
 * The body is read by a parser of its own (`JSON.parse` cannot give a number's literal text):
 * strings are unescaped, numbers keep their literal text (`100.50` stays `100.50`). It refuses,
 * in time linear in the body and with the limits of the other runtimes of this SDK family:
 * bodies that are not UTF-8, not JSON or not an object; duplicate keys; nesting deeper than
 * {@link MAX_DEPTH}; pairs longer than {@link MAX_EXPANSION} times the bytes read so far plus
 * {@link EXPANSION_ALLOWANCE}; and, read `unambiguous` (to sign or verify), a body whose
 * canonical string could stand for another body: the re-cut rules R1-R4 of {@link Ambiguity}.
 */

import { createHash } from "node:crypto";
import { PrivateKey, REDACTED } from "./secret.js";

/** Deepest nesting of objects and arrays accepted (the top-level object is depth 1). */
export const MAX_DEPTH = 64;
/** The pairs may be at most this many times as long as the bytes read so far ... */
export const MAX_EXPANSION = 32;
/** ... plus this many bytes (small bodies nested deep). */
export const EXPANSION_ALLOWANCE = 64 * 1024;
/** Longest body read. */
export const MAX_BODY = 2 ** 29 - 1;
/** The name of the pair that carries the key. */
export const SENDER_KEY = "senderKey";

/** A JSON number kept as the literal text it had in the bytes (`100.50`). */
export class JsonNumber {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
  toJSON(): string {
    return this.text;
  }
}

/** A parsed JSON value: objects have no prototype and keep document order. */
export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** The re-cut rule a body breaks. */
export const Ambiguity = {
  /** R1: an object key (any depth) is empty or holds `&`, `=`, `.`, `[` or `]`. */
  Key: "R1",
  /** R2: a `null` array element; for a signer, any `null`. */
  Null: "R2",
  /** R3: a string value holds `&` then text that reads as a pair (`path=`). */
  ValueReadsAsPair: "R3",
  /** R4: a top-level `senderKey` member (the signer adds that pair itself). */
  SenderKey: "R4",
} as const;
export type Ambiguity = (typeof Ambiguity)[keyof typeof Ambiguity];

const AMBIGUITY_WORDS: Record<Ambiguity, string> = {
  R1:
    "an object key is empty or contains `&`, `=`, `.`, `[` or `]`, so the signed text could be " +
    "read as other keys or array elements",
  R2:
    "a `null` is left out of the signed text, so it could be added or removed without changing " +
    "the signature; leave the member out instead",
  R3:
    "a text value contains `&` followed by something that reads as `name=`, so the signed text " +
    "could be read as members that were never sent",
  R4:
    "a top-level `senderKey` member is refused: the signer adds the `senderKey` pair (the " +
    "private key) itself, and the two would be confused",
};

export type CanonicalErrorKind =
  | "invalid_utf8"
  | "syntax"
  | "not_an_object"
  | "duplicate_key"
  | "too_deep"
  | "too_large"
  | "signature_not_string"
  | "already_signed"
  | "ambiguous";

/** Why a body has no canonical string, or is refused by a re-cut rule. */
export class CanonicalError extends Error {
  override readonly name = "CanonicalError";
  constructor(
    readonly kind: CanonicalErrorKind,
    message: string,
    readonly offset?: number,
    readonly path?: string,
    readonly rule?: Ambiguity,
  ) {
    super(message);
  }

  static ambiguous(rule: Ambiguity, path: string): CanonicalError {
    return new CanonicalError(
      "ambiguous",
      `refused by rule ${rule} at \`${path}\`: ${AMBIGUITY_WORDS[rule]}`,
      undefined,
      path,
      rule,
    );
  }
}

/**
 * Rule R3: `value` holds `&`, then a key (characters other than `& = . [ ]`), any number of
 * `.key` or `[digits]`, then `=`. A linear scan: each `&` starts a candidate that ends at the
 * next `&` at the latest.
 */
export function readsAsPair(value: string): boolean {
  let at = value.indexOf("&");
  while (at !== -1) {
    if (candidateAt(value, at + 1)) {
      return true;
    }
    at = value.indexOf("&", at + 1);
  }
  return false;
}

function isSpecial(c: string): boolean {
  return c === "&" || c === "=" || c === "." || c === "[" || c === "]";
}

function candidateAt(s: string, start: number): boolean {
  let i = start;
  const key = (): boolean => {
    const from = i;
    while (i < s.length && !isSpecial(s[i] as string)) i++;
    return i > from;
  };
  if (!key()) return false;
  for (;;) {
    const c = s[i];
    if (c === "=") return true;
    if (c === ".") {
      i++;
      if (!key()) return false;
    } else if (c === "[") {
      i++;
      const from = i;
      while (i < s.length && (s[i] as string) >= "0" && (s[i] as string) <= "9") i++;
      if (i === from || s[i] !== "]") return false;
      i++;
    } else {
      return false;
    }
  }
}

function badKey(key: string): boolean {
  if (key.length === 0) return true;
  for (const c of key) if (isSpecial(c)) return true;
  return false;
}

/** The pairs of one JSON object body and what a signer or a verifier needs of it. */
export interface Flattened {
  /** The parsed body. */
  readonly value: JsonObject;
  /** The `path=value` pairs in document order (the top-level `signature` left out). */
  readonly pairs: readonly string[];
  /** The top-level `signature` when it is a string. */
  readonly signature: string | undefined;
  /** True when the body has a top-level `signature` member (even `null`). */
  readonly hasSignatureKey: boolean;
  /** True when the body has a top-level `senderKey` (only read without `unambiguous`). */
  readonly hasSenderKeyPair: boolean;
  /** The path of the first `null` (skipped in the canonical string), if any. */
  readonly firstNullPath: string | undefined;
}

/** Compares two texts by code point (the order of their UTF-8 bytes). */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      return orderOf(x) - orderOf(y);
    }
  }
  return a.length - b.length;
}

// UTF-16 puts surrogates (D800-DFFF) below E000-FFFF; code points put them above.
function orderOf(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

function sortedPairs(flat: Flattened, keyPair: string): string[] {
  return [...flat.pairs, keyPair].sort(compareUtf8);
}

/** The canonical string with the key itself in the `senderKey` pair (to hash; never to print). */
export function canonicalStringExposingKey(flat: Flattened, key: PrivateKey): string {
  return sortedPairs(flat, `${SENDER_KEY}=${key.expose()}`).join("&");
}

/** The canonical string with the key shown as `[redacted]` wherever it appears. */
export function canonicalStringRedacted(flat: Flattened, key: PrivateKey): string {
  const secret = key.expose();
  return sortedPairs(flat, `${SENDER_KEY}=${secret}`)
    .map((pair) => {
      const name = pair.slice(0, pair.indexOf("="));
      return name === SENDER_KEY ? `${SENDER_KEY}=${REDACTED}` : key.redact(pair);
    })
    .join("&");
}

/** The lowercase hex SHA-256 signature of a flattened body for `key`. */
export function signatureHex(flat: Flattened, key: PrivateKey): string {
  return createHash("sha256").update(canonicalStringExposingKey(flat, key), "utf8").digest("hex");
}

export interface ParseOptions {
  /** Apply the re-cut rules (to sign or verify); default true. */
  readonly unambiguous?: boolean;
  /** Accept a `null` object member (read as absent); default true (received bodies). */
  readonly nullMembers?: boolean;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Reads a JSON object body (see the module's doc). */
export function parse(body: Uint8Array, options: ParseOptions = {}): Flattened {
  if (!(body instanceof Uint8Array)) {
    throw new TypeError("the body must be bytes (a Uint8Array)");
  }
  if (body.length > MAX_BODY) {
    throw new CanonicalError("too_large", `the body is longer than ${MAX_BODY} bytes`, MAX_BODY);
  }
  try {
    decoder.decode(body);
  } catch {
    throw new CanonicalError("invalid_utf8", "body is not valid UTF-8", firstInvalidUtf8(body));
  }
  const parser = new Parser(body, options.unambiguous ?? true, options.nullMembers ?? true);
  const value = parser.top();
  return {
    value,
    pairs: parser.pairs,
    signature: parser.signature,
    hasSignatureKey: parser.hasSignatureKey,
    hasSenderKeyPair: parser.hasSenderKeyPair,
    firstNullPath: parser.firstNull,
  };
}

/** {@link parse} for a signer: the re-cut rules, and a `null` anywhere refused (R2). */
export function parseForSigning(body: Uint8Array): Flattened {
  const flat = parse(body, { nullMembers: true });
  if (flat.firstNullPath !== undefined) {
    throw CanonicalError.ambiguous(Ambiguity.Null, flat.firstNullPath);
  }
  return flat;
}

function firstInvalidUtf8(body: Uint8Array): number {
  let lo = 0;
  let hi = body.length;
  // The longest valid prefix, found by halving (each probe is linear; log n probes).
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(body.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

class Parser {
  pos = 0;
  readonly pairs: string[] = [];
  pairBytes = 0;
  signature: string | undefined = undefined;
  hasSignatureKey = false;
  hasSenderKeyPair = false;
  firstNull: string | undefined = undefined;
  private readonly buf: Buffer;

  constructor(
    body: Uint8Array,
    private unambiguous: boolean,
    private readonly nullMembers: boolean,
  ) {
    this.buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  }

  syntax(expected: string): CanonicalError {
    return new CanonicalError(
      "syntax",
      `invalid JSON at byte ${this.pos}: expected ${expected}`,
      this.pos,
    );
  }

  ws(): void {
    const b = this.buf;
    while (this.pos < b.length) {
      const c = b[this.pos];
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.pos++;
      else break;
    }
  }

  peek(): number {
    return this.pos < this.buf.length ? (this.buf[this.pos] as number) : -1;
  }

  withinBudget(): void {
    if (this.pairBytes > this.pos * MAX_EXPANSION + EXPANSION_ALLOWANCE) {
      throw new CanonicalError(
        "too_large",
        `the flattened pairs are more than ${MAX_EXPANSION} times as long as the body at byte ` +
          `${this.pos} (each value repeats its whole path: long keys above many values)`,
        this.pos,
      );
    }
  }

  pair(path: string, pathLen: number, text: string, textLen: number): void {
    this.pairBytes += pathLen + 1 + textLen;
    this.pairs.push(`${path}=${text}`);
  }

  /** The string at `pos` (unescaped) and its length in UTF-8 bytes. */
  string(): [string, number] {
    const b = this.buf;
    const start = this.pos;
    let i = start + 1;
    let escaped = false;
    for (;;) {
      if (i >= b.length) {
        throw this.syntax("a valid JSON string");
      }
      const c = b[i] as number;
      if (c === QUOTE) break;
      if (c < 0x20) {
        this.pos = i;
        throw this.syntax("a valid JSON string (no control character)");
      }
      if (c === BACKSLASH) {
        escaped = true;
        i += 2;
        continue;
      }
      i++;
    }
    const end = i;
    this.pos = end + 1;
    if (!escaped) {
      return [b.toString("utf8", start + 1, end), end - start - 1];
    }
    const text = this.unescape(start + 1, end);
    return [text, Buffer.byteLength(text, "utf8")];
  }

  unescape(from: number, end: number): string {
    const b = this.buf;
    const out: string[] = [];
    let run = from;
    let i = from;
    while (i < end) {
      if (b[i] !== BACKSLASH) {
        i++;
        continue;
      }
      if (i > run) out.push(b.toString("utf8", run, i));
      const e = b[i + 1];
      let consumed = 2;
      switch (e) {
        case 0x22: out.push('"'); break;
        case 0x5c: out.push("\\"); break;
        case 0x2f: out.push("/"); break;
        case 0x62: out.push("\b"); break;
        case 0x66: out.push("\f"); break;
        case 0x6e: out.push("\n"); break;
        case 0x72: out.push("\r"); break;
        case 0x74: out.push("\t"); break;
        case 0x75: {
          const unit = this.hex4(i + 2, end);
          consumed = 6;
          if (unit >= 0xd800 && unit <= 0xdbff) {
            const low = b[i + 6] === BACKSLASH && b[i + 7] === 0x75 ? this.hex4(i + 8, end) : -1;
            if (low < 0xdc00 || low > 0xdfff) {
              this.pos = i;
              throw this.syntax("no lone surrogate `\\uD800`-`\\uDFFF`");
            }
            out.push(String.fromCharCode(unit, low));
            consumed = 12;
          } else if (unit >= 0xdc00 && unit <= 0xdfff) {
            this.pos = i;
            throw this.syntax("no lone surrogate `\\uD800`-`\\uDFFF`");
          } else {
            out.push(String.fromCharCode(unit));
          }
          break;
        }
        default:
          this.pos = i;
          throw this.syntax("a valid escape");
      }
      i += consumed;
      run = i;
    }
    if (end > run) out.push(b.toString("utf8", run, end));
    return out.join("");
  }

  hex4(at: number, end: number): number {
    if (at + 4 > end) {
      this.pos = at;
      throw this.syntax("four hex digits");
    }
    let n = 0;
    for (let k = at; k < at + 4; k++) {
      const c = this.buf[k] as number;
      const d =
        c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
      if (d < 0) {
        this.pos = k;
        throw this.syntax("four hex digits");
      }
      n = n * 16 + d;
    }
    return n;
  }

  top(): JsonObject {
    this.ws();
    if (this.peek() !== 0x7b) {
      throw new CanonicalError("not_an_object", "body is not a JSON object");
    }
    const value = this.object(1, "", 0, true);
    this.ws();
    if (this.pos !== this.buf.length) {
      throw this.syntax("end of input");
    }
    return value;
  }

  object(depth: number, path: string, pathLen: number, top = false): JsonObject {
    if (depth > MAX_DEPTH) {
      throw new CanonicalError("too_deep", `JSON nested deeper than ${MAX_DEPTH} levels`);
    }
    this.pos++;
    this.ws();
    const out: JsonObject = Object.create(null) as JsonObject;
    if (this.peek() === 0x7d) {
      this.pos++;
      if (!top) this.pair(path, pathLen, "{}", 2);
      return out;
    }
    let repeated: string | undefined;
    for (;;) {
      this.ws();
      if (this.peek() !== QUOTE) throw this.syntax("a key string");
      const [key, keyLen] = this.string();
      const member = top ? key : `${path}.${key}`;
      const memberLen = top ? keyLen : pathLen + 1 + keyLen;
      if (this.unambiguous) {
        if (badKey(key)) throw CanonicalError.ambiguous(Ambiguity.Key, member);
        if (top && key === SENDER_KEY) throw CanonicalError.ambiguous(Ambiguity.SenderKey, member);
      } else if (top && key === SENDER_KEY) {
        this.hasSenderKeyPair = true;
      }
      this.ws();
      if (this.peek() !== 0x3a) throw this.syntax("`:`");
      this.pos++;
      this.ws();
      const value =
        top && key === "signature"
          ? this.signatureValue(depth)
          : this.value(depth, member, memberLen, true);
      if (key in out && repeated === undefined) repeated = member;
      out[key] = value;
      this.withinBudget();
      this.ws();
      const c = this.peek();
      if (c === 0x2c) {
        this.pos++;
      } else if (c === 0x7d) {
        this.pos++;
        break;
      } else {
        throw this.syntax("`,` or `}`");
      }
    }
    if (repeated !== undefined) {
      throw new CanonicalError("duplicate_key", `duplicate key \`${repeated}\``, undefined, repeated);
    }
    return out;
  }

  array(depth: number, path: string, pathLen: number): JsonValue[] {
    if (depth > MAX_DEPTH) {
      throw new CanonicalError("too_deep", `JSON nested deeper than ${MAX_DEPTH} levels`);
    }
    this.pos++;
    this.ws();
    const out: JsonValue[] = [];
    if (this.peek() === 0x5d) {
      this.pos++;
      this.pair(path, pathLen, "[]", 2);
      return out;
    }
    for (let index = 0; ; index++) {
      const suffix = `[${index}]`;
      this.ws();
      out.push(this.value(depth, path + suffix, pathLen + suffix.length, false));
      this.withinBudget();
      this.ws();
      const c = this.peek();
      if (c === 0x2c) {
        this.pos++;
      } else if (c === 0x5d) {
        this.pos++;
        return out;
      } else {
        throw this.syntax("`,` or `]`");
      }
    }
  }

  value(depth: number, path: string, pathLen: number, inObject: boolean): JsonValue {
    const c = this.peek();
    if (c === 0x7b) return this.object(depth + 1, path, pathLen);
    if (c === 0x5b) return this.array(depth + 1, path, pathLen);
    if (c === QUOTE) {
      const [text, textLen] = this.string();
      if (this.unambiguous && readsAsPair(text)) {
        throw CanonicalError.ambiguous(Ambiguity.ValueReadsAsPair, path);
      }
      this.pair(path, pathLen, text, textLen);
      return text;
    }
    if (c === 0x74) {
      this.keyword("true");
      this.pair(path, pathLen, "true", 4);
      return true;
    }
    if (c === 0x66) {
      this.keyword("false");
      this.pair(path, pathLen, "false", 5);
      return false;
    }
    if (c === 0x6e) {
      this.keyword("null");
      if (this.unambiguous && !(inObject && this.nullMembers)) {
        throw CanonicalError.ambiguous(Ambiguity.Null, path);
      }
      if (this.firstNull === undefined) this.firstNull = path;
      return null;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const literal = this.number();
      this.pair(path, pathLen, literal, literal.length);
      return new JsonNumber(literal);
    }
    throw this.syntax("a JSON value");
  }

  /** `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` at `pos`. */
  number(): string {
    const b = this.buf;
    const start = this.pos;
    let i = start;
    const digit = (k: number): boolean => k < b.length && (b[k] as number) >= 0x30 && (b[k] as number) <= 0x39;
    if (b[i] === 0x2d) i++;
    if (!digit(i)) {
      this.pos = i;
      throw this.syntax("a digit");
    }
    if (b[i] === 0x30) i++;
    else while (digit(i)) i++;
    if (b[i] === 0x2e && digit(i + 1)) {
      i++;
      while (digit(i)) i++;
    }
    if ((b[i] === 0x65 || b[i] === 0x45)) {
      let k = i + 1;
      if (b[k] === 0x2b || b[k] === 0x2d) k++;
      if (digit(k)) {
        while (digit(k)) k++;
        i = k;
      }
    }
    this.pos = i;
    return b.toString("latin1", start, i);
  }

  keyword(word: string): void {
    if (this.buf.toString("latin1", this.pos, this.pos + word.length) === word) {
      this.pos += word.length;
    } else {
      throw this.syntax("a JSON value");
    }
  }

  signatureValue(depth: number): JsonValue {
    this.hasSignatureKey = true;
    const c = this.peek();
    if (c === 0x6e) {
      this.keyword("null");
      return null;
    }
    if (c === QUOTE) {
      const [text] = this.string();
      this.signature = text;
      return text;
    }
    // Read it all first so that a syntax error is reported as such.
    const saved: [boolean, number, number] = [this.unambiguous, this.pairs.length, this.pairBytes];
    this.unambiguous = false;
    this.value(depth, "signature", 9, true);
    [this.unambiguous, , this.pairBytes] = saved;
    this.pairs.length = saved[1];
    throw new CanonicalError("signature_not_string", "`signature` is not a string");
  }
}
