// The conformance suite (tests/conformance/scenarios/*.json, described in
// tests/conformance/README.md) run by the generated TypeScript SDK against the sandbox binary,
// one fresh sandbox per scenario, as the Rust and Python runners do, started with the SDK's
// SandboxProcess (an OTP is read from its admin API). The binary is $BAAS_SANDBOX, or
// target/debug/baas-sandbox under $CARGO_TARGET_DIR or the repository; without it the
// scenarios are skipped, unless BAAS_REQUIRE_SANDBOX=1 (CI).
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import * as sdk from "@baas/client";
import { type Operation, SeenFile } from "@baas/runtime";
import { REPO, sandboxBinary } from "./vectors.js";

const SCENARIOS = join(REPO, "tests", "conformance", "scenarios");

/** The faults a step may name, applied at the client's fetch. */
const FAULTS = new Set(["drop_answer", "lose_request", "tamper_answer", "strip_signature"]);

/** The client's fetch: counts the requests that leave and applies a step's fault. */
class Probe {
  sent = 0;
  fault: string | undefined;
  readonly fetch: sdk.Fetch = async (input, init) => {
    this.sent += 1;
    const fault = this.fault;
    this.fault = undefined;
    // Never forwarded: the service sees nothing, and the client sees what a connection broken
    // after sending shows (it cannot tell the two apart).
    if (fault === "lose_request") throw new TypeError("fetch failed", { cause: { code: "ECONNRESET" } });
    const answer = await fetch(input, init);
    const text = await answer.text();
    if (fault === "drop_answer") throw new TypeError("fetch failed", { cause: { code: "ECONNRESET" } });
    if (fault === "tamper_answer") return new Response(text.replace('"msg":"', '"msg":"(tampered) '), { status: answer.status });
    if (fault === "strip_signature") {
      return new Response(text.replace(/,"signature":"[^"]*"|"signature":"[^"]*",?/u, ""), { status: answer.status });
    }
    assert.equal(fault, undefined, `unknown fault ${fault ?? ""}`);
    return new Response(text, { status: answer.status });
  };
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface Step {
  call?: string;
  mode?: string;
  params?: Record<string, Json>;
  fault?: string;
  save?: Record<string, string>;
  pending?: string;
  settle?: string;
  notification?: { type: string; requestId: string; sender: string; params: Record<string, Json>; age_seconds?: number; tamper?: boolean };
  expect?: Record<string, Json>;
}

/**
 * The keys a step of each kind may have, and the keys of its `expect`: anything else fails the
 * scenario, so a step this runner does not understand is never skipped.
 */
const STEP_KEYS: Record<string, readonly [readonly string[], readonly string[]]> = {
  call: [
    ["call", "mode", "params", "fault", "save", "pending", "expect"],
    ["outcome", "sent", "fields", "error", "code", "result_code", "retryable", "violations", "items"],
  ],
  settle: [["settle", "fault", "expect"], ["settled", "state", "final", "sent", "error", "code", "retryable"]],
  notification: [["notification", "expect"], ["outcome", "error", "fields", "new"]],
};

function checkKeys(at: string, step: Step): void {
  const kind = ["notification", "settle", "call"].find((k) => k in step);
  assert.ok(kind !== undefined, `${at}: a step is a call, a settle or a notification: ${JSON.stringify(step)}`);
  const [keys, expectKeys] = STEP_KEYS[kind] ?? [[], []];
  for (const key of Object.keys(step)) assert.ok(keys.includes(key), `${at}: unknown step key ${key}`);
  for (const key of Object.keys(step.expect ?? {})) assert.ok(expectKeys.includes(key), `${at}: unknown expect key ${key}`);
  if (step.fault !== undefined) assert.ok(FAULTS.has(step.fault), `${at}: unknown fault ${step.fault}`);
}

const OPERATIONS = new Map<string, Operation<unknown, unknown>>();
for (const value of Object.values(sdk)) {
  if (typeof value === "object" && value !== null && "path" in value && "movesMoney" in value && "name" in value) {
    const op = value as Operation<unknown, unknown>;
    OPERATIONS.set(op.name, op);
  }
}

/** The params with each document field's Base64 text (as a scenario gives it, as the wire carries it) as its bytes. */
function documents(op: Operation<unknown, unknown>, params: Record<string, Json>): Record<string, unknown> {
  const kinds = new Map((op.params?.fields ?? []).map((f) => [f.wire, f.ty.k] as const));
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, kinds.get(k) === "document" && typeof v === "string" ? Buffer.from(v, "base64") : v]),
  );
}

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function field(data: unknown, name: string): unknown {
  return typeof data === "object" && data !== null ? (data as Record<string, unknown>)[name] : undefined;
}

