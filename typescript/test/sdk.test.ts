// The generated client as a partner's unit test uses it: on the MockService, with the
// generated operation descriptors, through the OTP handle and typed notifications.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  applyForTransfer,
  Client,
  confirmOperation,
  Currency,
  getAccountDetails,
  getTransList,
  InvalidRequest,
  addDays,
  isoDate,
  isoDateOf,
  queryClosingBalance,
  type IsoDate,
  isKnown,
  MockService,
  NotificationType,
  NotificationVerifier,
  OtpType,
  PrivateKey,
  sendOtp,
  signedNotification,
  OutcomeUnknown,
  TxType,
} from "@baas/client";

const key = new PrivateKey("unit-test-key-42");
const client = (mock: MockService): Client =>
  new Client({ baseUrl: "https://bank.example", sender: "partner", privateKey: key, fetch: mock.fetch });

test("an answer is read typed: money as its text, an unlisted value kept", async () => {
  const mock = new MockService(key).on(getAccountDetails, (p) => ({
    accountId: p["accountId"] ?? "",
    balance: "250000.00",
    currency: "XYZ",
    accountStatus: 1,
    unknownMember: { deep: [1, 2] },
  }));
  const account = await client(mock).getAccountDetails({ accountId: "1000000001" });
  assert.equal(account.accountId, "1000000001");
  assert.equal(account.balance, "250000.00");
  assert.equal(account.currency, "XYZ");
  assert.ok(account.currency !== undefined && !isKnown(Object.values(Currency), account.currency));
  assert.equal(account.accountStatus, 1);
});

test("the spec's rules are checked before sending, named as every runtime names them", async () => {
  const mock = new MockService(key).on(applyForTransfer, () => ({ txId: "T1" }));
  await assert.rejects(
    client(mock).applyForTransfer({
      payerAccountId: "",
      payeeBankCode: "46",
      payeeAccountId: "1000000004",
      currency: Currency.Kes,
      amount: "10.005",
      remark: "x".repeat(101),
    }),
    (e: unknown) => {
      assert.ok(e instanceof InvalidRequest);
      assert.deepEqual(
        e.violations.map((v) => [v.field, v.rule]),
        [["payerAccountId", "required"], ["amount", "decimal_places"], ["remark", "max_chars"]],
      );
      assert.equal(e.operation, "applyForTransfer");
      return true;
    },
  );
  assert.equal(mock.requests.length, 0);
});

test("an open value set takes any code; a one_of rule narrows a request field before sending", async () => {
  const mock = new MockService(key)
    .on(applyForTransfer, () => ({ txId: "T1" }))
    .on(getTransList, (p) => ({ totalRows: 1, result: [{ txId: "T1", txType: JSON.stringify(p["txType"]) === '["TTID0002","TTID0099"]' ? "TTID0099" : "?" }] }));
  const transfer = { payerAccountId: "1", payeeBankCode: "46", payeeAccountId: "2", amount: "1.00" } as const;
  await assert.rejects(client(mock).applyForTransfer({ ...transfer, currency: Currency.Cny }), (e: unknown) => {
    assert.ok(e instanceof InvalidRequest);
    assert.deepEqual(e.violations.map((v) => [v.field, v.rule]), [["currency", "one_of"]]);
    return true;
  });
  assert.equal(mock.requests.length, 0);
  const page = await client(mock).getTransList({
    accountId: "1", txType: [TxType.TransferOut, "TTID0099"], txStatus: [], startTime: 0, endTime: 1, pageNo: 1, pageSize: 10, orderByDesc: 1,
  });
  assert.equal(page.result?.[0]?.txType, "TTID0099");
});

