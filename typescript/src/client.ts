/**
 * The client core: validate → sign → send → verify → decode, with retries and outcomes.
 *
 * Retries: a retryable failure (a transport failure, a timeout, a gateway status 502-504, or a
 * result code the spec marks retryable) is tried again with a new requestId, salt and timestamp,
 * up to `maxRetries` times with doubling backoff, except that a call that moves money, or one
 * whose requestId the caller fixed, is re-sent only when the failed attempt provably never
 * left. A call that moves money and fails without a verified answer after its bytes may have
 * left throws {@link OutcomeUnknown}, which nothing retries.
 */

import type { JsonValue } from "./canonical.js";
import { ApiError, BaasError, ConfigError, DecodeError, OutcomeUnknown, WaitDeadline } from "./errors.js";
import { openResponse, signRequest, type SignedRequest } from "./envelope.js";
import { PrivateKey } from "./secret.js";
import { readSettlement, type SettleBy, type Settlement } from "./settle.js";
import { readRecord, readValue, type RecordShape, ShapeError, type Ty, validateRecord, writeRecord, WriteError } from "./shape.js";
import { type Fetch, type HttpResponse, postJson } from "./transport.js";
import { FieldPath, Validator } from "./validate.js";
import { EncodeError } from "./errors.js";

/** One operation, described by generated code: `Req` is what is sent, `Res` what is read. */
export interface Operation<Req, Res> {
  /** Spec operation name, e.g. `applyForTransfer`. */
  readonly name: string;
  /** Wire path, e.g. `/trans/v2/applyForTransfer`. */
  readonly path: string;
  /** True when the call may move money: never re-sent once its bytes may have left. */
  readonly movesMoney: boolean;
  /** The params' shape (`undefined`: the spec does not list them; any JSON object is sent). */
  readonly params: RecordShape | undefined;
  /** The answer's `data` shape (`undefined`: returned as received). */
  readonly response: Ty | undefined;
  /** Phantom: the request and response types. */
  readonly types?: (req: Req) => Res;
}

/** Paging of an operation, described by generated code. */
export interface Paging<Res, Item> {
  readonly page: string;
  readonly size: string;
  readonly firstPage: number;
  readonly items: (response: Res) => readonly Item[] | undefined;
  readonly total: (response: Res) => number | undefined;
}

export const DEFAULT_LOCALE = "en_KE";

/** Everything a client needs. Times are in milliseconds. */
export interface Config {
  /** Base URL, e.g. `https://api.example.com` (operation paths are appended). */
  readonly baseUrl: string;
  /** The partner's sender name. */
  readonly sender: string;
  /** The partner's private key. */
  readonly privateKey: PrivateKey;
  /** Locale sent in every envelope (default `en_KE`). */
  readonly locale?: string;
  /** Time for a whole call (default 30 000). */
  readonly timeoutMs?: number;
  /** Largest answer body accepted (default 8 MiB). */
  readonly maxResponseBytes?: number;
  /** Automatic retries of a retryable failure (default 2). */
  readonly maxRetries?: number;
  /** Wait before the first retry, doubled for each next one, at most 10 s (default 200). */
  readonly retryBackoffMs?: number;
  /** Accept a success answer that carries no signature (default false). */
  readonly acceptUnsignedSuccess?: boolean;
  /** Allow plain `http://` to a host other than loopback (default false). */
  readonly allowInsecureHttp?: boolean;
  /** The `fetch` to call (default: the platform's). */
  readonly fetch?: Fetch;
  /** Called once per call with its outcome, requestId, attempts and duration (never the key or the params). */
  readonly onCall?: (event: CallEvent) => void;
}

/** What `onCall` hears of one call. */
export interface CallEvent {
  readonly operation: string;
  readonly outcome: "success" | "not_sent" | "refused" | "unknown";
  readonly requestId: string | undefined;
  readonly attempts: number;
  readonly code: string | undefined;
  readonly durationMs: number;
}

/** Options of one call. */
export interface CallOptions {
  /**
   * The requestId to send (to store it before sending; a new one by default).
   *
   * **A requestId of your own turns off retries** of a failed attempt that may have reached the
   * service (a timeout, a dropped connection, a retryable code such as `10001`), queries
   * included: the service refuses a requestId it has seen (`12002`), so the call is tried again
   * only when the failed attempt provably never left. Without one, a query is retried with a new
   * requestId up to `Config.maxRetries` times.
   */
  readonly requestId?: string;
  /** This call's time limit in milliseconds. */
  readonly timeoutMs?: number;
  /** Aborts the call (an abort after sending leaves the outcome unknown). */
  readonly signal?: AbortSignal;
}

