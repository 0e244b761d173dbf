// The TypeScript side of the differential test across signers (tests/differential/run.py):
// `sign <base64>` / `verify <base64>` lines in, one `ok <hex>` | `refused R1..R4` |
// `refused other` | `missing` | `mismatch` line out each. Uses the runtime built by tsc
// (typescript/build/src/). Argument: the key.
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const sdk = await import(`${root}typescript/build/src/index.js`);
const key = new sdk.PrivateKey(process.argv[2] ?? "differential-key");

function refusal(e) {
  const cause = e instanceof sdk.VerifyError ? e.canonicalCause : e;
  if (cause instanceof sdk.CanonicalError) return cause.rule !== undefined ? `refused ${cause.rule}` : "refused other";
  throw e;
}

function run(op, body) {
  try {
    if (op === "sign") return `ok ${sdk.sign(body, key)}`;
    const flat = sdk.verify(body, key);
    return `ok ${sdk.signatureHex(flat, key)}`;
  } catch (e) {
    if (e instanceof sdk.VerifyError && e.kind !== "malformed") return e.kind;
    return refusal(e);
  }
}

const out = [];
for await (const line of createInterface({ input: process.stdin })) {
  const space = line.indexOf(" ");
  out.push(run(line.slice(0, space), new Uint8Array(Buffer.from(line.slice(space + 1), "base64"))));
}
process.stdout.write(out.length > 0 ? `${out.join("\n")}\n` : "");
