//! Faults on demand: what the sandbox does instead of answering or delivering
//! normally, chosen per operation (or notification type), optionally for one value of
//! one parameter, for the next N matching calls or with a seeded probability.
//!
//! Set in process with [`crate::Sandbox::inject`] or from a YAML scenario file
//! ([`scenario::parse`], `baas-sandbox --scenario FILE`).

pub mod scenario;

use std::time::Duration;

use crate::json::Json;

/// What happens to the answer of a matching call.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnswerFault {
    /// The effect happens, then the connection is closed without an answer.
    DropAnswer,
    /// The request is lost before it reaches the service: no effect, its requestId is
    /// not used, and the connection is closed without an answer (to the client the same
    /// as [`AnswerFault::DropAnswer`]: the outcome is unknown, but nothing happened).
    LoseRequest,
    /// The effect happens; the answer is sent after this long (longer than the
    /// client's timeout, to make it time out).
    Delay(Duration),
    /// A signed answer with this result code (`10001` busy, `10000`, `10002`, ...)
    /// instead of the real one; `effect` says whether the operation still runs.
    Code {
        /// The result code answered.
        code: String,
        /// True: the operation runs (money moves) and its answer is replaced.
        effect: bool,
    },
    /// The effect happens; the answer is sent without its signature.
    Unsigned,
    /// The effect happens; the answer carries a signature that does not match it.
    BadSignature,
    /// The effect happens; the answer is changed after it was signed.
    Altered,
}

/// What happens to a matching notification.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotificationFault {
    /// Never sent (recorded as lost).
    Lose,
    /// Sent twice, with the same requestId, each delivered (and retried) on its own.
    Duplicate,
    /// Its first delivery waits this long.
    Delay(Duration),
    /// Held back until the next notification was delivered (at most [`REORDER_HOLD`]).
    Reorder,
    /// Sent with a signature that does not match it.
    BadSignature,
}

/// Longest a reordered notification waits for the next one.
pub const REORDER_HOLD: Duration = Duration::from_secs(10);

/// What a fault does.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FaultKind {
    /// To the answer of an operation.
    Answer(AnswerFault),
    /// To a notification.
    Notification(NotificationFault),
}

/// When a matching call (or notification) is hit.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Trigger {
    /// The next N matching ones.
    Times(u32),
    /// Each matching one with this probability (0 to 1), drawn from a generator seeded
    /// with `seed` (the same seed hits the same calls of a run).
    Probability {
        /// Chance of each match, 0 to 1.
        p: f64,
        /// Seed of the generator.
        seed: u64,
    },
}

/// One fault: what it applies to, what it does and when.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Fault {
    /// Operation name (`confirmOperation`) or notification type (`0026`, or `any`).
    pub target: String,
    /// Only when this parameter of the request has this value (operations only).
    pub when: Option<(String, String)>,
    /// What it does.
    pub kind: FaultKind,
    /// When it hits.
    pub trigger: Trigger,
}

impl Fault {
    /// A fault of the answers of `operation` (its name as in the spec), for the next
    /// matching call.
    pub fn answer(operation: &str, fault: AnswerFault) -> Fault {
        Fault {
            target: operation.to_owned(),
            when: None,
            kind: FaultKind::Answer(fault),
            trigger: Trigger::Times(1),
        }
    }

    /// A fault of the notifications of `notification_type` (`0015`, `0026`, `0028`, or
    /// `any`), for the next one.
    pub fn notification(notification_type: &str, fault: NotificationFault) -> Fault {
        Fault {
            target: notification_type.to_owned(),
            when: None,
            kind: FaultKind::Notification(fault),
            trigger: Trigger::Times(1),
        }
    }

    /// Only for calls whose parameter `param` is `value` (a string, or a number or
    /// boolean as written). Operations only: a notification fault with a `when` never
    /// hits (scenario files refuse it).
    #[must_use]
    pub fn when(mut self, param: &str, value: &str) -> Fault {
        self.when = Some((param.to_owned(), value.to_owned()));
        self
    }

