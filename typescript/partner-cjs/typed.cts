// A CommonJS TypeScript partner (module and moduleResolution node16, a .cts file: compiled to
// `require`). .ci/run type-checks it against the installed tarballs (`tsc -p .`; the
// `require` condition's types, dist/cjs/, must be CommonJS declarations, else TS1479) and runs
// what tsc writes. Each `@ts-expect-error` fails the check if its line compiles: the types are
// the SDK's, not `any`.
import assert = require("node:assert/strict");
import { ApiError, Client, Decimal, MockService, PrivateKey, getAccountDetails, type GetAccountDetailsResponse } from "@baas/client";
import { BaasError } from "@baas/runtime";

async function main(): Promise<void> {
  const key = new PrivateKey("partner-cts-test-key");
  const mock = new MockService(key).on(getAccountDetails, () => ({ accountId: "1000000001", balance: "7.25" }));
  const client = new Client({ baseUrl: "https://bank.example", sender: "partner", privateKey: key, fetch: mock.fetch });
  const account: GetAccountDetailsResponse = await client.getAccountDetails({ accountId: "1000000001" });
  assert.equal(Decimal.parse(account.balance ?? "0").toString(), "7.25");
  // @ts-expect-error a required parameter left out does not compile
  await client.getAccountDetails({}).catch(() => undefined);
  // @ts-expect-error money is never a number
  const wrong: GetAccountDetailsResponse = { balance: 7.25 };
  void wrong;
  const error: unknown = new ApiError("13000", "no such account", undefined, true);
  assert.ok(error instanceof BaasError);
  console.log("partner-cts: typed CommonJS consumer ok");
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
