/**
 * Your integration tests against `baas-sandbox`, the loopback stand-in of the service:
 * {@link SandboxProcess} runs the binary on a free port and gives you a ready {@link Config};
 * {@link SandboxAdmin} reads what the sandbox holds (the OTP of a pending application, the
 * notifications it delivered, the requests it saw) and drives it (faults, its clock, a
 * notification delivered again) through its admin API, which answers loopback only and is
 * never signed.
 *
 * ```ts
 * const sandbox = await SandboxProcess.start();
 * try {
 *   const client = new Client(sandbox.config());
 *   const pending = await client.applyForTransferPending({ ... });
 *   await pending.sendOtp(OtpType.Sms);
 *   await pending.confirm(await sandbox.admin.otp(pending.businessId));
 * } finally {
 *   await sandbox.stop();
 * }
 * ```
 *
 * For tests only: the key the sandbox prints is a published test key, never a partner's.
 */

import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import { JsonNumber, type JsonObject, type JsonValue } from "./canonical.js";
import type { Config } from "./client.js";
import { PrivateKey } from "./secret.js";
import type { Fetch } from "./transport.js";

/** An application (a transfer, a payment...) that waits for its OTP, as the sandbox shows it. */
export interface SandboxApplication {
  /** Its id, as the application was answered (`txId`, `applicationId`...): the `businessId` of `sendOtp` and `confirmOperation`. */
  readonly businessId: string;
  /** The operation that made it, e.g. `applyForTransfer`. */
  readonly operation: string;
  /** True once `sendOtp` was called for it. */
  readonly otpSent: boolean;
  /** Wrong OTPs tried so far. */
  readonly wrongAttempts: number;
  /** The OTP that confirms it (what the customer would receive by SMS). */
  readonly otp: string;
}

/** One delivery attempt of a notification to your callback URL. */
export interface SandboxDelivery {
  /** The notification's type, e.g. `0028`. */
  readonly notificationType: string;
  /** The notification's requestId (the same on every attempt): what {@link SandboxAdmin.redeliver} takes. */
  readonly requestId: string;
  /** The attempt's number, from 1. */
  readonly attempt: number;
  /** True when your endpoint acknowledged it. */
  readonly acknowledged: boolean;
  /** What happened, in words (your answer, or why it failed). */
  readonly outcome: string;
}

/**
 * The sandbox's admin API refused (the message is the sandbox's own, e.g. the line of a
 * scenario it could not read), answered something else than its admin API would, or could not
 * be reached (then the message says why and `cause` holds the underlying error).
 */
export class SandboxAdminError extends Error {
  override name = "SandboxAdminError";
  /**
   * The HTTP status of the sandbox's refusal (400 for an action it refused, 404 for a path it
   * does not serve); `undefined` when it could not be reached, or answered 200 with something
   * its admin API never answers, or the error is the helper's own (no such pending application).
   */
  readonly status: number | undefined;

  constructor(message: string, status?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
  }
}

/** Options of a {@link SandboxAdmin}. */
export interface SandboxAdminOptions {
  /** The `fetch` to call (default: the platform's). */
  readonly fetch?: Fetch;
  /** Time for each admin request, in milliseconds (default 10 000). */
  readonly timeoutMs?: number;
  /**
   * The sandbox's admin token, when it was started with `--admin-token` (the banner prints
   * it): sent in the `X-Sandbox-Admin-Token` header of every admin request.
   */
  readonly adminToken?: string;
}

const HINT = "was the sandbox started with --no-admin (admin: false)?";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The error of a refusal: the sandbox's own words when it gave them (`{"error": ...}`, an
 * action it refused), else `what` was answered and the body's text (an unknown admin path).
 */
function refusal(what: string, status: number, text: string): SandboxAdminError {
  try {
    const value: unknown = JSON.parse(text);
    if (isRecord(value) && typeof value["error"] === "string") return new SandboxAdminError(value["error"], status);
    if (isRecord(value) && typeof value["msg"] === "string") {
      return new SandboxAdminError(`${what}: answered by the partner API, not the admin API (HTTP ${status}: ${value["msg"]}); ${HINT}`, status);
    }
  } catch {
    // Not JSON: a text answer.
  }
  const trimmed = text.trim().slice(0, 500);
  return new SandboxAdminError(`${what}: HTTP ${status}${trimmed.length > 0 ? `: ${trimmed}` : ""}`, status);
}