    /// For the next `n` matching calls.
    #[must_use]
    pub fn times(mut self, n: u32) -> Fault {
        self.trigger = Trigger::Times(n);
        self
    }

    /// For each matching call with probability `p` (clamped to 0..=1), seeded.
    #[must_use]
    pub fn probability(mut self, p: f64, seed: u64) -> Fault {
        let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
        self.trigger = Trigger::Probability { p, seed };
        self
    }
}

/// A fault in force, with how often it hit.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ActiveFault {
    /// The fault.
    pub fault: Fault,
    /// Times it hit so far.
    pub hits: u32,
    /// For [`Trigger::Times`]: hits left.
    pub remaining: Option<u32>,
    rng: u64,
}

impl ActiveFault {
    fn new(fault: Fault) -> ActiveFault {
        let (remaining, rng) = match fault.trigger {
            Trigger::Times(n) => (Some(n), 0),
            // xorshift needs a non-zero state.
            Trigger::Probability { seed, .. } => (None, seed ^ 0x9E37_79B9_7F4A_7C15),
        };
        ActiveFault {
            fault,
            hits: 0,
            remaining,
            rng: if rng == 0 { 1 } else { rng },
        }
    }

    /// Whether this match is hit (and counts it).
    fn fire(&mut self) -> bool {
        let hit = match (&self.fault.trigger, &mut self.remaining) {
            (Trigger::Times(_), Some(left)) if *left > 0 => {
                *left -= 1;
                true
            }
            (Trigger::Probability { p, .. }, _) => {
                let p = *p;
                self.rng ^= self.rng >> 12;
                self.rng ^= self.rng << 25;
                self.rng ^= self.rng >> 27;
                let draw = self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11;
                // 53 random bits as a fraction of 1.
                (draw as f64) / ((1u64 << 53) as f64) < p
            }
            _ => false,
        };
        if hit {
            self.hits = self.hits.saturating_add(1);
        }
        hit
    }
}

/// The faults in force (in the order they were set: the first that hits wins).
#[derive(Debug, Default)]
pub(crate) struct Faults {
    active: Vec<ActiveFault>,
}

impl Faults {
    pub(crate) fn add(&mut self, fault: Fault) {
        self.active.push(ActiveFault::new(fault));
    }

    pub(crate) fn clear(&mut self) {
        self.active.clear();
    }

    pub(crate) fn list(&self) -> Vec<ActiveFault> {
        self.active.clone()
    }

    /// True when some fault applies to answers (so the params are kept for matching).
    pub(crate) fn has_answer_faults(&self) -> bool {
        self.active
            .iter()
            .any(|a| matches!(a.fault.kind, FaultKind::Answer(_)))
    }

    /// The answer fault that hits this call of `operation` with `params`, if any.
    pub(crate) fn answer_fault(&mut self, operation: &str, params: &Json) -> Option<AnswerFault> {
        self.active.iter_mut().find_map(|a| {
            let FaultKind::Answer(kind) = &a.fault.kind else {
                return None;
            };
            let matches = a.fault.target == operation
                && a.fault
                    .when
                    .as_ref()
                    .is_none_or(|(k, v)| param_is(params, k, v));
            let kind = kind.clone();
            (matches && a.fire()).then_some(kind)
        })
    }

    /// The notification fault that hits this notification of `notification_type`.
    pub(crate) fn notification_fault(
        &mut self,
        notification_type: &str,
    ) -> Option<NotificationFault> {
        self.active.iter_mut().find_map(|a| {
            let FaultKind::Notification(kind) = &a.fault.kind else {
                return None;
            };
            let matches = a.fault.when.is_none()
                && (a.fault.target == notification_type || a.fault.target == "any");
            let kind = kind.clone();
            (matches && a.fire()).then_some(kind)
        })
    }
}

