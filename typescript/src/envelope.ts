/**
 * Message envelopes: building and signing requests, opening and verifying answers. Besides
 * what the client uses, {@link signedResponseBody} and {@link verifyRequest} are tools for test
 * servers (the mock uses them).
 */

import {
  Ambiguity,
  CanonicalError,
  type Flattened,
  JsonNumber,
  type JsonObject,
  type JsonValue,
  parse,
  parseForSigning,
  signatureHex,
} from "./canonical.js";
import {
  ApiError,
  DecodeError,
  EncodeError,
  RequestIdMismatch,
  SignatureInvalid,
  SignatureMissing,
  SUCCESS_CODE,
  Untrusted,
} from "./errors.js";
import { nodeCrypto } from "./lazy.js";
import type { PrivateKey } from "./secret.js";
import { attachSignature, VerifyError, verifyFlattened } from "./sign.js";
import { writeJson } from "./shape.js";

/** A new requestId: the sender followed by 32 random hex digits. */
export function newRequestId(sender: string): string {
  return sender + nodeCrypto().randomBytes(16).toString("hex");
}

/** A new salt: 24 random hex digits. */
export function newSalt(): string {
  return nodeCrypto().randomBytes(12).toString("hex");
}

const encoder = new TextEncoder();

/** A signed request: its requestId (the answer must echo it) and the exact bytes. */
export interface SignedRequest {
  readonly requestId: string;
  readonly body: Uint8Array;
}

function checkRequestId(requestId: string): void {
  if (!/^[!-~]+$/u.test(requestId)) {
    throw new EncodeError(`requestId ${JSON.stringify(requestId)} must be non-empty printable ASCII without spaces`);
  }
}

/** Signs serialized envelope text (without `signature`) and splices the signature in. */
export function signEnvelopeText(text: string, key: PrivateKey): Uint8Array {
  const body = encoder.encode(text);
  let flat: Flattened;
  try {
    flat = parseForSigning(body);
  } catch (e) {
    if (e instanceof CanonicalError) {
      if (e.kind === "ambiguous" && e.rule === Ambiguity.Null) {
        throw new EncodeError(`\`${e.path ?? ""}\` is null; a null is never sent (leave the field out)`);
      }
      throw new EncodeError(`${e.message}; such a message is never signed`);
    }
    throw e;
  }
  // The document skips null members when signing; the SDK never sends one all the same.
  if (flat.firstNullPath !== undefined) {
    throw new EncodeError(`\`${flat.firstNullPath}\` is null; a null is never sent (leave the field out)`);
  }
  if (flat.hasSignatureKey) throw new EncodeError("the body already has a `signature` (sign it without one)");
  return attachSignature(body, signatureHex(flat, key));
}

/** The envelope of `paramsJson` (compact JSON text), serialized and signed over those bytes. */
export function signRequest(
  paramsJson: string,
  sender: string,
  locale: string,
  key: PrivateKey,
  requestId?: string,
): SignedRequest {
  const rid = requestId ?? newRequestId(sender);
  checkRequestId(rid);
  const text =
    `{"requestId":${JSON.stringify(rid)},"sender":${JSON.stringify(sender)},"locale":${JSON.stringify(locale)},` +
    `"timestamp":${Date.now()},"salt":"${newSalt()}","params":${paramsJson}}`;
  return { requestId: rid, body: signEnvelopeText(text, key) };
}

/** A verified success: its `data` (`{}` when absent) and the requestId echoed. */
export interface Answer {
  readonly data: JsonValue;
  readonly requestId: string;
}

function flattenReceived(status: number | undefined, body: Uint8Array): Flattened {
  try {
    return parse(body);
  } catch (e) {
    if (e instanceof CanonicalError) {
      if (e.kind === "ambiguous") throw new Untrusted(`it could be re-cut into another message: ${e.message}`);
      throw new DecodeError(`body is not a usable JSON object: ${e.message}`, status, body);
    }
    throw e;
  }
}