/** Numbers as {@link JsonNumber} (their text), as every JSON value of this runtime. */
function reviveNumbers(_key: string, value: unknown): unknown {
  return typeof value === "number" ? new JsonNumber(String(value)) : value;
}

/**
 * The sandbox's service sender: the `sender` of every answer and notification it signs, what a
 * notification verifier is given (`new NotificationVerifier(key, SERVICE_SENDER)`). The live
 * service's sender name comes from your bank.
 */
export const SERVICE_SENDER = "baas-sandbox";

/**
 * The sandbox's admin API (`/_sandbox/` on its own port): answered to loopback peers only, never
 * signed, so it is read with plain JSON and needs no key. Each method makes one request and
 * throws {@link SandboxAdminError} when the sandbox refuses or cannot be reached.
 *
 * ```ts
 * // Attached to a sandbox already running (cargo run -p baas-sandbox -- --port 8080):
 * const admin = new SandboxAdmin("http://127.0.0.1:8080");
 * await admin.addFaults('faults:\n  - operation: getAccountDetails\n    fault: code\n    code: "10001"\n');
 * ```
 */
export class SandboxAdmin {
  /** The sandbox's base URL, e.g. `http://127.0.0.1:8080` (no trailing `/`). */
  readonly baseUrl: string;
  /**
   * The sandbox's service sender (`baas-sandbox`): the sender of its answers and notifications,
   * for `new NotificationVerifier(key, admin.serviceSender)`.
   */
  readonly serviceSender: string = SERVICE_SENDER;
  readonly #fetch: Fetch;
  readonly #timeoutMs: number;
  readonly #headers: Record<string, string>;

