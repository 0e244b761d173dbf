//! `baas`: every operation of the BaaS partner API as a command (`baas <group>
//! <operation>`, generated from the SDK plan), profiles, an embedded sandbox, a webhook
//! listener and `baas sign`.
//!
//! ```text
//! baas account get-account-details --account-id 1000000001   # no profile: the embedded sandbox
//! baas transfers get-trans-list --params @q.json --all        # every page, JSON lines
//! baas transfers apply-for-transfer ... --otp                  # send and confirm the OTP
//! baas transfers get-trans-result --tx-id TX... --wait         # poll to a final state
//! baas profile                                                 # what is in force, key redacted
//! baas sandbox start --state sandbox.db                        # a sandbox kept running
//! baas listen --forward-to http://127.0.0.1:3000/callbacks     # verify and forward notifications
//! baas sign --verify < message.json                            # as baas-sign
//! ```
//!
//! Exit codes: see [`exit`] (0 success, 1 local failure, 2 usage, 3 not sent, 4 refused,
//! 5 outcome unknown, 6 not final by the deadline; `baas sign` keeps baas-sign's).

mod call;
mod commands;
mod docs;
mod exit;
mod listen;
mod output;
mod params;
mod profile;
mod sandbox;
mod settle;
mod sign;
mod table;
mod target;
mod trigger;

use std::process::ExitCode;

use exit::Failure;

#[tokio::main]
async fn main() -> ExitCode {
    let matches = commands::cli().get_matches();
    let profile_flag = matches.get_one::<String>("profile").cloned();
    let result = match matches.subcommand() {
        Some(("profile", _)) => profile::describe(profile_flag.as_deref())
            .map(|text| print!("{text}"))
            .map_err(Failure::Local),
        Some(("sandbox", sub)) => sandbox::run(sub, profile_flag.as_deref()).await,
        Some(("listen", sub)) => listen::run(sub, profile_flag.as_deref()).await,
        Some(("sign", sub)) => return sign::run(sub),
        Some(("completions", sub)) => docs::completions(sub),
        Some(("man", sub)) => docs::man(sub),
        Some((group, sub)) => match sub.subcommand() {
            Some((command, args)) => match table::find(group, command) {
                Some(op) => commands::run_operation(op, args, profile_flag.as_deref()).await,
                None => Err(Failure::Local(format!("no command {group} {command}"))),
            },
            None => Err(Failure::Local(format!(
                "{group}: name an operation (see --help)"
            ))),
        },
        None => Err(Failure::Local("name a command (see --help)".to_owned())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