function errorName(e: unknown): string {
  if (e instanceof sdk.InvalidRequest) return "invalid_request";
  if (e instanceof sdk.ApiError) return "api";
  if (e instanceof sdk.OutcomeUnknown) return "outcome_unknown";
  if (e instanceof sdk.SignatureMissing) return "signature_missing";
  if (e instanceof sdk.SignatureInvalid) return "signature_invalid";
  if (e instanceof sdk.Untrusted) return "untrusted";
  return e instanceof Error ? e.name : String(e);
}

const snake = (name: string): string => name.replace(/[A-Z]/gu, (c, i: number) => (i > 0 ? "_" : "") + c.toLowerCase());

function checkError(at: string, e: unknown, expect: Record<string, Json>): void {
  assert.ok(e instanceof sdk.BaasError, `${at}: ${String(e)}`);
  if ("error" in expect) assert.equal(errorName(e), expect["error"], `${at}: error kind of ${e.message}`);
  if ("code" in expect) assert.equal(e.apiCode, expect["code"], `${at}: code of ${e.message}`);
  if ("result_code" in expect) {
    const name = e.apiCode === undefined ? undefined : sdk.resultCodeName(e.apiCode);
    assert.equal(name === undefined ? undefined : snake(name), expect["result_code"], `${at}: typed code`);
  }
  if ("retryable" in expect) assert.equal(e.isRetryable(), expect["retryable"], `${at}: retryable of ${e.message}`);
  if ("violations" in expect) {
    assert.ok(e instanceof sdk.InvalidRequest, `${at}: ${e.message}`);
    assert.deepEqual(e.violations.map((v) => [v.field, v.rule]), expect["violations"], `${at}: violations`);
  }
}

class Run {
  readonly probe = new Probe();
  readonly client: sdk.Client;
  readonly vars = new Map<string, string>();
  /** The pending applications kept by `"pending": name` (each an applyForTransfer). */
  readonly pending = new Map<string, sdk.SettlingPending<unknown, string | number>>();

  constructor(readonly sandbox: sdk.SandboxProcess) {
    this.client = new sdk.Client({ ...sandbox.config(), fetch: this.probe.fetch });
  }

  /** `value` with each `${var}` replaced by the saved text, `${otp:var}` by the sandbox's OTP of it. */
  async substitute(value: Json): Promise<Json> {
    if (typeof value === "string" && value.startsWith("${") && value.endsWith("}")) {
      const inner = value.slice(2, -1);
      const saved = this.vars.get(inner.startsWith("otp:") ? inner.slice(4) : inner);
      assert.ok(saved !== undefined, `no saved ${inner}`);
      return inner.startsWith("otp:") ? this.sandbox.admin.otp(saved) : saved;
    }
    if (Array.isArray(value)) return Promise.all(value.map((v) => this.substitute(v)));
    if (typeof value === "object" && value !== null) {
      const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await this.substitute(v)] as const));
      return Object.fromEntries(entries);
    }
    return value;
  }

  async call(name: string, mode: string, params: Record<string, Json>): Promise<unknown> {
    const op = OPERATIONS.get(name);
    assert.ok(op !== undefined, `no operation ${name}`);
    if (mode === "call") return this.client.runtime.execute(op, documents(op, params));
    if (mode === "pending" && name === "applyForTransfer") {
      return this.client.applyForTransferPending(params as unknown as sdk.ApplyForTransferRequest);
    }
    const policy = { firstDelayMs: 20, maxDelayMs: 200, deadlineMs: 20_000 };
    if (mode === "until_final" && name === "getTransResult") {
      return this.client.getTransResultUntilFinal(params as unknown as sdk.GetTransResultRequest, policy);
    }
    if (mode === "pages" && name === "getTransList") {
      const items: unknown[] = [];
      for await (const item of this.client.getTransListPages(params as unknown as sdk.GetTransListRequest).items()) items.push(item);
      return items;
    }
    return assert.fail(`no mode ${mode} for ${name}`);
  }
}

