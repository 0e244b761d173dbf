// `npx baas-sign`: the same exit codes and output as the Rust `baas-sign` (run beside it on the
// same inputs when its binary is built: $BAAS_SIGN, or target/debug/baas-sign), and the key
// never printed.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { REPO, VECTORS } from "./vectors.js";

const BIN = fileURLToPath(new URL("../../bin/baas-sign.js", import.meta.url));

function rustBinary(): string | undefined {
  const target = process.env["CARGO_TARGET_DIR"] ?? join(REPO, "target");
  const candidates = [process.env["BAAS_SIGN"] ?? "", join(isAbsolute(target) ? target : join(REPO, target), "debug", "baas-sign")];
  return candidates.find((c) => c !== "" && existsSync(c));
}
const RUST = rustBinary();

interface Ran {
  code: number;
  out: string;
  err: string;
}

function run(command: string[], args: string[], key: string | undefined, input: string): Ran {
  const env: Record<string, string> = { PATH: process.env["PATH"] ?? "" };
  if (key !== undefined) env["BAAS_PRIVATE_KEY"] = key;
  const [program = "", ...rest] = command;
  const r = spawnSync(program, [...rest, ...args], { input, env, encoding: "utf8" });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

const ts = (args: string[], key: string | undefined, input: string): Ran => run([process.execPath, BIN], args, key, input);

/** Runs both commands; they must agree on the exit code and stdout. Returns the TypeScript run. */
function both(args: string[], key: string | undefined, input: string, code: number): Ran {
  const mine = ts(args, key, input);
  assert.equal(mine.code, code, `${args.join(" ")}: ${mine.err}`);
  if (key !== undefined && key !== "") {
    assert.ok(!mine.out.includes(key) && !mine.err.includes(key), "the key is never printed");
  }
  if (RUST !== undefined) {
    const theirs = run([RUST], args, key, input);
    assert.equal(theirs.code, mine.code, `exit code of ${args.join(" ")} (rust said: ${theirs.err})`);
    assert.equal(theirs.out, mine.out, `stdout of ${args.join(" ")}`);
  }
  return mine;
}

test("signing vectors: the canonical string redacted, the signature last; attach and verify", () => {
  for (const v of VECTORS.signing) {
    const signed = both([], v.key, v.body, 0);
    const lines = signed.out.trimEnd().split("\n");
    assert.equal(lines.at(-1), v.signature, v.name);
    assert.equal(lines.slice(0, -1).join("\n"), v.canonical.replace(`senderKey=${v.key}`, "senderKey=[redacted]"), v.name);
    const attached = both(["--attach"], v.key, v.body, 0);
    const verified = both(["--verify"], v.key, attached.out, 0);
    assert.equal(verified.out, `signature OK: ${v.signature}\n`);
    both(["--attach"], v.key, attached.out, 2);
  }
});

test("refusal vectors: --verify exits 1 naming the rule; signing exits 2", () => {
  for (const v of VECTORS.refusals) {
    const refused = both(["--verify"], v.key, v.body, 1);
    assert.match(refused.err, new RegExp(`REFUSED: refused by rule ${v.rule}`, "u"), v.name);
    both([], v.key, v.unsigned, 2);
    both(["--attach"], v.key, v.unsigned, 2);
  }
});

test("received nulls: verified; signed with the null members skipped, one warning line each on stderr", () => {
  for (const v of VECTORS.received_nulls) {
    both(["--verify"], v.key, v.body, 0);
    const signature = JSON.parse(v.body).signature as string;
    const signed = both([], v.key, v.unsigned, 0);
    assert.equal(signed.out.trimEnd().split("\n").at(-1), signature, v.name);
    const warned = signed.err.split("\n").filter((line) => line.startsWith("baas-sign: warning: `"));
    assert.deepEqual(warned.map((line) => line.split("`")[1]), v.skipped, v.name);
    const attached = both(["--attach"], v.key, v.unsigned, 0);
    assert.equal(attached.err.split("\n").filter((line) => line.includes(" is null")).length, v.skipped.length);
    assert.equal(both(["--verify"], v.key, attached.out, 0).out, `signature OK: ${signature}\n`);
  }
  both([], "yourkey", '{"list":[1,null]}', 2);
  both(["--attach"], "yourkey", '{"list":[1,null]}', 2);
});

test("usage, key and input errors exit 2; a wrong or missing signature exits 1", () => {
  const body = '{"a":"1"}';
  both([], undefined, body, 2);
  both([], "", body, 2); // an empty key is no key, as baas-sign says
  both(["--bogus"], "a-test-key-1234", body, 2);
  both(["--verify", "--attach"], "a-test-key-1234", body, 2);
  both([], "a-test-key-1234", "not json", 2);
  both([], "a-test-key-1234", '{"a":1,"a":2}', 2);
  both(["--verify"], "a-test-key-1234", body, 1);
  both(["--verify"], "a-test-key-1234", '{"a":"1","signature":"00"}', 1);
  both(["--attach"], "secretkey", '{"note":"secretkey"}', 2);
  both(["--attach"], "secretkey", '{"note":"\\u0073ecretkey"}', 2);
  assert.equal(ts(["--help"], undefined, "").code, 0);
  assert.match(ts(["--version"], undefined, "").out, /^baas-sign \d+\.\d+\.\d+\n$/u);
});
