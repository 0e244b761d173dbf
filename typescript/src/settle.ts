/**
 * Settling a confirmation whose outcome is unknown: one lookup of the application's status query,
 * read as `confirmed`, `not_confirmed` (safe to confirm again) or `still_unknown`. Generated code
 * says which query and which states (the spec's `settled_by` and `awaiting_otp`, as a
 * {@link SettleBy}); `RuntimeClient.settle` does the lookup and {@link readSettlement} reads it.
 * Nothing here throws: every outcome is a value.
 */

import type { JsonValue } from "./canonical.js";
import { type BaasError, DecodeError } from "./errors.js";
import { type Unknown, stateText } from "./wire.js";

/** What one lookup says of a confirmation whose outcome was unknown (switch on `kind`). */
export type Settlement<S> =
  /**
   * The application no longer waits for its OTP: the confirmation arrived (or the application
   * ended otherwise: `state` says which). Do not confirm again; wait when `isFinal` is false.
   */
  | { readonly kind: "confirmed"; readonly state: S; readonly isFinal: boolean; readonly safeToConfirmAgain: false }
  /**
   * The application still waits for its OTP: the confirmation never arrived and nothing was
   * confirmed, so confirming again is safe, as `otpRule` (the spec's words) says.
   */
  | { readonly kind: "not_confirmed"; readonly state: S; readonly otpRule: string; readonly safeToConfirmAgain: true }
  /**
   * The lookup did not tell: it failed, or its answer carried no state or one this SDK does not
   * list. `error` says which; settle again later, and never confirm again until a lookup says
   * `not_confirmed`.
   */
  | { readonly kind: "still_unknown"; readonly error: BaasError; readonly safeToConfirmAgain: false };

/** How generated code describes an application's status query for settling. */
export interface SettleBy<Res, S extends string | number> {
  /** The state in an answer (`undefined` when it carries none). */
  readonly state: (response: Res) => S | Unknown<string> | Unknown<number> | undefined;
  /** The state's value set, when it has one: a value outside it is one this SDK does not list. */
  readonly known?: readonly S[];
  /** The states in which the application still waits for its OTP, as wire text. */
  readonly awaitingOtp: readonly string[];
  /** The final states, as wire text. */
  readonly finals: readonly string[];
  /** When the OTP may be sent again (the spec's words). */
  readonly otpRule: string;
}

/** The settlement a successful lookup's answer says. */
export function readSettlement<Res, S extends string | number>(
  by: SettleBy<Res, S>,
  data: Res,
  call: { readonly operation: string; readonly requestId: string; readonly attempts: number; readonly rawData: JsonValue },
): Settlement<S> {
  const unknown = (why: string): Settlement<S> => {
    const body = new TextEncoder().encode(JSON.stringify(call.rawData) ?? "");
    const error = new DecodeError(`${why}, so the confirmation's outcome is still unknown`, undefined, body);
    return { kind: "still_unknown", error: error.inCall(call.operation, call.requestId, call.attempts), safeToConfirmAgain: false };
  };
  const value = by.state(data);
  const text = stateText(value);
  if (value === undefined || text === undefined) return unknown("the answer carries no state");
  if (by.known !== undefined && !(by.known as readonly (string | number)[]).includes(value)) {
    return unknown(`the answer's state ${text} is not one this SDK lists`);
  }
  const state = value as S;
  if (by.awaitingOtp.includes(text)) return { kind: "not_confirmed", state, otpRule: by.otpRule, safeToConfirmAgain: true };
  return { kind: "confirmed", state, isFinal: by.finals.includes(text), safeToConfirmAgain: false };
}
