/**
 * The exact sequential reader of a body: every byte in document order, the first problem met
 * refused with its kind, byte offset and path, in time linear in the body. canonical.ts reads a
 * body with it when the fast path (fastpath.ts) cannot decide, and for what only it gives (the
 * pairs in document order, bodies read without the rules).
 */

import {
  Ambiguity,
  badKey,
  CanonicalError,
  EXPANSION_ALLOWANCE,
  JsonNumber,
  type JsonObject,
  type JsonValue,
  MAX_DEPTH,
  MAX_EXPANSION,
  readsAsPair,
  SENDER_KEY,
} from "./rules.js";

/** The offset of the first byte that is not UTF-8. */
export function firstInvalidUtf8(body: Uint8Array): number {
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

/** Reads one body; `top()` returns the parsed object, the fields hold the rest. */
export class Parser {
  pos = 0;
  readonly pairs: string[] = [];
  pairBytes = 0;
  signature: string | undefined = undefined;
  hasSignatureKey = false;
  hasSenderKeyPair = false;
  /** The paths of the `null` members, in document order (a `null` element is refused). */
  readonly nulls: string[] = [];
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
      this.nulls.push(path);
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