  /**
   * The admin API of the sandbox at `baseUrl`, as its banner prints it
   * (`http://127.0.0.1:PORT`; its admin URL, `.../_sandbox/`, is accepted too).
   */
  constructor(baseUrl: string, options: SandboxAdminOptions = {}) {
    if (typeof baseUrl !== "string") throw new TypeError("SandboxAdmin: baseUrl must be a URL's text");
    const url = new URL(baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(`SandboxAdmin: baseUrl must be http(s), not ${url.protocol}`);
    }
    const timeoutMs = options.timeoutMs ?? 10_000;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new RangeError(`SandboxAdmin: timeoutMs must be a positive number of milliseconds (got ${timeoutMs})`);
    }
    this.baseUrl = baseUrl.replace(/\/+$/u, "").replace(/\/_sandbox$/u, "");
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#timeoutMs = timeoutMs;
    this.#headers = options.adminToken === undefined ? {} : { "x-sandbox-admin-token": options.adminToken };
  }

  /**
   * Everything the sandbox holds, as one JSON object: `clock_ms` (its clock, epoch
   * milliseconds), `state`, `state_failure`, `accounts`, `transactions`,
   * `pending_applications`, `requests`, `deliveries`, `faults`, `redeliverable`. Numbers are
   * {@link JsonNumber}s, as in every JSON value of this SDK: `Number(state["clock_ms"])`.
   */
  async state(): Promise<JsonObject> {
    const value = await this.#get("/api/state", reviveNumbers);
    if (!isRecord(value) || !("clock_ms" in value)) {
      throw new SandboxAdminError(`GET ${this.baseUrl}/_sandbox/api/state: not the admin API's state; ${HINT}`);
    }
    return value as JsonObject;
  }

  /** The applications waiting for their OTP. */
  async pendingApplications(): Promise<SandboxApplication[]> {
    const rows = await this.#list("/api/applications");
    return rows.map((row, i) => {
      const at = `applications[${i}]`;
      return {
        businessId: field(row, "business_id", "string", at),
        operation: field(row, "operation", "string", at),
        otpSent: field(row, "otp_sent", "boolean", at),
        wrongAttempts: field(row, "wrong_attempts", "number", at),
        otp: field(row, "otp", "string", at),
      };
    });
  }

  /**
   * The OTP that confirms the pending application `businessId` (what the customer would
   * receive once `sendOtp` is called). Throws {@link SandboxAdminError} naming the pending
   * applications when none has that id (never applied for, already confirmed, or expired).
   */
  async otp(businessId: string): Promise<string> {
    if (typeof businessId !== "string") throw new TypeError("otp: businessId must be text");
    const pending = await this.pendingApplications();
    const found = pending.find((p) => p.businessId === businessId);
    if (found !== undefined) return found.otp;
    const ids = pending.map((p) => JSON.stringify(p.businessId)).join(", ");
    throw new SandboxAdminError(
      `no pending application ${JSON.stringify(businessId)} in the sandbox (${ids.length > 0 ? `pending: ${ids}` : "none is pending"})`,
    );
  }

  /** The latest delivery attempts of notifications to your callback URL, newest first. */
  async deliveries(): Promise<SandboxDelivery[]> {
    const rows = await this.#list("/api/deliveries");
    return rows.map((row, i) => {
      const at = `deliveries[${i}]`;
      return {
        notificationType: field(row, "notification_type", "string", at),
        requestId: field(row, "request_id", "string", at),
        attempt: field(row, "attempt", "number", at),
        acknowledged: field(row, "acknowledged", "boolean", at),
        outcome: field(row, "outcome", "string", at),
      };
    });
  }

  /**
   * The latest requests the sandbox answered on the partner API, newest first: each an object
   * with `method`, `path`, `request_id`, `operation`, `code`, `answer`, `signature_verified`,
   * ... (numbers as {@link JsonNumber}s).
   */
  async requests(): Promise<JsonValue[]> {
    return (await this.#list("/api/requests", reviveNumbers)) as JsonValue[];
  }

  /**
   * Puts in force the faults of a scenario (YAML, the syntax of a `--scenario` file) on top of
   * those already in force, and returns the sandbox's message (`2 fault(s) added`). A scenario
   * the sandbox cannot read throws {@link SandboxAdminError} with its message, which names the
   * line; nothing is added then.
   */
  async addFaults(scenarioYaml: string): Promise<string> {
    if (typeof scenarioYaml !== "string") throw new TypeError("addFaults: the scenario must be YAML text");
    return this.#post("/faults", scenarioYaml, "application/yaml");
  }

  /** Removes every fault in force (those of `--scenario` too). */
  async clearFaults(): Promise<void> {
    await this.#post("/faults/clear", "", "text/plain; charset=utf-8");
  }

  /**
   * Moves the sandbox's clock forward by `ms` milliseconds (OTPs and applications expire,
   * notifications fall due). `ms` must be a whole number, 0 or more: anything else throws
   * (`TypeError` for a value that is not a number, `RangeError` otherwise) and nothing is sent.
   */
  async advanceClock(ms: number): Promise<void> {
    if (typeof ms !== "number") throw new TypeError("advanceClock: ms must be a number of milliseconds");
    if (!Number.isSafeInteger(ms) || ms < 0) {
      throw new RangeError(`advanceClock: ms must be a whole number of milliseconds, 0 or more (got ${ms})`);
    }
    await this.#post("/clock", String(ms), "text/plain; charset=utf-8");
  }

  /**
   * Delivers the notification `requestId` to your callback URL again (one of the latest the
   * sandbox signed: see {@link SandboxAdmin.deliveries}); an unknown one throws
   * {@link SandboxAdminError} with the sandbox's message.
   */
  async redeliver(requestId: string): Promise<void> {
    if (typeof requestId !== "string") throw new TypeError("redeliver: requestId must be text");
    await this.#post("/redeliver", requestId, "text/plain; charset=utf-8");
  }

  async #list(path: string, reviver?: (key: string, value: unknown) => unknown): Promise<unknown[]> {
    const value = await this.#get(path, reviver);
    if (!Array.isArray(value)) {
      throw new SandboxAdminError(`GET ${this.baseUrl}/_sandbox${path}: not the admin API's list; ${HINT}`);
    }
    return value;
  }

  async #get(path: string, reviver?: (key: string, value: unknown) => unknown): Promise<unknown> {
    const what = `GET ${this.baseUrl}/_sandbox${path}`;
    const { status, text } = await this.#exchange(what, path, undefined, undefined);
    if (status !== 200) throw refusal(what, status, text);
    try {
      return JSON.parse(text, reviver);
    } catch (e) {
      throw new SandboxAdminError(`${what}: the answer is not JSON; ${HINT}`, undefined, { cause: e });
    }
  }

  /** Posts an action; returns the sandbox's `done` message, throws its `error` message. */
  async #post(path: string, body: string, contentType: string): Promise<string> {
    const what = `POST ${this.baseUrl}/_sandbox${path}`;
    const { status, text } = await this.#exchange(what, path, body, contentType);
    if (status !== 200) throw refusal(what, status, text);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (isRecord(value) && typeof value["done"] === "string") return value["done"];
    throw new SandboxAdminError(`${what}: an answer the admin API never gives (${text.trim().slice(0, 200)}); ${HINT}`);
  }

  async #exchange(
    what: string,
    path: string,
    body: string | undefined,
    contentType: string | undefined,
  ): Promise<{ status: number; text: string }> {
    const url = `${this.baseUrl}/_sandbox${path}`;
    const init: RequestInit = { method: body === undefined ? "GET" : "POST", redirect: "error", headers: { ...this.#headers, accept: "application/json" } };
    if (body !== undefined && contentType !== undefined) {
      init.body = body;
      init.headers = { ...this.#headers, accept: "application/json", "content-type": contentType };
    }
    // A timer of our own, cleared when the exchange ends (it keeps the process alive meanwhile);
    // raced too, so that a fetch that ignores its signal still ends in time.
    const timeout = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timeout.abort();
        reject(new Error("timed out"));
      }, this.#timeoutMs);
    });
    init.signal = timeout.signal;
    const exchange = async (): Promise<{ status: number; text: string }> => {
      const response = await this.#fetch(url, init);
      return { status: response.status, text: await response.text() };
    };
    try {
      return await Promise.race([exchange(), late]);
    } catch (e) {
      if (timeout.signal.aborted) {
        throw new SandboxAdminError(`${what}: no answer within ${this.#timeoutMs} ms`, undefined, { cause: e });
      }
      throw new SandboxAdminError(`${what}: cannot reach the sandbox's admin API: ${reason(e)}`, undefined, { cause: e });
    } finally {
      clearTimeout(timer);
    }
  }
}

