/**
 * The fast path of {@link parse}: Node's own `JSON.parse` reads the body, and one scan of the
 * raw text gives back what it drops (issue 36). Decides only bodies the exact reader
 * (reader.ts) accepts, with the same canonical string; anything else, it gives up on and the
 * exact reader reads the body again and refuses it (or, where this path was only cautious,
 * accepts it), so the refusals, their kinds and paths are the exact reader's.
 *
 * What `JSON.parse` drops, and how it is had back:
 * - a number's literal text (`100.50`): the scan counts the number tokens of the text in document
 *   order and keeps the text of those JavaScript would not write back the same (anything but
 *   an integer of at most 15 digits, `-0` included); the walk below visits numbers in the same
 *   order and takes their text from there, or writes the number.
 *   Objects list their keys in document order, except keys that look like array indices, which
 *   JavaScript puts first: a key starting with a digit makes the path give up.
 * - repeated keys (the last one wins): the scan counts the members of the text (`:` outside
 *   strings); the walk counts the keys it sees; fewer keys means a repeated key: give up.
 * - lone surrogates from `\uD800`-style escapes: when the text has a `\u`, every key and
 *   string is checked (`isWellFormed`).
 * - depth, and the length of the pairs against the bytes read so far: the depth is counted; the
 *   length is bounded per pair from above by what it needs of the text (see `OBJECT_SLACK`),
 *   so a body this path accepts is within the exact reader's limit at each of its checks.
 *
 * The canonical string is built in its order directly, without sorting the pairs: every pair of
 * an object member starts `path.key` then `=`, `.` or `[`, none of which is in a key (R1), so
 * the members of an object sort by `key` + that character and the pairs of a member stay
 * together; an array's elements sort by `index]` (a fixed order for each length). The order of
 * an object's members is JavaScript's string order (UTF-16 units), the same as UTF-8 byte order
 * unless a key has a unit at or above U+D800, where {@link compareUtf8} orders that object.
 * Objects of the same keys in the same order (rows of a page) reuse the order found for the
 * previous one at their depth.
 */

import {
  badKey,
  compareUtf8,
  EXPANSION_ALLOWANCE,
  type Flattened,
  JsonNumber,
  type JsonObject,
  type JsonValue,
  MAX_DEPTH,
  readsAsPair,
  SENDER_KEY,
} from "./rules.js";

/** Thrown inside the walk: the exact reader decides this body. */
class GiveUp {}
const GIVE_UP = new GiveUp();

const EQUALS = 0; // a scalar or an empty container: `key=`
const DOT = 1; // a non-empty object: `key.`
const BRACKET = 2; // a non-empty array: `key[`
const SKIPPED = 3; // null: no pair
const TERMINATOR = ["=", ".", "["];
const SENDER_KEY_PAIR = `${SENDER_KEY}=`;

/**
 * How much longer a pair of an object member may be, at most, than 32 times the bytes of the
 * text it needs (`,"key":value`, at least 4 bytes besides the key's and the value's own), per
 * UTF-16 unit of its path before the key: 3 bytes a unit, less 32 x 4 + 1. For an element of an
 * array, `,value` needs at least 2 bytes (at least 1 for the value): 3 a unit of the path, plus
 * its `[i]`, less 62. Summed in document order, these bound the exact reader's running
 * difference between the pairs' bytes and 32 times the bytes read, which may not exceed
 * {@link EXPANSION_ALLOWANCE}.
 */
const OBJECT_SLACK = -127;
const ELEMENT_SLACK = -62;

interface Shape {
  readonly keys: readonly string[];
  readonly kinds: readonly number[];
  readonly order: readonly number[];
  /** A key has a UTF-16 unit at or above U+D800: ordered by {@link compareUtf8}. */
  readonly exact: boolean;
  /** `key` and the character after it in each of its pairs (`=`, `.` or `[`), in `order`. */
  readonly named: readonly string[];
}

/**
 * The last shape met at each depth (1: the top-level object), kept from body to body: messages
 * of one kind, and the rows of a page, have the same keys in the same order. Its keys were
 * checked when it was made (R1, out of document order, lone surrogates), so a body whose object
 * has the same keys needs no check again.
 */
const shapes: (Shape | undefined)[] = [];

const arrayOrders = new Map<number, readonly number[]>();

