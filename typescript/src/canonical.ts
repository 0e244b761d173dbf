/**
 * The canonical string of the signing algorithm, computed from JSON *bytes*.
 *
 * A message is flattened to `path=value` pairs: object keys joined with `.`, array elements as
 * `path[i]`, an empty object as `path={}`, an empty array as `path=[]`, nulls skipped, the
 * top-level `signature` left out. The pair `senderKey=<key>` is added, the pairs are sorted by
 * their UTF-8 bytes, joined with `&` and hashed with SHA-256 (lowercase hex).
 *
 * Strings are unescaped, numbers keep their literal text (`100.50` stays `100.50`): the body is
 * read by `JSON.parse` with a scan of its text for what that drops (fastpath.ts), or, where
 * that cannot decide, by an exact reader of its own (reader.ts). A body is refused,
 * in time linear in the body and with the limits of the other runtimes of this SDK family:
 * bodies that are not UTF-8, not JSON or not an object; duplicate keys; nesting deeper than
 * {@link MAX_DEPTH}; pairs longer than {@link MAX_EXPANSION} times the bytes read so far plus
 * {@link EXPANSION_ALLOWANCE}; and, read `unambiguous` (to sign or verify), a body whose
 * canonical string could stand for another body: the re-cut rules R1-R4 of {@link Ambiguity}.
 */

import { FastFlattened, readFast } from "./fastpath.js";
import { nodeBuffer, nodeCrypto } from "./lazy.js";
import { firstInvalidUtf8, Parser } from "./reader.js";
import { CanonicalError, compareUtf8, type Flattened, MAX_BODY, SENDER_KEY } from "./rules.js";
import { PrivateKey, REDACTED } from "./secret.js";

export * from "./rules.js";

function sortedPairs(flat: Flattened, keyPair: string): string[] {
  return [...flat.pairs, keyPair].sort(compareUtf8);
}

/** The canonical string with the key itself in the `senderKey` pair (to hash; never to print). */
export function canonicalStringExposingKey(flat: Flattened, key: PrivateKey): string {
  if (flat instanceof FastFlattened) {
    const pair = `${SENDER_KEY}=${key.expose()}`;
    const head = flat.before === "" ? pair : `${flat.before}&${pair}`;
    return flat.after === "" ? head : `${head}&${flat.after}`;
  }
  return sortedPairs(flat, `${SENDER_KEY}=${key.expose()}`).join("&");
}

/** The canonical string with the key shown as `[redacted]` wherever it appears. */
export function canonicalStringRedacted(flat: Flattened, key: PrivateKey): string {
  const secret = key.expose();
  return sortedPairs(flat, `${SENDER_KEY}=${secret}`)
    .map((pair) => {
      const name = pair.slice(0, pair.indexOf("="));
      return name === SENDER_KEY ? `${SENDER_KEY}=${REDACTED}` : key.redact(pair);
    })
    .join("&");
}

/** The lowercase hex SHA-256 signature of a flattened body for `key`. */
export function signatureHex(flat: Flattened, key: PrivateKey): string {
  if (flat instanceof FastFlattened) return sha256Hex(canonicalStringExposingKey(flat, key));
  return nodeCrypto().createHash("sha256").update(canonicalStringExposingKey(flat, key), "utf8").digest("hex");
}

type OneShot = (algorithm: string, data: string, encoding: "hex") => string;

/** The lowercase hex SHA-256 of `text`'s UTF-8 bytes. */
function sha256Hex(text: string): string {
  const crypto = nodeCrypto();
  // Node 20.12 and later hash a string in one call (a third of the cost on a small message).
  const oneShot = (crypto as unknown as { hash?: OneShot }).hash;
  return oneShot !== undefined ? oneShot("sha256", text, "hex") : crypto.createHash("sha256").update(text, "utf8").digest("hex");
}

export interface ParseOptions {
  /** Apply the re-cut rules (to sign or verify); default true. */
  readonly unambiguous?: boolean;
  /** Accept a `null` object member (read as absent); default true (received bodies). */
  readonly nullMembers?: boolean;
}

/**
 * Reads a JSON object body (see the module's doc). Read with the rules (the default), a body is
 * read by `JSON.parse` and a scan of its text (fastpath.ts), and by the exact reader (reader.ts)
 * only when that cannot decide: the same result, refusals and limits either way.
 */
export function parse(body: Uint8Array, options: ParseOptions = {}): Flattened {
  if (!(body instanceof Uint8Array)) {
    throw new TypeError("the body must be bytes (a Uint8Array)");
  }
  if (body.length > MAX_BODY) {
    throw new CanonicalError("too_large", `the body is longer than ${MAX_BODY} bytes`, MAX_BODY);
  }
  if (!nodeBuffer().isUtf8(body)) {
    throw new CanonicalError("invalid_utf8", "body is not valid UTF-8", firstInvalidUtf8(body));
  }
  // Buffer's decoding keeps a BOM (JSON.parse then refuses it, as the exact reader does).
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const text = bytes.toString("utf8");
  const unambiguous = options.unambiguous ?? true;
  const nullMembers = options.nullMembers ?? true;
  if (unambiguous && nullMembers) {
    const fast = readFast(bytes, text, () => exact(body, true, true).pairs);
    if (fast !== undefined) return fast;
  }
  return exact(body, unambiguous, nullMembers);
}

/**
 * Reads a body with the exact sequential reader alone (reader.ts), never the fast path: the
 * reference {@link parse} is held to (its tests compare the two on generated bodies).
 */
export function parseExact(body: Uint8Array, options: ParseOptions = {}): Flattened {
  if (body.length > MAX_BODY) {
    throw new CanonicalError("too_large", `the body is longer than ${MAX_BODY} bytes`, MAX_BODY);
  }
  if (!nodeBuffer().isUtf8(body)) {
    throw new CanonicalError("invalid_utf8", "body is not valid UTF-8", firstInvalidUtf8(body));
  }
  return exact(body, options.unambiguous ?? true, options.nullMembers ?? true);
}

function exact(body: Uint8Array, unambiguous: boolean, nullMembers: boolean): Flattened {
  const parser = new Parser(body, unambiguous, nullMembers);
  const value = parser.top();
  return {
    value,
    pairs: parser.pairs,
    signature: parser.signature,
    hasSignatureKey: parser.hasSignatureKey,
    hasSenderKeyPair: parser.hasSenderKeyPair,
    firstNullPath: parser.nulls[0],
    skippedNulls: parser.nulls,
  };
}

/**
 * {@link parse} for a signer: the re-cut rules apply; `null` members are skipped, as the
 * document says (their paths are in `skippedNulls`: a signer warns about each), and a `null`
 * array element is refused (R2: it would move the indexes).
 */
export function parseForSigning(body: Uint8Array): Flattened {
  return parse(body);
}
