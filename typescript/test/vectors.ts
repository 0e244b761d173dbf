// The shared signing vectors (tests/data/signing-vectors.json at the repository root).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../../", import.meta.url));

export interface SigningVector {
  name: string;
  key: string;
  body: string;
  canonical: string;
  signature: string;
}
export interface RefusalVector {
  name: string;
  key: string;
  rule: string;
  path: string;
  body: string;
  unsigned: string;
  recut?: string;
  recut_is_clean?: boolean;
}
export interface NullVector {
  name: string;
  key: string;
  path: string;
  body: string;
  unsigned: string;
}
export interface Vectors {
  signing: SigningVector[];
  refusals: RefusalVector[];
  received_nulls: NullVector[];
}

export const VECTORS = JSON.parse(readFileSync(`${REPO}tests/data/signing-vectors.json`, "utf8")) as Vectors;

export const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
