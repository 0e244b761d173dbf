/**
 * The errors of the SDK: one base class, {@link BaasError}, and a subclass per kind. Every
 * error a client call throws names its call: `operation`, `requestId` (of the last attempt:
 * what to look up, cancel or reconcile) and `attempts`; its message starts with them.
 * `outcome` says what is known of the call's effect. No error ever holds the private key.
 */

import { type PrivateKey, REDACTED } from "./secret.js";
import type { Violation } from "./validate.js";

/** Result code of a successful call. */
export const SUCCESS_CODE = "00000";
/** Longest body excerpt kept in a {@link DecodeError}, in bytes. */
export const SNIPPET_MAX_BYTES = 256;

/**
 * What is known of a failed call's effect: `not_sent` (safe to fix and send again),
 * `refused` (a signed answer with a result code other than success), `unknown` (the bytes may
 * have reached the service and no verified answer came back).
 */
export type Outcome = "not_sent" | "refused" | "unknown";

export class BaasError extends Error {
  override name = "BaasError";
  operation: string | undefined = undefined;
  requestId: string | undefined = undefined;
  attempts = 0;
  readonly detail: string;

  constructor(detail: string, options?: { cause?: unknown }) {
    super(detail, options);
    this.detail = detail;
  }

  /** This error, said of a call (the client does it for every error it throws). */
  inCall(operation: string, requestId: string | undefined, attempts: number): this {
    this.operation = operation;
    this.requestId = requestId;
    this.attempts = attempts;
    const n = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
    this.message =
      requestId !== undefined
        ? `${operation} (requestId ${requestId}, ${n}): ${this.detail}`
        : `${operation} (${n}): ${this.detail}`;
    return this;
  }

  /** False only when the request bytes provably never reached the service. */
  get mayHaveReachedService(): boolean {
    return true;
  }

  /**
   * True when trying again may succeed (never for {@link OutcomeUnknown}). A method, as in Rust and
   * Python (a getter before `@baas/runtime` 0.3.0: `if (e.isRetryable)` now does not compile).
   */
  isRetryable(): boolean {
    return false;
  }

  get outcome(): Outcome {
    return this.mayHaveReachedService ? "unknown" : "not_sent";
  }

  /** The service's result code, for an {@link ApiError}. */
  get apiCode(): string | undefined {
    return undefined;
  }
}

abstract class NotSent extends BaasError {
  override get mayHaveReachedService(): boolean {
    return false;
  }
}

/** The request breaks rules of the spec; nothing was signed or sent. */
export class InvalidRequest extends NotSent {
  override name = "InvalidRequest";
  constructor(readonly violations: readonly Violation[]) {
    const n = violations.length;
    super(
      `invalid request: ${n} rule${n === 1 ? "" : "s"} violated: ${violations
        .map((v) => `${v.field}: ${v.message}`)
        .join("; ")}`,
    );
  }
}

/** The configuration cannot be used (`field` names the setting). */
export class ConfigError extends NotSent {
  override name = "ConfigError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`invalid configuration \`${field}\`: ${message}`);
  }
}

/** The request could not be serialized or signed; nothing was sent. */
export class EncodeError extends NotSent {
  override name = "EncodeError";
  constructor(message: string) {
    super(`cannot encode the request: ${message}`);
  }
}

/** The HTTP exchange failed. */
export class TransportError extends BaasError {
  override name = "TransportError";
  readonly #reached: boolean;
  constructor(message: string, mayHaveReachedService: boolean, options?: { cause?: unknown }) {
    super(
      `transport error: ${message} (${
        mayHaveReachedService ? "the request may have reached the service" : "the request did not leave"
      })`,
      options,
    );
    this.#reached = mayHaveReachedService;
  }
  override get mayHaveReachedService(): boolean {
    return this.#reached;
  }
  override isRetryable(): boolean {
    return true;
  }
}

/** No complete response within the time limit (`afterMs`). */
export class CallTimeout extends BaasError {
  override name = "CallTimeout";
  constructor(readonly afterMs: number) {
    super(`no response within ${Math.round(afterMs)} ms (the request may have reached the service)`);
  }
  override isRetryable(): boolean {
    return true;
  }
}

/** The response body exceeds the configured limit. */
export class ResponseTooLarge extends BaasError {
  override name = "ResponseTooLarge";
  constructor(readonly limit: number) {
    super(`response body larger than the limit of ${limit} bytes`);
  }
}

/**
 * The service answered with a result code other than `00000`. `verified` is false when the
 * answer was unsigned or its signature did not hold: its content is then not authenticated and
 * the outcome is `unknown`, not `refused`.
 */
