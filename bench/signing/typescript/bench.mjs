// The TypeScript side of the signing bench (issue 36; the contract is bench/signing/run.py's
// docstring). For each body of the manifest, in one process, in alternating rounds (medians):
//   A  @baas/runtime's verify(bytes, key) (decode, parse, canonical string, SHA-256, compare)
//   B  the floor: JSON.parse of the decoded text + node:crypto SHA-256 of a buffer as long as
//      the canonical string
//   C  the 30-line signer a partner would write: JSON.parse, recursive flatten, sort, join, SHA-256
// Times are CPU time (user + system) of the process, per call.
// Memory: the bytes one A call and one C call allocate on the V8 heap (plus external memory),
// measured in a child process started with --expose-gc and a young generation large enough that
// no collection runs inside the call (checked with v8.GCProfiler: a call during which a GC ran is
// measured again). With nothing collected, what a call allocated is an upper bound of its peak.
// Import: a Node process importing @baas/client in a partner's project against an empty Node
// start (`node -e ""`), alternating, medians, beside the floors of any ES module and package import;
// and the same for a CommonJS partner's `require("@baas/client")`, beside its floors. With
// BENCH_CALLGRIND=1 (valgrind installed; about a minute more), each start once more under
// callgrind, whose instruction counts load does not move, with what compiling the code takes.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const sdk = await import(join(ROOT, "typescript/dist/index.js"));
const args = process.argv.slice(2);
const memoryMode = args[0] === "--memory";
const dir = memoryMode ? args[1] : args[0];
if (dir === undefined) {
  process.stderr.write("usage: bench.mjs BODIES_DIR\n");
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));

/** C: what a partner writes in 30 lines (JSON.parse, flatten, default sort, join, SHA-256). */
function naiveVerify(body, key) {
  const message = JSON.parse(body.toString("utf8"));
  const pairs = [];
  const flatten = (path, value) => {
    if (value === null) return;
    if (Array.isArray(value)) {
      if (value.length === 0) pairs.push(`${path}=[]`);
      for (let i = 0; i < value.length; i++) flatten(`${path}[${i}]`, value[i]);
    } else if (typeof value === "object") {
      const keys = Object.keys(value);
      if (keys.length === 0) pairs.push(`${path}={}`);
      for (const k of keys) flatten(path === "" ? k : `${path}.${k}`, value[k]);
    } else {
      pairs.push(`${path}=${String(value)}`);
    }
  };
  for (const k of Object.keys(message)) if (k !== "signature") flatten(k, message[k]);
  pairs.push(`senderKey=${key}`);
  pairs.sort();
  const expected = createHash("sha256").update(pairs.join("&"), "utf8").digest("hex");
  return expected === message.signature;
}

function floor(body, canonical) {
  const message = JSON.parse(body.toString("utf8"));
  return createHash("sha256").update(canonical).digest("hex").length + (message === null ? 1 : 0);
}

const bodies = manifest.map((m) => {
  const body = readFileSync(join(dir, m.file));
  const key = new sdk.PrivateKey(m.key);
  return { m, body, key, canonical: Buffer.alloc(m.canonical_bytes, 0x61) };
});

for (const { m, body, key } of bodies) {
  const flat = sdk.verify(body, key);
  if (flat.signature !== m.signature || !naiveVerify(body, m.key)) {
    process.stderr.write(`bench: the verify of ${m.name} disagrees with the manifest\n`);
    process.exit(1);
  }
}

