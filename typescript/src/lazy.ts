/**
 * Node modules loaded when first used, not when the SDK is imported (issue 36): `node:crypto`
 * alone costs about a third of an empty Node start to import, and a program that imports the
 * SDK need not sign anything yet. `node:fs` is loaded here too, through `require`: a static
 * `import … from "node:fs"` makes Node build the module's ES facade, which reads every export,
 * `fs.ReadStream` among them, and that getter loads Node's whole streams stack (about a quarter
 * of an empty start); `require` returns the object and touches no getter. `node:buffer`'s
 * facade likewise reads `File` and `Blob` (about 1% of a start) for one function, `isUtf8`.
 * typescript/test/imports.test.ts checks that importing or requiring the SDK loads none of them.
 * In the CommonJS module the package runs (dist/index.cjs, typescript/bundle.mjs)
 * `createRequire(import.meta.url)` is written as the module's own `require`.
 */

import { createRequire } from "node:module";

type Crypto = typeof import("node:crypto");
type Fs = typeof import("node:fs");
type Path = typeof import("node:path");
type NodeBuffer = typeof import("node:buffer");

const load = createRequire(import.meta.url);
let crypto: Crypto | undefined;
let fs: Fs | undefined;
let path: Path | undefined;
let buffer: NodeBuffer | undefined;

/** `node:crypto`, loaded on first use. */
export function nodeCrypto(): Crypto {
  crypto ??= load("node:crypto") as Crypto;
  return crypto;
}

/** `node:fs`, loaded on first use (see above: never `import … from "node:fs"` in the SDK). */
export function nodeFs(): Fs {
  fs ??= load("node:fs") as Fs;
  return fs;
}

/** `node:path`, loaded on first use. */
export function nodePath(): Path {
  path ??= load("node:path") as Path;
  return path;
}

/** `node:buffer` (for `isUtf8`; the global `Buffer` needs no import), loaded on first use. */
export function nodeBuffer(): NodeBuffer {
  buffer ??= load("node:buffer") as NodeBuffer;
  return buffer;
}
