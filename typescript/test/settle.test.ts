// Settling a confirmation whose outcome is unknown (issue 34 item 9): against the sandbox binary
// with its `lose_request` fault (the confirmation never arrived: not_confirmed, then confirmed
// once with the same OTP) and `drop_answer` (it arrived: confirmed), and on the MockService for
// the lookups that say nothing. Also `isRetryable()`, a method since @baas/runtime 0.3.0.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as sdk from "@baas/client";
import { sandboxBinary } from "./vectors.js";

const binary = sandboxBinary();
const required = process.env["BAAS_REQUIRE_SANDBOX"] === "1";
const needsBinary = { skip: binary === undefined && !required ? "the sandbox binary is not built" : false, timeout: 60_000 };
const PAYER = "1000000001";
const PAYEE = "1000000004";
const TRANSFER = { payerAccountId: PAYER, payeeBankCode: "46", payeeAccountId: PAYEE, currency: sdk.Currency.Kes, amount: "1000.50" } as const;

async function withSandbox(body: (sandbox: sdk.SandboxProcess, client: sdk.Client) => Promise<void>): Promise<void> {
  assert.ok(binary !== undefined, "the sandbox binary is not built (cargo build -p baas-sandbox --bin baas-sandbox)");
  const sandbox = await sdk.SandboxProcess.start({ binary });
  try {
    await body(sandbox, new sdk.Client(sandbox.config()));
  } finally {
    await sandbox.stop();
  }
}

const balance = async (client: sdk.Client, accountId: string): Promise<string | undefined> =>
  (await client.getAccountDetails({ accountId })).balance;

/** The codes of the confirmations the sandbox logged, newest first. */
async function confirmations(sandbox: sdk.SandboxProcess): Promise<string[]> {
  const rows = (await sandbox.admin.requests()) as Record<string, unknown>[];
  return rows.filter((r) => r["operation"] === "confirmOperation").map((r) => String(r["code"]));
}

const fault = (kind: string, businessId: string): string =>
  `faults:\n  - operation: confirmOperation\n    when: { businessId: ${businessId} }\n    fault: ${kind}\n`;

test("a confirmation lost before it arrived settles as not_confirmed, and the same OTP confirms it once", needsBinary, async () => {
  await withSandbox(async (sandbox, client) => {
    const before = [await balance(client, PAYER), await balance(client, PAYEE)];
    const pending = await client.applyForTransferPending(TRANSFER);
    await pending.sendOtp(sdk.OtpType.Sms);
    const otp = await sandbox.admin.otp(pending.businessId);
    await sandbox.admin.addFaults(fault("lose_request", pending.businessId));
    await assert.rejects(pending.confirm(otp), (e: unknown) => e instanceof sdk.OutcomeUnknown && e.outcome === "unknown" && !e.isRetryable());
    assert.deepEqual([await balance(client, PAYER), await balance(client, PAYEE)], before);
    assert.deepEqual(await confirmations(sandbox), ["lost"]);

    const settled = await pending.settle();
    assert.equal(settled.kind, "not_confirmed");
    if (settled.kind !== "not_confirmed") return;
    assert.equal(settled.state, sdk.TxStatus.Submitted);
    assert.ok(settled.safeToConfirmAgain && settled.otpRule.includes("same OTP"), settled.otpRule);
    await pending.confirm(otp); // the same OTP, as the rule says
    const again = await pending.settle();
    assert.deepEqual(again.kind === "confirmed" ? [again.state, again.isFinal] : again, [sdk.TxStatus.Succeeded, true]);
    assert.equal(await balance(client, PAYER), "248999.50");
    assert.equal(await balance(client, PAYEE), "101000.50");
    assert.deepEqual(await confirmations(sandbox), ["00000", "lost"]);
  });
});

test("a confirmation whose answer was lost settles as confirmed; a payment settles by paymentQuery", needsBinary, async () => {
  await withSandbox(async (sandbox, client) => {
    const pending = await client.applyForTransferPending(TRANSFER);
    await pending.sendOtp(sdk.OtpType.Sms);
    await sandbox.admin.addFaults(fault("drop_answer", pending.businessId));
    await assert.rejects(pending.confirm(await sandbox.admin.otp(pending.businessId)), sdk.OutcomeUnknown);
    const settled = await pending.settle();
    assert.deepEqual(settled.kind === "confirmed" ? [settled.state, settled.isFinal, settled.safeToConfirmAgain] : settled, [
      sdk.TxStatus.Succeeded,
      true,
      false,
    ]);
    assert.equal(await balance(client, PAYER), "248999.50");
    assert.deepEqual(await confirmations(sandbox), ["00000"]);

    const payment = await client.airtimePaymentPending({
      accountId: PAYER,
      mobileNumber: "254700000001",
      networkProvider: sdk.NetworkProvider.First,
      amount: "100",
    });
    await payment.sendOtp(sdk.OtpType.Sms);
    await sandbox.admin.addFaults(fault("lose_request", payment.businessId));
    await assert.rejects(payment.confirm(await sandbox.admin.otp(payment.businessId)), sdk.OutcomeUnknown);
    const paid = await payment.settle();
    assert.deepEqual(paid.kind === "not_confirmed" ? paid.state : paid, sdk.UtilityPaymentStatus.WaitingForOtp);
  });
});

test("a lookup that fails or says nothing is still_unknown; a processing state is confirmed, not final", async () => {
  const key = new sdk.PrivateKey("unit-test-key-42");
  let answer: Record<string, unknown> | { refuse: string; msg: string } | "no_answer" = { refuse: "10001", msg: "busy" };
  const mock = new sdk.MockService(key).on(sdk.applyForTransfer, () => ({ txId: "T1" })).on(sdk.getTransResult, () => answer);
  const client = new sdk.Client({ baseUrl: "https://bank.example", sender: "partner", privateKey: key, fetch: mock.fetch, maxRetries: 0 });
  const pending = await client.applyForTransferPending(TRANSFER);
  for (const a of [{ refuse: "10001", msg: "busy" }, "no_answer"] as const) {
    answer = a;
    const settled = await pending.settle();
    assert.equal(settled.kind, "still_unknown");
    if (settled.kind === "still_unknown") assert.equal(settled.error.operation, "getTransResult");
  }
  for (const [data, says] of [
    [{ txId: "T1" }, "no state"],
    [{ txId: "T1", txStatus: 3 }, "not one this SDK lists"],
  ] as const) {
    answer = data;
    const settled = await pending.settle();
    assert.ok(settled.kind === "still_unknown" && settled.error instanceof sdk.DecodeError && settled.error.message.includes(says), says);
  }
  answer = { txId: "T1", txStatus: 2 };
  const processing = await pending.settle();
  assert.deepEqual(processing.kind === "confirmed" ? [processing.state, processing.isFinal] : processing, [sdk.TxStatus.Processing, false]);
  assert.equal(mock.requestsOf(sdk.getTransResult).length, 5);
});
