import assert from "node:assert/strict";
import { test } from "node:test";
import {
  CanonicalError,
  canonicalStringExposingKey,
  compareUtf8,
  EXPANSION_ALLOWANCE,
  JsonNumber,
  MAX_DEPTH,
  parse,
  PrivateKey,
  readsAsPair,
  sign,
  signAndAttach,
  signatureHex,
  verify,
  VerifyError,
  check,
  EncodeError,
  NULL_SKIPPED_WARNING,
  signRequest,
} from "../src/index.js";
import { bytes, VECTORS } from "./vectors.js";

test("the vectors are there", () => {
  assert.ok(VECTORS.signing.length >= 13);
  assert.ok(VECTORS.refusals.length >= 13);
  assert.ok(VECTORS.received_nulls.length >= 1);
});

for (const v of VECTORS.signing) {
  test(`signing vector: ${v.name}`, () => {
    const key = new PrivateKey(v.key);
    const body = bytes(v.body);
    assert.equal(canonicalStringExposingKey(parse(body), key), v.canonical);
    assert.equal(sign(body, key), v.signature);
    const signed = signAndAttach(body, key);
    verify(signed, key);
    assert.ok(check(signed, key).holds);
    const text = new TextDecoder().decode(signed);
    assert.ok(text.startsWith(v.body.trimEnd().slice(0, -1)), "the signature is only appended");
  });
}

function refusedToSign(body: string, key: PrivateKey): CanonicalError {
  try {
    sign(bytes(body), key);
  } catch (e) {
    assert.ok(e instanceof CanonicalError, String(e));
    return e;
  }
  assert.fail("signed a body that breaks a rule");
}

for (const v of VECTORS.refusals) {
  test(`refusal vector: ${v.name}`, () => {
    const key = new PrivateKey(v.key);
    const loose = parse(bytes(v.body), { unambiguous: false });
    assert.equal(loose.signature, signatureHex(loose, key), "only the rule refuses it");
    assert.throws(
      () => verify(bytes(v.body), key),
      (e: unknown) =>
        e instanceof VerifyError &&
        e.kind === "malformed" &&
        e.canonicalCause?.kind === "ambiguous" &&
        e.canonicalCause.rule === v.rule &&
        e.canonicalCause.path === v.path,
    );
    assert.equal(refusedToSign(v.unsigned, key).rule, v.rule);
    if (v.recut !== undefined) {
      const recut = parse(bytes(v.recut), { unambiguous: false });
      assert.equal(canonicalStringExposingKey(recut, key), canonicalStringExposingKey(loose, key));
      if (v.recut_is_clean === true) parse(bytes(v.recut));
    }
  });
}

/** The `BAAS_NULL_SKIPPED` warnings `call` emits (they are delivered on the next tick). */
async function nullWarnings<T>(call: () => T): Promise<[T, string[]]> {
  const seen: string[] = [];
  const listener = (w: Error & { code?: string }): void => {
    if (w.code === NULL_SKIPPED_WARNING) seen.push(w.message);
  };
  process.on("warning", listener);
  try {
    const result = call();
    await new Promise((resolve) => setImmediate(resolve));
    return [result, seen];
  } finally {
    process.off("warning", listener);
  }
}

for (const v of VECTORS.received_nulls) {
  test(`received null: ${v.name}: verified, and signed with its null members skipped`, async () => {
    const key = new PrivateKey(v.key);
    const received = verify(bytes(v.body), key);
    assert.equal(received.firstNullPath, v.path);
    assert.deepEqual(received.skippedNulls, v.skipped);
    const signature = JSON.parse(v.body).signature as string;
    const [signed, warnings] = await nullWarnings(() => sign(bytes(v.unsigned), key));
    assert.equal(signed, signature, "the document's signature: null members left out");
    assert.equal(warnings.length, v.skipped.length, "one warning for each null member skipped");
    v.skipped.forEach((path, i) => assert.match(warnings[i] ?? "", new RegExp(`^\`${path.replace(/[.[\]]/gu, "\\$&")}\` is null`, "u")));
    const [attached, more] = await nullWarnings(() => signAndAttach(bytes(v.unsigned), key));
    assert.equal(verify(attached, key).signature, signature);
    assert.equal(more.length, v.skipped.length);
  });
}

test("a null array element is still refused by the signer (R2), and the SDK never sends a null", () => {
  const key = new PrivateKey("yourkey");
  const refusal = refusedToSign('{"list":[1,null]}', key);
  assert.deepEqual([refusal.rule, refusal.path], ["R2", "list[1]"]);
  for (const params of ['{"remark":null}', '{"orders":[{"note":null}]}', '{"list":[null]}']) {
    assert.throws(() => signRequest(params, "client1", "en_KE", key), (e: unknown) => e instanceof EncodeError && /is null; a null is never sent/u.test(e.message), params);
  }
});

