// The README's TypeScript examples, kept compiling (`tsc -p test-types`): change both together.
import { Client, Currency, OrderByDesc, OtpType, OutcomeUnknown, PrivateKey } from "@baas/client";

export async function firstCall(): Promise<void> {
  const key = PrivateKey.fromEnv("BAAS_PRIVATE_KEY"); // from your account manager; never in code
  if (key === undefined) throw new Error("set BAAS_PRIVATE_KEY");
  const client = new Client({ baseUrl: "https://baas.example.com", sender: "your-sender", privateKey: key });
  const account = await client.getAccountDetails({ accountId: "1000000001" });
  console.log(account.balance); // "250000.00": money is decimal text, never a float
}

export async function otpTransfer(client: Client, otpFromCustomer: string): Promise<void> {
  const pending = await client.applyForTransferPending({
    payerAccountId: "1000000001", payeeBankCode: "46", payeeAccountId: "1000000004",
    currency: Currency.Kes, amount: "250.00",
  });
  await pending.sendOtp(OtpType.Sms);
  try {
    await pending.confirm(otpFromCustomer);
  } catch (e) {
    if (!(e instanceof OutcomeUnknown)) throw e;
    // It may have arrived: never confirm twice blindly; settle it with one lookup.
    const settled = await pending.settle();
    if (settled.kind === "not_confirmed") await pending.confirm(otpFromCustomer); // never arrived: the same OTP, as settled.otpRule says
    else if (settled.kind === "still_unknown") throw settled.error; // the lookup failed too: settle later
    // "confirmed": it arrived; wait for the result below.
  }
  const result = await client.getTransResultUntilFinal(
    { txId: pending.businessId }, { firstDelayMs: 1000, maxDelayMs: 20_000, deadlineMs: 300_000 },
  );
  console.log(result.txStatus); // 8 succeeded, 4 failed, -1 timeout (or a value this version does not know)
  const rows = client.getTransListPages({
    accountId: "1000000001", txType: [], txStatus: [], startTime: 0, endTime: 4_102_444_800_000,
    pageNo: 1, pageSize: 50, orderByDesc: OrderByDesc.NewestFirst,
  });
  for await (const row of rows.items()) console.log(row.txId, row.amount);
}
