//! Settling a confirmation whose outcome is unknown: one lookup of the application's
//! status query, read as confirmed, not confirmed (safe to confirm again), or still
//! unknown. Generated code says which query and which states (from the spec's
//! `settled_by` and `awaiting_otp`); this module does the lookup and the reading.

use crate::client::{CallOptions, Client, Operation};
use crate::error::Error;

/// Where a state reported by a status query stands, as the spec lists its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Phase {
    /// Still waiting for its OTP (the spec's `awaiting_otp`): not confirmed.
    AwaitingOtp,
    /// Past its OTP step and still moving (processing).
    InProgress,
    /// A final state: it no longer changes.
    Final,
    /// A value this SDK does not list: it cannot tell whether the application waits for
    /// its OTP.
    Unlisted,
}

/// What one lookup says of a confirmation whose outcome was unknown.
#[derive(Debug)]
#[non_exhaustive]
pub enum Settlement<S> {
    /// The application no longer waits for its OTP: the confirmation arrived (or the
    /// application ended otherwise: `state` says which). Do not confirm again; wait for a
    /// final state when `is_final` is false.
    Confirmed {
        /// The state the query reported.
        state: S,
        /// Whether that state is final.
        is_final: bool,
    },
    /// The application still waits for its OTP: the confirmation never arrived and
    /// nothing was confirmed, so confirming again is safe, as `otp_rule` says.
    NotConfirmed {
        /// The state the query reported (one of the spec's `awaiting_otp` values).
        state: S,
        /// When the OTP may be sent again (the spec's words).
        otp_rule: &'static str,
    },
    /// The lookup did not tell: it failed, or its answer carried no state or a state
    /// this SDK does not list. `error` says which; look again later, and do not confirm
    /// again until a lookup says [`Settlement::NotConfirmed`].
    StillUnknown {
        /// Why the outcome is still unknown.
        error: Error,
    },
}

impl<S> Settlement<S> {
    /// True for [`Settlement::NotConfirmed`]: confirming again is safe.
    pub fn safe_to_confirm_again(&self) -> bool {
        matches!(self, Settlement::NotConfirmed { .. })
    }
}

impl Client {
    /// Sends `query` (a status query with the application's business id) once, and reads
    /// its answer with `state` (the state and its [`Phase`]). Never returns an error: a
    /// failed lookup is [`Settlement::StillUnknown`]. Generated clients call it from
    /// their pending applications' `settle`.
    pub async fn settle<O, S, F>(
        &self,
        query: &O,
        state: F,
        otp_rule: &'static str,
    ) -> Settlement<S>
    where
        O: Operation,
        F: Fn(&O::Response) -> Option<(S, Phase)>,
    {
        let success = match self.execute_with(query, &CallOptions::default()).await {
            Ok(success) => success,
            Err(error) => return Settlement::StillUnknown { error },
        };
        let unknown = |what: String| Settlement::StillUnknown {
            error: Error::decode(None, what, success.raw_data.get().as_bytes(), None).in_call(
                O::NAME,
                Some(success.request_id.clone()),
                success.attempts,
            ),
        };
        match state(&success.data) {
            None => unknown("the answer carries no state, so the confirmation's outcome is still unknown".into()),
            Some((_, Phase::Unlisted)) => unknown("the answer's state is not one this SDK lists, so the confirmation's outcome is still unknown".into()),
            Some((state, Phase::AwaitingOtp)) => Settlement::NotConfirmed { state, otp_rule },
            Some((state, phase)) => Settlement::Confirmed {
                state,
                is_final: phase == Phase::Final,
            },
        }
    }
}
