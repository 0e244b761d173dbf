// The fast path of `parse` (JSON.parse and a scan of the bytes, src/fastpath.ts) is held to the
// exact reader (`parseExact`, src/reader.ts): on generated bodies of every shape the shared
// differential test makes, and on the shared vectors, both give the same canonical string,
// signature, nulls skipped, value and pairs, or the same refusal (kind, rule, path, offset).
// And the cost of reading hostile bodies grows linearly: sized by the bytes allocated, not timed.
import assert from "node:assert/strict";
import { test } from "node:test";
import v8 from "node:v8";
import { CanonicalError, canonicalStringExposingKey, type Flattened, JsonNumber, type JsonValue, parse, parseExact, PrivateKey, signatureHex } from "../src/index.js";
import { FastFlattened } from "../src/fastpath.js";
import { bytes, VECTORS } from "./vectors.js";

const KEY = new PrivateKey("fast-path-key");

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function shown(v: JsonValue): unknown {
  if (v instanceof JsonNumber) return { n: v.text };
  if (Array.isArray(v)) return v.map(shown);
  if (v !== null && typeof v === "object") return Object.entries(v).map(([k, x]) => [k, shown(x)]);
  return v;
}

function outcome(read: () => Flattened): string {
  let flat: Flattened;
  try {
    flat = read();
  } catch (e) {
    assert.ok(e instanceof CanonicalError, String(e));
    return `refused ${e.kind} ${e.rule ?? ""} ${e.path ?? ""} ${e.offset ?? ""} ${e.message}`;
  }
  return JSON.stringify({
    canonical: canonicalStringExposingKey(flat, KEY),
    digest: signatureHex(flat, KEY),
    signature: flat.signature,
    hasSignatureKey: flat.hasSignatureKey,
    nulls: flat.skippedNulls,
    firstNull: flat.firstNullPath,
    value: shown(flat.value),
    pairs: flat.pairs,
  });
}

let fast = 0;
let accepted = 0;
function same(body: Uint8Array, label: string): void {
  const expected = outcome(() => parseExact(body));
  assert.equal(outcome(() => parse(body)), expected, `${label}: ${Buffer.from(body).toString("utf8").slice(0, 300)}`);
  if (!expected.startsWith("refused")) {
    accepted++;
    if (parse(body) instanceof FastFlattened) fast++;
  }
}

const KEYS = ["a", "b", "txId", "amount", "Ab", "a-b", "a_b", "é", "日本", "\ue000", "\uffff", "😀", "\u{10000}", "z", "1", "01", "9x", "__proto__", "constructor", "ab"];
const ESCAPED_KEYS = ['"\\u0061"', '"a\\u0062"', '"\\ud83d\\ude00"', '"\\ue000"', '"\\n"', '"x\\"y"'];
const STRINGS = ['"x"', '""', '"Tom & Jerry"', '"a=b&c"', '"x&data.a[1].b=9"', '"a&b=c"', '"é日本😀"', '"\\u00e9\\n\\t\\"\\\\\\/"', '"\\ud83d\\ude00"', '"\\ud800"', '"x\\udfff"', '"\\u0000"', '"\u2028"', '"\\uE000\\uFFFF"'];
const NUMBERS = ["0", "-0", "1", "-1", "100.50", "0.10", "1e5", "1E+5", "-2.5e-3", "1e400", "123456789012345", "1234567890123456", "12345678901234567890123", "3.141592653589793238462643383279", "0.0", "10", "2E-0", "-123456789012345"];
const WS = ["", "", "", " ", "\n", "\t", "\r\n"];

class Gen {
  constructor(readonly next: () => number) {}
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)] as T;
  }
  ws(): string {
    return this.pick(WS);
  }
  key(): string {
    const r = this.next();
    if (r < 0.05) return this.pick(ESCAPED_KEYS);
    if (r < 0.08) return this.pick(['"a.b"', '"a&b"', '"a=b"', '"a[0]"', '""', '"senderKey"', '"signature"']);
    return JSON.stringify(this.pick(KEYS));
  }
  value(depth: number): string {
    const r = this.next();
    if (depth < 5 && r < 0.18) return this.object(depth + 1);
    if (depth < 5 && r < 0.3) return this.array(depth + 1);
    if (r < 0.55) return this.pick(STRINGS);
    if (r < 0.8) return this.pick(NUMBERS);
    if (r < 0.9) return this.pick(["true", "false"]);
    return "null";
  }
  object(depth: number): string {
    const n = Math.floor(this.next() * 5);
    const members: string[] = [];
    for (let i = 0; i < n; i++) members.push(`${this.ws()}${this.key()}${this.ws()}:${this.ws()}${this.value(depth)}${this.ws()}`);
    return `{${members.join(",")}${n === 0 ? this.ws() : ""}}`;
  }
  array(depth: number): string {
    const n = Math.floor(this.next() * 4);
    const items: string[] = [];
    for (let i = 0; i < n; i++) items.push(`${this.ws()}${this.value(depth)}${this.ws()}`);
    return `[${items.join(",")}]`;
  }
}

test("generated bodies: the fast path and the exact reader agree", () => {
  const gen = new Gen(prng(36));
  for (let i = 0; i < 6000; i++) {
    let text = gen.object(1);
    const r = gen.next();
    if (r < 0.03) text = `\ufeff${text}`;
    else if (r < 0.06) text = `${text}x`;
    else if (r < 0.09) text = text.replace(/\}$/u, `,"signature":${gen.pick(['"00ab"', "null", "1", "[1]", '"a&b=c"'])}}`);
    same(bytes(text), `body ${i}`);
  }
  assert.ok(fast > accepted / 3, `the fast path decided ${fast} of ${accepted} bodies read`);
});

