import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import {
  DecodeError,
  DEFAULT_KEEP_MS,
  PrivateKey,
  SeenFile,
  SignatureInvalid,
  SignatureMissing,
  signAndAttach,
  signedNotification,
  Untrusted,
  Verifier,
} from "../src/index.js";

const key = new PrivateKey("notify-key-0001");
const now = 1_700_000_000_000;
const body = (over: Partial<Parameters<typeof signedNotification>[0]> = {}): Uint8Array =>
  signedNotification({ notificationType: "0028", requestId: "N1", sender: "bank", params: { amount: "1.50" }, key, timestampMs: now, ...over });

test("a notification from the service's sender, within the window, verifies", () => {
  const n = new Verifier(key, "bank").verify(body(), now + 1000);
  assert.equal(n.notificationType, "0028");
  assert.equal(n.requestId, "N1");
  assert.equal(n.deliveryId, "0028 N1");
  assert.equal(JSON.stringify(n.params), '{"amount":"1.50"}');
});

test("another sender, a stale or future one, an answer's members, a changed body are refused", () => {
  const v = new Verifier(key, "bank", { maxAgeMs: 60_000, maxSkewMs: 1000 });
  assert.throws(() => v.verify(body({ sender: "someone" }), now), Untrusted);
  assert.throws(() => v.verify(body(), now + 60_001), Untrusted);
  v.verify(body(), now + 60_000);
  assert.throws(() => v.verify(body(), now - 1001), Untrusted);
  assert.throws(() => v.verify(body({ key: new PrivateKey("other") }), now), SignatureInvalid);
  const answer = signAndAttach(new TextEncoder().encode('{"requestId":"N1","sender":"bank","notificationType":"0028","timestamp":1,"salt":"s","code":"00000"}'), key);
  assert.throws(() => v.verify(answer, 1), Untrusted);
  const unsigned = new TextEncoder().encode('{"requestId":"N1","sender":"bank","notificationType":"0028","timestamp":1,"salt":"s"}');
  assert.throws(() => v.verify(unsigned, 1), SignatureMissing);
  const noType = signAndAttach(new TextEncoder().encode('{"requestId":"N1","sender":"bank","timestamp":1,"salt":"s"}'), key);
  assert.throws(() => v.verify(noType, 1), DecodeError);
  const recut = signAndAttach(new TextEncoder().encode('{"requestId":"N1","sender":"bank","notificationType":"0028","timestamp":1,"salt":"s"}'), key);
  const spliced = new TextDecoder().decode(recut).replace('"salt":"s"', '"salt":"s&params.x="');
  assert.throws(() => v.verify(new TextEncoder().encode(spliced), 1), Untrusted);
});

test("delivery ids are kept across a restart, for keepMs counted from when they were recorded", () => {
  const path = join(mkdtempSync(join(tmpdir(), "baas-seen-")), "seen");
  const v = new Verifier(key, "bank");
  const first = v.verify(body(), now);
  const seen = new SeenFile(path, 60_000, now);
  assert.ok(seen.isNew(first));
  seen.record(first, now);
  assert.ok(!seen.isNew(first));
  assert.ok(seen.isNew(v.verify(body({ notificationType: "0026" }), now)), "the type is part of the key");
  assert.ok(!new SeenFile(path, 60_000, now + 1000).isNew(first), "kept across a restart");
  assert.ok(new SeenFile(path, 60_000, now + 120_000).isNew(first), "dropped after keepMs");
});

test("a re-signed re-delivery after an outage longer than the window is not new (issue 35)", () => {
  const path = join(mkdtempSync(join(tmpdir(), "baas-seen-")), "seen");
  const v = new Verifier(key, "bank");
  const first = v.verify(body({ requestId: "NTF-1" }), now);
  new SeenFile(path, undefined, now).record(first, now);
  // Down for three days, three times the window; the service re-signs the delivery.
  const back = now + 72 * 3_600_000;
  assert.throws(() => v.verify(body({ requestId: "NTF-1" }), back), Untrusted, "the old one is stale");
  const again = v.verify(body({ requestId: "NTF-1", timestampMs: back }), back);
  assert.ok(!new SeenFile(path, undefined, back).isNew(again), "processed twice");
  assert.ok(new SeenFile(path, undefined, now + DEFAULT_KEEP_MS + 1).isNew(again), "dropped after DEFAULT_KEEP_MS");
});

