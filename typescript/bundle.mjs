// Builds a package's dist/ for both module systems from tsc's output (one module per source file),
// with ONE copy of the code whichever way a program loads it:
//
//   dist/index.cjs        the implementation: every source file in one CommonJS module (esbuild
//                         bundles it as one ES module, which is then written as CommonJS: see
//                         toCommonJs); @baas/runtime stays a package of its own, `require`d
//   dist/index.js         the ES module entry: `require`s dist/index.cjs and re-exports each of
//                         its exports by name (Node's "ES module wrapper" for a dual package), so a
//                         program that both imports and requires the SDK holds one copy of its
//                         classes (`instanceof BaasError` holds across the two)
//   dist/index.d.ts, …    tsc's declarations, for `import` (ES module types)
//   dist/cjs/             the same declarations for `require`, in a directory whose package.json
//                         says "commonjs": TypeScript reads a .d.ts by its package's "type", and a
//                         CommonJS consumer may not `require` an ES module's types (TS1479)
//   dist/**/NAME.lazy.cjs code the package `require`s when a program first needs it, each
//                         bundled apart so that importing the package does not compile it
//                         (below; src/**/NAME.lazy.ts)
//
// package.json's conditional `exports` sends `import` to dist/index.js and `require` to
// dist/index.cjs, each with its "types". Why one CommonJS implementation: CommonJS partners on
// Node 20.3 to 20.18 cannot `require` an ES module at all (ERR_REQUIRE_ESM), two full builds
// would give a program that loads both two copies of every class, and a CommonJS `require` of
// the SDK costs less than an ES module import (no ES module loader). Why CommonJS written from
// esbuild's ES module output rather than esbuild's own "cjs" format: that format defines every
// export as a getter on an object, again for each `import * as` of @baas/runtime (seven in the
// client), which made `require("@baas/client")` cost about 10 ms more CPU per start (issue 36
// item 3; README, Performance). The other dist/*.js files stay (bin/baas-sign.js reads them).
//
//   node typescript/bundle.mjs PACKAGE_DIR      (after tsc -p PACKAGE_DIR/tsconfig.json)
import { build } from "esbuild";
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import vm from "node:vm";

const WRAPPER_MARK = "// The ES module entry of a dual package (typescript/bundle.mjs)";

const dir = process.argv[2];
if (dir === undefined) {
  process.stderr.write("usage: node typescript/bundle.mjs PACKAGE_DIR\n");
  process.exit(2);
}
const dist = join(dir, "dist");
const index = join(dist, "index.js");
if (readFileSync(index, "utf8").startsWith(WRAPPER_MARK)) {
  process.stderr.write(`bundle.mjs: ${index} is already the ES module entry: run tsc -p ${dir}/tsconfig.json first\n`);
  process.exit(2);
}

// module.exports is a plain object of the values the bindings hold once the module has run: an
// exported `let` or `var` reassigned later would not be seen through it. None is; keep it so.
for (const file of readdirSync(dist, { recursive: true })) {
  if (typeof file !== "string" || !file.endsWith(".js") || file === "index.js") continue;
  if (/^export (let|var) /m.test(readFileSync(join(dist, file), "utf8"))) {
    throw new Error(`bundle.mjs: ${file} exports a let or var: CommonJS exports would hold its first value`);
  }
}

