//! `baas sign`: `baas-sign` inside `baas`, the same input (a JSON message on stdin, the
//! key in `BAAS_PRIVATE_KEY`), flags (`--verify`, `--attach`), output and exit codes (0
//! success or the signature holds, 1 `--verify` failed, 2 usage or an input not to sign).

use std::process::ExitCode;

use clap::{Arg, ArgAction, ArgMatches, Command};

/// The `sign` command.
pub fn command() -> Command {
    Command::new("sign")
        .about("Compute or check the signature of a BaaS message (as baas-sign)")
        .long_about(
            "Compute or check the signature of a BaaS message (as baas-sign).\n\nReads a JSON \
             message (request, response or notification envelope) on stdin and takes the \
             private key from the environment variable BAAS_PRIVATE_KEY. By default prints the \
             canonical string (key redacted), then the signature as the last line.\n\nExit \
             codes: 0 success / signature holds, 1 --verify: signature missing or wrong, or the \
             body refused by a re-cut rule, 2 usage error, unreadable input, or a body that is \
             not to be signed.",
        )
        .arg(
            Arg::new("verify")
                .long("verify")
                .action(ArgAction::SetTrue)
                .conflicts_with("attach")
                .help("Check the message's own `signature`: exit 0 when it holds, 1 otherwise"),
        )
        .arg(
            Arg::new("attach")
                .long("attach")
                .action(ArgAction::SetTrue)
                .help("Print the message with its signature added, exactly as it is to be sent"),
        )
}

/// Runs `baas sign`.
pub fn run(args: &ArgMatches) -> ExitCode {
    let mode = if args.get_flag("verify") {
        baas_sign::Mode::Verify
    } else if args.get_flag("attach") {
        baas_sign::Mode::Attach
    } else {
        baas_sign::Mode::Sign
    };
    baas_sign::run(mode, "baas sign")
}
