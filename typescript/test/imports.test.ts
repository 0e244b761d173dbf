// What importing the SDK does (issue 36 item 3: `import "@baas/client"` must cost little more
// than an empty Node start). Asserted as structure, never as time: the Node modules an import
// loads, and that the record descriptors are built when first read, not at import.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import * as sdk from "@baas/client";
import type { Operation, RecordShape } from "@baas/runtime";
import { REPO } from "./vectors.js";

/**
 * Node's internal modules loaded by a fresh process that runs `source` as an ES module (from
 * the repository, where the workspace links both packages). `process.moduleLoadList` names
 * each (`NativeModule stream`, `Internal Binding fs`, …).
 */
function loadedBy(source: string): string[] {
  const print = "console.log(JSON.stringify(process.moduleLoadList));";
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", `${source}\n${print}`], { cwd: REPO, encoding: "utf8" });
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

test("importing @baas/client or @baas/runtime loads no Node module a call needs later", () => {
  const baseline = new Set(loadedBy(""));
  for (const name of NOT_AT_IMPORT) assert.ok(!baseline.has(name), `an empty start already loads ${name}`);
  for (const pkg of ["@baas/client", "@baas/runtime"]) {
    const loaded = loadedBy(`import * as m from "${pkg}"; if (Object.keys(m).length === 0) process.exit(3);`);
    for (const name of NOT_AT_IMPORT) assert.ok(!loaded.includes(name), `import "${pkg}" loaded ${name}`);
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
