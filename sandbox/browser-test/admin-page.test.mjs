// The sandbox's admin page (/_sandbox/) in a real browser: Debian's Chromium, headless,
// driven by playwright-core (pinned in package-lock.json; it never downloads a browser).
//
// The sandbox binary runs on a loopback port with its callback URL pointing at a receiver
// of this test. A CNY Express transfer is applied for through the generated TypeScript
// SDK; the browser reads the pending application's OTP from the page; the SDK confirms
// with it; the 0028 notification the confirmation produces reaches the receiver, signed,
// and its delivery appears on the page; the page's Redeliver button delivers it again
// (same requestId) and that delivery appears too. Any of these missing fails the test.
//
// Needs: the sandbox binary ($BAAS_SANDBOX, else target/debug/baas-sandbox under
// $CARGO_TARGET_DIR or the repository), the TypeScript SDK built (npm ci and tsc at the
// repository root, as .ci/run does), /usr/bin/chromium ($CHROMIUM to use another).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, isAbsolute, join } from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const sdk = await import(join(REPO, "generated", "typescript", "dist", "index.js"));

const SANDBOX_SENDER = "sandbox-partner";
const SANDBOX_KEY = "sandbox-test-key-not-a-secret";
const SERVICE_SENDER = "baas-sandbox";
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
/** How long the page is given to show something (reloaded meanwhile). */
const PAGE_WAIT_MS = 10_000;

// ---- the SDK calls (the only place this script calls the SDK: its call form may change) ----

function sdkCalls(baseUrl) {
  const client = new sdk.Client({
    baseUrl,
    sender: SANDBOX_SENDER,
    privateKey: new sdk.PrivateKey(SANDBOX_KEY),
  });
  return {
    /** Applies for a CNY Express transfer; its applicationId (the OTP's businessId). */
    async applyForCnyTransfer() {
      const answer = await client.applyForCnyExpress({
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
      });
      assert.ok(answer.applicationId, "the apply answers an applicationId");
      return answer.applicationId;
    },
    async sendOtp(businessId) {
      await client.sendOtp({ businessId, otpType: sdk.OtpType.Sms });
    },
    async confirm(businessId, otpCode) {
      await client.confirmOperation({ businessId, otpCode });
    },
    verifier: () => new sdk.NotificationVerifier(new sdk.PrivateKey(SANDBOX_KEY), SERVICE_SENDER),
  };
}

// ---- the sandbox binary and the callback receiver ----

function sandboxBinary() {
  const candidates = [];
  if (process.env.BAAS_SANDBOX) candidates.push(process.env.BAAS_SANDBOX);
  const target = process.env.CARGO_TARGET_DIR ?? join(REPO, "target");
  candidates.push(join(isAbsolute(target) ? target : join(REPO, target), "debug", "baas-sandbox"));
  const found = candidates.find((c) => existsSync(c));
  assert.ok(found, `no sandbox binary at ${candidates.join(" or ")}: cargo build -p baas-sandbox`);
  return found;
}

async function startSandbox(callbackUrl) {
  const child = spawn(sandboxBinary(), ["--port", "0", "--callback", callbackUrl], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the sandbox did not start in 20 s")), 20_000);
    lines.on("line", (line) => {
      if (line.startsWith("baas-sandbox listening on ")) {
        clearTimeout(timer);
        resolve(line.slice("baas-sandbox listening on ".length).trim());
      }
    });
    child.on("exit", (code) => reject(new Error(`the sandbox exited (${code})`)));
  });
  return { child, url };
}

/** A callback receiver on loopback: verifies each delivery, keeps it, answers `ok`. */
async function startReceiver(verifier) {
  const received = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      try {
        received.push(verifier.verify(new Uint8Array(Buffer.concat(chunks))));
        res.end("ok");
      } catch (e) {
        received.push({ refused: String(e) });
        res.end("refused");
      }
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, received, url: `http://127.0.0.1:${server.address().port}/callback` };
}

