// A CommonJS partner's program (issue 36 follow-up: both packages are dual). .ci/run installs
// the packed tarballs into a project of its own with no "type" (CommonJS) and runs this file
// twice: as Node runs it, and with `--no-experimental-require-module` (what Node 20.3 to 20.18
// do: no `require` of an ES module). It exits non-zero on any failure.
//
//   node plain.cjs                       a call on MockService, the classes across formats
//   BAAS_SANDBOX=path node plain.cjs     also a call against the sandbox binary, when it exists
"use strict";
const assert = require("node:assert/strict");
const { ApiError, BaasError, Client, MockService, PrivateKey, getAccountDetails } = require("@baas/client");
const runtime = require("@baas/runtime");

async function main() {
  const key = new PrivateKey("partner-cjs-test-key");
  const mock = new MockService(key)
    .on(getAccountDetails, (params) =>
      params.accountId === "1000000001" ? { accountId: "1000000001", balance: "100.50" } : { refuse: "13000", msg: "no such account" },
    );
  const client = new Client({ baseUrl: "https://bank.example", sender: "partner", privateKey: key, fetch: mock.fetch });

  // A real call: validated, signed, sent to the mock (which verifies the signature), its
  // answer verified and decoded.
  const account = await client.getAccountDetails({ accountId: "1000000001" });
  assert.equal(account.balance, "100.50");
  assert.equal(mock.requests.length, 1);

  // A refusal thrown by the required client is an instance of the classes an ES module imports
  // (one copy of the SDK whichever way a program loads it), and of the runtime's.
  const refused = await client.getAccountDetails({ accountId: "1000000009" }).then(
    () => assert.fail("a refusal was not thrown"),
    (e) => e,
  );
  assert.ok(refused instanceof ApiError && refused instanceof BaasError, String(refused));
  assert.equal(refused.apiCode, "13000");
  const esm = await import("@baas/client");
  assert.ok(refused instanceof esm.ApiError, "not an instance of the imported ApiError: two copies of the SDK");
  assert.equal(esm.Client, Client);
  assert.equal(runtime.BaasError, BaasError);

  // And back: what the imported client throws is an instance of the required classes.
  const esmClient = new esm.Client({ baseUrl: "https://bank.example", sender: "partner", privateKey: key, fetch: mock.fetch });
  const back = await esmClient.getAccountDetails({ accountId: "1000000009" }).then(() => undefined, (e) => e);
  assert.ok(back instanceof ApiError, "the imported client's error is not an instance of the required ApiError");

  // BAAS_SANDBOX names the binary (scripts/test-all.sh sets it, built or not; .ci/run builds
  // it); BAAS_REQUIRE_SANDBOX=1 makes its absence a failure, as in the SDK's own tests.
  const binary = process.env.BAAS_SANDBOX;
  const present = binary !== undefined && binary !== "" && require("node:fs").existsSync(binary);
  if (process.env.BAAS_REQUIRE_SANDBOX === "1" && !present) assert.fail(`no sandbox binary at ${binary}`);
  if (present) {
    // Against the sandbox program (SandboxProcess loads node:child_process on first use).
    const sandbox = await runtime.SandboxProcess.start({ binary });
    try {
      const live = new Client(sandbox.config());
      const details = await live.getAccountDetails({ accountId: "1000000001" });
      assert.equal(details.accountId, "1000000001");
      console.log(`partner-cjs: sandbox call ok (balance ${details.balance})`);
    } finally {
      await sandbox.stop();
    }
  }
  console.log("partner-cjs: require(\"@baas/client\") works; one copy of the classes across require and import");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