test("the shared vectors: the fast path and the exact reader agree", () => {
  for (const v of [...VECTORS.signing, ...VECTORS.refusals, ...VECTORS.received_nulls]) {
    same(bytes(v.body), v.name);
    if ("unsigned" in v) same(bytes(v.unsigned), `${v.name} (unsigned)`);
  }
  for (const v of [...VECTORS.answers, ...VECTORS.notification_types]) same(bytes(v.body), v.name);
});

test("near the limits: depth, expansion, repeated and out-of-order keys, keys above U+D800", () => {
  const nest = (levels: number, inner: string): string => {
    let t = inner;
    for (let i = 0; i < levels; i++) t = i % 2 ? `{"n":${t}}` : `[${t}]`;
    return t;
  };
  for (let levels = 60; levels <= 66; levels++) for (const inner of ["1", "[]", "{}", '"x"', "null"]) same(bytes(`{"deep":${nest(levels, inner)}}`), `depth ${levels}`);
  for (const klen of [200, 1000, 2000, 2100, 2200, 4000]) {
    for (const n of [10, 100, 300, 600]) {
      same(bytes(`{"${"k".repeat(klen)}":[${Array(n).fill("7").join(",")}]}`), `expansion ${klen}x${n}`);
      // Within the limit at the end, not where the exact reader checks after the array.
      same(bytes(`{"${"k".repeat(klen)}":[${Array(n).fill("7").join(",")}],"pad":"${"p".repeat((klen * n) / 16)}"}`), `expansion then padding ${klen}x${n}`);
    }
  }
  // Pairs a little longer than 32 times their bytes: the running excess crosses the allowance.
  for (let klen = 50; klen <= 70; klen += 4) same(bytes(`{"${"k".repeat(klen)}":[${Array(20000).fill("1").join(",")}]}`), `excess ${klen}`);
  const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const two = Array.from({ length: 2700 }, (_, i) => `"${letters[i % 52] ?? ""}${letters[Math.floor(i / 52)] ?? ""}":1`);
  for (const plen of [40, 70, 100, 130]) same(bytes(`{"${"日".repeat(plen)}":{${two.join(",")}}}`), `excess of a wide object under ${plen} CJK`);
  // Rows under a long path: the bound the fast path keeps can give up; the exact reader decides.
  const long = "p".repeat(60);
  same(bytes(`{"${long}":{"${long}":[${Array(3000).fill('{"a":1,"b":"x"}').join(",")}]}}`), "long paths above many rows");
  same(bytes('{"dup":1,"\\u0064up":2}'), "escaped repeated key");
  same(bytes('{"a":{"x":1,"x":{"y":2}}}'), "repeated nested key");
  same(bytes('{"b":1,"2":2,"1":3}'), "keys JavaScript lists first");
  same(bytes('{"\uffff":1,"😀":2,"\ue000":{"a":1},"~":3}'), "keys ordered by UTF-8, not UTF-16");
  same(bytes('{"a":[{"\uffff":1,"😀":2},{"\uffff":1,"😀":2}]}'), "the same shape twice, keys above U+D800");
  same(bytes(`{"rows":[${Array(50).fill('{"z":1,"a":"x","m":null}').join(",")},{"z":1,"a":"x","m":{}}]}`), "a shape that changes in the last row");
});

/** Bytes the V8 heap allocated while `call` ran (what it holds at the end plus what collections freed). */
function allocatedDuring(call: () => void): number {
  const profiler = new v8.GCProfiler();
  const before = v8.getHeapStatistics().used_heap_size;
  profiler.start();
  call();
  const after = v8.getHeapStatistics().used_heap_size;
  let freed = 0;
  for (const gc of profiler.stop().statistics) freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
  return after - before + freed;
}

test("hostile bodies cost linear work: 8 times the body allocates at most 12 times as much", () => {
  const families: Record<string, (n: number) => string> = {
    "a long key above many values": (n) => `{"${"k".repeat(n / 10)}":[${Array(n).fill("1").join(",")}]}`,
    "deep nesting": (n) => `{"a":${"[".repeat(n)}${"]".repeat(n)}}`,
    "many members, one repeated at the end": (n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(",")},"k0":1}`,
    "values that almost read as pairs": (n) => `{"a":"${"&a.a.a.a[0]".repeat(n)}"}`,
    "one wide object": (n) => `{${Array.from({ length: n }, (_, i) => `"k${(i * 7919) % n}x":"v"`).join(",")}}`,
    "many null elements": (n) => `{"a":[1,${Array(n).fill("null").join(",")}]}`,
    "many null members": (n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":null`).join(",")}}`,
    "escapes": (n) => `{"a":"${"\\u00e9\\ud83d\\ude00\\n".repeat(n)}"}`,
    "a page of rows": (n) => `{"rows":[${Array(n).fill('{"id":"TX1","amount":"10.50","fee":0.5,"n":12}').join(",")}]}`,
    "a lone surrogate at the end": (n) => `{"a":"${"x".repeat(n)}","b":"\\ud800"}`,
  };
  for (const [name, make] of Object.entries(families)) {
    const small = bytes(make(2000));
    const large = bytes(make(16000));
    const read = (b: Uint8Array) => (): void => {
      try {
        parse(b);
      } catch (e) {
        if (!(e instanceof CanonicalError)) throw e;
      }
    };
    read(small)();
    read(large)();
    const a = Math.min(allocatedDuring(read(small)), allocatedDuring(read(small)));
    const b = Math.min(allocatedDuring(read(large)), allocatedDuring(read(large)));
    assert.ok(b <= 12 * a + 1e6, `${name}: ${a} bytes for ${small.length}, ${b} for ${large.length}`);
  }
});
