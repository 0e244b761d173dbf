//! Scenario files: the faults to set, in YAML.
//!
//! ```yaml
//! faults:
//!   - operation: confirmOperation      # or `notification: "0026"` (or "any")
//!     when: { businessId: TX123 }      # optional: one parameter's value
//!     fault: drop_answer               # see below
//!     times: 1                         # the next N matching calls (default 1), or
//!     # probability: 0.25              # each matching call with this chance,
//!     # seed: 42                       # from this seed (default 0)
//! ```
//!
//! Answer faults: `drop_answer` (the effect happens, the answer is lost), `lose_request`
//! (the request is lost before its effect: nothing happens, no answer), `delay` (with `delay_ms`), `code` (with `code`, and
//! `effect: true|false`, default false), `unsigned`, `bad_signature`, `altered`.
//! Notification faults: `lose`, `duplicate`, `delay` (with `delay_ms`), `reorder`,
//! `bad_signature`.
//!
//! A file that does not read is an error naming the file's line and what was expected.

use std::collections::BTreeMap;
use std::time::Duration;

use baas_client::dispatch::OPERATIONS;
use serde::Deserialize;

use super::{AnswerFault, Fault, FaultKind, NotificationFault, Trigger};

/// Notification types a fault may name.
const NOTIFICATION_TYPES: [&str; 4] = ["0015", "0026", "0028", "any"];

/// Why a scenario file cannot be used: where and what was expected.
#[derive(Debug, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct ScenarioError {
    /// The file (as given).
    pub file: String,
    /// 1-based line (0 when the error is not tied to a line).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    faults: Vec<RawRule>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    operation: Option<String>,
    notification: Option<String>,
    when: Option<BTreeMap<String, serde_yaml::Value>>,
    fault: String,
    delay_ms: Option<u64>,
    code: Option<serde_yaml::Value>,
    effect: Option<bool>,
    times: Option<u32>,
    probability: Option<f64>,
    seed: Option<u64>,
}