test("rule R3: what reads as a pair", () => {
  const cases: [string, boolean][] = [
    ["Tom & Jerry", false],
    ["a&b", false],
    ["a=b&c", false],
    ["&=x", false],
    ["&a..b=", false],
    ["&a[]=", false],
    ["&a[1]b=", false],
    ["x&data.result[1].amount=9", true],
    ["a&b=c", true],
    ["Tom & Jerry = x", true],
    ["&a[0][12].b=", true],
  ];
  for (const [text, reads] of cases) assert.equal(readsAsPair(text), reads, text);
});

test("numbers keep their literal text, strings are unescaped", () => {
  const flat = parse(bytes('{"a":100.50,"b":"caf\\u00e9 \\ud83d\\ude00","c":[1.0e3,-0]}'));
  const a = flat.value["a"];
  assert.ok(a instanceof JsonNumber);
  assert.equal(a.text, "100.50");
  assert.equal(flat.value["b"], "café 😀");
  assert.deepEqual(flat.pairs, ["a=100.50", "b=café 😀", "c[0]=1.0e3", "c[1]=-0"]);
});

test("pairs sort by UTF-8 bytes, not UTF-16 units", () => {
  // U+FF5E (3 UTF-8 bytes, EF BD 9E) sorts before U+1F600 (F0 ...), though its UTF-16 unit is larger.
  assert.ok(compareUtf8("\uff5e", "😀") < 0);
  assert.ok(compareUtf8("a", "ab") < 0);
  assert.ok(compareUtf8("[10]", "[1]") < 0);
});

const refuses = (body: Uint8Array | string, kind: string): void => {
  assert.throws(
    () => parse(typeof body === "string" ? bytes(body) : body),
    (e: unknown) => e instanceof CanonicalError && e.kind === kind,
    `${kind}: ${String(body).slice(0, 40)}`,
  );
};

test("hostile and malformed bodies are refused with their kind", () => {
  refuses('{"a":1,"a":2}', "duplicate_key");
  refuses('{"a":{"b":1,"b":1}}', "duplicate_key");
  refuses("[1]", "not_an_object");
  refuses('"x"', "not_an_object");
  refuses('{"a":1}x', "syntax");
  refuses('{"a":01}', "syntax");
  refuses('{"a":1.}', "syntax");
  refuses('{"a":"\\ud800"}', "syntax");
  refuses('{"a":"\\udc00x"}', "syntax");
  refuses('{"a":"\\x"}', "syntax");
  refuses('{"a":"tab\there"}', "syntax");
  refuses('{"a":tru}', "syntax");
  refuses('{"a":1', "syntax");
  refuses('{"a":"', "syntax");
  refuses(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), "invalid_utf8");
  refuses('{"signature":1}', "signature_not_string");
  refuses(`${'{"a":'.repeat(MAX_DEPTH + 1)}1${"}".repeat(MAX_DEPTH + 1)}`, "too_deep");
  refuses(`{"a":${"[".repeat(MAX_DEPTH)}${"]".repeat(MAX_DEPTH)}}`, "too_deep");
  parse(bytes(`${'{"a":'.repeat(MAX_DEPTH)}1${"}".repeat(MAX_DEPTH)}`));
});

test("a long key above many values is refused as too large, early and in linear time", () => {
  const key = "k".repeat(100_000);
  const body = `{"${key}":[${Array.from({ length: 20_000 }, () => "1").join(",")}]}`;
  const started = performance.now();
  refuses(body, "too_large");
  assert.ok(performance.now() - started < 2000, "refused quickly");
  // Under the allowance: small bodies nested deep still read.
  assert.ok(EXPANSION_ALLOWANCE > 0);
});

test("parsing time grows linearly with the body", () => {
  const make = (n: number): Uint8Array =>
    bytes(`{"a":[${Array.from({ length: n }, (_, i) => `{"s":"x&y${i}","n":${i}.5}`).join(",")}]}`);
  const time = (body: Uint8Array): number => {
    const t = performance.now();
    parse(body);
    return performance.now() - t;
  };
  time(make(2000));
  const small = time(make(20_000));
  const large = time(make(200_000));
  assert.ok(large < small * 30 + 50, `10x the body took ${large} ms against ${small} ms`);
});

test("a wrong or missing signature does not verify; the signer refuses a signed body", () => {
  const key = new PrivateKey("yourkey");
  const signed = signAndAttach(bytes('{"a":"1"}'), key);
  assert.throws(() => verify(signed, new PrivateKey("other")), (e: unknown) => e instanceof VerifyError && e.kind === "mismatch");
  assert.throws(() => verify(bytes('{"a":"1"}'), key), (e: unknown) => e instanceof VerifyError && e.kind === "missing");
  assert.throws(() => signAndAttach(signed, key), (e: unknown) => e instanceof CanonicalError && e.kind === "already_signed");
  const tampered = new TextDecoder().decode(signed).replace('"1"', '"2"');
  assert.throws(() => verify(bytes(tampered), key), VerifyError);
});
