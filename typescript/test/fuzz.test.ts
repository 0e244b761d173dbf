// Hostile inputs: random and mutated bodies are read or refused with a CanonicalError (never
// another exception), and valid bodies flatten as an independent flattening of JSON.parse says.
import assert from "node:assert/strict";
import { test } from "node:test";
import { CanonicalError, parse } from "../src/index.js";
import { bytes, VECTORS } from "./vectors.js";

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ALPHABET = ['{', '}', '[', ']', '"', ':', ',', '\\', 'u', '0', '1', '-', '.', 'e', 'a', ' ', 'n', 't', '&', '=', 'é', '\u0000'];

function readOrRefuse(body: Uint8Array): void {
  try {
    parse(body);
  } catch (e) {
    assert.ok(e instanceof CanonicalError, `not a CanonicalError: ${String(e)}`);
  }
  try {
    parse(body, { unambiguous: false });
  } catch (e) {
    assert.ok(e instanceof CanonicalError, `not a CanonicalError: ${String(e)}`);
  }
}

test("random bodies are read or refused, never crash", () => {
  const next = prng(22);
  for (let i = 0; i < 5000; i++) {
    const n = Math.floor(next() * 40);
    let text = "{";
    for (let k = 0; k < n; k++) text += ALPHABET[Math.floor(next() * ALPHABET.length)] ?? "";
    readOrRefuse(bytes(text));
  }
});

test("mutated vector bodies are read or refused, never crash", () => {
  const next = prng(7);
  const seeds = [...VECTORS.signing, ...VECTORS.refusals].map((v) => bytes(v.body));
  for (let i = 0; i < 5000; i++) {
    const seed = seeds[i % seeds.length] ?? new Uint8Array();
    const body = Uint8Array.from(seed);
    const flips = 1 + Math.floor(next() * 3);
    for (let k = 0; k < flips; k++) body[Math.floor(next() * body.length)] = Math.floor(next() * 256);
    readOrRefuse(body);
  }
});

function flatten(value: unknown, path: string, out: string[]): void {
  if (Array.isArray(value)) {
    if (value.length === 0) out.push(`${path}=[]`);
    value.forEach((v, i) => flatten(v, `${path}[${i}]`, out));
  } else if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0 && path !== "") out.push(`${path}={}`);
    for (const [k, v] of entries) flatten(v, path === "" ? k : `${path}.${k}`, out);
  } else if (value !== null) {
    out.push(`${path}=${String(value)}`);
  }
}

test("valid bodies flatten as an independent flattening does", () => {
  const next = prng(99);
  const word = (): string => ["a", "b", "c d", "ü", "x_1", "😀", "Tom & Jerry"][Math.floor(next() * 7)] ?? "a";
  const make = (depth: number): unknown => {
    const r = next();
    if (depth > 3 || r < 0.3) return r < 0.1 ? Math.floor(next() * 1000) : r < 0.15 ? next() < 0.5 : word();
    if (r < 0.6) return Array.from({ length: Math.floor(next() * 3) }, () => make(depth + 1));
    return Object.fromEntries(Array.from({ length: Math.floor(next() * 3) }, (_, i) => [`${word().replace(/[&=.[\]]/gu, "")}${i}`, make(depth + 1)]));
  };
  for (let i = 0; i < 500; i++) {
    const value = { top: make(0) };
    const text = JSON.stringify(value);
    const expected: string[] = [];
    flatten(value, "", expected);
    assert.deepEqual([...parse(bytes(text), { unambiguous: false }).pairs], expected, text);
  }
});