function checkFields(at: string, data: unknown, fields: Json): void {
  for (const [name, want] of Object.entries((fields ?? {}) as Record<string, Json>)) {
    assert.equal(text(field(data, name)), text(want), `${at}: field ${name} of ${JSON.stringify(data)}`);
  }
}

function checkItems(at: string, items: unknown[], expect: Record<string, Json>): void {
  if ("count" in expect) assert.equal(String(items.length), text(expect["count"]), `${at}: item count`);
  if ("min_count" in expect) assert.ok(items.length >= Number(expect["min_count"]), `${at}: ${items.length} items`);
  if ("unique" in expect) {
    const keys = items.map((i) => text(field(i, String(expect["unique"]))));
    assert.equal(new Set(keys).size, keys.length, `${at}: an item twice`);
  }
  if ("contains" in expect) {
    const wanted = Object.entries(expect["contains"] as Record<string, Json>);
    assert.ok(items.some((i) => wanted.every(([k, v]) => text(field(i, k)) === text(v))), `${at}: contains ${JSON.stringify(wanted)}`);
  }
}

/** `{"settle": name}`: the pending application's `settle()`, one lookup. */
async function runSettle(run: Run, at: string, step: Step): Promise<void> {
  const expect = step.expect ?? {};
  assert.ok("settled" in expect, `${at}: a settle step expects \`settled\``);
  const pending = run.pending.get(step.settle ?? "");
  assert.ok(pending !== undefined, `${at}: no pending application ${step.settle ?? ""}`);
  run.probe.fault = step.fault;
  const before = run.probe.sent;
  const settled = await pending.settle();
  run.probe.fault = undefined;
  if ("sent" in expect) assert.equal(run.probe.sent - before, expect["sent"], `${at}: requests sent by the client`);
  assert.equal(settled.safeToConfirmAgain, settled.kind === "not_confirmed", `${at}: safeToConfirmAgain`);
  assert.equal(settled.kind, expect["settled"], `${at}: settled ${JSON.stringify(settled)}`);
  if ("state" in expect) assert.equal(settled.kind === "still_unknown" ? undefined : text(settled.state), text(expect["state"]), `${at}: state`);
  if ("final" in expect) assert.equal(settled.kind === "confirmed" ? settled.isFinal : undefined, expect["final"], `${at}: final`);
  if (settled.kind === "still_unknown") checkError(at, settled.error, expect);
}

async function runNotification(run: Run, at: string, step: Step, verifier: sdk.NotificationVerifier, seen: SeenFile): Promise<void> {
  const n = (await run.substitute(step.notification as unknown as Json)) as unknown as NonNullable<Step["notification"]>;
  const expect = step.expect ?? {};
  let body = sdk.signedNotification({
    notificationType: n.type,
    requestId: n.requestId,
    sender: n.sender,
    params: n.params,
    key: run.sandbox.privateKey,
    timestampMs: Date.now() - (n.age_seconds ?? 0) * 1000,
  });
  if (n.tamper === true) {
    body = new TextEncoder().encode(new TextDecoder().decode(body).replace(`"${n.requestId}"`, `"${n.requestId}X"`));
  }
  let got: sdk.Notification;
  try {
    got = verifier.verify(body);
  } catch (e) {
    assert.equal(expect["outcome"], "refused", `${at}: refused: ${String(e)}`);
    checkError(at, e, expect);
    return;
  }
  assert.equal(expect["outcome"] ?? "ok", "ok", `${at}: accepted`);
  checkFields(at, { notificationType: got.notificationType, requestId: got.requestId }, expect["fields"] ?? {});
  const fresh = seen.isNew(got);
  if ("new" in expect) assert.equal(fresh, expect["new"], `${at}: is new`);
  if (fresh) seen.record(got);
}

