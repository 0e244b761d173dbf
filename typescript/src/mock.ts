/**
 * A mock of the service for partners' unit tests: a `fetch` that verifies each request's
 * signature, answers from stubs per operation, signs its answers with the partner's key and
 * records the requests, so the client under test validates, signs, verifies and decodes
 * exactly as in production, without a network:
 *
 * ```ts
 * const mock = new MockService(key);
 * mock.on(operations.getAccountDetails, (params) => ({ accountId: params["accountId"] }));
 * const client = new Client({ baseUrl: "https://mock.invalid", sender: "me", privateKey: key, fetch: mock.fetch });
 * ```
 */

import type { JsonObject } from "./canonical.js";
import type { Operation } from "./client.js";
import { signedResponseBody, verifyRequest } from "./envelope.js";
import { BaasError } from "./errors.js";
import type { PrivateKey } from "./secret.js";
import type { Fetch } from "./transport.js";

/** A refusal to answer with; `signed: false` answers it unsigned, as a stranger could. */
export interface Refusal {
  readonly refuse: string;
  readonly msg: string;
  readonly signed?: boolean;
}

/** A failure of the exchange: never connected, no answer after sending, or an HTTP 502. */
export type Failure = "not_sent" | "no_answer" | "gateway_error";

/** What a stub returns: the answer's `data`, a refusal or a failure. */
export type StubAnswer = Record<string, unknown> | Refusal | Failure | undefined;

/** One request the mock received (its signature verified). */
export interface Recorded {
  readonly path: string;
  readonly requestId: string;
  readonly params: JsonObject;
}

function isRefusal(answer: StubAnswer): answer is Refusal {
  return typeof answer === "object" && typeof answer["refuse"] === "string";
}

class MockNetworkError extends TypeError {
  constructor(
    message: string,
    override readonly cause: { code: string },
  ) {
    super(message);
  }
}

export class MockService {
  readonly #key: PrivateKey;
  readonly #stubs = new Map<string, (params: JsonObject) => StubAnswer>();
  readonly requests: Recorded[] = [];

  constructor(
    key: PrivateKey,
    readonly sender = "mock-service",
  ) {
    this.#key = key;
  }

  /** Answers `op` with what `answer` returns for the request's params (replaces a stub). */
  on<Req, Res>(op: Operation<Req, Res>, answer: (params: JsonObject) => StubAnswer): this {
    this.#stubs.set(op.path, answer);
    return this;
  }

  /** The recorded requests of one operation, in order. */
  requestsOf<Req, Res>(op: Operation<Req, Res>): Recorded[] {
    return this.requests.filter((r) => r.path === op.path);
  }

  /** The `fetch` to give the client (`Config.fetch`). */
  readonly fetch: Fetch = async (input, init) => {
    const path = new URL(input).pathname;
    const raw = init.body;
    const body = raw instanceof Uint8Array ? raw : new TextEncoder().encode(typeof raw === "string" ? raw : "");
    let received;
    try {
      received = verifyRequest(body, this.#key);
    } catch (e) {
      if (!(e instanceof BaasError)) throw e;
      return new Response('{"code":"12005","msg":"Invalid signature"}', { status: 200 });
    }
    this.requests.push({ path, requestId: received.requestId, params: received.params });
    const stub = this.#stubs.get(path);
    if (stub === undefined) return new Response(`no stub for ${path}`, { status: 500 });
    const answer = stub(received.params);
    if (answer === "not_sent") throw new MockNetworkError("fetch failed", { code: "ECONNREFUSED" });
    if (answer === "no_answer") throw new MockNetworkError("fetch failed", { code: "ECONNRESET" });
    if (answer === "gateway_error") return new Response("<html>502 Bad Gateway</html>", { status: 502 });
    if (isRefusal(answer)) {
      if (answer.signed === false) {
        return new Response(JSON.stringify({ code: answer.refuse, msg: answer.msg }), { status: 200 });
      }
      return this.#answer(received.requestId, received.locale, answer.refuse, answer.msg, undefined);
    }
    return this.#answer(received.requestId, received.locale, "00000", "success", answer);
  };

  #answer(requestId: string, locale: string, code: string, msg: string, data: unknown): Response {
    const body = signedResponseBody({ requestId, sender: this.sender, locale, code, msg, data, key: this.#key });
    return new Response(body.slice(), { status: 200, headers: { "content-type": "application/json" } });
  }
}
