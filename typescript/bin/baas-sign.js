#!/usr/bin/env node
// `npx baas-sign [--verify | --attach]`: see dist/cli.js.
import { readFileSync } from "node:fs";
import { run } from "../dist/cli.js";

let stdin;
try {
  stdin = readFileSync(0);
} catch (e) {
  process.stderr.write(`baas-sign: cannot read stdin: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
}
process.exitCode = run(process.argv.slice(2), {
  stdin,
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