function optionalText(top: JsonObject, name: string, status: number | undefined, body: Uint8Array): string | undefined {
  const value = top[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (name === "code" && value instanceof JsonNumber && /^[0-9]+$/u.test(value.text)) return value.text;
  throw new DecodeError(`cannot decode the response envelope: \`${name}\` is not a string`, status, body);
}

/**
 * Opens an answer: a JSON object that could not be re-cut, no member of another kind of
 * message, a `code`, a signature that holds (an unsigned or wrongly signed refusal is an
 * unverified {@link ApiError}), the requestId echoed; a code other than `00000` throws.
 */
export function openResponse(
  status: number | undefined,
  body: Uint8Array,
  key: PrivateKey,
  requestId: string,
  acceptUnsignedSuccess = false,
): Answer {
  try {
    return openChecked(status, body, key, requestId, acceptUnsignedSuccess);
  } catch (e) {
    // What it quotes of the body never shows the key (as in Java and PHP).
    throw e instanceof DecodeError ? e.redacting(key) : e;
  }
}

function openChecked(status: number | undefined, body: Uint8Array, key: PrivateKey, requestId: string, acceptUnsignedSuccess: boolean): Answer {
  const flat = flattenReceived(status, body);
  const top = flat.value;
  for (const name of ["notificationType", "params"]) {
    if (top[name] !== undefined && top[name] !== null) {
      throw new Untrusted(`the answer carries \`${name}\`, a member of another kind of message`);
    }
  }
  const code = optionalText(top, "code", status, body);
  const echoed = optionalText(top, "requestId", status, body);
  const msg = optionalText(top, "msg", status, body);
  if (code === undefined) throw new DecodeError("the response has no `code`", status, body);
  const success = code === SUCCESS_CODE;
  let verified = true;
  try {
    verifyFlattened(flat, key);
  } catch (e) {
    if (!(e instanceof VerifyError)) throw e;
    verified = false;
    if (success && !(e.kind === "missing" && acceptUnsignedSuccess)) {
      throw e.kind === "missing" ? new SignatureMissing() : new SignatureInvalid();
    }
  }
  if (echoed !== requestId && !(echoed === undefined && !verified && !success)) {
    throw new RequestIdMismatch(requestId, echoed);
  }
  if (!success) throw new ApiError(code, msg ?? "", echoed, verified);
  const data = top["data"];
  return { data: data === undefined || data === null ? (Object.create(null) as JsonObject) : data, requestId };
}

/** Tool for test servers: a signed answer (fresh timestamp and salt), signed with `key`. */
export function signedResponseBody(args: {
  requestId: string;
  sender: string;
  locale: string;
  code: string;
  msg: string;
  data?: unknown;
  key: PrivateKey;
}): Uint8Array {
  let text =
    `{"requestId":${JSON.stringify(args.requestId)},"sender":${JSON.stringify(args.sender)},` +
    `"locale":${JSON.stringify(args.locale)},"timestamp":${Date.now()},"salt":"${newSalt()}",` +
    `"code":${JSON.stringify(args.code)},"msg":${JSON.stringify(args.msg)}`;
  if (args.data !== undefined) text += `,"data":${writeJson(args.data, "data")}`;
  return signEnvelopeText(`${text}}`, args.key);
}

/** A verified request, as a test server sees it. */
export interface ReceivedRequest {
  readonly requestId: string;
  readonly sender: string;
  readonly locale: string;
  readonly timestamp: number;
  readonly salt: string;
  readonly params: JsonObject;
}

/** Tool for test servers: verifies a received request and returns its envelope. */
export function verifyRequest(body: Uint8Array, key: PrivateKey): ReceivedRequest {
  let flat: Flattened;
  try {
    flat = parse(body);
  } catch (e) {
    if (e instanceof CanonicalError) throw new DecodeError(`body is not a usable JSON object: ${e.message}`, undefined, body);
    throw e;
  }
  try {
    verifyFlattened(flat, key);
  } catch (e) {
    if (e instanceof VerifyError) throw e.kind === "missing" ? new SignatureMissing() : new SignatureInvalid();
    throw e;
  }
  const top = flat.value;
  const [requestId, sender, locale, salt] = ["requestId", "sender", "locale", "salt"].map((n) => top[n]);
  if (typeof requestId !== "string" || typeof sender !== "string" || typeof locale !== "string" || typeof salt !== "string") {
    throw new DecodeError("the request envelope lacks requestId, sender, locale or salt", undefined, body);
  }
  const timestamp = top["timestamp"];
  if (!(timestamp instanceof JsonNumber) || !/^-?[0-9]+$/u.test(timestamp.text)) {
    throw new DecodeError("the request's timestamp is not an integer", undefined, body);
  }
  const params = top["params"];
  if (params !== undefined && params !== null && (typeof params !== "object" || Array.isArray(params) || params instanceof JsonNumber)) {
    throw new DecodeError("the request's params is not an object", undefined, body);
  }
  return {
    requestId,
    sender,
    locale,
    salt,
    timestamp: Number(timestamp.text),
    params: params === undefined || params === null ? (Object.create(null) as JsonObject) : params,
  };
}
