/**
 * What every reader of a body shares: the limits, the parsed values, the re-cut rules R1-R4 and
 * their refusals, and the order of the canonical string (see canonical.ts).
 */

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
  /** R2: a `null` array element (a `null` member is skipped: read as absent). */
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
    "a `null` array element is left out of the signed text and moves the indexes of the " +
    "elements after it, so the signed text could stand for another array; leave the element out instead",
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

/** Rule R1: an object key that is empty or holds `&`, `=`, `.`, `[` or `]`. */
export function badKey(key: string): boolean {
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
  /** The path of the first `null` member (skipped in the canonical string), if any. */
  readonly firstNullPath: string | undefined;
  /** The paths of every `null` member (each skipped in the canonical string), in document order. */
  readonly skippedNulls: readonly string[];
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
