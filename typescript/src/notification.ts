/**
 * Callback notifications: verify a received body, read its type and params, answer {@link ACK},
 * and remember what was processed. A {@link Verifier} accepts a body only when all hold:
 * the signature holds over the exact bytes received and the body could not be re-cut (R1-R4);
 * it is a notification (`requestId`, `notificationType`, `timestamp`, `salt` present; an answer's
 * `code`, `msg`, `data` absent); its `sender` is the service's; its `timestamp` is at most
 * `maxAgeMs` old and at most `maxSkewMs` ahead of this clock.
 */

import { appendFileSync, existsSync, fsyncSync, mkdirSync, openSync, closeSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { CanonicalError, type Flattened, JsonNumber, type JsonObject, type JsonValue, parse } from "./canonical.js";
import { signEnvelopeText, newSalt } from "./envelope.js";
import { BaasError, DecodeError, SignatureInvalid, SignatureMissing, Untrusted } from "./errors.js";
import type { PrivateKey } from "./secret.js";
import { writeJson } from "./shape.js";
import { VerifyError, verifyFlattened } from "./sign.js";

/** The body to answer once a notification is processed (or known as a repeat). */
export const ACK = "ok";
/** How old a notification may be: 24 hours. */
export const DEFAULT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How far ahead of this clock a timestamp may be: 5 minutes. */
export const DEFAULT_MAX_SKEW_MS = 5 * 60 * 1000;

/** A verified notification. */
export interface Notification<Type extends string = string, Params = JsonValue> {
  readonly notificationType: Type;
  readonly requestId: string;
  readonly sender: string | undefined;
  readonly locale: string | undefined;
  /** Epoch milliseconds. */
  readonly timestamp: number;
  /** The payload as received (`{}` when absent; numbers as their literal text). */
  readonly params: Params;
  /** The key of a repeated delivery: `requestId` and `notificationType`. */
  readonly deliveryId: string;
}

/** The deduplication key of one notification across its deliveries. */
export function deliveryId(requestId: string, notificationType: string): string {
  return `${notificationType} ${requestId}`;
}

function text(top: JsonObject, name: string, integerOk = false): string | undefined {
  const value = top[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (integerOk && value instanceof JsonNumber && /^[0-9]+$/u.test(value.text)) return value.text;
  throw new DecodeError(`not a notification: \`${name}\` is not a string`);
}

/** The checks of {@link Verifier} but the sender and the window. */
export function verifyBody(body: Uint8Array, key: PrivateKey): Notification {
  let flat: Flattened;
  try {
    flat = parse(body);
  } catch (e) {
    if (e instanceof CanonicalError) {
      if (e.kind === "ambiguous") throw new Untrusted(`the notification could be re-cut into another message: ${e.message}`);
      throw new DecodeError(`notification is not a usable JSON object: ${e.message}`, undefined, body);
    }
    throw e;
  }
  try {
    verifyFlattened(flat, key);
  } catch (e) {
    if (e instanceof VerifyError) throw e.kind === "missing" ? new SignatureMissing() : new SignatureInvalid();
    throw e;
  }
  const top = flat.value;
  const requestId = text(top, "requestId");
  const notificationType = text(top, "notificationType", true);
  const salt = text(top, "salt");
  const timestamp = top["timestamp"];
  if (
    requestId === undefined ||
    notificationType === undefined ||
    salt === undefined ||
    !(timestamp instanceof JsonNumber) ||
    !/^-?[0-9]+$/u.test(timestamp.text)
  ) {
    throw new DecodeError("not a notification (requestId, notificationType, timestamp and salt are required)", undefined, body);
  }
  for (const name of ["code", "msg", "data"]) {
    if (top[name] !== undefined && top[name] !== null) {
      throw new Untrusted(`the body carries \`${name}\`, a member of an answer, not of a notification`);
    }
  }
  const params = top["params"];
  return {
    notificationType,
    requestId,
    sender: text(top, "sender"),
    locale: text(top, "locale"),
    timestamp: Number(timestamp.text),
    params: params === undefined || params === null ? (Object.create(null) as JsonObject) : params,
    deliveryId: deliveryId(requestId, notificationType),
  };
}

export interface VerifierOptions {
  readonly maxAgeMs?: number;
  readonly maxSkewMs?: number;
}

/** Verifies received notification bodies for one partner key and the service's sender name. */
export class Verifier {
  readonly #key: PrivateKey;
  readonly maxAgeMs: number;
  readonly maxSkewMs: number;

  constructor(
    key: PrivateKey,
    readonly serviceSender: string,
    options: VerifierOptions = {},
  ) {
    this.#key = key;
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
    this.maxSkewMs = options.maxSkewMs ?? DEFAULT_MAX_SKEW_MS;
  }

  /** How long processed delivery ids must be kept: the window into the past. */
  get windowMs(): number {
    return this.maxAgeMs;
  }

  /**
   * The notification, or a {@link DecodeError}, {@link SignatureMissing},
   * {@link SignatureInvalid} or {@link Untrusted} (re-cut, an answer's members, another sender,
   * outside the window).
   */
  verify(body: Uint8Array, nowMs: number = Date.now()): Notification {
    const n = verifyBody(body, this.#key);
    if (n.sender !== this.serviceSender) {
      throw new Untrusted(
        `the notification's sender is ${JSON.stringify(n.sender ?? "")}, not the service's ${JSON.stringify(this.serviceSender)}`,
      );
    }
    const age = nowMs - n.timestamp;
    if (age > this.maxAgeMs) {
      throw new Untrusted(
        `the notification is dated ${n.timestamp}, more than ${Math.floor(this.maxAgeMs / 1000)} s before now (${nowMs}): refused as stale`,
      );
    }
    if (-age > this.maxSkewMs) {
      throw new Untrusted(
        `the notification is dated ${n.timestamp}, more than ${Math.floor(this.maxSkewMs / 1000)} s after now (${nowMs}): check this machine's clock`,
      );
    }
    return n;
  }
}

/**
 * The delivery ids a receiver processed, in an append-only file that survives a restart (one
 * process at a time). Each line is `<timestamp> <notificationType> <requestId>`; opening drops
 * entries older than the window and rewrites the file.
 */
export class SeenFile {
  readonly #seen = new Map<string, number>();

  constructor(
    readonly path: string,
    windowMs: number,
    nowMs: number = Date.now(),
  ) {
    if (existsSync(path)) {
      for (const line of readFileSync(path, "utf8").split("\n")) {
        const [stamp, type, requestId] = splitLine(line);
        if (stamp !== undefined && type !== undefined && requestId !== undefined && nowMs - stamp <= windowMs) {
          this.#seen.set(deliveryId(requestId, type), stamp);
        }
      }
    }
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.tmp`;
    const lines = [...this.#seen].map(([id, stamp]) => `${stamp} ${id}\n`).join("");
    writeFileSync(tmp, lines, "utf8");
    syncFile(tmp);
    renameSync(tmp, path);
  }

  isNew(n: Notification<string, unknown>): boolean {
    return !this.#seen.has(n.deliveryId);
  }

  /** Appends the notification's id, on disk before it returns (answer `ok` after). */
  record(n: Notification<string, unknown>): void {
    if (/[ \r\n]/u.test(n.requestId + n.notificationType)) {
      throw new BaasError("a delivery id with spaces or line breaks cannot be recorded");
    }
    appendFileSync(this.path, `${n.timestamp} ${n.deliveryId}\n`, "utf8");
    syncFile(this.path);
    this.#seen.set(n.deliveryId, n.timestamp);
  }
}

function splitLine(line: string): [number | undefined, string | undefined, string | undefined] {
  const first = line.indexOf(" ");
  const second = line.indexOf(" ", first + 1);
  if (first < 0 || second < 0 || !/^-?[0-9]+$/u.test(line.slice(0, first))) return [undefined, undefined, undefined];
  return [Number(line.slice(0, first)), line.slice(first + 1, second), line.slice(second + 1)];
}

function syncFile(path: string): void {
  const fd = openSync(path, "r+");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A notification as the service sends it, signed with `key` (for tests). */
export function signedNotification(args: {
  notificationType: string;
  requestId: string;
  sender: string;
  locale?: string;
  params: unknown;
  key: PrivateKey;
  timestampMs?: number;
}): Uint8Array {
  const text =
    `{"requestId":${JSON.stringify(args.requestId)},"sender":${JSON.stringify(args.sender)},` +
    `"notificationType":${JSON.stringify(args.notificationType)},"locale":${JSON.stringify(args.locale ?? "en_KE")},` +
    `"timestamp":${args.timestampMs ?? Date.now()},"salt":"${newSalt()}","params":${writeJson(args.params, "params")}}`;
  return signEnvelopeText(text, args.key);
}
