/**
 * Documents: the bytes of a file the API carries as Base64 text (spec type `document`,
 * decision `document-type`). A request's document field takes a `Uint8Array` (a Node
 * `Buffer` is one); the runtime writes standard Base64 with padding (RFC 4648 section 4),
 * so no partner encodes. {@link Document} (a `Uint8Array`) reads a file and never shows its
 * bytes when logged: documents are large and may hold personal data.
 */

import { nodeFs } from "./lazy.js";

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** The bytes of a document: a `Uint8Array` whose `toString`, `toJSON` and `util.inspect` show its size only. */
export class Document extends Uint8Array {
  /** A document of a copy of `bytes`. */
  static ofBytes(bytes: Uint8Array | ArrayBuffer): Document {
    const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const doc = new Document(view.byteLength);
    doc.set(view);
    return doc;
  }

  /** The file at `path`, read whole (rejects with Node's error, naming the file, when it cannot be read). */
  static async fromPath(path: string | URL): Promise<Document> {
    return Document.ofBytes(await nodeFs().promises.readFile(path));
  }

  override toString(): string {
    return `Document(${this.byteLength} bytes)`;
  }

  toJSON(): string {
    return this.toString();
  }

  [INSPECT](): string {
    return this.toString();
  }
}

/** A document as sent: standard Base64 with padding. */
export function documentText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

const BASE64 = /^[A-Za-z0-9+/]*$/u;

/**
 * A document received as Base64 text, read leniently: white space skipped, the URL-safe
 * symbols `-`/`_` accepted, padding optional. Text that is still not Base64 is kept as it
 * came (its UTF-8 bytes): an answer never fails over a document.
 */
export function documentOfText(text: string): Document {
  const symbols = text.replace(/\s+/gu, "").replace(/-/gu, "+").replace(/_/gu, "/");
  const body = symbols.replace(/=+$/u, "");
  const padded = symbols.length - body.length;
  const fits = padded <= 2 && body.length % 4 !== 1 && (padded === 0 || symbols.length % 4 === 0);
  if (fits && BASE64.test(body)) return Document.ofBytes(Buffer.from(body, "base64"));
  return Document.ofBytes(Buffer.from(text, "utf8"));
}