type Kind = { string: string; number: number; boolean: boolean };

/** A member of an admin row, of the type it must have. */
function field<K extends keyof Kind>(row: unknown, name: string, kind: K, at: string): Kind[K] {
  const value = isRecord(row) ? row[name] : undefined;
  if (typeof value !== kind) {
    throw new SandboxAdminError(`the sandbox's ${at}.${name} is not a ${kind}: ${JSON.stringify(value) ?? "absent"}`);
  }
  return value as Kind[K];
}

/** An error's message and, when it has one, its cause's code (`ECONNREFUSED`). */
function reason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const cause: unknown = e instanceof Error ? e.cause : undefined;
  const code = isRecord(cause) && typeof cause["code"] === "string" ? cause["code"] : undefined;
  return code !== undefined ? `${message} (${code})` : message;
}

/** How to run `baas-sandbox` (see {@link SandboxProcess.start}). */
export interface SandboxOptions {
  /**
   * The `baas-sandbox` binary: a path, or a name looked up on `PATH`. Default: the
   * `BAAS_SANDBOX` environment variable when set, else `baas-sandbox` on `PATH`.
   */
  readonly binary?: string;
  /** Where the sandbox POSTs notifications (`--callback`), e.g. your test server's URL. */
  readonly callbackUrl?: string;
  /** A YAML scenario file of faults in force from the start (`--scenario`). */
  readonly scenario?: string;
  /** A SQLite file that keeps the sandbox's state across restarts (`--state`); in memory without it. */
  readonly stateFile?: string;
  /**
   * Serve the admin API (default true). With `false` (`--no-admin`), reading
   * {@link SandboxProcess.admin} throws.
   */
  readonly admin?: boolean;
  /**
   * Require this token for the admin page and API (`--admin-token`); {@link SandboxProcess.admin}
   * sends it. Printable ASCII without space, `;`, `,`, `"`, `\`, `&`, `#`, `%`, `+` or `=`.
   */
  readonly adminToken?: string;
  /** Time for the sandbox to print its banner, in milliseconds (default 30 000). */
  readonly startupTimeoutMs?: number;
}

