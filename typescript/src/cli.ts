/**
 * `npx baas-sign [--verify | --attach]`: compute or check a message's signature exactly as the
 * runtime does, for chasing a `12005 Invalid signature`. Reads one JSON message on stdin; the
 * key comes from the environment variable `BAAS_PRIVATE_KEY` (never the command line) and is
 * never printed: every message has its text replaced by `[redacted]`.
 *
 * A `null` member is skipped, as the document says (a receiver reads it as absent): the body is
 * signed, with one warning line on stderr for each member skipped. A `null` array element (it
 * would move the indexes) is refused.
 *
 * Exit codes: 0 signed / attached / the signature holds; 1 `--verify`: the signature is missing
 * or wrong, or a re-cut rule refuses the body; 2 usage error, no key, an input that is not a
 * usable JSON object, or a body that is not to be signed.
 */

import {
  CanonicalError,
  canonicalStringRedacted,
  type Flattened,
  parse,
  signatureHex,
} from "./canonical.js";
import { constantTimeEqual, PrivateKey } from "./secret.js";
import { attachSignature, check, nullSkippedWords } from "./sign.js";

export const KEY_VARIABLE = "BAAS_PRIVATE_KEY";
/** The version `--version` prints (the package's). */
export const VERSION = "0.4.1";

export interface Io {
  readonly stdin: Uint8Array;
  readonly env: Readonly<Record<string, string | undefined>>;
  out(text: string): void;
  err(text: string): void;
}

const USAGE =
  "usage: baas-sign [--verify | --attach]\n\n" +
  "Compute or check the signature of a BaaS message read on stdin; the key is taken from the " +
  `environment variable ${KEY_VARIABLE}. By default prints the canonical string (key redacted), ` +
  "then the signature as the last line.\n\n" +
  "  --verify  check the message's own `signature`: exit 0 when it holds, 1 otherwise (also when a re-cut rule refuses the body)\n" +
  "  --attach  print the message with its signature added, exactly as it is to be sent\n";

function containsKey(body: Uint8Array, flat: Flattened, secret: string): boolean {
  if (secret === "") return false;
  return Buffer.from(body).includes(Buffer.from(secret, "utf8")) || flat.pairs.some((p) => p.includes(secret));
}

/** Runs the command; returns its exit code. */
export function run(argv: readonly string[], io: Io): number {
  let verify = false;
  let attach = false;
  for (const arg of argv) {
    if (arg === "--verify") verify = true;
    else if (arg === "--attach") attach = true;
    else if (arg === "--help" || arg === "-h") {
      io.out(USAGE);
      return 0;
    } else if (arg === "--version" || arg === "-V") {
      io.out(`baas-sign ${VERSION}\n`);
      return 0;
    } else {
      io.err(`baas-sign: unexpected argument ${JSON.stringify(arg)}\n${USAGE}`);
      return 2;
    }
  }
  if (verify && attach) {
    io.err(`baas-sign: --verify cannot be used with --attach\n${USAGE}`);
    return 2;
  }
  const secret = io.env[KEY_VARIABLE];
  if (secret === undefined || secret === "") {
    io.err(`baas-sign: set the private key in the environment variable ${KEY_VARIABLE}\n`);
    return 2;
  }
  const key = new PrivateKey(secret);
  const say = (text: string): void => io.err(`baas-sign: ${key.redact(text)}\n`);
  const input = io.stdin;
  if (verify) {
    try {
      const c = check(input, key);
      if (c.holds) {
        io.out(`signature OK: ${c.expected}\n`);
        return 0;
      }
    } catch (e) {
      if (!(e instanceof CanonicalError)) throw e;
    }
  }
  let flat: Flattened;
  let refusal: CanonicalError | undefined;
  try {
    flat = parse(input);
  } catch (e) {
    if (!(e instanceof CanonicalError)) throw e;
    if (e.kind !== "ambiguous") {
      say(`the input is not a usable JSON object: ${e.message}`);
      return 2;
    }
    refusal = e;
    try {
      flat = parse(input, { unambiguous: false });
    } catch (again) {
      if (!(again instanceof CanonicalError)) throw again;
      say(`the input is not a usable JSON object: ${again.message}`);
      return 2;
    }
  }
  if (flat.hasSenderKeyPair) {
    say(
      "warning: the input has a top-level `senderKey`; the key is never sent (the algorithm adds it), so this body does not sign like the message sent",
    );
  }
  if (!verify && refusal === undefined) {
    for (const path of flat.skippedNulls) say(`warning: ${nullSkippedWords(path)}`);
  }
  const canonical = (): string => canonicalStringRedacted(flat, key);
  if (attach) {
    if (flat.hasSignatureKey) {
      say("the input already has a `signature`; remove it to sign again");
      return 2;
    }
    if (flat.hasSenderKeyPair || containsKey(input, flat, key.expose())) {
      say("the input contains the private key; the key is never sent, remove it");
      return 2;
    }
    if (refusal !== undefined) {
      say(`not signed: ${refusal.message}`);
      return 2;
    }
    try {
      const body = attachSignature(input, signatureHex(flat, key));
      io.out(`${Buffer.from(body).toString("utf8")}\n`);
      return 0;
    } catch (e) {
      if (!(e instanceof CanonicalError)) throw e;
      say(`cannot attach the signature: ${e.message}`);
      return 2;
    }
  }
  if (verify) {
    if (refusal !== undefined) {
      say(
        `REFUSED: ${refusal.message}\n  (every verifier refuses this body, whatever its signature)\n  canonical string (key redacted):\n${canonical()}`,
      );
      return 1;
    }
    const expected = signatureHex(flat, key);
    const received = flat.signature;
    if (received !== undefined && constantTimeEqual(received, expected)) {
      io.out(`signature OK: ${expected}\n`);
      return 0;
    }
    const what = received === undefined ? "signature MISSING" : `signature MISMATCH\n  received: ${received}`;
    say(`${what}\n  expected: ${expected}\n  canonical string (key redacted):\n${canonical()}`);
    return 1;
  }
  if (refusal !== undefined) {
    say(`not signed: ${refusal.message}\n  canonical string (key redacted):\n${canonical()}`);
    return 2;
  }
  io.out(`${canonical()}\n${signatureHex(flat, key)}\n`);
  return 0;
}
