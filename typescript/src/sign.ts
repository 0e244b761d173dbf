/**
 * Signing and verification of message bodies. A request is signed over the exact bytes sent:
 * the envelope is serialized without `signature`, those bytes are flattened and hashed, and
 * `,"signature":"<hex>"` is spliced in before the final `}`. A received body is verified over
 * its own bytes, numbers as their literal text. Signatures are compared in constant time.
 */

import {
  CanonicalError,
  type Flattened,
  parse,
  parseForSigning,
  signatureHex,
} from "./canonical.js";
import { constantTimeEqual, type PrivateKey } from "./secret.js";

/** The `code` of the warning a signer emits for each `null` member it skips. */
export const NULL_SKIPPED_WARNING = "BAAS_NULL_SKIPPED";

/** The words of the warning for a `null` member at `path`, skipped by a signer. */
export function nullSkippedWords(path: string): string {
  return `\`${path}\` is null: left out of the signature, as the document says (a receiver reads it as absent)`;
}

/**
 * Reads a body to sign: a `null` member is skipped, as the document says, and a warning is
 * emitted for each (`process.emitWarning`, type `BaasSigningWarning`, code
 * {@link NULL_SKIPPED_WARNING}; the paths are also the result's `skippedNulls`); a `null` array
 * element is refused (R2).
 */
function readToSign(body: Uint8Array): Flattened {
  const flat = parseForSigning(body);
  for (const path of flat.skippedNulls) {
    process.emitWarning(nullSkippedWords(path), { type: "BaasSigningWarning", code: NULL_SKIPPED_WARNING });
  }
  return flat;
}

/**
 * Lowercase hex signature of a JSON object body (its top-level `signature` left out). A `null`
 * member is skipped, with a warning (see {@link readToSign}).
 */
export function sign(body: Uint8Array, key: PrivateKey): string {
  return signatureHex(readToSign(body), key);
}

export type VerifyErrorKind = "malformed" | "missing" | "mismatch";

/** Why a body does not verify (`cause` is the {@link CanonicalError} of a malformed one). */
export class VerifyError extends Error {
  override readonly name = "VerifyError";
  constructor(
    readonly kind: VerifyErrorKind,
    readonly canonicalCause?: CanonicalError,
  ) {
    super(
      kind === "malformed"
        ? `cannot verify: ${canonicalCause?.message ?? ""}`
        : kind === "missing"
          ? "the body has no signature"
          : "the signature does not match the body",
    );
  }
}

/** Verifies an already flattened body (flattened `unambiguous`). */
export function verifyFlattened(flat: Flattened, key: PrivateKey): void {
  if (flat.signature === undefined) throw new VerifyError("missing");
  if (!constantTimeEqual(signatureHex(flat, key), flat.signature)) throw new VerifyError("mismatch");
}

/** Verifies the top-level `signature` of a received body and returns it flattened. */
export function verify(body: Uint8Array, key: PrivateKey): Flattened {
  let flat: Flattened;
  try {
    flat = parse(body);
  } catch (e) {
    if (e instanceof CanonicalError) throw new VerifyError("malformed", e);
    throw e;
  }
  verifyFlattened(flat, key);
  return flat;
}

/** The signature a body should carry and the one it carries (for debugging tools). */
export interface Check {
  readonly expected: string;
  readonly received: string | undefined;
  readonly holds: boolean;
}

export function check(body: Uint8Array, key: PrivateKey): Check {
  const flat = parse(body);
  const expected = signatureHex(flat, key);
  const received = flat.signature;
  return { expected, received, holds: received !== undefined && constantTimeEqual(expected, received) };
}

function isWhitespace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;
}

/** Splices `,"signature":"<hex>"` before the final `}` of a serialized object without one. */
export function attachSignature(body: Uint8Array, signature: string): Uint8Array {
  let end = body.length;
  while (end > 0 && isWhitespace(body[end - 1])) end--;
  if (end === 0 || body[end - 1] !== 0x7d) {
    throw new CanonicalError("not_an_object", "body is not a JSON object");
  }
  let head = end - 1;
  while (head > 0 && isWhitespace(body[head - 1])) head--;
  if (head === 0) throw new CanonicalError("not_an_object", "body is not a JSON object");
  const comma = body[head - 1] === 0x7b ? "" : ",";
  const tail = Buffer.from(`${comma}"signature":"${signature}"}`, "utf8");
  const out = new Uint8Array(end - 1 + tail.length);
  out.set(body.subarray(0, end - 1), 0);
  out.set(tail, end - 1);
  return out;
}

/**
 * Signs a serialized object and returns the text to send (refused when already signed). A
 * `null` member is skipped, with a warning, as by {@link sign}.
 */
export function signAndAttach(body: Uint8Array, key: PrivateKey): Uint8Array {
  const flat = readToSign(body);
  if (flat.hasSignatureKey) {
    throw new CanonicalError("already_signed", "the body already has a `signature` (sign it without one)");
  }
  return attachSignature(body, signatureHex(flat, key));
}
