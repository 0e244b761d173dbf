//! Exit codes: what a script needs to know of a failed command is whether the request
//! was sent, and if so what is known of its effect.
//!
//! | code | meaning |
//! |------|---------|
//! | 0 | success: the answer was verified (or, `--dry-run`, printed) |
//! | 1 | a local failure (a file, the config file, a listener's port) |
//! | 2 | usage: an unknown flag or command, a missing value (clap) |
//! | 3 | not sent: invalid params, no key, or the connection provably never opened; fix and send again. Also `--otp` when a lookup shows the application still waits for its OTP after two confirmations that never arrived: nothing took effect |
//! | 4 | refused: the service answered with a result code other than `00000`, signed |
//! | 5 | outcome unknown: the bytes may have reached the service and no verified answer came back; look it up before sending again (`--otp` looks a confirmation up itself, and says so when the lookup does not tell) |
//! | 6 | `--wait`: the state was not final by the deadline (the operation may still complete) |

use std::process::ExitCode;

/// Exit code: a local failure.
pub const LOCAL: u8 = 1;
/// Exit code: not sent.
pub const NOT_SENT: u8 = 3;
/// Exit code: refused by the service.
pub const REFUSED: u8 = 4;
/// Exit code: outcome unknown.
pub const UNKNOWN: u8 = 5;
/// Exit code: not final by the deadline.
pub const NOT_FINAL: u8 = 6;

/// Why a command failed, by what is known of the request's effect.
#[derive(Debug)]
pub enum Failure {
    /// A local failure, nothing to do with a call.
    Local(String),
    /// Nothing was sent.
    NotSent(String),
    /// The service refused it (a signed answer with another result code).
    Refused(String),
    /// It may have taken effect.
    Unknown(String),
    /// Not final by the deadline.
    NotFinal(String),
}

impl Failure {
    /// What went wrong, in words.
    pub fn text(&self) -> &str {
        match self {
            Failure::Local(t)
            | Failure::NotSent(t)
            | Failure::Refused(t)
            | Failure::Unknown(t)
            | Failure::NotFinal(t) => t,
        }
    }

    /// Prints the failure on stderr (with the key redacted by the caller's text: no
    /// message here carries it) and gives its exit code.
    pub fn report(&self) -> ExitCode {
        let (code, what, text) = match self {
            Failure::Local(t) => (LOCAL, "error", t),
            Failure::NotSent(t) => (NOT_SENT, "not sent", t),
            Failure::Refused(t) => (REFUSED, "refused", t),
            Failure::Unknown(t) => (UNKNOWN, "outcome unknown", t),
            Failure::NotFinal(t) => (NOT_FINAL, "not final", t),
        };
        eprintln!("baas: {what}: {text}");
        ExitCode::from(code)
    }
}
