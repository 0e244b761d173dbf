// What importing or requiring the SDK does (issue 36 item 3: `import "@baas/client"` must cost
// little more than an empty Node start). Asserted as structure, never as time: the Node modules
// an import or a `require` loads, that the record descriptors are built when first read, not at
// import, and that both packages are dual (typescript/bundle.mjs): `require` works on every
// Node `engines` allows, gives the same exports as `import`, and one copy of the classes.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { build } from "esbuild";
import * as sdk from "@baas/client";
import type { Operation, RecordShape } from "@baas/runtime";
import { REPO } from "./vectors.js";

const PACKAGES = ["@baas/client", "@baas/runtime"] as const;
/** `require` as a CommonJS module of the repository has it (the workspace links both packages). */
const requireHere = createRequire(`${REPO}/package.json`);

/**
 * Node's internal modules loaded by a fresh process that runs `source` as an ES module, or as
 * CommonJS with `commonJs` (from the repository, where the workspace links both packages).
 * `process.moduleLoadList` names each (`NativeModule stream`, `Internal Binding fs`, …).
 */
function loadedBy(source: string, commonJs = false): string[] {
  const print = "console.log(JSON.stringify(process.moduleLoadList));";
  const type = commonJs ? [] : ["--input-type=module"];
  const r = spawnSync(process.execPath, [...type, "-e", `${source}\n${print}`], { cwd: REPO, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr.slice(-500));
  const list: unknown = JSON.parse(r.stdout);
  assert.ok(Array.isArray(list) && list.length > 0, "process.moduleLoadList lists Node's loaded modules");
  return list as string[];
}

// Loaded only when a call needs them: node:crypto (signing), node:fs (SeenFile), the sandbox's
// child_process. `import … from "node:fs"` would also build fs's ES facade, whose
// `fs.ReadStream` getter loads Node's whole streams stack, and node:buffer's reads `File`.
const NOT_AT_IMPORT = [
  "NativeModule crypto",
  "NativeModule stream",
  "NativeModule internal/fs/streams",
  "NativeModule child_process",
  "NativeModule internal/file",
];
// And for `require`: node:fs/promises (12 modules, readline's among them), which
// `Document.fromPath` reaches through node:fs on first use (Node's ES module loader reads
// files with it, so an import loads it anyway).
const NOT_AT_REQUIRE = [...NOT_AT_IMPORT, "NativeModule internal/fs/promises"];

test("importing @baas/client or @baas/runtime loads no Node module a call needs later", () => {
  const baseline = new Set(loadedBy(""));
  for (const name of NOT_AT_IMPORT) assert.ok(!baseline.has(name), `an empty start already loads ${name}`);
  for (const pkg of PACKAGES) {
    const loaded = loadedBy(`import * as m from "${pkg}"; if (Object.keys(m).length === 0) process.exit(3);`);
    for (const name of NOT_AT_IMPORT) assert.ok(!loaded.includes(name), `import "${pkg}" loaded ${name}`);
  }
});

test("requiring @baas/client or @baas/runtime loads no Node module a call needs later either", () => {
  const baseline = new Set(loadedBy("", true));
  for (const name of NOT_AT_REQUIRE) assert.ok(!baseline.has(name), `an empty CommonJS start already loads ${name}`);
  for (const pkg of PACKAGES) {
    const loaded = loadedBy(`const m = require("${pkg}"); if (Object.keys(m).length === 0) process.exit(3);`, true);
    for (const name of NOT_AT_REQUIRE) assert.ok(!loaded.includes(name), `require("${pkg}") loaded ${name}`);
  }
  // The CommonJS module's lazy loads work: signing loads node:crypto, SeenFile node:fs.
  const loaded = loadedBy(
    `const { parse, PrivateKey, signatureHex } = require("@baas/runtime"); signatureHex(parse(new TextEncoder().encode('{"a":1}')), new PrivateKey("k"));`,
    true,
  );
  assert.ok(loaded.includes("NativeModule crypto"), "signing without node:crypto?");
  // node:fs and node:path (SeenFile makes its directory), node:fs's promises (Document.fromPath)
  // through the CommonJS module's own require.
  const dir = mkdtempSync(join(tmpdir(), "baas-require-"));
  try {
    const source = `const { Document, SeenFile } = require("@baas/runtime");
      new SeenFile(${JSON.stringify(join(dir, "sub", "seen"))});
      Document.fromPath("package.json").then((d) => {
        if (!(d instanceof Document) || d.byteLength < 10) process.exit(4);
        console.log(JSON.stringify(process.moduleLoadList));
      });`;
    const r = spawnSync(process.execPath, ["-e", source], { cwd: REPO, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr.slice(-500));
    assert.ok((JSON.parse(r.stdout) as string[]).includes("NativeModule internal/fs/promises"), "Document.fromPath without fs/promises?");
    assert.ok(existsSync(join(dir, "sub", "seen")), "SeenFile wrote no file");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("require and import give the same exports, one copy of each (no dual-package hazard)", async () => {
  for (const pkg of PACKAGES) {
    const required = requireHere(pkg) as Record<string, unknown>;
    const imported = (await import(pkg)) as Record<string, unknown>;
    // Every export is importable by name from an ES module, and nothing more or less.
    assert.deepEqual(Object.keys(imported).sort(), Object.keys(required).sort(), `${pkg}: the export lists differ`);
    assert.ok(Object.keys(required).length > 50, `${pkg}: ${Object.keys(required).length} exports`);
    for (const name of Object.keys(required)) assert.equal(imported[name], required[name], `${pkg}: ${name} is two copies`);
  }
  const client = requireHere("@baas/client") as typeof sdk;
  const runtime = (await import("@baas/runtime")) as Record<string, unknown>;
  assert.equal(client.BaasError, runtime["BaasError"], "the client re-exports the runtime's BaasError");
  assert.equal(sdk.ApiError, client.ApiError);
});

test("an error thrown by a required client is an instance of the imported classes, and back", async () => {
  const required = requireHere("@baas/client") as typeof sdk;
  const key = new sdk.PrivateKey("imports-test-key");
  const refusing = (api: typeof sdk): sdk.Client => {
    const mock = new api.MockService(key).on(api.getAccountDetails, () => ({ refuse: "13000", msg: "no such account" }));
    return new api.Client({ baseUrl: "https://bank.example", sender: "partner", privateKey: key, fetch: mock.fetch });
  };
  for (const [thrower, catcher] of [
    [required, sdk],
    [sdk, required],
  ] as const) {
    const error = await refusing(thrower)
      .getAccountDetails({ accountId: "1000000001" })
      .then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof catcher.ApiError, `not an ApiError of the other format: ${String(error)}`);
    assert.ok(error instanceof catcher.BaasError);
    assert.equal(error.apiCode, "13000");
    assert.equal(error.outcome, "refused");
  }
});

test("require works without require(esm): what Node 20.3 to 20.18 does", () => {
  // Node 20.19+ can `require` an ES module; the flag turns that off, as older Nodes have it
  // (ERR_REQUIRE_ESM), so a `require` condition that led to the ES module fails here.
  const features = process.features as { require_module?: boolean };
  const flag = features.require_module === undefined ? [] : ["--no-experimental-require-module"];
  for (const pkg of PACKAGES) {
    const source = `const m = require("${pkg}"); if (typeof m.BaasError !== "function") process.exit(3);`;
    const r = spawnSync(process.execPath, [...flag, "-e", source], { cwd: REPO, encoding: "utf8" });
    assert.equal(r.status, 0, `require("${pkg}"): ${r.stderr.slice(-500)}`);
  }
});

test("a call loads them when it needs them: signing loads node:crypto", () => {
  const loaded = loadedBy(`import { parse, PrivateKey, signatureHex } from "@baas/runtime"; signatureHex(parse(new TextEncoder().encode('{"a":1}')), new PrivateKey("k"));`);
  assert.ok(loaded.includes("NativeModule crypto"), "signing without node:crypto?");
});

test("every record descriptor builds its fields on first read, once", () => {
  const shapes = Object.entries(sdk).filter(([name]) => name.endsWith("Shape"));
  assert.ok(shapes.length > 40, `${shapes.length} exported shapes`);
  const values: unknown[] = Object.values(sdk);
  const operations = values.filter(
    (v): v is Operation<unknown, unknown> => typeof v === "object" && v !== null && "path" in v && "movesMoney" in v,
  );
  assert.ok(operations.length > 40, `${operations.length} exported operations`);
  const params = operations.flatMap((op) => (op.params === undefined ? [] : [[op.name, op.params] as const]));
  assert.ok(params.length > 30, `${params.length} request shapes`);
  for (const [name, shape] of [...shapes, ...params] as [string, RecordShape][]) {
    const fields = Object.getOwnPropertyDescriptor(shape, "fields");
    assert.equal(typeof fields?.get, "function", `${name}: fields built at import`);
    assert.ok(Array.isArray(shape.fields), `${name}: no fields`);
    assert.equal(shape.fields, shape.fields, `${name}: fields built again on a second read`);
    if ("constraints" in shape) assert.equal(shape.constraints, shape.constraints, `${name}: constraints built again`);
  }
  // A descriptor reads as the object literal it was before: its keys, enumerable, in order.
  assert.deepEqual(Object.keys(sdk.AccountShape), ["name", "fields"]);
  assert.equal(JSON.stringify(sdk.AccountShape).includes('"wire":"accountId"'), true);
});

test("importing the client compiles no field list: a descriptor's first read loads its own file", () => {
  // The lists are files of their own (dist/records/Account.lazy.cjs, …; typescript/bundle.mjs),
  // required by generated src/lazy.ts on a descriptor's first read: none at import, then the
  // one file the descriptor's lists are in (and nothing more for a second read).
  const source = `const c = require("@baas/client");
    const lazy = () => Object.keys(require.cache).filter((f) => f.endsWith(".lazy.cjs")).map((f) => f.split(/[\\\\/]/).slice(-2).join("/"));
    const atImport = lazy();
    c.AccountShape.fields;
    const afterOne = lazy();
    c.AccountShape.fields;
    console.log(JSON.stringify({ atImport, afterOne, afterTwo: lazy() }));`;
  const r = spawnSync(process.execPath, ["-e", source], { cwd: REPO, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr.slice(-500));
  assert.deepEqual(JSON.parse(r.stdout), { atImport: [], afterOne: ["records/Account.lazy.cjs"], afterTwo: ["records/Account.lazy.cjs"] });
});

test("a partner's bundler packs the field lists a CommonJS program reads on first use", async () => {
  // The client's bundle requires each list file by its literal path (typescript/bundle.mjs
  // writes `lazy("records/Account")` as `require("./records/Account.lazy.cjs")`), so esbuild,
  // as a partner's build runs it, packs them: the bundle runs from a directory where neither
  // package can be found.
  const dir = mkdtempSync(join(tmpdir(), "baas-bundled-"));
  try {
    writeFileSync(join(dir, "app.cjs"), 'const c = require("@baas/client"); console.log(c.AccountShape.fields.length);\n');
    await build({
      entryPoints: [join(dir, "app.cjs")],
      bundle: true,
      platform: "node",
      outfile: join(dir, "out", "app.js"),
      nodePaths: [join(REPO, "node_modules")],
      logLevel: "error",
    });
    const r = spawnSync(process.execPath, [join(dir, "out", "app.js")], { cwd: dir, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr.slice(-500));
    assert.equal(r.stdout.trim(), String(sdk.AccountShape.fields.length));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a partner's bundler packs an ES module program that imports the SDK, in either output format", async () => {
  // `import` resolves to the ES entry in Node, whose `createRequire` a bundler cannot follow;
  // the "module" condition of both packages' `exports` sends bundlers to dist/index.cjs
  // instead. Bundled as an ES module and as CommonJS (esbuild's default for Node, as AWS
  // CDK's NodejsFunction runs it), then run where neither package can be found.
  const dir = mkdtempSync(join(tmpdir(), "baas-bundled-esm-"));
  try {
    writeFileSync(
      join(dir, "app.mts"),
      'import { AccountShape, ApiError, BaasError } from "@baas/client";\n' +
        "console.log(AccountShape.fields.length, new ApiError(\"12001\", \"demo\", undefined, true) instanceof BaasError);\n",
    );
    for (const format of ["esm", "cjs"] as const) {
      const out = join(dir, "out", format === "esm" ? "app.mjs" : "app.cjs");
      await build({ entryPoints: [join(dir, "app.mts")], bundle: true, platform: "node", format, outfile: out, nodePaths: [join(REPO, "node_modules")], logLevel: "silent" });
      const r = spawnSync(process.execPath, [out], { cwd: dir, encoding: "utf8" });
      assert.equal(r.status, 0, `${format}: ${r.stderr.slice(-500)}`);
      assert.equal(r.stdout.trim(), `${sdk.AccountShape.fields.length} true`, format);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
