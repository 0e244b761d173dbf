// The SDK's sandbox helper: SandboxProcess runs the baas-sandbox binary ($BAAS_SANDBOX, or
// target/debug/baas-sandbox under $CARGO_TARGET_DIR or the repository; without it those tests
// are skipped, unless BAAS_REQUIRE_SANDBOX=1), and the generated client built from its
// config() makes an OTP transfer confirmed with the OTP read from the admin API; faults, the
// clock, deliveries and redelivery through SandboxAdmin; the admin API's refusals, and the
// arguments refused before anything is sent, with a fake fetch.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import * as sdk from "@baas/client";
import { sandboxBinary } from "./vectors.js";

const binary = sandboxBinary();
const required = process.env["BAAS_REQUIRE_SANDBOX"] === "1";
const needsBinary = { skip: binary === undefined && !required ? "the sandbox binary is not built" : false, timeout: 60_000 };

function theBinary(): string {
  assert.ok(binary !== undefined, "the sandbox binary is not built (cargo build -p baas-sandbox --bin baas-sandbox)");
  return binary;
}

/** Runs `body` against a fresh sandbox, stopped afterwards. */
async function withSandbox(
  body: (sandbox: sdk.SandboxProcess, client: sdk.Client) => Promise<void>,
  options: sdk.SandboxOptions = {},
): Promise<void> {
  const sandbox = await sdk.SandboxProcess.start({ binary: theBinary(), ...options });
  try {
    await body(sandbox, new sdk.Client(sandbox.config()));
  } finally {
    await sandbox.stop();
  }
}

const TRANSFER = {
  payerAccountId: "1000000001",
  payeeBankCode: "46",
  payeeAccountId: "1000000004",
  currency: sdk.Currency.Kes,
  amount: "250.00",
} as const;

/** Rejects with a SandboxAdminError whose message holds every one of `words`. */
async function refusedWith(promise: Promise<unknown>, status: number | undefined, ...words: string[]): Promise<sdk.SandboxAdminError> {
  let caught: unknown;
  await assert.rejects(promise, (e) => {
    caught = e;
    return true;
  });
  assert.ok(caught instanceof sdk.SandboxAdminError, `a SandboxAdminError, not ${String(caught)}`);
  assert.equal(caught.status, status, caught.message);
  for (const word of words) assert.ok(caught.message.includes(word), `"${word}" in: ${caught.message}`);
  return caught;
}

test("start: the banner's URL, sender and key, and a client from config() that calls the sandbox", needsBinary, async () => {
  await withSandbox(async (sandbox, client) => {
    assert.match(sandbox.url, /^http:\/\/127\.0\.0\.1:\d+$/u);
    assert.equal(sandbox.sender, "sandbox-partner");
    assert.ok(sandbox.privateKey.equals(new sdk.PrivateKey("sandbox-test-key-not-a-secret")));
    assert.equal(String(sandbox.privateKey), "[redacted]");
    const config = sandbox.config();
    assert.deepEqual([config.baseUrl, config.sender], [sandbox.url, sandbox.sender]);
    assert.equal(config.privateKey, sandbox.privateKey);
    const account = await client.getAccountDetails({ accountId: "1000000001" });
    assert.equal(account.balance, "250000.00");
  });
});

