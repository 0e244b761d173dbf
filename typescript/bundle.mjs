// Rewrites a built package's dist/index.js (tsc's output, one module per source file) as one
// module: Node's ESM loader pays for every file it resolves and reads, and `@baas/client` was
// 170 of them (issue 36: importing it must cost at most 1.3x an empty Node start). The other
// dist/ files stay (the .d.ts files and bin/baas-sign.js read them); @baas/runtime stays a
// package of its own (one copy of its classes, whichever package a program imports them from).
//
//   node typescript/bundle.mjs PACKAGE_DIR      (after tsc -p PACKAGE_DIR/tsconfig.json)
import { build } from "esbuild";
import { join } from "node:path";

const dir = process.argv[2];
if (dir === undefined) {
  process.stderr.write("usage: node typescript/bundle.mjs PACKAGE_DIR\n");
  process.exit(2);
}
const index = join(dir, "dist", "index.js");
await build({
  entryPoints: [index],
  outfile: index,
  allowOverwrite: true,
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
});