/** The most of the sandbox's stderr kept for an error's message. */
const STDERR_TAIL = 4096;
/** Time for the sandbox to exit after SIGTERM before it is killed. */
const STOP_GRACE_MS = 5_000;

/** What the banner said. */
interface Banner {
  url: string | undefined;
  sender: string | undefined;
  service: string | undefined;
  key: string | undefined;
}

/** Calls `each` with every line of `stream`, for as long as it is open (so the pipe never fills). */
function eachLine(stream: Readable, each: (line: string) => void): void {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
      each(pending.slice(0, end).replace(/\r$/u, ""));
      pending = pending.slice(end + 1);
    }
  });
  stream.on("end", () => {
    if (pending.length > 0) each(pending);
    pending = "";
  });
}

/** Lets Node exit while `handle` is open (a pipe: a socket with `unref`). */
function unref(handle: unknown): void {
  if (isRecord(handle) && typeof handle["unref"] === "function") (handle as { unref(): void }).unref();
}

/** The sandboxes running, stopped when Node exits (one listener for them all). */
const running = new Set<ChildProcess>();
let exitHooked = false;

function stopOnExit(child: ChildProcess): void {
  if (!exitHooked) {
    exitHooked = true;
    process.on("exit", () => {
      for (const c of running) c.kill("SIGTERM");
    });
  }
  running.add(child);
  child.once("exit", () => running.delete(child));
}

/**
 * A running `baas-sandbox` child process on a free loopback port, with its URL, the sender and
 * test key it prints, and its admin API. It never outlives your process: it is stopped when
 * Node exits, and it does not keep Node running on its own; still, call {@link stop} (or
 * `await using sandbox = await SandboxProcess.start()` on Node 20.4 or newer) when done.
 */
export class SandboxProcess {
  /** The sandbox's base URL, `http://127.0.0.1:PORT`: the client's `baseUrl`. */
  readonly url: string;
  /** The sender name the sandbox accepts (`sandbox-partner`). */
  readonly sender: string;
  /**
   * The sender of the sandbox's answers and notifications, as its banner prints it
   * (`baas-sandbox`): give it to your `NotificationVerifier`.
   */
  readonly serviceSender: string;
  /** The sandbox's published test key, which signs both ways. */
  readonly privateKey: PrivateKey;
  readonly #child: ChildProcess;
  readonly #admin: SandboxAdmin | undefined;
  #stopping: Promise<void> | undefined;

  private constructor(child: ChildProcess, url: string, sender: string, serviceSender: string, key: string, admin: boolean, adminToken: string | undefined) {
    this.#child = child;
    this.url = url;
    this.sender = sender;
    this.serviceSender = serviceSender;
    this.privateKey = new PrivateKey(key);
    this.#admin = admin ? new SandboxAdmin(url, adminToken === undefined ? {} : { adminToken }) : undefined;
    stopOnExit(child);
    child.unref();
    unref(child.stdout);
    unref(child.stderr);
  }

