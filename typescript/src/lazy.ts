/**
 * Node modules loaded when first used, not when the SDK is imported (issue 36): `node:crypto`
 * alone costs about a third of an empty Node start to import, and a program that imports the
 * SDK need not sign anything yet.
 */

import { createRequire } from "node:module";

type Crypto = typeof import("node:crypto");

const load = createRequire(import.meta.url);
let crypto: Crypto | undefined;

/** `node:crypto`, loaded on first use. */
export function nodeCrypto(): Crypto {
  crypto ??= load("node:crypto") as Crypto;
  return crypto;
}