/** The order of `0..n-1` by the text `index]` (`10]` before `1]`: digits sort before `]`). */
function arrayOrder(n: number): readonly number[] {
  const known = arrayOrders.get(n);
  if (known !== undefined) return known;
  const order: number[] = [];
  const visit = (i: number): void => {
    // i's longer numbers (i0..i9 and theirs) come before i itself.
    if (i !== 0) for (let d = 0; d < 10 && i * 10 + d < n; d++) visit(i * 10 + d);
    order.push(i);
  };
  for (let d = 0; d < 10 && d < n; d++) visit(d);
  // Kept for lengths met again (pages of 100, 2,000 rows): at most 64 of them, of at most
  // 10,000 elements each (about 5 MB in all).
  if (n <= 10_000 && arrayOrders.size < 64) arrayOrders.set(n, order);
  return order;
}

/** The number tokens of a body: how many, and the text of those `String(n)` does not give back. */
class Numbers {
  count = 0;
  /** The positions (among all the numbers, in document order) of those kept as text ... */
  readonly kept: number[] = [];
  /** ... and their text. */
  readonly texts: string[] = [];
}

/** Reads the numbers of a body in document order, in step with {@link scan}'s count. */
class NumberReader {
  private at = 0;
  private next = 0;
  constructor(private readonly numbers: Numbers) {}

  /** The literal text of the next number, whose value is `v`. */
  text(v: number): string {
    const position = this.at++;
    const kept = this.numbers.kept;
    if (this.next < kept.length && kept[this.next] === position) return this.numbers.texts[this.next++] as string;
    return String(v);
  }

  /** True when every number of the body was read. */
  done(): boolean {
    return this.at === this.numbers.count;
  }
}

type Latin1 = Buffer & { latin1Slice(start: number, end: number): string };

/**
 * The members (`:` outside strings) of a body `JSON.parse` accepted, and its numbers. It reads
 * the bytes, not the decoded text: on Node 20, scanning a long string with `charCodeAt` or
 * `indexOf` after `JSON.parse` has read it can be a thousand times slower.
 */
function scan(b: Buffer, numbers: Numbers): number {
  const n = b.length;
  let members = 0;
  let i = 0;
  while (i < n) {
    const c = b[i] as number;
    if (c === 0x22) {
      i++;
      for (;;) {
        const d = b[i] as number;
        if (d === 0x22) break;
        i += d === 0x5c ? 2 : 1;
      }
      i++;
    } else if (c === 0x3a) {
      members++;
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i++;
      let digitsOnly = true;
      for (; i < n; i++) {
        const d = b[i] as number;
        if (d >= 0x30 && d <= 0x39) continue;
        if (d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) digitsOnly = false;
        else break;
      }
      const digits = i - start - (c === 0x2d ? 1 : 0);
      // String(n) gives back an integer of up to 15 digits (exact in a double), but not `-0`.
      if (!digitsOnly || digits > 15 || (c === 0x2d && digits === 1 && b[start + 1] === 0x30)) {
        numbers.kept.push(numbers.count);
        numbers.texts.push((b as Latin1).latin1Slice(start, i));
      }
      numbers.count++;
    } else {
      i++;
    }
  }
  return members;
}

/** The body read by the fast path: what {@link Flattened} gives, some of it computed on demand. */
export class FastFlattened implements Flattened {
  readonly hasSenderKeyPair = false;
  private materialized: JsonObject | undefined;
  private exactPairs: readonly string[] | undefined;

  constructor(
    /** The canonical string's pairs before and after the `senderKey` pair, `&`-joined. */
    readonly before: string,
    readonly after: string,
    readonly signature: string | undefined,
    readonly hasSignatureKey: boolean,
    readonly skippedNulls: readonly string[],
    private readonly parsed: Record<string, unknown>,
    private readonly numbers: Numbers,
    private readonly pairsOf: () => readonly string[],
  ) {}

  get firstNullPath(): string | undefined {
    return this.skippedNulls[0];
  }

  /** The pairs in document order (read again by the exact reader, on first use). */
  get pairs(): readonly string[] {
    this.exactPairs ??= this.pairsOf();
    return this.exactPairs;
  }

