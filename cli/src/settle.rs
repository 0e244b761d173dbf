//! Settling a confirmation whose outcome is unknown (`--otp`): the application's status
//! query (the table's [`Settle`], from the spec's `settled_by`) sent once with the business
//! id, and the state it reports read as confirmed, not confirmed (safe to confirm again),
//! or still unknown: what `pending.settle()` does in every SDK.

use std::future::Future;
use std::pin::Pin;

use baas_runtime::Error;

use crate::table::{self, Settle, Visitor};
use crate::target::Target;

/// What one lookup says of a confirmation whose outcome was unknown.
#[derive(Debug, PartialEq, Eq)]
pub enum Settled {
    /// The application no longer waits for its OTP: do not confirm again.
    Confirmed {
        /// The state the query reported, as wire text.
        state: String,
        /// Whether that state is final.
        is_final: bool,
    },
    /// The application still waits for its OTP: confirming again is safe.
    NotConfirmed {
        /// The state the query reported, as wire text.
        state: String,
    },
    /// The lookup did not tell (it failed, or reported no state or an unlisted one).
    StillUnknown(String),
}

/// Sends `settle`'s status query once for application `id` and reads its state.
pub async fn settle(target: &Target, settle: &Settle, id: &str) -> Settled {
    let params = serde_json::json!({ settle.param: id }).to_string();
    let lookup = Lookup {
        target,
        params: &params,
    };
    let answer = match table::visit(settle.query, lookup) {
        Some(sent) => sent.await,
        None => Err(format!("{}: not an operation of the table", settle.query)),
    };
    match answer {
        Ok(answer) => read(settle, &answer),
        Err(why) => Settled::StillUnknown(why),
    }
}

/// The state of `answer` (a status query's answer as JSON) as `settle` reads it.
fn read(settle: &Settle, answer: &serde_json::Value) -> Settled {
    let state = match answer.get(settle.field) {
        Some(serde_json::Value::String(text)) => text.clone(),
        Some(serde_json::Value::Number(n)) => n.to_string(),
        _ => {
            return Settled::StillUnknown(format!(
                "{}'s answer carries no {}",
                settle.query, settle.field
            ))
        }
    };
    let has = |values: &[&str]| values.contains(&state.as_str());
    if has(settle.awaiting_otp) {
        Settled::NotConfirmed { state }
    } else if !settle.states.is_empty() && !has(settle.states) {
        Settled::StillUnknown(format!(
            "{} reported {} {state}, a state this command line does not list",
            settle.query, settle.field
        ))
    } else {
        let is_final = has(settle.finals);
        Settled::Confirmed { state, is_final }
    }
}

type Sent<'a> = Pin<Box<dyn Future<Output = Result<serde_json::Value, String>> + 'a>>;

/// The status query's params, decoded as its Rust request type and sent once.
struct Lookup<'a> {
    target: &'a Target,
    params: &'a str,
}

impl<'a> Lookup<'a> {
    fn once<O>(self) -> Sent<'a>
    where
        O: baas_runtime::Operation + serde::de::DeserializeOwned + 'static,
        O::Response: serde::Serialize,
    {
        Box::pin(async move {
            let request: O = serde_json::from_str(self.params).map_err(|e| e.to_string())?;
            let client = self.target.client().map_err(|f| f.text().to_owned())?;
            let answer = client
                .runtime()
                .execute(&request)
                .await
                .map_err(|e: Error| e.to_string())?;
            serde_json::to_value(&answer).map_err(|e| e.to_string())
        })
    }
}

impl<'a> Visitor for Lookup<'a> {
    type Out = Sent<'a>;

    fn send<O>(self) -> Sent<'a>
    where
        O: baas_runtime::Operation + serde::de::DeserializeOwned + 'static,
        O::Response: serde::Serialize,
    {
        self.once::<O>()
    }

    fn paged<O>(self) -> Sent<'a>
    where
        O: baas_runtime::Paged + serde::de::DeserializeOwned,
        O::Response: serde::Serialize,
        O::Item: serde::Serialize,
    {
        self.once::<O>()
    }

    fn pending<O>(self) -> Sent<'a>
    where
        O: baas_client::pending::OtpApplication + serde::de::DeserializeOwned + 'static,
        O::Response: serde::Serialize + Clone,
    {
        self.once::<O>()
    }

    fn until_final<O>(self) -> Sent<'a>
    where
        O: baas_client::FinalState + serde::de::DeserializeOwned + 'static,
        O::Response: serde::Serialize,
    {
        self.once::<O>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTLE: Settle = Settle {
        query: "getTransResult",
        param: "txId",
        field: "txStatus",
        states: &["1", "2", "3", "4", "5"],
        awaiting_otp: &["1"],
        finals: &["3", "4", "5"],
        otp_rule: "",
    };

    fn read_state(answer: serde_json::Value) -> Settled {
        read(&SETTLE, &answer)
    }

    #[test]
    fn a_state_awaiting_the_otp_is_not_confirmed() {
        let settled = read_state(serde_json::json!({ "txStatus": "1" }));
        assert_eq!(settled, Settled::NotConfirmed { state: "1".into() });
        let number = read_state(serde_json::json!({ "txStatus": 1 }));
        assert_eq!(number, Settled::NotConfirmed { state: "1".into() });
    }

    #[test]
    fn any_other_listed_state_is_confirmed_and_says_whether_final() {
        let moving = read_state(serde_json::json!({ "txStatus": "2" }));
        assert_eq!(
            moving,
            Settled::Confirmed {
                state: "2".into(),
                is_final: false
            }
        );
        let done = read_state(serde_json::json!({ "txStatus": "4" }));
        assert_eq!(
            done,
            Settled::Confirmed {
                state: "4".into(),
                is_final: true
            }
        );
    }

    #[test]
    fn no_state_or_an_unlisted_one_is_still_unknown() {
        for answer in [
            serde_json::json!({}),
            serde_json::json!({ "txStatus": null }),
            serde_json::json!({ "txStatus": "9" }),
        ] {
            let settled = read_state(answer.clone());
            assert!(
                matches!(settled, Settled::StillUnknown(_)),
                "{answer}: {settled:?}"
            );
        }
    }
}
