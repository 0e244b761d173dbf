//! The command tree: the fixed commands, and a command per operation of the generated
//! table with one flag per parameter.

use std::time::Duration;

use clap::{Arg, ArgAction, ArgMatches, Command};

use crate::call::{self, Asked, Run};
use crate::exit::Failure;
use crate::output::Format;
use crate::table::{Field, Kind, Operation, GROUPS};
use crate::target::Target;

const AFTER: &str = "Exit codes: 0 success, 1 local failure, 2 usage, 3 not sent, 4 refused \
(a signed answer with another result code), 5 outcome unknown (may have taken effect: look \
it up before sending again), 6 not final by the --wait deadline.";

/// What a parameter's flag takes, for its help.
fn value_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Text => "TEXT",
        Kind::Integer => "INT",
        Kind::Decimal | Kind::DecimalNumber => "AMOUNT",
        Kind::Bool => "true|false",
        Kind::Date => "YYYY-MM-DD",
        Kind::Document => "@FILE|BASE64",
        Kind::Enum { .. } => "VALUE",
        Kind::Json => "JSON",
    }
}

fn field_arg(field: &'static Field) -> Arg {
    let mut help = String::new();
    if field.required {
        help.push_str("[required] ");
    }
    help.push_str(&format!("`{}`", field.wire));
    if !field.help.is_empty() {
        help.push_str(": ");
        help.push_str(field.help);
    }
    match field.kind {
        Kind::Enum {
            name,
            values,
            open: false,
            ..
        } => help.push_str(&format!(" One of {name}: {}.", values.join(", "))),
        Kind::Enum {
            name,
            values,
            open: true,
            ..
        } => help.push_str(&format!(
            " A {name}: {}, or any other code (the list is open).",
            values.join(", ")
        )),
        Kind::Document => help
            .push_str(" A file as @PATH (read and sent as Base64), or the document's Base64 text."),
        _ => {}
    }
    Arg::new(field.flag)
        .long(field.flag)
        .value_name(value_name(field.kind))
        .help(help)
        .action(ArgAction::Set)
}

fn operation_command(op: &'static Operation) -> Command {
    let mut long = op.long_about.to_owned();
    if op.free_params {
        long.push_str("\n\nIts parameters are not listed: give them whole with --params.");
    }
    if op.otp {
        long.push_str("\n\nWith --otp the command sends the application's OTP and confirms it.");
    }
    let mut cmd = Command::new(op.command)
        .about(op.about)
        .long_about(long)
        .after_help(AFTER)
        .arg(
            Arg::new("params")
                .long("params")
                .value_name("JSON|@FILE|-")
                .help("The whole params: inline JSON, @file.json, or - for stdin; flags override its members"),
        )
        .arg(
            Arg::new("format")
                .long("format")
                .value_parser(clap::value_parser!(Format))
                .help("How to print the answer [default: table on a terminal, json when piped]"),
        )
        .arg(
            Arg::new("dry-run")
                .long("dry-run")
                .action(ArgAction::SetTrue)
                .help("Print the exact bytes the client would send and the canonical string (key redacted); send nothing"),
        )
        .arg(
            Arg::new("envelope-request-id")
                .long("envelope-request-id")
                .value_name("ID")
                .help("Send with this requestId (to look the call up by it later)"),
        );
    for field in op.fields {
        cmd = cmd.arg(field_arg(field));
    }
    if let Some(p) = op.pages {
        cmd = cmd.arg(Arg::new("all").long("all").action(ArgAction::SetTrue).help(format!(
            "Follow every page (`{}` from {} on, `{}` items a page), printing each item of `{}` as a JSON line",
            p.page, p.first_page, p.size, p.items
        )));
    }
    if op.pending.is_some() {
        cmd = cmd
            .arg(Arg::new("otp").long("otp").action(ArgAction::SetTrue).help(
                "Then send the application's OTP and confirm it: read from the sandbox's admin API when the target is a sandbox, else prompted for",
            ))
            .arg(
                Arg::new("otp-channel")
                    .long("otp-channel")
                    .value_name("CHANNEL")
                    .default_value("sms")
                    .help("Where the OTP is sent (sms, email)"),
            );
    }
    if let Some(f) = op.until_final {
        cmd = cmd
            .arg(
                Arg::new("wait")
                    .long("wait")
                    .action(ArgAction::SetTrue)
                    .help(format!(
                        "Query again until `{}` is final ({}), a progress line on stderr",
                        f.field,
                        f.values.join(", ")
                    )),
            )
            .arg(
                Arg::new("wait-deadline")
                    .long("wait-deadline")
                    .value_name("SECONDS")
                    .value_parser(clap::value_parser!(u64))
                    .default_value("120")
                    .help("Give up waiting after this many seconds (exit 6)"),
            );
    }
    cmd
}