/** A successful call with what its envelope said. */
export interface Success<R> {
  readonly data: R;
  readonly requestId: string;
  /** `data` as received (numbers as their literal text). */
  readonly rawData: JsonValue;
  readonly attempts: number;
}

/** How a waiter polls: the first delay, doubled up to `maxDelayMs`, until `deadlineMs`. */
export interface WaitPolicy {
  readonly firstDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly deadlineMs?: number;
}

/** One page of a paged operation. */
export interface Page<Item, Res> {
  readonly number: number;
  readonly items: readonly Item[];
  readonly total: number | undefined;
  readonly response: Res;
}

const MAX_BACKOFF_MS = 10_000;

function isLoopback(afterScheme: string): boolean {
  const authority = afterScheme.split(/[/?#]/u)[0] ?? "";
  if (authority.includes("@")) return false;
  if (authority.startsWith("[::1]")) return true;
  const host = (authority.split(":")[0] ?? "").toLowerCase();
  if (host === "localhost") return true;
  const octets = host.split(".");
  return octets.length === 4 && octets[0] === "127" && octets.every((o) => /^[0-9]{1,3}$/u.test(o) && Number(o) <= 255);
}

function checkConfig(config: Config): void {
  const url = config.baseUrl;
  const scheme = url.startsWith("https://") ? "https://" : url.startsWith("http://") ? "http://" : undefined;
  if (scheme === undefined) throw new ConfigError("baseUrl", "must start with https:// or http://");
  const rest = url.slice(scheme.length);
  if (rest === "") throw new ConfigError("baseUrl", "has no host");
  if (/\s/u.test(url)) throw new ConfigError("baseUrl", "must not contain whitespace");
  if (scheme === "http://" && config.allowInsecureHttp !== true && !isLoopback(rest)) {
    throw new ConfigError("baseUrl", "plain http:// is allowed only to loopback (a local sandbox); use https://");
  }
  if (config.sender.trim() === "") throw new ConfigError("sender", "must not be empty");
  if (!(config.privateKey instanceof PrivateKey) || config.privateKey.isEmpty()) {
    throw new ConfigError("privateKey", "must be a non-empty PrivateKey");
  }
  if (!/^[A-Za-z]+_[A-Za-z]+$/u.test(config.locale ?? DEFAULT_LOCALE)) {
    throw new ConfigError("locale", "must have the form <language>_<COUNTRY>, e.g. en_KE");
  }
  if (!((config.timeoutMs ?? 1) > 0)) throw new ConfigError("timeoutMs", "must be greater than zero");
  if ((config.maxRetries ?? 0) < 0) throw new ConfigError("maxRetries", "must not be negative");
}

class Failed {
  constructor(
    readonly error: BaasError,
    readonly requestId: string | undefined,
  ) {}
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends operations: validates, signs, posts, verifies and decodes. Generated clients wrap it. */
export class RuntimeClient {
  readonly #config: Config;
  readonly #fetch: Fetch;
  readonly retryableCodes: ReadonlySet<string>;

  constructor(config: Config, retryableCodes: Iterable<string> = []) {
    checkConfig(config);
    this.#config = config;
    this.#fetch = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.retryableCodes = new Set(retryableCodes);
  }

  /** The configuration (its key shows as `[redacted]`). */
  get config(): Config {
    return this.#config;
  }

  /** Validates `params` against the operation's rules; throws {@link InvalidRequest}. */
  validate<Req, Res>(op: Operation<Req, Res>, params: Req): void {
    if (op.params === undefined) return;
    const v = new Validator();
    validateRecord(v, op.params, params, FieldPath.ROOT);
    v.finish();
  }

  /** The typed `data` of a successful call. */
  async execute<Req, Res>(op: Operation<Req, Res>, params: Req, options: CallOptions = {}): Promise<Res> {
    return (await this.executeWith(op, params, options)).data;
  }

  /** {@link execute}, returning the success with its requestId, raw data and attempts. */
  async executeWith<Req, Res>(op: Operation<Req, Res>, params: Req, options: CallOptions = {}): Promise<Success<Res>> {
    const started = Date.now();
    try {
      try {
        this.validate(op, params);
      } catch (e) {
        if (e instanceof BaasError) throw e.inCall(op.name, options.requestId, 0);
        throw e;
      }
      for (let attempt = 0; ; attempt++) {
        let signed: SignedRequest | undefined;
        try {
          signed = this.#sign(op, params, options);
          const response = await postJson(
            this.#fetch,
            this.#url(op.path),
            signed.body,
            options.timeoutMs ?? this.#config.timeoutMs ?? 30_000,
            this.#config.maxResponseBytes ?? 8 * 1024 * 1024,
            options.signal,
          );
          const [data, raw] = this.#open(op, signed, response);
          const success: Success<Res> = { data, requestId: signed.requestId, rawData: raw, attempts: attempt + 1 };
          this.#report(op, started, undefined, success);
          return success;
        } catch (e) {
          if (!(e instanceof BaasError)) throw e;
          const failed = new Failed(e, signed?.requestId);
          const wait = this.#retryWait(op, failed, attempt, options);
          if (wait === undefined) throw this.#final(op, failed, attempt + 1);
          await sleep(wait);
        }
      }
    } catch (e) {
      if (e instanceof BaasError) this.#report(op, started, e, undefined);
      throw e;
    }
  }

  /** Every page of a paged operation, from the request's page on (an async iterable). */
  pages<Req, Res, Item>(op: Operation<Req, Res>, paging: Paging<Res, Item>, params: Req): Pages<Req, Res, Item> {
    return new Pages(this, op, paging, params);
  }

  /**
   * Sends `query` until `state` of its answer is one of `finals`, waiting as `policy` says;
   * {@link WaitDeadline} when the deadline passes first. A retryable failure is polled past.
   */
  async waitUntil<Req, Res>(
    op: Operation<Req, Res>,
    params: Req,
    state: (response: Res) => string | undefined,
    finals: readonly string[],
    policy: WaitPolicy = {},
  ): Promise<Res> {
    const started = Date.now();
    let delay = policy.firstDelayMs ?? 1000;
    const maxDelay = policy.maxDelayMs ?? 30_000;
    const deadline = policy.deadlineMs ?? 600_000;
    let lastState: string | undefined;
    let lastRequestId: string | undefined;
    for (let queries = 1; ; queries++) {
      try {
        const success = await this.executeWith(op, params);
        const now = state(success.data);
        if (now !== undefined && finals.includes(now)) return success.data;
        lastState = now;
        lastRequestId = success.requestId;
      } catch (e) {
        if (!(e instanceof BaasError && e.isRetryable() && !op.movesMoney)) throw e;
      }
      const elapsed = Date.now() - started;
      if (elapsed + delay > deadline) {
        throw new WaitDeadline(lastState, elapsed).inCall(op.name, lastRequestId, queries);
      }
      await sleep(delay);
      delay = Math.min(delay * 2, maxDelay);
    }
  }

  /**
   * Sends `op` (a status query with an application's business id) once and reads its state as
   * `by` says (see `settle.ts`). Never throws a `BaasError`: a failed lookup is `still_unknown`.
   * The generated pending applications' `settle()` call it.
   */
  async settle<Req, Res, S extends string | number>(op: Operation<Req, Res>, params: Req, by: SettleBy<Res, S>): Promise<Settlement<S>> {
    let success: Success<Res>;
    try {
      success = await this.executeWith(op, params);
    } catch (e) {
      if (e instanceof BaasError) return { kind: "still_unknown", error: e, safeToConfirmAgain: false };
      throw e;
    }
    return readSettlement(by, success.data, { operation: op.name, ...success });
  }

  #url(path: string): string {
    const base = this.#config.baseUrl.replace(/\/+$/u, "");
    return path.startsWith("/") ? base + path : `${base}/${path}`;
  }

  #sign<Req, Res>(op: Operation<Req, Res>, params: Req, options: CallOptions): SignedRequest {
    let json: string;
    try {
      json = op.params === undefined ? writeJsonObject(params) : writeRecord(op.params, params);
    } catch (e) {
      if (e instanceof WriteError) throw new EncodeError(e.message);
      throw e;
    }
    return signRequest(json, this.#config.sender, this.#config.locale ?? DEFAULT_LOCALE, this.#config.privateKey, options.requestId);
  }

  #open<Req, Res>(op: Operation<Req, Res>, signed: SignedRequest, response: HttpResponse): [Res, JsonValue] {
    const answer = openResponse(
      response.status,
      response.body,
      this.#config.privateKey,
      signed.requestId,
      this.#config.acceptUnsignedSuccess ?? false,
    );
    try {
      const ty = op.response;
      const data = ty === undefined ? answer.data : ty.k === "record" ? readRecord(ty.record(), answer.data, "") : readValue(ty, answer.data, "data");
      // The shape descriptors and the generated types describe the same answer.
      return [data as Res, answer.data];
    } catch (e) {
      if (e instanceof ShapeError) throw new DecodeError(`cannot decode \`data\`: ${e.message}`, response.status, response.body);
      throw e;
    }
  }

  #retryWait<Req, Res>(op: Operation<Req, Res>, failed: Failed, attempt: number, options: CallOptions): number | undefined {
    const error = failed.error;
    if (error instanceof ApiError) error.retryable = this.retryableCodes.has(error.code);
    const fixedId = options.requestId !== undefined;
    const mayResend = !(op.movesMoney || fixedId) || !error.mayHaveReachedService;
    if (options.signal?.aborted === true) return undefined;
    if (attempt >= (this.#config.maxRetries ?? 2) || !error.isRetryable() || !mayResend) return undefined;
    return Math.min((this.#config.retryBackoffMs ?? 200) * 2 ** Math.min(attempt, 16), MAX_BACKOFF_MS);
  }

  #final<Req, Res>(op: Operation<Req, Res>, failed: Failed, attempts: number): BaasError {
    const error = failed.error;
    const unknown =
      op.movesMoney &&
      failed.requestId !== undefined &&
      error.mayHaveReachedService &&
      !(error instanceof ApiError && error.verified);
    const final = unknown ? new OutcomeUnknown(error) : error;
    return final.inCall(op.name, failed.requestId, attempts);
  }

  #report<Req, Res>(op: Operation<Req, Res>, started: number, error: BaasError | undefined, success: Success<Res> | undefined): void {
    const hook = this.#config.onCall;
    if (hook === undefined) return;
    hook({
      operation: op.name,
      outcome: error === undefined ? "success" : error.outcome,
      requestId: error === undefined ? success?.requestId : error.requestId,
      attempts: error === undefined ? (success?.attempts ?? 0) : error.attempts,
      code: error?.apiCode,
      durationMs: Date.now() - started,
    });
  }
}

function writeJsonObject(params: unknown): string {
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new WriteError("`params` is not an object");
  }
  return writeRecord({ name: "params", fields: Object.keys(params).map((wire) => ({ wire, ty: { k: "json" }, required: false })) }, params);
}

/**
 * The pages of a paged operation (`for await (const page of pages)`); {@link Pages.items}
 * iterates every item of every page. It stops after an empty page, a page shorter than the page
 * size, or the page that reaches the total. An error ends it, thrown.
 */
export class Pages<Req, Res, Item> implements AsyncIterable<Page<Item, Res>> {
  constructor(
    private readonly client: RuntimeClient,
    private readonly op: Operation<Req, Res>,
    private readonly paging: Paging<Res, Item>,
    private readonly params: Req,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<Page<Item, Res>> {
    const start = this.params as Record<string, unknown>;
    let number = Number(start[this.paging.page] ?? this.paging.firstPage);
    const size = Number(start[this.paging.size]);
    const textPages = typeof start[this.paging.page] === "string";
    let seen = 0;
    for (;;) {
      const params = { ...start, [this.paging.page]: textPages ? String(number) : number } as Req;
      const response = await this.client.execute(this.op, params);
      const items = this.paging.items(response) ?? [];
      const total = this.paging.total(response);
      seen += items.length;
      yield { number, items, total, response };
      const last = items.length === 0 || (Number.isFinite(size) && items.length < size) || (total !== undefined && seen >= total);
      if (last) return;
      number += 1;
    }
  }

  /** Every item of every page, in order. */
  async *items(): AsyncGenerator<Item, void, undefined> {
    for await (const page of this) yield* page.items;
  }
}