const files = readdirSync(SCENARIOS).filter((f) => f.endsWith(".json")).sort();
const binary = sandboxBinary();
const required = process.env["BAAS_REQUIRE_SANDBOX"] === "1";

test("every scenario is found, and the operations they call", () => {
  assert.ok(files.length >= 10);
  for (const name of ["getAccountDetails", "applyForTransfer", "sendOtp", "confirmOperation", "getTransList", "getTransResult"]) {
    assert.ok(OPERATIONS.has(name), name);
  }
  if (required) assert.ok(binary !== undefined, "the sandbox binary is not built (cargo build -p baas-sandbox --bin baas-sandbox)");
});

for (const file of files) {
  test(`scenario ${file}`, { skip: binary === undefined && !required ? "the sandbox binary is not built" : false }, async () => {
    assert.ok(binary !== undefined, "the sandbox binary is not built");
    const scenario = JSON.parse(readFileSync(join(SCENARIOS, file), "utf8")) as { service_sender?: string; steps: Step[] };
    const sandbox = await sdk.SandboxProcess.start({ binary });
    try {
      const run = new Run(sandbox);
      const verifier = new sdk.NotificationVerifier(sandbox.privateKey, scenario.service_sender ?? "baas-sandbox");
      const seen = new SeenFile(join(mkdtempSync(join(tmpdir(), "baas-ts-")), "seen"));
      for (const [i, step] of scenario.steps.entries()) {
        const at = `${file} step ${i + 1}`;
        checkKeys(at, step);
        if (step.settle !== undefined) {
          await runSettle(run, at, step);
          continue;
        }
        if (step.notification !== undefined) {
          await runNotification(run, at, step, verifier, seen);
          continue;
        }
        const expect = step.expect ?? {};
        const want = expect["outcome"] ?? "ok";
        run.probe.fault = step.fault;
        const before = run.probe.sent;
        let mode = step.mode ?? "call";
        if (step.pending !== undefined) {
          assert.equal(mode, "call", `${at}: \`pending\` is for a plain call`);
          mode = "pending";
        }
        let got: unknown;
        let failed = false;
        try {
          got = await run.call(step.call ?? "", mode, (await run.substitute(step.params ?? {})) as Record<string, Json>);
        } catch (e) {
          if (!(e instanceof sdk.BaasError)) throw e;
          assert.equal(e.outcome, want, `${at}: outcome of ${e.message}`);
          checkError(at, e, expect);
          failed = true;
        } finally {
          run.probe.fault = undefined; // never left for a later step
        }
        if (!failed) assert.equal(want, "ok", `${at}: succeeded with ${JSON.stringify(got)}`);
        if ("sent" in expect) assert.equal(run.probe.sent - before, expect["sent"], `${at}: requests sent by the client`);
        if (failed) continue;
        if (got instanceof sdk.SettlingPending) {
          const pending = got as sdk.SettlingPending<unknown, string | number>;
          run.pending.set(step.pending ?? "", pending);
          run.vars.set(step.pending ?? "", pending.businessId);
          got = pending.response;
        }
        if (Array.isArray(got)) {
          checkItems(at, got, (await run.substitute(expect["items"] ?? {})) as Record<string, Json>);
          continue;
        }
        checkFields(at, got, await run.substitute(expect["fields"] ?? {}));
        for (const [name, wire] of Object.entries(step.save ?? {})) {
          const value = text(field(got, wire));
          assert.ok(value !== undefined, `${at}: no ${wire} to save`);
          run.vars.set(name, value);
        }
      }
    } finally {
      await sandbox.stop();
    }
  });
}