/// A scalar written as text (`10001`, `"10001"`, `true`).
fn scalar_text(v: &serde_yaml::Value) -> Option<String> {
    match v {
        serde_yaml::Value::String(s) => Some(s.clone()),
        serde_yaml::Value::Number(n) => Some(n.to_string()),
        serde_yaml::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

impl RawRule {
    /// The fault this rule sets, or what is wrong with it.
    fn check(self) -> Result<Fault, String> {
        let (target, is_answer) = self.target()?;
        if self.delay_ms.is_some() && self.fault != "delay" {
            return Err("`delay_ms` is only for fault `delay`".into());
        }
        if (self.code.is_some() || self.effect.is_some()) && self.fault != "code" {
            return Err("`code` and `effect` are only for fault `code`".into());
        }
        let kind = if is_answer {
            FaultKind::Answer(self.answer_fault()?)
        } else {
            if self.when.is_some() {
                return Err("`when` is only for operations".into());
            }
            FaultKind::Notification(self.notification_fault()?)
        };
        let when = self.when_param()?;
        let trigger = self.trigger()?;
        Ok(Fault {
            target,
            when,
            kind,
            trigger,
        })
    }

    /// The operation or notification type the rule is for (a known one), and whether it
    /// is an operation.
    fn target(&self) -> Result<(String, bool), String> {
        match (&self.operation, &self.notification) {
            (Some(op), None) => {
                if !OPERATIONS.iter().any(|o| o.name == op) {
                    return Err(format!(
                        "unknown operation `{op}`: expected an operation name of the API, \
                         e.g. confirmOperation"
                    ));
                }
                Ok((op.clone(), true))
            }
            (None, Some(n)) => {
                if !NOTIFICATION_TYPES.contains(&n.as_str()) {
                    return Err(format!(
                        "unknown notification `{n}`: expected one of {}",
                        NOTIFICATION_TYPES.join(", ")
                    ));
                }
                Ok((n.clone(), false))
            }
            _ => Err("expected exactly one of `operation` and `notification`".into()),
        }
    }

    /// The delay of a `delay` fault (`delay_ms`, required).
    fn delay(&self) -> Result<Duration, String> {
        self.delay_ms
            .map(Duration::from_millis)
            .ok_or_else(|| format!("fault `{}` needs `delay_ms`", self.fault))
    }

    /// The fault of an operation's answer (a `code` fault's code is 5 digits).
    fn answer_fault(&self) -> Result<AnswerFault, String> {
        Ok(match self.fault.as_str() {
            "drop_answer" => AnswerFault::DropAnswer,
            "lose_request" => AnswerFault::LoseRequest,
            "delay" => AnswerFault::Delay(self.delay()?),
            "code" => {
                let code = self.code.as_ref().and_then(scalar_text).ok_or(
                    "fault `code` needs `code`, a result code such as \"10001\"".to_owned(),
                )?;
                if code.len() != 5 || !code.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(format!("code `{code}`: expected 5 digits, e.g. \"10001\""));
                }
                AnswerFault::Code {
                    code,
                    effect: self.effect.unwrap_or(false),
                }
            }
            "unsigned" => AnswerFault::Unsigned,
            "bad_signature" => AnswerFault::BadSignature,
            "altered" => AnswerFault::Altered,
            other => {
                return Err(format!(
                    "unknown fault `{other}` of an operation: expected drop_answer, \
                     lose_request, delay, code, unsigned, bad_signature or altered"
                ))
            }
        })
    }

    /// The fault of a notification's delivery.
    fn notification_fault(&self) -> Result<NotificationFault, String> {
        Ok(match self.fault.as_str() {
            "lose" => NotificationFault::Lose,
            "duplicate" => NotificationFault::Duplicate,
            "delay" => NotificationFault::Delay(self.delay()?),
            "reorder" => NotificationFault::Reorder,
            "bad_signature" => NotificationFault::BadSignature,
            other => {
                return Err(format!(
                    "unknown fault `{other}` of a notification: expected lose, duplicate, \
                     delay, reorder or bad_signature"
                ))
            }
        })
    }

    /// The one `parameter: value` a matching call has (`when`), if given.
    fn when_param(&self) -> Result<Option<(String, String)>, String> {
        let Some(map) = &self.when else {
            return Ok(None);
        };
        let mut pairs = map.iter();
        match (pairs.next(), pairs.next()) {
            (Some((k, v)), None) => {
                let v = scalar_text(v).ok_or(format!(
                    "when: the value of `{k}` must be a string, number or boolean"
                ))?;
                Ok(Some((k.clone(), v)))
            }
            _ => Err("when: expected exactly one `parameter: value`".into()),
        }
    }

    /// When the fault fires: the next `times` matching calls (default 1), or each with a
    /// `probability` from a `seed`.
    fn trigger(&self) -> Result<Trigger, String> {
        Ok(match (self.times, self.probability) {
            (Some(_), Some(_)) => return Err("expected `times` or `probability`, not both".into()),
            (_, Some(p)) if !(0.0..=1.0).contains(&p) => {
                return Err(format!("probability {p}: expected a number from 0 to 1"))
            }
            (_, Some(p)) => Trigger::Probability {
                p,
                seed: self.seed.unwrap_or(0),
            },
            (times, None) => {
                if self.seed.is_some() {
                    return Err("`seed` is only for `probability`".into());
                }
                Trigger::Times(times.unwrap_or(1))
            }
        })
    }
}

/// The faults of a scenario `text` read from `file` (the name used in errors).
pub fn parse(file: &str, text: &str) -> Result<Vec<Fault>, ScenarioError> {
    let parsed: File = serde_yaml::from_str(text).map_err(|e| ScenarioError {
        file: file.to_owned(),
        line: e.location().map_or(0, |l| l.line()),
        message: strip_location(&e.to_string()),
    })?;
    let lines = item_lines(text);
    parsed
        .faults
        .into_iter()
        .enumerate()
        .map(|(i, raw)| {
            raw.check().map_err(|message| ScenarioError {
                file: file.to_owned(),
                line: lines.get(i).copied().unwrap_or(0),
                message: format!("faults[{i}]: {message}"),
            })
        })
        .collect()
}

/// The 1-based line where each item of the top-level `faults:` list starts, for a list
/// written one `- ` item per line (block style). A list written otherwise (`[...]`)
/// gets the line of `faults:` for every item.
fn item_lines(text: &str) -> Vec<usize> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let Some((list_line, _)) = lines.by_ref().find(|(_, l)| l.starts_with("faults:")) else {
        return Vec::new();
    };
    let mut items = Vec::new();
    let mut indent = None;
    for (n, line) in lines {
        let content = line.trim_start();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let depth = line.len() - content.len();
        if depth == 0 && !content.starts_with('-') {
            break;
        }
        if content.starts_with('-') && *indent.get_or_insert(depth) == depth {
            items.push(n);
        }
    }
    if items.is_empty() {
        items.push(list_line);
    }
    items
}