  /**
   * Runs `baas-sandbox --port 0` (with the options' flags) and resolves once its banner has
   * said where it listens, its sender and its key. Rejects with an `Error` that says why, with
   * the end of the sandbox's stderr, when it cannot be run, exits first, or prints no banner
   * within `startupTimeoutMs` (then it is killed).
   */
  static async start(options: SandboxOptions = {}): Promise<SandboxProcess> {
    const fromEnv = process.env["BAAS_SANDBOX"];
    const binary = options.binary ?? (fromEnv !== undefined && fromEnv !== "" ? fromEnv : "baas-sandbox");
    const timeoutMs = options.startupTimeoutMs ?? 30_000;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new RangeError(`startupTimeoutMs must be a positive number of milliseconds (got ${timeoutMs})`);
    }
    const args = ["--port", "0"];
    if (options.callbackUrl !== undefined) args.push("--callback", options.callbackUrl);
    if (options.scenario !== undefined) args.push("--scenario", options.scenario);
    if (options.stateFile !== undefined) args.push("--state", options.stateFile);
    const admin = options.admin ?? true;
    if (!admin) args.push("--no-admin");
    if (options.adminToken !== undefined) args.push("--admin-token", options.adminToken);
    // Imported here, so that importing the SDK needs no child processes (only starting a sandbox does).
    const { spawn } = await import("node:child_process");
    const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let ready = false;
    eachLine(child.stderr, (line) => {
      if (ready) process.stderr.write(`${line}\n`);
      else stderr = `${stderr}${line}\n`.slice(-STDERR_TAIL);
    });
    const banner: Banner = { url: undefined, sender: undefined, service: undefined, key: undefined };
    const said: string[] = [];
    const done = new Promise<{ url: string; sender: string; key: string }>((resolve, reject) => {
      const fail = (why: string, cause?: unknown): void => {
        clearTimeout(timer);
        const tail = stderr.trim();
        const out = said.length > 0 ? `\nits output:\n${said.join("\n")}` : "";
        const err = tail.length > 0 ? `\nits stderr:\n${tail}` : "";
        reject(new Error(`baas-sandbox (${binary}) ${why}${out}${err}`, cause === undefined ? undefined : { cause }));
      };
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        fail(`printed no banner within ${timeoutMs} ms, and was killed`);
      }, timeoutMs);
      // Kept for the child's life: an 'error' without a listener would throw.
      child.on("error", (e) => {
        if (ready) return;
        const hint = "code" in e && e.code === "ENOENT" ? ": not found (give its path as `binary` or in $BAAS_SANDBOX)" : "";
        fail(`cannot be run: ${e.message}${hint}`, e);
      });
      child.once("close", (code, signal) => {
        if (ready) return;
        fail(`exited (${signal !== null ? `signal ${signal}` : `code ${code ?? "?"}`}) before it was ready`);
      });
      eachLine(child.stdout, (line) => {
        if (ready) return;
        said.push(line);
        if (said.length > 20) said.shift();
        const value = (prefix: string): string | undefined =>
          line.startsWith(prefix) ? line.slice(prefix.length).trim() : undefined;
        banner.url = value("baas-sandbox listening on ") ?? banner.url;
        banner.sender = value("sender:") ?? banner.sender;
        banner.service = value("service:")?.split(/\s+/u)[0] ?? banner.service;
        banner.key = value("key:")?.replace(/\s+\(test key\)$/u, "") ?? banner.key;
        const { url, sender, key } = banner;
        if (url !== undefined && sender !== undefined && key !== undefined) {
          ready = true;
          clearTimeout(timer);
          resolve({ url, sender, key });
        }
      });
    });
    const { url, sender, key } = await done;
    return new SandboxProcess(child, url, sender, banner.service ?? SERVICE_SENDER, key, admin, options.adminToken);
  }

  /**
   * The sandbox's admin API: OTPs, deliveries, requests, faults, the clock. Throws
   * {@link SandboxAdminError} when the sandbox was started with `admin: false`.
   */
  get admin(): SandboxAdmin {
    if (this.#admin === undefined) {
      throw new SandboxAdminError("this sandbox was started with admin: false (--no-admin): it serves no admin API");
    }
    return this.#admin;
  }

  /** The client's configuration for this sandbox (`new Client(sandbox.config())`); spread it to add options. */
  config(): Config {
    return { baseUrl: this.url, sender: this.sender, privateKey: this.privateKey };
  }

  /**
   * Stops the sandbox (SIGTERM, then SIGKILL after 5 s) and resolves once it has exited. Calling
   * it again, or after the sandbox exited, returns at once.
   */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    const child = this.#child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.ref();
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
    try {
      await exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** {@link stop}, for `await using` (Node 20.4 or newer, TypeScript 5.2 or newer). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}