async function until(what, check) {
  const deadline = Date.now() + PAGE_WAIT_MS;
  for (;;) {
    const got = await check();
    if (got) return got;
    assert.ok(Date.now() < deadline, `${what} (waited ${PAGE_WAIT_MS} ms)`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ---- reading the page ----

/** The rows of the table in section `id` of the page, each a list of cell texts. */
async function rows(page, id) {
  return page.$$eval(`section#${id} tbody tr`, (trs) =>
    trs.map((tr) => Array.from(tr.cells, (td) => td.textContent ?? "")),
  );
}

/**
 * Clicks the form button `name` and waits until the page the form leads to has loaded: the
 * POST to `action` answered 303 and the page it points to (the admin page again, so its URL
 * does not change) committed and loaded. Reloading before then races the form's navigation.
 */
async function submit(page, name, action) {
  const posted = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === action);
  const committed = page.waitForEvent("framenavigated", (f) => f === page.mainFrame());
  await page.getByRole("button", { name }).click();
  const answer = await (await posted).response();
  assert.equal(answer?.status(), 303, `POST ${action} answers 303 See Other`);
  await committed;
  await page.waitForLoadState("load");
}

/** Reloads the page until `pick` finds something in section `id`. */
async function onPage(page, id, what, pick) {
  return until(`the admin page shows ${what}`, async () => {
    await page.reload();
    return pick(await rows(page, id));
  });
}

test("the admin page shows a pending OTP and the notification delivery, and redelivers it", { timeout: 60_000 }, async () => {
  assert.ok(existsSync(CHROMIUM), `no browser at ${CHROMIUM}: apt-get install chromium`);
  const calls0 = sdkCalls("http://127.0.0.1:1");
  const receiver = await startReceiver(calls0.verifier());
  const sandbox = await startSandbox(receiver.url);
  let browser;
  try {
    const calls = sdkCalls(sandbox.url);
    const applicationId = await calls.applyForCnyTransfer();

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    // A fresh context (playwright's own temporary profile) and a page of our own in it.
    const page = await (await browser.newContext()).newPage();
    page.on("crash", () => console.error("# the page's renderer crashed"));
    const shown = await page.goto(`${sandbox.url}/_sandbox/`);
    assert.equal(shown?.status(), 200);
    assert.equal(await page.title(), "baas-sandbox");

    // The pending application's row: businessId, operation, OTP sent, wrong OTPs, OTP.
    const row = await onPage(page, "applications", `application ${applicationId}`, (rs) =>
      rs.find((r) => r[0] === applicationId),
    );
    assert.equal(row[1], "applyForCnyExpress");
    const otp = row[4];
    assert.match(otp, /^\d{6}$/u, `the OTP cell of ${applicationId}`);

    await calls.sendOtp(applicationId);
    await calls.confirm(applicationId, otp);

    // The confirmation's 0028 reaches the receiver, signed, about this application.
    const notified = await until("the receiver gets the 0028", () =>
      receiver.received.find((n) => n.notificationType === "0028"),
    );
    assert.equal(notified.params.applicationId, applicationId);
    assert.deepEqual(receiver.received.filter((n) => n.refused), []);

    // Its delivery on the page: type, requestId, attempt, acknowledged, outcome.
    const delivered = await onPage(page, "deliveries", `the delivery of ${notified.requestId}`, (rs) =>
      rs.find((r) => r[1] === notified.requestId),
    );
    assert.deepEqual(delivered.slice(0, 5), ["0028", notified.requestId, "1", "yes", "ok"]);
    // The application is no longer pending.
    assert.equal((await rows(page, "applications")).find((r) => r[0] === applicationId), undefined);

    // Redeliver from the page: the same notification (requestId) arrives again.
    await page.selectOption("select[name=request_id]", notified.requestId);
    await submit(page, "Redeliver", "/_sandbox/redeliver");
    await until("the receiver gets the redelivered 0028", () =>
      receiver.received.filter((n) => n.requestId === notified.requestId).length === 2,
    );
    await onPage(page, "deliveries", `a second delivery of ${notified.requestId}`, (rs) =>
      rs.filter((r) => r[1] === notified.requestId && r[3] === "yes").length === 2,
    );
  } finally {
    await browser?.close();
    sandbox.child.kill();
    receiver.server.close();
  }
});