  /** The parsed body as the exact reader gives it (no prototypes, numbers as their text). */
  get value(): JsonObject {
    if (this.materialized === undefined) {
      const numbers = new NumberReader(this.numbers);
      const convert = (v: unknown): JsonValue => {
        if (v === null || typeof v === "string" || typeof v === "boolean") return v;
        if (typeof v === "number") return new JsonNumber(numbers.text(v));
        if (Array.isArray(v)) return v.map(convert);
        const out = Object.create(null) as JsonObject;
        for (const k of Object.keys(v as object)) out[k] = convert((v as Record<string, unknown>)[k]);
        return out;
      };
      this.materialized = convert(this.parsed) as JsonObject;
    }
    return this.materialized;
  }
}

/** One walk over a parsed body. */
class Walk {
  keysSeen = 0;
  excess = 0;
  empty = false;
  readonly nulls: string[] = [];

  constructor(
    readonly numbers: NumberReader,
    /** The text has `&`: string values are checked against R3. */
    private readonly amp: boolean,
    /** The text has `\u`: every key and string is checked for lone surrogates. */
    private readonly escapes: boolean,
  ) {}

  text(v: string): void {
    if (this.amp && v.indexOf("&") !== -1 && readsAsPair(v)) throw GIVE_UP;
    if (this.escapes && !(v as unknown as { isWellFormed(): boolean }).isWellFormed()) throw GIVE_UP;
  }

  /** Checks a new shape's keys and orders its members. */
  shape(keys: readonly string[], kinds: readonly number[]): Shape {
    let exact = false;
    for (const k of keys) {
      if (badKey(k)) throw GIVE_UP;
      const c = k.charCodeAt(0);
      if (c >= 0x30 && c <= 0x39) throw GIVE_UP; // JavaScript lists it out of document order
      if (this.escapes && !(k as unknown as { isWellFormed(): boolean }).isWellFormed()) throw GIVE_UP;
      for (let i = 0; i < k.length && !exact; i++) if (k.charCodeAt(i) >= 0xd800) exact = true;
    }
    const named: string[] = [];
    const order: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      const kind = kinds[i] as number;
      if (kind === SKIPPED) continue;
      named.push((keys[i] as string) + (TERMINATOR[kind] as string));
      order.push(i);
    }
    const before = exact
      ? (x: string, y: string): boolean => compareUtf8(x, y) < 0
      : (x: string, y: string): boolean => x < y;
    // Insertion sort: objects have few members, and no two are equal.
    for (let i = 1; i < named.length; i++) {
      const name = named[i] as string;
      const index = order[i] as number;
      let j = i - 1;
      while (j >= 0 && before(name, named[j] as string)) {
        named[j + 1] = named[j] as string;
        order[j + 1] = order[j] as number;
        j--;
      }
      named[j + 1] = name;
      order[j + 1] = index;
    }
    return { keys, kinds, order, exact, named };
  }

  /** The shape of `keys`/`kinds` at `depth`: the previous one there when the same. */
  shapeAt(depth: number, keys: readonly string[], kinds: readonly number[]): Shape {
    const last = shapes[depth];
    if (last !== undefined && last.keys.length === keys.length) {
      let same = true;
      for (let i = 0; i < keys.length; i++) {
        if (last.keys[i] !== keys[i] || last.kinds[i] !== kinds[i]) {
          same = false;
          break;
        }
      }
      if (same) return last;
    }
    const found = this.shape(keys, kinds);
    shapes[depth] = found;
    return found;
  }

  /** The pairs of the value at `path` (not null), in canonical order, `&`-joined. */
  value(path: string, v: unknown, depth: number): string {
    if (typeof v === "string") {
      this.text(v);
      this.empty = false;
      return `${path}=${v}`;
    }
    if (typeof v === "number") {
      this.empty = false;
      return `${path}=${this.numbers.text(v)}`;
    }
    if (typeof v === "boolean") {
      this.empty = false;
      return v ? `${path}=true` : `${path}=false`;
    }
    if (Array.isArray(v)) return this.array(path, v, depth + 1);
    return this.object(path, v as Record<string, unknown>, depth + 1);
  }

  /** The kind of the value the last {@link value} read (never null). */
  kindOf(v: unknown): number {
    if (typeof v !== "object") return EQUALS;
    if (this.empty) return EQUALS;
    return Array.isArray(v) ? BRACKET : DOT;
  }

  object(path: string, obj: Record<string, unknown>, depth: number): string {
    if (depth > MAX_DEPTH) throw GIVE_UP;
    const keys = Object.keys(obj);
    const n = keys.length;
    this.keysSeen += n;
    if (n === 0) {
      this.empty = true;
      return `${path}={}`;
    }
    const dot = `${path}.`;
    const slack = 3 * dot.length + OBJECT_SLACK;
    const chunks: string[] = new Array<string>(n);
    const kinds: number[] = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const k = keys[i] as string;
      const v = obj[k];
      if (v === null) {
        this.nulls.push(dot + k);
        chunks[i] = "";
        kinds[i] = SKIPPED;
        continue;
      }
      chunks[i] = this.value(dot + k, v, depth);
      kinds[i] = this.kindOf(v);
      if (kinds[i] === EQUALS) {
        this.excess += slack;
        if (this.excess > EXPANSION_ALLOWANCE) throw GIVE_UP;
      }
    }
    this.empty = false;
    return join(chunks, this.shapeAt(depth, keys, kinds).order);
  }

  array(path: string, arr: readonly unknown[], depth: number): string {
    if (depth > MAX_DEPTH) throw GIVE_UP;
    const n = arr.length;
    if (n === 0) {
      this.empty = true;
      return `${path}=[]`;
    }
    const base = 3 * path.length + ELEMENT_SLACK;
    const chunks: string[] = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const v = arr[i];
      if (v === null) throw GIVE_UP; // R2: the exact reader names the element
      const at = `${path}[${i}]`;
      chunks[i] = this.value(at, v, depth);
      if (this.kindOf(v) === EQUALS) {
        this.excess += base + (at.length - path.length);
        if (this.excess > EXPANSION_ALLOWANCE) throw GIVE_UP;
      }
    }
    this.empty = false;
    return join(chunks, arrayOrder(n));
  }
}

