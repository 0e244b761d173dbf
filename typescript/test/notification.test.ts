import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import {
  DecodeError,
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

test("delivery ids are kept across a restart and dropped after the window", () => {
  const path = join(mkdtempSync(join(tmpdir(), "baas-seen-")), "seen");
  const v = new Verifier(key, "bank");
  const first = v.verify(body(), now);
  const seen = new SeenFile(path, 60_000, now);
  assert.ok(seen.isNew(first));
  seen.record(first);
  assert.ok(!seen.isNew(first));
  assert.ok(seen.isNew(v.verify(body({ notificationType: "0026" }), now)), "the type is part of the key");
  assert.ok(!new SeenFile(path, 60_000, now + 1000).isNew(first), "kept across a restart");
  assert.ok(new SeenFile(path, 60_000, now + 120_000).isNew(first), "dropped after the window");
});