test("an OTP transfer confirmed with the OTP the admin API reads", needsBinary, async () => {
  await withSandbox(async (sandbox, client) => {
    const admin = sandbox.admin;
    assert.deepEqual(await admin.pendingApplications(), []);
    await refusedWith(admin.otp("no-such-application"), undefined, '"no-such-application"', "none is pending");

    const pending = await client.applyForTransferPending(TRANSFER);
    const businessId = pending.businessId;
    await pending.sendOtp(sdk.OtpType.Sms);
    const [application, ...others] = await admin.pendingApplications();
    assert.deepEqual(others, []);
    assert.ok(application !== undefined);
    assert.deepEqual(
      { ...application, otp: undefined },
      { businessId, operation: "applyForTransfer", otpSent: true, wrongAttempts: 0, otp: undefined },
    );
    const otp = await admin.otp(businessId);
    assert.match(otp, /^\d{6}$/u);
    assert.equal(otp, application.otp);
    // An unknown id is refused, naming it and the applications that are pending.
    await refusedWith(admin.otp("no-such-application"), undefined, '"no-such-application"', `"${businessId}"`);

    // A wrong OTP is counted, then the right one confirms: the money moves once.
    const wrong = otp === "000000" ? "111111" : "000000";
    await assert.rejects(pending.confirm(wrong), sdk.ApiError);
    assert.equal((await admin.pendingApplications())[0]?.wrongAttempts, 1);
    await pending.confirm(otp);
    const result = await client.getTransResultUntilFinal({ txId: businessId }, { firstDelayMs: 20, maxDelayMs: 200, deadlineMs: 20_000 });
    assert.equal(String(result.txStatus), "8");
    assert.equal((await client.getAccountDetails({ accountId: "1000000001" })).balance, "249750.00");
    assert.equal((await client.getAccountDetails({ accountId: "1000000004" })).balance, "100250.00");
    // Confirmed, it is no longer pending.
    await refusedWith(admin.otp(businessId), undefined, `"${businessId}"`, "none is pending");

    // The requests the sandbox answered, newest first (the admin API's are not among them).
    const operations = (await admin.requests()).map(operationOf).reverse();
    assert.deepEqual(operations.slice(0, 4), ["applyForTransfer", "sendOtp", "confirmOperation", "confirmOperation"]);
    assert.deepEqual(operations.slice(-2), ["getAccountDetails", "getAccountDetails"]);
    assert.ok(operations.includes("getTransResult"), operations.join(", "));
  });
});

test("faults: a scenario the sandbox cannot read is refused with its message; one it reads applies until cleared", needsBinary, async () => {
  await withSandbox(async (sandbox, client) => {
    const admin = sandbox.admin;
    await refusedWith(admin.addFaults("faults:\n  - operation: getAccountDetails\n    code: \"10000\"\n"), 400, "scenario:2: faults[0]: missing field `fault`");
    assert.deepEqual((await admin.state())["faults"], []);
    await client.getAccountDetails({ accountId: "1000000001" });

    const added = await admin.addFaults('faults:\n  - operation: getAccountDetails\n    fault: code\n    code: "10000"\n    times: 3\n');
    assert.equal(added, "1 fault(s) added");
    const faults = (await admin.state())["faults"];
    assert.ok(Array.isArray(faults) && faults.length === 1, JSON.stringify(faults));
    await assert.rejects(client.getAccountDetails({ accountId: "1000000001" }), (e) => e instanceof sdk.ApiError && e.apiCode === "10000");

    await admin.clearFaults();
    assert.deepEqual((await admin.state())["faults"], []);
    assert.equal((await client.getAccountDetails({ accountId: "1000000001" })).balance, "250000.00");
  });
});

test("the clock moves by what advanceClock says; a negative or fractional advance is refused", needsBinary, async () => {
  await withSandbox(async (sandbox) => {
    const admin = sandbox.admin;
    const clock = async (): Promise<number> => {
      const value = (await admin.state())["clock_ms"];
      assert.ok(value instanceof sdk.JsonNumber, `clock_ms: ${String(value)}`);
      return Number(value.text);
    };
    const before = await clock();
    await admin.advanceClock(86_400_000);
    const after = await clock();
    // The sandbox's clock also runs in real time meanwhile: at least a day, and not much more.
    assert.ok(after - before >= 86_400_000 && after - before < 86_400_000 + 10_000, `${before} → ${after}`);
    await assert.rejects(admin.advanceClock(-1), RangeError);
    await assert.rejects(admin.advanceClock(1.5), RangeError);
    assert.ok((await clock()) - after < 10_000);
  });
});

