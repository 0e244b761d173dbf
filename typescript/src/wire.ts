/**
 * Open value sets. A received enum value the client does not know (a newer service may send
 * values the spec did not list) is kept as it came, typed {@link Unknown}: a partner can read
 * it but never build one, and {@link isKnown} tells the two apart.
 */

declare const unknownValue: unique symbol;

/** A value of a value set that this client does not know (branded: never built by hand). */
export type Unknown<T extends string | number> = T & { readonly [unknownValue]: "unknown" };

/** True when `value` is one of the set's known values. */
export function isKnown<V extends string | number>(
  values: readonly V[],
  value: V | Unknown<string> | Unknown<number>,
): value is V {
  return (values as readonly (string | number)[]).includes(value);
}

/** The wire text of a value (what a waiter compares with final states). */
export function wireText(value: string | number | boolean | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}

/** The text of a received state (string, number or boolean), `undefined` for anything else. */
export function stateText(value: unknown): string | undefined {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "object" && value !== null && "text" in value && typeof value.text === "string") return value.text;
  return undefined;
}

/** The text of a member of a raw JSON object (a state read from an unshaped answer). */
export function memberText(value: unknown, name: string): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return stateText((value as Record<string, unknown>)[name]);
}

/** A JSON value to send: numbers as safe integers or exact {@link JsonNumber} text. */
export type JsonInput =
  | string
  | number
  | boolean
  | import("./canonical.js").JsonNumber
  | readonly JsonInput[]
  | JsonInputObject;
export interface JsonInputObject {
  readonly [key: string]: JsonInput;
}