test("dates are days of the calendar, YYYY-MM-DD, checked before sending", async () => {
  assert.equal(addDays(isoDate("2026-03-01"), -1), "2026-02-28");
  assert.equal(addDays(isoDate("2024-12-31"), 1), "2025-01-01");
  assert.equal(isoDateOf(new Date(Date.UTC(2026, 10, 27, 23, 59))), "2026-11-27");
  for (const bad of ["2026-02-30", "27/11/2026", "20261127", "2026-11-27T00:00:00Z", "0000-01-01"]) {
    assert.throws(() => isoDate(bad), RangeError, bad);
  }
  const mock = new MockService(key).on(queryClosingBalance, (p) => (p["queryDate"] === "2026-02-28" ? { jobId: "J1" } : { refuse: "12001", msg: "bad" }));
  const job = await client(mock).queryClosingBalance({ queryDate: addDays(isoDate("2026-03-01"), -1) });
  assert.equal(job.jobId, "J1");
  await assert.rejects(client(mock).queryClosingBalance({ queryDate: "2026-02-30" as IsoDate }), (e: unknown) => {
    assert.ok(e instanceof InvalidRequest);
    assert.deepEqual(e.violations.map((v) => [v.field, v.rule]), [["queryDate", "type"]]);
    return true;
  });
  assert.equal(mock.requests.length, 1);
});

test("an OTP transfer through the handle; a lost confirmation is OutcomeUnknown, sent once", async () => {
  let confirmations = 0;
  const mock = new MockService(key)
    .on(applyForTransfer, () => ({ txId: "TX42" }))
    .on(sendOtp, () => undefined)
    .on(confirmOperation, () => (++confirmations === 1 ? undefined : "no_answer"));
  const c = client(mock);
  const transfer = { payerAccountId: "1", payeeBankCode: "46", payeeAccountId: "2", currency: Currency.Kes, amount: "5.00" } as const;
  const pending = await c.applyForTransferPending(transfer);
  assert.equal(pending.businessId, "TX42");
  await pending.sendOtp(OtpType.Sms);
  await pending.confirm("123456");
  assert.deepEqual(mock.requestsOf(sendOtp).map((r) => [r.params["businessId"], r.params["otpType"]]), [["TX42", "sms"]]);
  assert.deepEqual(mock.requestsOf(confirmOperation).map((r) => r.params["otpCode"]), ["123456"]);
  await assert.rejects(pending.confirm("123456"), OutcomeUnknown);
  assert.equal(mock.requestsOf(confirmOperation).length, 2, "not re-sent after it may have arrived");
  const noId = new MockService(key).on(applyForTransfer, () => ({}));
  await assert.rejects(client(noId).applyForTransferPending(transfer), (e: unknown) => e instanceof Error && e.name === "DecodeError");
});

test("a notification's payload is read by its type; an unlisted type is kept as received", () => {
  const verifier = new NotificationVerifier(key, "bank");
  const now = Date.now();
  const body = signedNotification({
    notificationType: NotificationType.BalanceChange,
    requestId: "N1",
    sender: "bank",
    params: { txId: "TX1", accountId: "A1", extra: "ignored" },
    key,
    timestampMs: now,
  });
  const n = verifier.verify(body, now);
  assert.ok(n.known);
  assert.equal(n.notificationType, NotificationType.BalanceChange);
  if (n.notificationType === NotificationType.BalanceChange) {
    assert.equal(n.params.txId, "TX1");
    assert.equal(JSON.stringify(n.params), '{"txId":"TX1","accountId":"A1"}');
  }
  const other = verifier.verify(signedNotification({ notificationType: "9999", requestId: "N2", sender: "bank", params: { x: "1" }, key, timestampMs: now }), now);
  assert.equal(other.known, false);
  assert.equal(JSON.stringify(other.params), '{"x":"1"}');
  const wrong = signedNotification({ notificationType: NotificationType.BalanceChange, requestId: "N3", sender: "bank", params: { txId: ["not", "text"] }, key, timestampMs: now });
  assert.throws(() => verifier.verify(wrong, now), (e: unknown) => e instanceof Error && e.name === "DecodeError");
});