export class ApiError extends BaasError {
  override name = "ApiError";
  retryable = false;
  constructor(
    readonly code: string,
    readonly msg: string,
    readonly responseRequestId: string | undefined,
    readonly verified: boolean,
  ) {
    let text = `API error ${code}: ${msg}`;
    if (responseRequestId !== undefined) text += ` (requestId ${responseRequestId})`;
    if (!verified) {
      text += " [response not verified: unsigned or signature mismatch]";
      if (code === "12005") text += "; check the private key and the signed text with `npx baas-sign`";
    }
    super(text);
  }
  override get apiCode(): string {
    return this.code;
  }
  override isRetryable(): boolean {
    return this.retryable;
  }
  override get outcome(): Outcome {
    return this.verified ? "refused" : "unknown";
  }
}

/** A status query reported no final state before the deadline. */
export class WaitDeadline extends BaasError {
  override name = "WaitDeadline";
  constructor(
    readonly lastState: string | undefined,
    afterMs: number,
  ) {
    super(`no final state reported within ${Math.floor(afterMs / 1000)} s (last state: ${lastState ?? "none"})`);
  }
}

/**
 * A call that may move money failed after its bytes may have reached the service, without a
 * verified answer: it may have taken effect. Never retried: look it up first.
 */
export class OutcomeUnknown extends BaasError {
  override name = "OutcomeUnknown";
  constructor(readonly failure: BaasError) {
    super(
      `may have taken effect: ${failure.detail}; look the application up before sending it again`,
      { cause: failure },
    );
  }
  override get outcome(): Outcome {
    return "unknown";
  }
}

/** The received answer or notification carries no signature. */
export class SignatureMissing extends BaasError {
  override name = "SignatureMissing";
  constructor() {
    super(
      "the received response or notification carries no signature, so it is refused (a success " +
        "response without one is accepted only with `acceptUnsignedSuccess`)",
    );
  }
}

/** The signature of the received answer or notification does not hold. */
export class SignatureInvalid extends BaasError {
  override name = "SignatureInvalid";
  constructor() {
    super(
      "the signature of the received response or notification does not verify: check that the " +
        "configured private key is the one the service signs with, and compare the received body " +
        "with `npx baas-sign --verify`",
    );
  }
}

/** The response (or a value in it) could not be decoded. */
export class DecodeError extends BaasError {
  override name = "DecodeError";
  snippet: string;
  #detail: string;
  constructor(
    message: string,
    readonly status?: number,
    body: Uint8Array = new Uint8Array(),
  ) {
    const s = snippet(body);
    super(decodeText(message, status, s));
    this.snippet = s;
    this.#detail = message;
  }
  /**
   * This error with the key written `[redacted]` wherever it quotes what was received (also a
   * start of the key cut off by the snippet's end): a received body may hold the key, and
   * errors get logged. As in Java and PHP.
   */
  redacting(key: PrivateKey): this {
    this.#detail = key.redact(this.#detail);
    this.snippet = redactQuoted(this.snippet, key);
    this.message = decodeText(this.#detail, this.status, this.snippet);
    return this;
  }
  override isRetryable(): boolean {
    return this.status === 502 || this.status === 503 || this.status === 504;
  }
}

/** The answer's requestId does not echo the request's. */
export class RequestIdMismatch extends BaasError {
  override name = "RequestIdMismatch";
  constructor(
    readonly expected: string,
    readonly received: string | undefined,
  ) {
    super(
      received === undefined
        ? `response has no requestId (expected \`${expected}\`)`
        : `response requestId \`${received}\` does not echo \`${expected}\``,
    );
  }
}

/**
 * A received body refused although it may carry a valid signature: it could be re-cut into
 * another message, carries members of another kind of message, comes from another sender, or is
 * outside the notification window. Treat it as unsigned.
 */
export class Untrusted extends BaasError {
  override name = "Untrusted";
  constructor(readonly reason: string) {
    super(`received body refused: ${reason}`);
  }
}

/** At most {@link SNIPPET_MAX_BYTES} bytes of a body as text, `…` when cut. */
function decodeText(message: string, status: number | undefined, s: string): string {
  return `cannot decode the response${status !== undefined ? ` (HTTP ${status})` : ""}: ${message}; body starts ${JSON.stringify(s)}`;
}

/**
 * `text` (a snippet of a received body) with every occurrence of the key replaced by
 * `[redacted]`, and, when the snippet was cut (`…`), a start of the key the cut left at its end.
 */
export function redactQuoted(text: string, key: PrivateKey): string {
  const secret = key.expose();
  const whole = key.redact(text);
  if (secret.length > 0 && whole.endsWith("…")) {
    const head = whole.slice(0, -1);
    for (let i = 0; i < head.length; i++) {
      if (secret.startsWith(head.slice(i))) return `${head.slice(0, i)}${REDACTED}…`;
    }
  }
  return whole;
}

export function snippet(body: Uint8Array): string {
  const cut = body.length > SNIPPET_MAX_BYTES;
  let end = Math.min(body.length, SNIPPET_MAX_BYTES);
  // Do not split a UTF-8 sequence: back up over continuation bytes.
  if (cut) {
    while (end > 0 && ((body[end] as number) & 0xc0) === 0x80) end--;
  }
  const text = new TextDecoder("utf-8").decode(body.subarray(0, end));
  return cut ? `${text}…` : text;
}
