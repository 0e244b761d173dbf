//! `baas-sign`: compute or check the signature of a BaaS message, for partners chasing a
//! `12005 Invalid signature`.
//!
//! ```text
//! BAAS_PRIVATE_KEY=... baas-sign < envelope.json           # canonical string, then signature
//! BAAS_PRIVATE_KEY=... baas-sign --verify < message.json   # exit 0 when the signature holds
//! BAAS_PRIVATE_KEY=... baas-sign --attach < envelope.json   # the body with its signature, to send
//! ```
//!
//! The canonical string is printed with the key shown as `[redacted]`; the last line of
//! the default mode is the signature. The key is never printed: every message, errors
//! included, has its text replaced by `[redacted]`.
//!
//! Every mode reads the body as the runtime's signers and verifiers do
//! (`Flattened::parse_unambiguous`): a body whose canonical string could be re-cut into
//! another body (rules R1-R4: keys with `&`, `=`, `.`, `[`, `]` or empty, `null` array
//! elements, values holding `&path=`, a top-level `senderKey`) is never signed, and
//! `--verify` refuses it, naming the rule, whatever its signature. A `null` member is
//! skipped when signing, as the API document says, with one warning line on stderr per
//! member (`baas-sign: warning: the null member `params.remark` is skipped ...`).
//!
//! Exit codes: 0 success / signature holds, 1 `--verify`: signature missing or wrong,
//! or the body refused by a re-cut rule, 2 usage error, unreadable input, or a body
//! that is not to be signed (a re-cut rule, already signed, carrying the key).

use std::process::ExitCode;

use baas_sign::Mode;

/// Compute or check the signature of a BaaS message.
///
/// Reads a JSON message (request, response or notification envelope) on stdin and takes
/// the private key from the environment variable BAAS_PRIVATE_KEY. By default prints the
/// canonical string (key redacted), then the signature as the last line.
#[derive(clap::Parser)]
#[command(name = "baas-sign", version)]
struct Args {
    /// Check the message's own `signature`: exit 0 when it holds, 1 otherwise (also when
    /// a re-cut rule refuses the body: the rule is printed).
    #[arg(long, conflicts_with = "attach")]
    verify: bool,
    /// Print the message with its signature added, exactly as it is to be sent.
    #[arg(long)]
    attach: bool,
}

fn main() -> ExitCode {
    // clap exits with 2 on a usage error (`--verify --attach` included) and 0 on --help.
    let args = <Args as clap::Parser>::parse();
    let mode = match (args.verify, args.attach) {
        (true, _) => Mode::Verify,
        (_, true) => Mode::Attach,
        _ => Mode::Sign,
    };
    baas_sign::run(mode, "baas-sign")
}
