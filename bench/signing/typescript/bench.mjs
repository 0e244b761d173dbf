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
// Import: a Node process importing @baas/client against an empty Node start (`node -e ""`),
// alternating, medians.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

// Import time: `import "@baas/client"` against an empty start, alternating (NODE_EXTRA_CA_CERTS
// left out of all: it makes every start read a certificate file). A third start, running a
// one-line ES module file, shows the floor of any ES module import (Node's ESM loader, its
// file reading and resolution), which no package can go below.
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
const startMs = (argv) => {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { cwd: ROOT, env, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`node ${argv.join(" ")} failed`);
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const tiny = join(mkdtempSync(join(tmpdir(), "baas-bench-")), "one-line.mjs");
writeFileSync(tiny, "export const one = 1;\n");
const starts = { empty: ["-e", ""], module: [tiny], client: ["--input-type=module", "-e", 'import "@baas/client";'] };
const times = { empty: [], module: [], client: [] };
for (const argv of Object.values(starts)) startMs(argv);
const names = Object.keys(starts);
for (let r = 0; r < 31; r++) {
  for (const name of r % 2 ? [...names].reverse() : names) times[name].push(startMs(starts[name]));
}
const [empty, module, client] = [median(times.empty), median(times.module), median(times.client)];
process.stdout.write(
  `${JSON.stringify({
    lang: "typescript",
    metric: "import @baas/client / empty node start",
    value: client / empty,
    target: 1.3,
    note:
      `medians of 31 alternating starts: ${client.toFixed(1)} ms importing @baas/client, ${empty.toFixed(1)} ms for node -e "", ` +
      `${module.toFixed(1)} ms running a one-line ES module file (${(module / empty).toFixed(2)}x: the floor of any ES module import; ` +
      `@baas/client is ${(client / module).toFixed(2)}x that)`,
  })}\n`,
);