/** `chunks` in `order` (from `from` to `to`), `&`-joined, the empty ones left out. */
function join(chunks: readonly string[], order: readonly number[], from = 0, to = order.length): string {
  let out = "";
  for (let k = from; k < to; k++) {
    const c = chunks[order[k] as number] as string;
    if (c === "") continue;
    out = out === "" ? c : `${out}&${c}`;
  }
  return out;
}

/**
 * Reads a valid-UTF-8 body's text the fast way, or returns undefined: the exact reader must
 * decide (see the module's doc). `pairsOf` gives the pairs in document order when asked.
 */
export function readFast(body: Buffer, text: string, pairsOf: () => readonly string[]): FastFlattened | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const top = parsed as Record<string, unknown>;
  const numbers = new Numbers();
  const members = scan(body, numbers);
  const walk = new Walk(new NumberReader(numbers), body.indexOf(0x26) !== -1, body.indexOf("\\u", 0, "latin1") !== -1);
  try {
    const keys = Object.keys(top);
    walk.keysSeen += keys.length;
    const chunks: string[] = new Array<string>(keys.length);
    const kinds: number[] = new Array<number>(keys.length);
    let signature: string | undefined;
    let hasSignatureKey = false;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      const v = top[k];
      chunks[i] = "";
      kinds[i] = SKIPPED;
      if (k === SENDER_KEY) throw GIVE_UP; // R4
      if (k === "signature") {
        hasSignatureKey = true;
        if (typeof v === "string") {
          walk.text(v);
          signature = v;
        } else if (v !== null) {
          throw GIVE_UP; // not a string
        }
        continue;
      }
      if (v === null) {
        walk.nulls.push(k);
        continue;
      }
      chunks[i] = walk.value(k, v, 1);
      kinds[i] = walk.kindOf(v);
      if (kinds[i] === EQUALS) {
        walk.excess += OBJECT_SLACK;
        if (walk.excess > EXPANSION_ALLOWANCE) throw GIVE_UP;
      }
    }
    if (walk.keysSeen !== members || !walk.numbers.done()) return undefined;
    const shape = walk.shapeAt(1, keys, kinds);
    let split = shape.order.length;
    for (let k = 0; k < shape.order.length; k++) {
      const named = shape.named[k] as string;
      if (shape.exact ? compareUtf8(named, SENDER_KEY_PAIR) > 0 : named > SENDER_KEY_PAIR) {
        split = k;
        break;
      }
    }
    const before = join(chunks, shape.order, 0, split);
    const after = join(chunks, shape.order, split, shape.order.length);
    return new FastFlattened(before, after, signature, hasSignatureKey, walk.nulls, top, numbers, pairsOf);
  } catch (e) {
    if (e === GIVE_UP) return undefined;
    throw e;
  }
}
