/**
 * The HTTP exchange on `fetch` (the platform's, or one you pass: a proxy agent's, a test
 * double, the {@link MockService}'s). Posts the signed bytes and reads a size-limited answer
 * within the call's time limit; every failure becomes a {@link BaasError} that says whether the
 * bytes may have reached the service.
 */

import { BaasError, CallTimeout, ResponseTooLarge, TransportError } from "./errors.js";

/** The `fetch` the client calls (the platform's by default). */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export interface HttpResponse {
  readonly status: number;
  readonly body: Uint8Array;
}

/** Error codes of a connection that never opened: nothing was sent. */
const NOT_CONNECTED = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function causeCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 4; depth++) {
    if (typeof e === "object" && "code" in e && typeof e.code === "string") return e.code;
    e = typeof e === "object" && "cause" in e ? e.cause : undefined;
  }
  return undefined;
}

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json",
  // No compression: the size limit applies to the bytes read.
  "accept-encoding": "identity",
};

/** Posts `body` to `url` and reads the answer (see the module's doc). */
export async function postJson(
  fetch: Fetch,
  url: string,
  body: Uint8Array,
  timeoutMs: number,
  maxResponseBytes: number,
  signal?: AbortSignal,
): Promise<HttpResponse> {
  // A timer of our own (not AbortSignal.timeout, whose timer does not keep the process alive
  // while the call is pending), cleared when the call ends.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new DOMException("the call timed out", "TimeoutError")), timeoutMs);
  const combined = signal === undefined ? timeout.signal : AbortSignal.any([timeout.signal, signal]);
  try {
    const response = await fetch(url, { method: "POST", headers: HEADERS, body: body.slice(), signal: combined, redirect: "error" });
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body !== null) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxResponseBytes) {
          await reader.cancel().catch(() => undefined);
          throw new ResponseTooLarge(maxResponseBytes);
        }
        chunks.push(value);
      }
    }
    return { status: response.status, body: Buffer.concat(chunks) };
  } catch (e) {
    if (e instanceof BaasError) throw e;
    if (timeout.signal.aborted) throw new CallTimeout(timeoutMs);
    if (signal?.aborted === true) throw new TransportError("the call was aborted by its signal", true, { cause: e });
    const code = causeCode(e);
    const notSent = code !== undefined && NOT_CONNECTED.has(code);
    const what = e instanceof Error ? `${e.message}${code !== undefined ? ` (${code})` : ""}` : String(e);
    throw new TransportError(what, !notSent, { cause: e });
  } finally {
    clearTimeout(timer);
  }
}
