// The shared vectors of answers bound to their request (`answers`) and of the one
// `notificationType` rule (`notification_types`) in tests/data/signing-vectors.json (issue 35),
// which the Rust, Python, Java and PHP verifiers pass too.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ApiError,
  DecodeError,
  Verifier as NotificationVerifier,
  openResponse,
  PrivateKey,
  RequestIdMismatch,
  SignatureInvalid,
  SignatureMissing,
  Untrusted,
  verifyBody,
} from "../src/index.js";
import { type AnswerVector, bytes, VECTORS } from "./vectors.js";

function outcome(v: AnswerVector): string {
  try {
    openResponse(200, bytes(v.body), new PrivateKey(v.key), v.request_id);
    return "success";
  } catch (e) {
    if (e instanceof ApiError) return `failure ${e.code} verified=${e.verified}`;
    if (e instanceof RequestIdMismatch) return "refused request_id_mismatch";
    if (e instanceof Untrusted) return "refused wrong_kind";
    if (e instanceof SignatureMissing) return "refused signature_missing";
    if (e instanceof SignatureInvalid) return "refused signature_invalid";
    if (e instanceof DecodeError) return "refused malformed";
    throw e;
  }
}

test("answers: bound to their request, of the right kind", () => {
  assert.ok(VECTORS.answers.length >= 13);
  for (const v of VECTORS.answers) {
    const e = v.expect;
    const expected = e.outcome === "failure" ? `failure ${e.code} verified=${e.verified}` : e.outcome === "refused" ? `refused ${e.refusal}` : "success";
    assert.equal(outcome(v), expected, v.name);
  }
});

test("notification_types: a JSON string, any number refused", () => {
  assert.ok(VECTORS.notification_types.length >= 9);
  for (const v of VECTORS.notification_types) {
    const verifier = new NotificationVerifier(new PrivateKey(v.key), v.service_sender);
    let got: string;
    try {
      got = `accepted ${verifier.verify(bytes(v.body), v.now_ms).notificationType}`;
    } catch (e) {
      if (!(e instanceof DecodeError) && !(e instanceof Untrusted)) throw e;
      got = "refused";
    }
    assert.equal(got, v.expect.outcome === "accepted" ? `accepted ${v.expect.notification_type}` : "refused", v.name);
  }
});

test("a decode error quotes the received body with the key redacted (as Java and PHP)", () => {
  const key = new PrivateKey("partner-secret-key");
  const bodies = [
    '{"requestId":"R1","code":"00000","senderKey":"partner-secret-key"',
    '{"requestId":"R1","code":["partner-secret-key"],"msg":"ok"}',
    `${"x".repeat(252)}partner-secret-key and more`,
  ];
  for (const body of bodies) {
    for (const attempt of [() => openResponse(200, bytes(body), key, "R1"), () => verifyBody(bytes(body), key)]) {
      assert.throws(attempt, (e: unknown) => {
        assert.ok(e instanceof Error, String(e));
        const shown = `${e.message} ${e instanceof DecodeError ? e.snippet : ""}`;
        assert.ok(!shown.includes("partner-s"), shown);
        return true;
      });
    }
  }
});
