/**
 * Callback notifications: verify a received body, read its type and params, answer {@link ACK},
 * and remember what was processed. A {@link Verifier} accepts a body only when all hold:
 * the signature holds over the exact bytes received and the body could not be re-cut (R1-R4);
 * it is a notification (`requestId`, `notificationType`, `timestamp`, `salt` present; an answer's
 * `code`, `msg`, `data` absent); its `sender` is the service's; its `timestamp` is at most
 * `maxAgeMs` old and at most `maxSkewMs` ahead of this clock.
 */

import { CanonicalError, type Flattened, JsonNumber, type JsonObject, type JsonValue, parse } from "./canonical.js";
import { signEnvelopeText, newSalt } from "./envelope.js";
import { DecodeError, SignatureInvalid, SignatureMissing, Untrusted } from "./errors.js";
import type { PrivateKey } from "./secret.js";
import { nodeFs, nodePath } from "./lazy.js";
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

function text(top: JsonObject, name: string): string | undefined {
  const value = top[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  throw new DecodeError(`not a notification: \`${name}\` is not a string`);
}

/** The checks of {@link Verifier} but the sender and the window. */
export function verifyBody(body: Uint8Array, key: PrivateKey): Notification {
  try {
    return checkedBody(body, key);
  } catch (e) {
    // What it quotes of the body never shows the key (as in Java and PHP).
    throw e instanceof DecodeError ? e.redacting(key) : e;
  }
}

function checkedBody(body: Uint8Array, key: PrivateKey): Notification {
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
  // A JSON string, as the service sends it ("0028"); a number (28, 28.0, -28) is refused in
  // every language (the shared vectors' notification_types).
  const notificationType = text(top, "notificationType");
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
 * How long a {@link SeenFile} keeps an id by default, counted from when it was recorded: 30
 * days. It must outlast every re-delivery: the service re-signs a re-delivery with a fresh
 * timestamp, so after an outage longer than the verifier's window only the id tells that a
 * notification was processed.
 */
export const DEFAULT_KEEP_MS = 30 * 24 * 60 * 60 * 1000;

const SEEN_HEADER = "# baas seen-notifications v2: <recorded epoch ms> <notificationType> <requestId>, %XX-escaped";

/** Every byte outside `!`..`~`, and `%`, as `%XX`: the line is ASCII, so nothing in an id splits it. */
function escapeField(text: string): string {
  let out = "";
  for (const b of new TextEncoder().encode(text)) {
    out += b >= 0x21 && b <= 0x7e && b !== 0x25 ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function unescapeField(field: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < field.length; ) {
    const c = field.charCodeAt(i);
    if (c === 0x25) {
      const hex = field.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/u.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 3;
    } else if (c >= 0x21 && c <= 0x7e) {
      bytes.push(c);
      i += 1;
    } else {
      return undefined;
    }
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
}

function seenLine(notificationType: string, requestId: string, recordedMs: number): string {
  return `${recordedMs} ${escapeField(notificationType)} ${escapeField(requestId)}\n`;
}

/**
 * The delivery ids a receiver processed, in an append-only file that survives a restart (one
 * process at a time; with several receivers, keep them in your database under a unique key).
 *
 * Each id is kept for `keepMs` (default {@link DEFAULT_KEEP_MS}, 30 days) counted from when it was
 * **recorded**, never from the notification's timestamp: a re-delivery re-signed after a long
 * outage is fresh by its timestamp and must still be known by its id. Any id is kept exactly:
 * one ASCII line per id, `<recorded ms> <notificationType> <requestId>`, every byte outside
 * `!`..`~` and `%` written `%XX` (the format the Rust and Python stores read and write). Opening
 * drops ids older than `keepMs` and rewrites the file; a file of the first format is read too.
 *
 * {@link SeenFile.record} never refuses an id: it keeps the id in memory first, then appends it and
 * flushes it to disk. If that write fails it throws the file system's error: the id is still known
 * to this process (acknowledge a re-delivery), and the line is written again with the next record.
 */
export class SeenFile {
  readonly #seen = new Map<string, number>();
  #unwritten = "";

  constructor(
    readonly path: string,
    keepMs: number = DEFAULT_KEEP_MS,
    nowMs: number = Date.now(),
  ) {
    const fs = nodeFs();
    const kept: [string, string, number][] = [];
    if (fs.existsSync(path)) {
      const lines = fs.readFileSync(path, "latin1").split("\n");
      const current = lines[0] === SEEN_HEADER;
      for (const line of current ? lines.slice(1) : lines) {
        const parsed = current ? parseLine(line) : parseLegacy(Buffer.from(line, "latin1").toString("utf8"));
        // A line cut short by a crash is skipped.
        if (parsed !== undefined && nowMs - parsed[2] <= keepMs) {
          this.#seen.set(key(parsed[0], parsed[1]), parsed[2]);
          kept.push(parsed);
        }
      }
    }
    fs.mkdirSync(nodePath().dirname(path), { recursive: true });
    const tmp = `${path}.tmp`;
    const seenNow = new Map<string, [string, string, number]>();
    for (const entry of kept) seenNow.set(key(entry[0], entry[1]), entry);
    const lines = [...seenNow.values()].sort((a, b) => a[2] - b[2]).map(([t, r, at]) => seenLine(t, r, at));
    fs.writeFileSync(tmp, `${SEEN_HEADER}\n${lines.join("")}`, "latin1");
    syncFile(tmp);
    fs.renameSync(tmp, path);
  }

  isNew(n: Pick<Notification<string, unknown>, "notificationType" | "requestId">): boolean {
    return !this.#seen.has(key(n.notificationType, n.requestId));
  }

  /** How many ids are kept. */
  get size(): number {
    return this.#seen.size;
  }

  /**
   * Records the notification's id: known to this process at once, on disk before it returns
   * (answer `ok` after). Throws only when the file cannot be written (see the class).
   */
  record(n: Pick<Notification<string, unknown>, "notificationType" | "requestId">, nowMs: number = Date.now()): void {
    this.#unwritten += seenLine(n.notificationType, n.requestId, nowMs);
    this.#seen.set(key(n.notificationType, n.requestId), nowMs);
    nodeFs().appendFileSync(this.path, this.#unwritten, "latin1");
    syncFile(this.path);
    this.#unwritten = "";
  }
}

function key(notificationType: string, requestId: string): string {
  return JSON.stringify([notificationType, requestId]);
}

function parseLine(line: string): [string, string, number] | undefined {
  const parts = line.split(" ");
  if (parts.length !== 3 || !/^-?[0-9]+$/u.test(parts[0] ?? "")) return undefined;
  const type = unescapeField(parts[1] ?? "");
  const requestId = unescapeField(parts[2] ?? "");
  if (type === undefined || requestId === undefined) return undefined;
  return [type, requestId, Number(parts[0])];
}

/** A line of the first format: `<timestamp> <type> <requestId>`, not escaped. */
function parseLegacy(line: string): [string, string, number] | undefined {
  const first = line.indexOf(" ");
  const second = line.indexOf(" ", first + 1);
  if (first < 0 || second < 0 || !/^-?[0-9]+$/u.test(line.slice(0, first))) return undefined;
  return [line.slice(first + 1, second), line.slice(second + 1), Number(line.slice(0, first))];
}

function syncFile(path: string): void {
  const fs = nodeFs();
  const fd = fs.openSync(path, "r+");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
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
