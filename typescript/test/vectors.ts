// The shared signing vectors (tests/data/signing-vectors.json at the repository root), and
// where the tests find the sandbox binary.
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../../", import.meta.url));

/** The sandbox binary: $BAAS_SANDBOX, or target/debug/baas-sandbox under $CARGO_TARGET_DIR or the repository. */
export function sandboxBinary(): string | undefined {
  const candidates: string[] = [];
  if (process.env["BAAS_SANDBOX"]) candidates.push(process.env["BAAS_SANDBOX"]);
  const target = process.env["CARGO_TARGET_DIR"] ?? join(REPO, "target");
  candidates.push(join(isAbsolute(target) ? target : join(REPO, target), "debug", "baas-sandbox"));
  return candidates.find((c) => existsSync(c));
}

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
/** `received_nulls`: `body` verifies; every signer signs `unsigned` to its signature, skipping (and warning about) each path of `skipped`. */
export interface NullVector {
  name: string;
  key: string;
  path: string;
  skipped: string[];
  body: string;
  unsigned: string;
}
/** `answers`: `body` received as the answer to `request_id` (issue 35). */
export interface AnswerVector {
  name: string;
  key: string;
  request_id: string;
  body: string;
  expect: { outcome: "success" | "failure" | "refused"; code?: string; verified?: boolean; refusal?: string };
}
/** `notification_types`: one rule for `notificationType` (a JSON string; any number refused). */
export interface NotificationTypeVector {
  name: string;
  key: string;
  service_sender: string;
  now_ms: number;
  body: string;
  expect: { outcome: "accepted" | "refused"; notification_type?: string };
}
export interface Vectors {
  signing: SigningVector[];
  refusals: RefusalVector[];
  received_nulls: NullVector[];
  answers: AnswerVector[];
  notification_types: NotificationTypeVector[];
}

export const VECTORS = JSON.parse(readFileSync(`${REPO}tests/data/signing-vectors.json`, "utf8")) as Vectors;

export const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
