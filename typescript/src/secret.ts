/**
 * The partner's private key. It never shows in `String()`, template strings, `JSON.stringify`,
 * `util.inspect` (so `console.log`) or an error: each shows `[redacted]`. Only the signer reads
 * it, through {@link PrivateKey.expose}.
 */

import { nodeCrypto } from "./lazy.js";

/** What is shown in place of the key. */
export const REDACTED = "[redacted]";

const inspect = Symbol.for("nodejs.util.inspect.custom");

export class PrivateKey {
  readonly #secret: string;

  constructor(secret: string) {
    if (typeof secret !== "string") {
      throw new TypeError("a PrivateKey is built from text");
    }
    this.#secret = secret;
    Object.freeze(this);
  }

  /**
   * The key in an environment variable (`BAAS_PRIVATE_KEY` by default), or `undefined` when it
   * is unset or empty (an empty key is a configuration mistake, never a key). With `remove`,
   * the variable is deleted so child processes do not inherit it.
   */
  static fromEnv(name = "BAAS_PRIVATE_KEY", remove = false): PrivateKey | undefined {
    const value = process.env[name];
    if (value === undefined || value === "") {
      return undefined;
    }
    if (remove) {
      delete process.env[name];
    }
    return new PrivateKey(value);
  }

  /** The key's text, for the signer only. */
  expose(): string {
    return this.#secret;
  }

  isEmpty(): boolean {
    return this.#secret.length === 0;
  }

  /** `text` with every occurrence of the key replaced by `[redacted]`. */
  redact(text: string): string {
    return this.#secret.length === 0 ? text : text.split(this.#secret).join(REDACTED);
  }

  /** Equality in time independent of where the keys differ. */
  equals(other: PrivateKey): boolean {
    return constantTimeEqual(this.#secret, other.#secret);
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect](): string {
    return `PrivateKey(${REDACTED})`;
  }
}

/** Equality of two texts in time independent of where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  if (x.length !== y.length) {
    // Compare against itself so the time does not depend on the content either.
    nodeCrypto().timingSafeEqual(x, x);
    return false;
  }
  return nodeCrypto().timingSafeEqual(x, y);
}