/// The message of a YAML error without its own " at line L column C" (the line is
/// given in front).
fn strip_location(message: &str) -> String {
    match message.find(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

/// Reads and parses a scenario file.
pub fn load(path: &std::path::Path) -> Result<Vec<Fault>, ScenarioError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ScenarioError {
        file: file.clone(),
        line: 0,
        message: format!("cannot read: {e}"),
    })?;
    parse(&file, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fault_reads() {
        let text = "faults:\n\
            - operation: confirmOperation\n  when: { businessId: TX1 }\n  fault: drop_answer\n\
            - operation: getAccountDetails\n  fault: code\n  code: 10001\n  times: 2\n\
            - operation: applyForTransfer\n  fault: code\n  code: \"10000\"\n  effect: true\n\
            - operation: getTransResult\n  fault: delay\n  delay_ms: 1500\n\
            - operation: getTransResult\n  fault: unsigned\n  probability: 0.5\n  seed: 3\n\
            - operation: getTransResult\n  fault: bad_signature\n\
            - operation: getTransResult\n  fault: altered\n\
            - notification: \"0026\"\n  fault: lose\n\
            - notification: any\n  fault: duplicate\n\
            - notification: \"0015\"\n  fault: delay\n  delay_ms: 200\n\
            - notification: \"0028\"\n  fault: reorder\n\
            - notification: \"0028\"\n  fault: bad_signature\n";
        let faults = parse("s.yaml", text).unwrap();
        assert_eq!(faults.len(), 12);
        assert_eq!(faults[0].when, Some(("businessId".into(), "TX1".into())));
        assert_eq!(
            faults[1].kind,
            FaultKind::Answer(AnswerFault::Code {
                code: "10001".into(),
                effect: false
            })
        );
        assert_eq!(faults[1].trigger, Trigger::Times(2));
        assert_eq!(faults[4].trigger, Trigger::Probability { p: 0.5, seed: 3 });
        assert_eq!(
            faults[9].kind,
            FaultKind::Notification(NotificationFault::Delay(Duration::from_millis(200)))
        );
        assert!(parse("e.yaml", "").unwrap().is_empty());
    }

    #[test]
    fn errors_name_the_line_and_what_was_expected() {
        for (text, line, expected) in [
            ("faults:\n  - operation: confirmOperation\n    fault: explode\n", 2, "unknown fault `explode`"),
            ("faults:\n  - operation: confirmOperation\n    fault: drop_answer\n  - operation: nope\n    fault: unsigned\n", 4, "unknown operation `nope`"),
            ("faults:\n  - operation: getTransResult\n    fault: delay\n", 2, "needs `delay_ms`"),
            ("faults:\n  - operation: getTransResult\n    fault: code\n    code: 1\n", 2, "expected 5 digits"),
            ("faults:\n  - notification: \"0026\"\n    fault: lose\n    colour: red\n", 4, "unknown field `colour`"),
            ("faults:\n  - operation: getTransResult\n    fault: unsigned\n    probability: 2\n", 2, "from 0 to 1"),
            ("faults: [\n", 2, ""),
            ("faults:\n  - operation: getTransResult\n    notification: \"0026\"\n    fault: lose\n", 2, "exactly one of"),
        ] {
            let e = parse("s.yaml", text).unwrap_err();
            assert_eq!(e.line, line, "{text}: {e}");
            assert!(e.to_string().starts_with(&format!("s.yaml:{line}: ")), "{e}");
            assert!(e.message.contains(expected), "{e}");
        }
    }
}

#[cfg(test)]
mod documented {
    use super::*;

    /// The README's scenario block and the shipped example read, and hold the same
    /// faults (the README's first one only for its `when`) — one of each kind.
    #[test]
    fn the_readme_and_the_example_file_read_and_agree() {
        let readme = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"));
        let section = readme
            .split("### Faults on demand")
            .nth(1)
            .expect("the README's faults section");
        let block = section
            .split("```yaml\n")
            .nth(1)
            .and_then(|b| b.split("```").next())
            .expect("a yaml block");
        let documented = parse("README.md", block).unwrap();
        let example = load(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scenarios/example.yaml"
        )))
        .unwrap();
        assert_eq!(documented.len(), example.len());
        for (d, e) in documented.iter().zip(&example).skip(1) {
            assert_eq!(d, e);
        }
        assert_eq!(documented[0].kind, example[0].kind);
        let kinds: std::collections::BTreeSet<String> = documented
            .iter()
            .map(|f| {
                let shown = f.to_string();
                shown.split(" on ").next().unwrap_or_default().to_owned()
            })
            .collect();
        // drop_answer, delay x2 shown with ms, code x3, unsigned, bad_signature, altered,
        // lose, duplicate, reorder: every kind is documented.
        for kind in [
            "drop_answer",
            "lose_request",
            "unsigned",
            "bad_signature",
            "altered",
            "lose",
            "duplicate",
            "reorder",
        ] {
            assert!(kinds.contains(kind), "{kind} missing from {kinds:?}");
        }
        assert!(kinds.iter().any(|k| k.starts_with("code 10001 (without")));
        assert!(kinds.iter().any(|k| k.starts_with("code 10000 (with ")));
        assert!(kinds.iter().filter(|k| k.starts_with("delay")).count() >= 2);
    }
}