test("any id is recorded exactly and survives a reopen: CR, LF, space, U+2028, U+0085, VT, FS", () => {
  const path = join(mkdtempSync(join(tmpdir(), "baas-seen-")), "seen");
  const ids = ["N 1 with spaces", "cr\rhere", "lf\nhere", "crlf\r\n", "ls\u2028here", "nel\u0085here", "vt\u000bff\u000cfs\u001cgs\u001drs\u001e", "ps\u2029tab\tnul\u0000", "100%25 literal %", "é日本🎉", "", " "];
  const kinds = ["0028", "00 28", "0\n28"];
  const seen = new SeenFile(path, undefined, now);
  for (const requestId of ids) for (const notificationType of kinds) seen.record({ requestId, notificationType }, now);
  assert.ok(/^[\x00-\x7f]*$/u.test(readFileSync(path, "latin1")), "the file is ASCII");
  const reopened = new SeenFile(path, undefined, now + 3_600_000);
  assert.equal(reopened.size, ids.length * kinds.length);
  for (const requestId of ids) {
    for (const notificationType of kinds) assert.ok(!reopened.isNew({ requestId, notificationType }), JSON.stringify([notificationType, requestId]));
    assert.ok(reopened.isNew({ requestId, notificationType: "0015" }));
  }
  for (const other of ["N", "N 1", "cr", "cr\n", "ls", "100% literal %", "lf here"]) assert.ok(reopened.isNew({ requestId: other, notificationType: "0028" }), other);
  appendFileSync(path, "12 00", "latin1");
  assert.equal(new SeenFile(path, undefined, now).size, ids.length * kinds.length, "a line cut short is skipped");
});

test("the file is the Rust and Python format, and a file of the first format is read", () => {
  const path = join(mkdtempSync(join(tmpdir(), "baas-seen-")), "seen");
  writeFileSync(path, `${now} 0028 N 1 with spaces\n${now - 40 * 86_400_000} 0015 OLD\n`, "utf8");
  const seen = new SeenFile(path, undefined, now);
  assert.ok(!seen.isNew({ requestId: "N 1 with spaces", notificationType: "0028" }));
  assert.ok(seen.isNew({ requestId: "OLD", notificationType: "0015" }));
  const text = readFileSync(path, "latin1");
  assert.ok(text.startsWith("# baas seen-notifications v2:"), text);
  assert.ok(text.includes(`\n${now} 0028 N%201%20with%20spaces\n`), text);
});

test("tests/data/seen-file.json: the file the Rust and Python stores read and write too, byte for byte", () => {
  const shared = JSON.parse(readFileSync(new URL("../../../tests/data/seen-file.json", import.meta.url), "utf8")) as {
    recorded_ms: number;
    file: string;
    ids: [string, string][];
  };
  const dir = mkdtempSync(join(tmpdir(), "baas-seen-"));
  writeFileSync(join(dir, "read"), shared.file, "latin1");
  const seen = new SeenFile(join(dir, "read"), undefined, shared.recorded_ms + 3_600_000);
  assert.equal(seen.size, shared.ids.length);
  for (const [notificationType, requestId] of shared.ids) assert.ok(!seen.isNew({ notificationType, requestId }), JSON.stringify([notificationType, requestId]));
  const mine = new SeenFile(join(dir, "written"), undefined, shared.recorded_ms);
  for (const [notificationType, requestId] of shared.ids) mine.record({ notificationType, requestId }, shared.recorded_ms);
  assert.equal(readFileSync(join(dir, "written"), "latin1"), shared.file);
});