if (memoryMode) {
  const out = {};
  for (const { m, body, key } of bodies) {
    const warm = Math.ceil(3e6 / m.bytes);
    out[m.name] = { a: allocated(() => sdk.verify(body, key), warm) / m.bytes, c: allocated(() => naiveVerify(body, m.key), warm) / m.bytes };
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

/** The bytes used on the V8 heap by data (compiled code left out: the JIT's, not the call's). */
function dataHeap() {
  let used = 0;
  for (const space of v8.getHeapSpaceStatistics()) if (!space.space_name.startsWith("code")) used += space.space_used_size;
  return used;
}

/**
 * Bytes one call allocates (heap data and external memory) with no collection inside it, after
 * enough calls that it runs optimized; the least of 5.
 */
function allocated(call, warm) {
  for (let i = 0; i < warm; i++) call();
  let best = Infinity;
  for (let tries = 0, kept = 0; kept < 5 && tries < 50; tries++) {
    globalThis.gc();
    const profiler = new v8.GCProfiler();
    const before = process.memoryUsage();
    const heapBefore = dataHeap();
    profiler.start();
    const result = call();
    const heapAfter = dataHeap();
    const after = process.memoryUsage();
    const gcs = profiler.stop().statistics.length;
    if (result === undefined) throw new Error("no result");
    if (gcs > 0) continue;
    kept++;
    best = Math.min(best, heapAfter - heapBefore + Math.max(0, after.external - before.external));
  }
  if (best === Infinity) throw new Error("a collection ran inside every measured call");
  return best;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * CPU ns per call of `f` over `n` calls: the process's user and system time, so that waiting for
 * a core on a shared machine is not counted (the collector's and compiler's threads are).
 */
function timed(f, n) {
  const t = process.cpuUsage();
  for (let i = 0; i < n; i++) f();
  const d = process.cpuUsage(t);
  return ((d.user + d.system) * 1000) / n;
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);
const memory = JSON.parse(
  spawnSync(process.execPath, ["--expose-gc", "--max-semi-space-size=512", fileURLToPath(import.meta.url), "--memory", dir], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).stdout,
);

for (const { m, body, key, canonical } of bodies) {
  const a = () => sdk.verify(body, key);
  const b = () => floor(body, canonical);
  const c = () => naiveVerify(body, m.key);
  // Calls per round: about 30 ms of C.
  const per = Math.max(1, Math.round(30e6 / timed(c, Math.max(1, Math.round(3e6 / (m.bytes + 1))))));
  for (const f of [a, b, c]) timed(f, per); // warm up
  const rows = { a: [], b: [], c: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? ["c", "b", "a"] : ["a", "b", "c"];
    for (const name of order) rows[name].push(timed({ a, b, c }[name], per));
  }
  const row = {
    lang: "typescript",
    body: m.name,
    a_ns: median(rows.a),
    b_ns: median(rows.b),
    c_ns: median(rows.c),
    mem_a: memory[m.name].a,
    mem_c: memory[m.name].c,
    rounds: ROUNDS,
    floor: "JSON.parse of the text (Node's native parser, no number text) + node:crypto SHA-256 of the canonical length",
  };
  process.stdout.write(`${JSON.stringify(row)}\n`);
}

// Import time, as a partner's project meets it: a project in a temporary directory with both
// packages installed as npm installs them (package.json and dist/, copied, not linked), where
// `node --input-type=module -e 'import "@baas/client"'` is timed against an empty start
// (`node -e ""`), in alternating rounds (medians). The figure is each start's CPU time (user +
// system, all threads: starts.py reads it from wait4, as Node cannot), which other processes on
// a shared machine do not inflate as they do wall-clock time (printed beside it). Three more
// starts show the floors no package goes below: a one-line ES module file (Node's ES module
// loader), a one-line package imported by name (the loader, and resolving a package: its
// package.json, `exports`, the file) and two one-line packages, the first re-exporting the
// second, as @baas/client re-exports @baas/runtime.
const project = mkdtempSync(join(tmpdir(), "baas-bench-"));
const install = (name, files) => {
  const to = join(project, "node_modules", name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(to, file)), { recursive: true });
    writeFileSync(join(to, file), text);
  }
};
writeFileSync(join(project, "package.json"), '{"name":"partner","private":true,"type":"module"}\n');
for (const [name, from] of [["@baas/client", "generated/typescript"], ["@baas/runtime", "typescript"]]) {
  mkdirSync(join(project, "node_modules", name), { recursive: true });
  cpSync(join(ROOT, from, "package.json"), join(project, "node_modules", name, "package.json"));
  cpSync(join(ROOT, from, "dist"), join(project, "node_modules", name, "dist"), { recursive: true });
}
const oneLine = (name, text) => ({
  "package.json": `${JSON.stringify({ name, version: "1.0.0", type: "module", exports: { ".": "./dist/index.js" } })}\n`,
  "dist/index.js": text,
});
install("one-line", oneLine("one-line", "export const one = 1;\n"));
install("re-exporting", oneLine("re-exporting", 'export { one } from "one-line";\n'));
writeFileSync(join(project, "one-line.mjs"), "export const one = 1;\n");
// The CommonJS floors: one-line dual packages as @baas/client and @baas/runtime are (conditional
// `exports`, which makes Node's CommonJS loader load its package-exports resolver), the first
// requiring the second.
const oneLineDual = (name, text) => ({
  "package.json": `${JSON.stringify({ name, version: "1.0.0", type: "module", exports: { ".": { import: "./dist/index.js", require: "./dist/index.cjs" } } })}\n`,
  "dist/index.cjs": text,
});
// Their ES module entries as typescript/bundle.mjs writes @baas/client's (the client's own, its
// export list cut to `one`): the floor of the SDK's layout for `import`, both packages loaded as
// @baas/client and @baas/runtime are (ES entry, createRequire, the CommonJS loader).
const esEntry = readFileSync(join(ROOT, "generated/typescript/dist/index.js"), "utf8").replace(/^export const \{[^}]*\} = m;$/m, "export const { one } = m;");
if (!esEntry.includes("export const { one } = m;")) throw new Error("bench: generated/typescript/dist/index.js is not bundle.mjs's ES module entry");
install("one-line-cjs", { ...oneLineDual("one-line-cjs", "exports.one = 1;\n"), "dist/index.js": esEntry });
install("requiring-cjs", { ...oneLineDual("requiring-cjs", 'exports.one = require("one-line-cjs").one;\n'), "dist/index.js": esEntry });
const importing = (what) => ["--input-type=module", "-e", `import "${what}";`];
const requiring = (what) => ["-e", `require("${what}");`];
const starts = {
  empty: ["-e", ""],
  module: [join(project, "one-line.mjs")],
  package: importing("one-line"),
  packages: importing("re-exporting"),
  dualPackages: importing("requiring-cjs"),
  client: importing("@baas/client"),
  cjsPackage: requiring("one-line-cjs"),
  cjsPackages: requiring("requiring-cjs"),
  required: requiring("@baas/client"),
};
const IMPORT_ROUNDS = Number(process.env.BENCH_IMPORT_ROUNDS ?? 31);
const load = [loadavg()[0]];
const timedStarts = spawnSync(
  "python3",
  [fileURLToPath(new URL("starts.py", import.meta.url)), process.execPath, project, String(IMPORT_ROUNDS), JSON.stringify(starts)],
  { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
);
load.push(loadavg()[0]);
const instructions = process.env.BENCH_CALLGRIND ? counted(starts) : undefined;
rmSync(project, { recursive: true, force: true });
if (timedStarts.status !== 0) throw new Error("starts.py failed");
const { cpu_ms: cpu, wall_ms: wall } = JSON.parse(timedStarts.stdout);
const x = (t, name) => (t[name] / t.empty).toFixed(2);
const codeKb = Math.round(
  ["typescript", "generated/typescript"].reduce((sum, pkg) => sum + readFileSync(join(ROOT, pkg, "dist/index.cjs")).length, 0) / 1000,
);
process.stdout.write(
  `${JSON.stringify({
    lang: "typescript",
    metric: "import @baas/client / empty node start (CPU time)",
    value: cpu.client / cpu.empty,
    target: 1.3,
    note:
      `medians of ${IMPORT_ROUNDS} alternating starts in a partner's project, load average ${load.map((l) => l.toFixed(1)).join(" -> ")}: ` +
      `CPU ${cpu.client.toFixed(1)} ms importing @baas/client, ${cpu.empty.toFixed(1)} ms for node -e "" ` +
      `(wall clock ${wall.client.toFixed(1)} / ${wall.empty.toFixed(1)} ms, ${x(wall, "client")}x). ` +
      `Floors (CPU; wall): a one-line ES module file ${x(cpu, "module")}x; ${x(wall, "module")}x, a one-line package ` +
      `${x(cpu, "package")}x; ${x(wall, "package")}x, two one-line packages (one re-exporting the other, as ` +
      `@baas/client does @baas/runtime) ${x(cpu, "packages")}x; ${x(wall, "packages")}x, the same two as dual packages ` +
      `with bundle.mjs's ES module entry (the SDK's layout) ${x(cpu, "dualPackages")}x; ${x(wall, "dualPackages")}x. ` +
      `@baas/client costs ${(((cpu.client - cpu.packages) / cpu.empty) * 100).toFixed(0)}% of an empty start beyond the ` +
      `two-package floor, ${(((cpu.client - cpu.dualPackages) / cpu.empty) * 100).toFixed(0)}% beyond the dual one`,
  })}\n`,
);
process.stdout.write(
  `${JSON.stringify({
    lang: "typescript",
    metric: "require @baas/client / empty node start (CPU time)",
    value: cpu.required / cpu.empty,
    target: 1.3,
    note:
      `the same starts, a CommonJS partner's \`node -e 'require("@baas/client")'\`: CPU ${cpu.required.toFixed(1)} ms ` +
      `(wall clock ${wall.required.toFixed(1)} ms, ${x(wall, "required")}x). Floors (CPU; wall): a one-line dual package ` +
      `required ${x(cpu, "cjsPackage")}x; ${x(wall, "cjsPackage")}x, two (the first requiring the second, as @baas/client ` +
      `requires @baas/runtime) ${x(cpu, "cjsPackages")}x; ${x(wall, "cjsPackages")}x. @baas/client costs ` +
      `${(((cpu.required - cpu.cjsPackages) / cpu.empty) * 100).toFixed(0)}% of an empty start beyond the two-package floor: ` +
      `V8 compiling the code the two load (${codeKb} KB: callgrind puts about two thirds of the SDK's own instructions ` +
      `there, the rest in running its top level), which import pays too`,
  })}\n`,
);
if (instructions !== undefined) {
  const m = (name) => (instructions[name].total / 1e6).toFixed(1);
  const r = (name) => (instructions[name].total / instructions.empty.total).toFixed(2);
  const own = instructions.client.total - instructions.dualPackages.total;
  const compiled = instructions.client.compile - instructions.dualPackages.compile;
  process.stdout.write(
    `${JSON.stringify({
      lang: "typescript",
      metric: "import @baas/client / empty node start (instructions, callgrind)",
      value: instructions.client.total / instructions.empty.total,
      target: 1.3,
      note:
        `one start each under valgrind --tool=callgrind (all threads; which load does not move), less V8's search ` +
        `for its hash seed's primes (random, 5 to 15 million a start): millions of instructions, empty ${m("empty")}; ` +
        `a one-line ES module file ${m("module")} (${r("module")}x), a one-line package ${m("package")} (${r("package")}x), ` +
        `two ${m("packages")} (${r("packages")}x), two dual ones as the SDK's ${m("dualPackages")} (${r("dualPackages")}x); ` +
        `@baas/client ${m("client")} (${r("client")}x), of which beyond the dual floor ${(own / 1e6).toFixed(1)}: ` +
        `${(compiled / 1e6).toFixed(1)} V8 compiling the two CommonJS modules (ScriptCompiler::CompileFunction), the rest ` +
        `running their top level, the ES entry, reading the files; require ${m("required")} (${r("required")}x) ` +
        `against ${m("cjsPackages")} for two dual one-line packages`,
    })}\n`,
  );
}

/**
 * Each start once under callgrind (BENCH_CALLGRIND=1; about 6 s a start): its instructions, less
 * those of V8's search for the primes of its hash seed (random per process, so noise to a
 * comparison), and those under ScriptCompiler::CompileFunction (compiling CommonJS modules).
 */
function counted(which) {
  const out = {};
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const dir = mkdtempSync(join(tmpdir(), "baas-callgrind-"));
  for (const [name, argv] of Object.entries(which)) {
    const file = join(dir, `${name}.out`);
    const run = spawnSync("valgrind", ["--tool=callgrind", "--trace-children=no", `--callgrind-out-file=${file}`, process.execPath, ...argv], { cwd: project, env, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`callgrind ${name}: ${run.stderr.slice(-300)}`);
    const annotated = spawnSync("callgrind_annotate", ["--inclusive=yes", "--threshold=100", file], { encoding: "utf8", maxBuffer: 1 << 28 }).stdout;
    const cost = (pattern) => {
      const line = annotated.split("\n").find((l) => pattern.test(l));
      return line === undefined ? 0 : Number(line.trim().split(" ")[0].replaceAll(",", ""));
    };
    out[name] = {
      total: cost(/PROGRAM TOTALS/) - cost(/HashSeed::InitializeRoots/),
      compile: cost(/ScriptCompiler::CompileFunction\(/),
    };
  }
  rmSync(dir, { recursive: true, force: true });
  return out;
}