/** `entry` bundled by esbuild as one ES module, then written as CommonJS (see toCommonJs). */
async function bundle(entry) {
  const result = await build({
    entryPoints: [entry],
    write: false,
    outfile: entry.replace(/\.js$/, ".cjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: ["@baas/runtime"],
    logLevel: "error",
    legalComments: "none",
    // Less for V8 to read at import (comments and layout; names kept, for stack traces and
    // `constructor.name`): the .d.ts files keep the documentation.
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    metafile: true,
  });
  const [output] = result.outputFiles;
  const out = Object.values(result.metafile.outputs)[0];
  if (output === undefined || out?.exports === undefined) throw new Error("bundle.mjs: esbuild gave no output");
  const { code, names } = toCommonJs(output.text);
  if ([...names].sort().join() !== [...out.exports].sort().join()) {
    throw new Error(`bundle.mjs: the CommonJS exports differ from the bundle's (${names.length} against ${out.exports.length})`);
  }
  return { code, names, inputs: new Set(Object.keys(out.inputs)) };
}

// Lazy modules: each dist/**/NAME.lazy.js (tsc's output of a src/**/NAME.lazy.ts) bundled as a
// CommonJS file of its own beside it, NAME.lazy.cjs, which the package's code `require`s when a
// program first needs it (the client's descriptors' field lists: generated src/lazy.ts), so that
// importing the package does not compile it. A lazy module holds functions and data only: none of
// the modules the entry holds (that would be a second copy of them, classes and all).
//
// The sources load one with `lazy("PATH")` (generated src/lazy.ts: `createRequire(import.meta.url)`
// and `./PATH.lazy.cjs`, which works from tsc's dist/lazy.js too). In the entry's CommonJS each such
// call is written as the literal `require("./PATH.lazy.cjs")`: the same module at run time, and one
// a partner's bundler (esbuild, webpack) sees and packs, where a computed path would be left out
// and fail on the first call. Every lazy module must be reached so.
const lazyModules = readdirSync(dist, { recursive: true })
  .filter((file) => typeof file === "string" && file.endsWith(".lazy.js") && !file.startsWith(`cjs${sep}`))
  .map((file) => file.split(sep).join("/").replace(/\.lazy\.js$/, ""));
const entry = await bundle(index);
const { names, inputs } = entry;
const entryCode = entry.code.replace(/\blazy\("([\w/.-]+)"\)/g, (_, path) => `require(${JSON.stringify(`./${path}.lazy.cjs`)})`);
for (const path of lazyModules) {
  if (!entryCode.includes(`require(${JSON.stringify(`./${path}.lazy.cjs`)})`)) {
    throw new Error(`bundle.mjs: nothing in ${index} requires ${path}.lazy.cjs as \`lazy("${path}")\` (a literal path)`);
  }
}
if (/\blazy\(/.test(entryCode.replace(/function lazy\(/g, ""))) {
  throw new Error(`bundle.mjs: ${index} calls lazy() with a path that is not a literal: a bundler could not follow it`);
}
writeFileSync(join(dist, "index.cjs"), entryCode);
for (const path of lazyModules) {
  const lazy = await bundle(join(dist, `${path}.lazy.js`));
  const shared = [...lazy.inputs].filter((input) => inputs.has(input));
  if (shared.length > 0) throw new Error(`bundle.mjs: ${path}.lazy.js holds modules the entry holds too: ${shared.join(", ")}`);
  writeFileSync(join(dist, `${path}.lazy.cjs`), lazy.code);
}

// The ES module entry. `process.getBuiltinModule` (Node 20.16+) gives `createRequire` without
// importing node:module, whose ES facade costs about 5 million instructions at import; older
// Nodes import it.
writeFileSync(
  index,
  `${WRAPPER_MARK}: the code is ./index.cjs, one copy whether a program imports or requires it.
const { createRequire } = process.getBuiltinModule?.("node:module") ?? (await import("node:module"));
const m = createRequire(import.meta.url)("./index.cjs");
export const { ${names.join(", ")} } = m;
`,
);

// The declarations again, read as CommonJS ones.
const cjsTypes = join(dist, "cjs");
rmSync(cjsTypes, { recursive: true, force: true });
for (const file of declarations(dist)) {
  const to = join(cjsTypes, relative(dist, file));
  mkdirSync(dirname(to), { recursive: true });
  cpSync(file, to);
}
writeFileSync(join(cjsTypes, "package.json"), '{\n  "type": "commonjs"\n}\n');

/** Every .d.ts under `root` (outside dist/cjs). */
function declarations(root) {
  const found = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) {
      if (path !== cjsTypes) found.push(...declarations(path));
    } else if (entry.name.endsWith(".d.ts")) {
      found.push(path);
    }
  }
  return found;
}

/**
 * esbuild's one-module ES output as CommonJS: each `import … from "x"` (esbuild writes them
 * `import*as a from"x";`, `import{a,b as c}from"x";`, `import a from"x";` or `import"x";`)
 * becomes a `require` at the top of the module (where ES imports are evaluated: before the
 * body), the one `export{…};` esbuild writes last becomes `module.exports = {…}` (a plain
 * object: the values the module's bindings hold once it has run; above, no source may export
 * a `let` or `var`), `createRequire(import.meta.url)` becomes the module's own `require`, and
 * any other `import.meta.url` the file's URL, made from `__filename`.
 * Anything else of ES module syntax left is an error: the result is compiled as a CommonJS
 * function body before it is written.
 */
function toCommonJs(text) {
  const requires = [];
  let body = text.replace(
    /(?<=^|[;}\n])import\s*(?:(\*\s*as\s*[\w$]+|\{[^}]*\}|[\w$]+)\s*from\s*)?"([^"\\]+)";/g,
    (_, what, from) => {
      const req = `require(${JSON.stringify(from)})`;
      if (what === undefined) requires.push(`${req};`);
      else if (what.startsWith("*")) requires.push(`const ${what.replace(/^\*\s*as\s*/, "")}=${req};`);
      else if (what.startsWith("{")) requires.push(`const{${specifiers(what).map(([from, as]) => (from === as ? as : `${from}:${as}`)).join(",")}}=${req};`);
      else requires.push(`const ${what}=${req}.default;`);
      return "";
    },
  );
  const names = [];
  const exportAt = body.search(/export\s*\{[^}]*\};\s*$/);
  if (exportAt < 0) throw new Error("bundle.mjs: no `export{…};` at the end of esbuild's output");
  const pairs = specifiers(body.slice(exportAt).replace(/^export\s*/, "").replace(/;\s*$/, ""));
  body = `${body.slice(0, exportAt)}module.exports={${pairs.map(([local, name]) => (names.push(name), local === name ? name : `${name}:${local}`)).join(",")}};\n`;
  // `createRequire(import.meta.url)` (how the sources require what they load on first use) is
  // the module's own `require` in CommonJS: no file URL to make and no second require function
  // at import (a million instructions of an import of the client, callgrind).
  body = body.replaceAll("createRequire(import.meta.url)", "require");
  if (!/\bcreateRequire\b/.test(body)) {
    const unused = requires.indexOf('const{createRequire}=require("node:module");');
    if (unused >= 0) requires.splice(unused, 1);
  }
  if (body.includes("import.meta.url")) {
    // The file's URL, as import.meta.url is (node:url is loaded by every Node start).
    requires.push('const __importMetaUrl=require("node:url").pathToFileURL(__filename).href;');
    body = body.replaceAll("import.meta.url", "__importMetaUrl");
  }
  const code = `"use strict";${requires.join("")}\n${body}`;
  // ES module syntax left (an `import`/`export` statement, `import.meta`) fails to compile here.
  vm.compileFunction(code, ["exports", "require", "module", "__filename", "__dirname"]);
  if (/\bimport\.meta\b/.test(code)) throw new Error("bundle.mjs: import.meta left in the CommonJS module");
  return { code, names };
}

/** `{a,b as c}` as [["a","a"],["b","c"]]. */
function specifiers(list) {
  return list
    .replace(/^\{|\}$/g, "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map((s) => {
      const [from, as] = s.split(/\s+as\s+/);
      return [from, as ?? from];
    });
}