/** A CNY Express transfer: its confirmation sends notification 0028. */
const CNY_EXPRESS: sdk.ApplyForCnyExpressRequest = {
  payerAccountId: "2000000001",
  beneficiaryType: sdk.BeneficiaryType.Enterprise,
  beneficiaryName: "Shanghai Trading",
  beneficiaryIdNumber: "9131",
  beneficiaryBankCode: "BOC",
  beneficiaryBankName: "Bank of China",
  beneficiaryBankAddress: "Shanghai",
  beneficiaryAccountId: "6222",
  paymentPurpose: sdk.PaymentPurpose.RelatedPartyPayment,
  supportDocumentFile: new TextEncoder().encode("hi"),
  supportDocumentType: sdk.CnyDocumentType.Pdf,
  companyRegisDocumentFile: new TextEncoder().encode("hi"),
  companyRegisDocumentType: sdk.CnyDocumentType.Pdf,
  invoiceDocumentType: sdk.CnyDocumentType.Pdf,
  oderArray: [{ productName: "tea", quantity: 1, amount: "100.00", orderTime: 1, platform: "shop" }],
};

test("deliveries to the callback URL are listed and one is delivered again", needsBinary, async () => {
  const bodies: string[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      bodies.push(Buffer.concat(chunks).toString("utf8"));
      res.end(sdk.ACK);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
  try {
    await withSandbox(
      async (sandbox, client) => {
        const admin = sandbox.admin;
        await refusedWith(admin.redeliver("no-such-notification"), 400, "no-such-notification");
        const { applicationId } = await client.applyForCnyExpress(CNY_EXPRESS);
        assert.ok(applicationId !== undefined);
        assert.deepEqual(await admin.deliveries(), []);
        await client.sendOtp({ businessId: applicationId, otpType: sdk.OtpType.Sms });
        await client.confirmOperation({ businessId: applicationId, otpCode: await admin.otp(applicationId) });
        const first = await until("a delivery", async () => (await admin.deliveries()).find((d) => d.acknowledged));
        assert.deepEqual([first.notificationType, first.attempt], ["0028", 1]);
        assert.ok(bodies.some((b) => b.includes(first.requestId)), "the receiver got it");
        // Issue 34: the service sender the helper reads from the banner verifies the delivery; the
        // names partners guessed ("service-sender", "baas") refuse it.
        assert.equal(sandbox.serviceSender, "baas-sandbox");
        assert.equal(admin.serviceSender, sandbox.serviceSender);
        assert.equal(new sdk.SandboxAdmin(sandbox.url).serviceSender, "baas-sandbox");
        const delivered = new TextEncoder().encode(bodies.find((b) => b.includes(first.requestId)) ?? "");
        const n = new sdk.NotificationVerifier(sandbox.privateKey, sandbox.serviceSender).verify(delivered);
        assert.equal(n.sender, "baas-sandbox");
        for (const guess of ["service-sender", "baas"]) {
          assert.throws(() => new sdk.NotificationVerifier(sandbox.privateKey, guess).verify(delivered));
        }
        await admin.redeliver(first.requestId);
        await until("the delivery again", async () => (await admin.deliveries()).filter((d) => d.requestId === first.requestId).length >= 2);
        assert.ok(bodies.filter((b) => b.includes(first.requestId)).length >= 2);
      },
      { callbackUrl },
    );
  } finally {
    receiver.close();
  }
});

function operationOf(request: sdk.JsonValue): sdk.JsonValue | undefined {
  return request !== null && typeof request === "object" && !Array.isArray(request) && !(request instanceof sdk.JsonNumber) ? request["operation"] : undefined;
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const got = await check();
    if (got !== undefined && got !== false) return got;
    assert.ok(Date.now() < deadline, `${what} (waited 10 s)`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("stop ends the process (twice is fine); the admin API is then unreachable", needsBinary, async () => {
  const sandbox = await sdk.SandboxProcess.start({ binary: theBinary() });
  const admin = sandbox.admin;
  await admin.state();
  const stopping = Date.now();
  await sandbox.stop();
  assert.ok(Date.now() - stopping < 3_000, "stopped by SIGTERM, not by the SIGKILL after 5 s");
  await sandbox.stop();
  await refusedWith(admin.state(), undefined, "cannot reach the sandbox's admin API", "ECONNREFUSED");
  await assert.rejects(fetch(`${sandbox.url}/_sandbox/api/state`));
});

test("await using stops the sandbox at the end of the block", needsBinary, async () => {
  let url: string;
  {
    await using sandbox = await sdk.SandboxProcess.start({ binary: theBinary() });
    url = sandbox.url;
    await sandbox.admin.state();
  }
  await assert.rejects(fetch(`${url}/_sandbox/api/state`));
});

test("admin: false runs --no-admin: the admin property throws, the API is not served", needsBinary, async () => {
  await withSandbox(
    async (sandbox, client) => {
      assert.throws(() => sandbox.admin, (e) => e instanceof sdk.SandboxAdminError && e.message.includes("admin: false"));
      await refusedWith(new sdk.SandboxAdmin(sandbox.url).state(), undefined, "--no-admin");
      await refusedWith(new sdk.SandboxAdmin(sandbox.url).clearFaults(), 500, "--no-admin");
      assert.equal((await client.getAccountDetails({ accountId: "1000000001" })).balance, "250000.00");
    },
    { admin: false },
  );
});

test("adminToken: SandboxProcess passes --admin-token and its admin sends it; a helper without it is refused", needsBinary, async () => {
  await withSandbox(
    async (sandbox) => {
      assert.ok("clock_ms" in (await sandbox.admin.state()));
      await sandbox.admin.advanceClock(1000);
      await refusedWith(new sdk.SandboxAdmin(sandbox.url).state(), 403, "--admin-token");
      await refusedWith(new sdk.SandboxAdmin(sandbox.url, { adminToken: "ts-token-3" }).state(), 403, "--admin-token");
    },
    { adminToken: "ts-token-35" },
  );
});

test("start fails clearly: a binary that is not there, one that exits, one that prints no banner", needsBinary, async () => {
  await assert.rejects(sdk.SandboxProcess.start({ binary: "/nonexistent/baas-sandbox" }), /not found.*BAAS_SANDBOX/su);
  // A scenario file that does not exist: the sandbox exits 2, saying why on stderr.
  await assert.rejects(
    sdk.SandboxProcess.start({ binary: theBinary(), scenario: "/nonexistent/scenario.yaml" }),
    (e) => e instanceof Error && /exited \(code 2\) before it was ready/u.test(e.message) && e.message.includes("/nonexistent/scenario.yaml"),
  );
  if (process.platform !== "win32") {
    const silent = join(mkdtempSync(join(tmpdir(), "baas-ts-")), "silent-sandbox");
    writeFileSync(silent, "#!/bin/sh\necho 'starting, never ready'\nexec sleep 30\n");
    chmodSync(silent, 0o755);
    const started = Date.now();
    await assert.rejects(
      sdk.SandboxProcess.start({ binary: silent, startupTimeoutMs: 300 }),
      (e) => e instanceof Error && e.message.includes("printed no banner within 300 ms") && e.message.includes("never ready"),
    );
    assert.ok(Date.now() - started < 5_000);
  }
});

// ---- SandboxAdmin against a fake fetch: what is sent, and the refusals ----

interface Sent {
  readonly url: string;
  readonly method: string;
  readonly body: string | undefined;
  readonly contentType: string | undefined;
}

function fake(answer: (sent: Sent) => Response | Promise<Response>): { admin: sdk.SandboxAdmin; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: sdk.Fetch = async (input, init) => {
    const headers = new Headers(init.headers);
    const one = {
      url: input,
      method: init.method ?? "GET",
      body: typeof init.body === "string" ? init.body : undefined,
      contentType: headers.get("content-type") ?? undefined,
    };
    sent.push(one);
    return answer(one);
  };
  return { admin: new sdk.SandboxAdmin("http://127.0.0.1:9/_sandbox/", { fetch, timeoutMs: 1_000 }), sent };
}

const json = (status: number, value: unknown): Response => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });

test("a 400 of the admin API is a SandboxAdminError with the sandbox's own message", async () => {
  const { admin, sent } = fake(() => json(400, { error: "scenario:3: faults[0]: unknown fault `boom`" }));
  const e = await refusedWith(admin.addFaults("faults: []\n"), 400);
  assert.equal(e.message, "scenario:3: faults[0]: unknown fault `boom`");
  await refusedWith(admin.redeliver("n-1"), 400, "unknown fault");
  assert.deepEqual(sent, [
    { url: "http://127.0.0.1:9/_sandbox/faults", method: "POST", body: "faults: []\n", contentType: "application/yaml" },
    { url: "http://127.0.0.1:9/_sandbox/redeliver", method: "POST", body: "n-1", contentType: "text/plain; charset=utf-8" },
  ]);
});

test("advanceClock refuses a negative, fractional or non-number advance and sends nothing", async () => {
  const { admin, sent } = fake(() => json(200, { done: "clock advanced" }));
  await assert.rejects(admin.advanceClock(-1), RangeError);
  await assert.rejects(admin.advanceClock(0.5), RangeError);
  await assert.rejects(admin.advanceClock(Number.NaN), RangeError);
  await assert.rejects(admin.advanceClock(2 ** 60), RangeError);
  await assert.rejects(admin.advanceClock("5" as unknown as number), TypeError);
  assert.equal(sent.length, 0);
  await admin.advanceClock(86_400_000);
  await admin.advanceClock(0);
  assert.deepEqual(
    sent.map((s) => [s.url, s.method, s.body]),
    [
      ["http://127.0.0.1:9/_sandbox/clock", "POST", "86400000"],
      ["http://127.0.0.1:9/_sandbox/clock", "POST", "0"],
    ],
  );
});

test("reads: rows typed, numbers as JsonNumber, a wrong shape and an unreachable sandbox refused", async () => {
  const row = { business_id: "TX1", operation: "applyForTransfer", otp_sent: false, wrong_attempts: 2, otp: "123456" };
  const { admin, sent } = fake((s) => {
    if (s.url.endsWith("/api/applications")) return json(200, [row]);
    if (s.url.endsWith("/api/deliveries")) return json(200, [{ notification_type: "0015", request_id: "N1", attempt: 3, acknowledged: false, outcome: "HTTP 500" }]);
    if (s.url.endsWith("/api/state")) return json(200, { clock_ms: 1795804815747, faults: [] });
    return new Response("no such admin page", { status: 404 });
  });
  assert.deepEqual(await admin.pendingApplications(), [{ businessId: "TX1", operation: "applyForTransfer", otpSent: false, wrongAttempts: 2, otp: "123456" }]);
  assert.equal(await admin.otp("TX1"), "123456");
  await refusedWith(admin.otp("TX2"), undefined, '"TX2"', 'pending: "TX1"');
  assert.deepEqual(await admin.deliveries(), [{ notificationType: "0015", requestId: "N1", attempt: 3, acknowledged: false, outcome: "HTTP 500" }]);
  const state = await admin.state();
  assert.ok(state["clock_ms"] instanceof sdk.JsonNumber && state["clock_ms"].text === "1795804815747");
  await refusedWith(admin.requests(), 404, "HTTP 404: no such admin page");
  assert.ok(sent.every((s) => s.method === "GET" && s.body === undefined));

  const { admin: wrong } = fake(() => json(200, [{ business_id: "TX1", operation: "x", otp_sent: "yes", wrong_attempts: 0, otp: "1" }]));
  await refusedWith(wrong.pendingApplications(), undefined, "applications[0].otp_sent is not a boolean");
  const { admin: partnerApi } = fake(() => json(200, { code: "12000", msg: "only POST is supported" }));
  await refusedWith(partnerApi.state(), undefined, "--no-admin");
  await refusedWith(partnerApi.deliveries(), undefined, "--no-admin");

  const { admin: down } = fake(() => {
    throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
  });
  const e = await refusedWith(down.state(), undefined, "cannot reach", "ECONNREFUSED");
  assert.ok(e.cause instanceof TypeError);
  const { admin: slow } = fake(() => new Promise<Response>(() => undefined));
  await refusedWith(slow.clearFaults(), undefined, "no answer within 1000 ms");
});

test("SandboxAdmin refuses a base URL that is not http(s), and a bad time limit", () => {
  assert.throws(() => new sdk.SandboxAdmin("not a url"), TypeError);
  assert.throws(() => new sdk.SandboxAdmin("ftp://127.0.0.1:9"), TypeError);
  assert.throws(() => new sdk.SandboxAdmin("http://127.0.0.1:9", { timeoutMs: 0 }), RangeError);
  assert.equal(new sdk.SandboxAdmin("http://127.0.0.1:9/").baseUrl, "http://127.0.0.1:9");
});