/// The whole command tree.
pub fn cli() -> Command {
    let mut cli = Command::new("baas")
        .version(env!("CARGO_PKG_VERSION"))
        .about(format!(
            "Every operation of the BaaS partner API as a command ({} in all), signed and verified by the Rust client",
            crate::table::OPERATION_COUNT
        ))
        .after_help(AFTER)
        .subcommand_required(true)
        .arg(
            Arg::new("profile")
                .long("profile")
                .global(true)
                .value_name("NAME")
                .help("The profile of the config file to use [default: $BAAS_PROFILE, else the file's default, else the embedded sandbox]"),
        )
        .subcommand(Command::new("profile").about("Show the profile in force (the key redacted)"))
        .subcommand(crate::sandbox::command())
        .subcommand(crate::listen::command())
        .subcommand(crate::sign::command())
        .subcommands(crate::docs::commands());
    for group in GROUPS {
        let mut g = Command::new(group.name)
            .about(group.about)
            .subcommand_required(true);
        for op in group.operations {
            g = g.subcommand(operation_command(op));
        }
        cli = cli.subcommand(g);
    }
    cli
}

/// Runs the command of `op`.
pub async fn run_operation(
    op: &'static Operation,
    args: &ArgMatches,
    profile_flag: Option<&str>,
) -> Result<(), Failure> {
    let flag = |id: &str| {
        args.try_get_one::<bool>(id)
            .ok()
            .flatten()
            .copied()
            .unwrap_or(false)
    };
    let base = match args.get_one::<String>("params") {
        Some(spec) => Some(crate::params::read_base(spec).map_err(|e| Failure::NotSent(e.0))?),
        None => None,
    };
    let given: Vec<(&Field, String)> = op
        .fields
        .iter()
        .filter_map(|f| args.get_one::<String>(f.flag).map(|v| (f, v.clone())))
        .collect();
    // `--all` starts at the first page unless told otherwise.
    let defaults: Vec<(&str, String)> = match op.pages {
        Some(p) if flag("all") && p.page_is_text => {
            vec![(p.page, format!("\"{}\"", p.first_page))]
        }
        Some(p) if flag("all") => vec![(p.page, p.first_page.to_string())],
        _ => Vec::new(),
    };
    let params = crate::params::assemble(op, base.as_deref(), &given, &defaults)
        .map_err(|e| Failure::NotSent(e.0))?;
    let asked = Asked {
        format: Format::or_default(args.get_one::<Format>("format").copied()),
        all: flag("all"),
        wait: flag("wait"),
        otp: flag("otp"),
        otp_channel: args
            .try_get_one::<String>("otp-channel")
            .ok()
            .flatten()
            .cloned()
            .unwrap_or_else(|| "sms".to_owned()),
        dry_run: flag("dry-run"),
        request_id: args.get_one::<String>("envelope-request-id").cloned(),
        wait_deadline: Duration::from_secs(
            args.try_get_one::<u64>("wait-deadline")
                .ok()
                .flatten()
                .copied()
                .unwrap_or(120),
        ),
    };
    let (_, file) = crate::profile::load().map_err(Failure::Local)?;
    let chosen = crate::profile::chosen(profile_flag, &file).map_err(Failure::Local)?;
    let target = Target::resolve(chosen.as_ref().map(|(_, p)| p)).await?;
    call::run(Run {
        op,
        params,
        asked: &asked,
        target: &target,
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_tree_is_consistent() {
        cli().debug_assert();
    }

    #[test]
    fn every_operation_of_the_model_has_a_command() {
        let commands: usize = GROUPS.iter().map(|g| g.operations.len()).sum();
        assert_eq!(commands, crate::table::OPERATION_COUNT);
        // The Rust client's own table, emitted from the model by another emitter.
        assert_eq!(commands, baas_client::dispatch::OPERATIONS.len());
        for info in baas_client::dispatch::OPERATIONS {
            let op = GROUPS
                .iter()
                .flat_map(|g| g.operations.iter())
                .find(|o| o.wire == info.name);
            assert!(op.is_some_and(|o| o.path == info.path), "{}", info.name);
        }
    }
}
