// What the compiler refuses at a partner's call site (checked by `tsc --noEmit -p
// test-types`): each `@ts-expect-error` fails the check if its line compiles.
import { Client, Decimal, isKnown, PrivateKey, TxStatus, type GetTransResultResponse } from "@baas/client";

export async function partner(client: Client): Promise<void> {
  await client.getAccountDetails({ accountId: "1000000001" });
  // @ts-expect-error an unknown parameter does not compile
  await client.getAccountDetails({ accountId: "1000000001", acountId: "typo" });
  // @ts-expect-error a required parameter left out does not compile
  await client.getAccountDetails({});
  const transfer = {
    payerAccountId: "1000000001",
    payeeBankCode: "46",
    payeeAccountId: "1000000004",
    currency: "KES",
    amount: Decimal.parse("250").withScale(2).toString(),
  } as const;
  await client.applyForTransfer(transfer);
  // @ts-expect-error money is never a number
  await client.applyForTransfer({ ...transfer, amount: 250 });
  // An open value set (Currency, TxType) takes a code it does not list; where the service takes
  // fewer codes (this call's currency), the request's one_of rule refuses it before sending.
  await client.applyForTransfer({ ...transfer, currency: "XXX" });
  // @ts-expect-error an open set's value is still text, never a number
  await client.applyForTransfer({ ...transfer, currency: 404 });
  // @ts-expect-error a date is an IsoDate, built by isoDate("2026-11-27"), isoDateOf(...) or todayUtc()
  await client.queryClosingBalance({ queryDate: "2026-11-27" });
  // @ts-expect-error the OTP channel is a value of its set
  await client.sendOtp({ businessId: "x", otpType: "SMS" });
  const result: GetTransResultResponse = await client.getTransResult({ txId: "t" });
  const status = result.txStatus;
  if (status !== undefined && isKnown(Object.values(TxStatus), status)) {
    const known: TxStatus = status;
    void known;
  }
  // @ts-expect-error a received value may be one this version does not know
  const unchecked: TxStatus | undefined = result.txStatus;
  void unchecked;
  // @ts-expect-error an answer field may be absent
  const balance: string = (await client.getAccountDetails({ accountId: "1" })).balance;
  void balance;
  void new PrivateKey("k");
}

// isRetryable is a method (a getter before @baas/runtime 0.3.0), and a settlement is read by its kind.
import { BaasError, type Settlement } from "@baas/client";

export function retryable(e: BaasError): boolean {
  // @ts-expect-error a method, always defined: `if (e.isRetryable)` would always be true
  if (e.isRetryable) return true;
  return e.isRetryable();
}

export function settled(s: Settlement<TxStatus>): string {
  switch (s.kind) {
    case "confirmed":
      return s.isFinal ? "final" : "wait";
    case "not_confirmed":
      return s.otpRule;
    case "still_unknown":
      // @ts-expect-error only a not_confirmed settlement carries the OTP rule
      return s.otpRule;
  }
}

// Notifications are typed by their type: a known one's params is its payload record.
import { NotificationType, type ClosingBalanceReport, type Notification } from "@baas/client";

export function onNotification(n: Notification): string | undefined {
  if (!n.known) return n.notificationType;
  switch (n.notificationType) {
    case NotificationType.ClosingBalances: {
      const report: ClosingBalanceReport = n.params;
      return report.jobId;
    }
    case NotificationType.CnyTransfer:
      // @ts-expect-error another type's payload is not this one's
      return (n.params satisfies ClosingBalanceReport).jobId;
    default:
      return undefined;
  }
}