/// The request's parameter `key` is `value` (a string as is, a number or boolean as
/// written).
fn param_is(params: &Json, key: &str, value: &str) -> bool {
    match params.get(key) {
        Some(Json::String(s)) => s == value,
        Some(Json::Number(n)) => n == value,
        Some(Json::Bool(b)) => b.to_string() == value,
        _ => false,
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match &self.kind {
            FaultKind::Answer(AnswerFault::DropAnswer) => "drop_answer".to_owned(),
            FaultKind::Answer(AnswerFault::LoseRequest) => "lose_request".to_owned(),
            FaultKind::Answer(AnswerFault::Delay(d)) => format!("delay {} ms", d.as_millis()),
            FaultKind::Answer(AnswerFault::Code { code, effect }) => {
                let effect = if *effect { "with" } else { "without" };
                format!("code {code} ({effect} effect)")
            }
            FaultKind::Answer(AnswerFault::Unsigned) => "unsigned".to_owned(),
            FaultKind::Answer(AnswerFault::BadSignature) => "bad_signature".to_owned(),
            FaultKind::Answer(AnswerFault::Altered) => "altered".to_owned(),
            FaultKind::Notification(NotificationFault::Lose) => "lose".to_owned(),
            FaultKind::Notification(NotificationFault::Duplicate) => "duplicate".to_owned(),
            FaultKind::Notification(NotificationFault::Delay(d)) => {
                format!("delay {} ms", d.as_millis())
            }
            FaultKind::Notification(NotificationFault::Reorder) => "reorder".to_owned(),
            FaultKind::Notification(NotificationFault::BadSignature) => "bad_signature".to_owned(),
        };
        let on = match &self.kind {
            FaultKind::Answer(_) => "operation",
            FaultKind::Notification(_) => "notification",
        };
        write!(f, "{what} on {on} {}", self.target)?;
        if let Some((k, v)) = &self.when {
            write!(f, " when {k} = {v}")?;
        }
        match &self.trigger {
            Trigger::Times(n) => write!(f, ", next {n}"),
            Trigger::Probability { p, seed } => write!(f, ", probability {p} (seed {seed})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_matching_parameters() {
        let mut faults = Faults::default();
        faults.add(
            Fault::answer("applyForTransfer", AnswerFault::Unsigned)
                .when("payerAccountId", "1")
                .times(2),
        );
        let p1 = Json::parse(r#"{"payerAccountId":"1"}"#).unwrap();
        let p2 = Json::parse(r#"{"payerAccountId":"2"}"#).unwrap();
        assert_eq!(faults.answer_fault("applyForTransfer", &p2), None);
        assert_eq!(faults.answer_fault("getTransResult", &p1), None);
        assert_eq!(
            faults.answer_fault("applyForTransfer", &p1),
            Some(AnswerFault::Unsigned)
        );
        assert!(faults.answer_fault("applyForTransfer", &p1).is_some());
        assert_eq!(faults.answer_fault("applyForTransfer", &p1), None);
        assert_eq!(faults.list()[0].hits, 2);
        assert_eq!(faults.list()[0].remaining, Some(0));
    }

    #[test]
    fn a_seeded_probability_repeats_and_is_near_its_rate() {
        let run = |seed| {
            let mut faults = Faults::default();
            faults.add(Fault::notification("any", NotificationFault::Lose).probability(0.3, seed));
            (0..1000)
                .map(|_| faults.notification_fault("0026").is_some())
                .collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
        let hits = run(7).iter().filter(|h| **h).count();
        assert!((220..380).contains(&hits), "{hits}");
        // A notification fault with a parameter never hits.
        let mut faults = Faults::default();
        faults.add(Fault::notification("any", NotificationFault::Lose).when("x", "1"));
        assert_eq!(faults.notification_fault("0026"), None);
    }
}
