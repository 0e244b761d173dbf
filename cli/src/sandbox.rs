//! `baas sandbox start`: the sandbox kept running on loopback (in memory, or `--state`),
//! where every `baas` command without a profile finds it.

use clap::{Arg, ArgMatches, Command};

use baas_sandbox::{Sandbox, SandboxConfig, DEFAULT_SENDER, SERVICE_SENDER};

use crate::exit::Failure;
use crate::profile::SANDBOX_PORT;

/// The `sandbox` command.
pub fn command() -> Command {
    Command::new("sandbox")
        .about("The embedded sandbox")
        .subcommand_required(true)
        .subcommand(
            Command::new("start")
                .about("Run the sandbox on loopback until Ctrl-C; commands without a profile use it")
                .arg(
                    Arg::new("port")
                        .long("port")
                        .value_parser(clap::value_parser!(u16))
                        .default_value("8490")
                        .help("Port on 127.0.0.1 (commands without a profile look on 8490, or $BAAS_SANDBOX_URL)"),
                )
                .arg(
                    Arg::new("state")
                        .long("state")
                        .value_name("FILE")
                        .help("Keep the state in this SQLite file across restarts [default: in memory]"),
                )
                .arg(
                    Arg::new("callback")
                        .long("callback")
                        .value_name("URL")
                        .help("Where notifications are POSTed (e.g. the URL `baas listen` prints)"),
                ),
        )
        .subcommand(
            Command::new("trigger")
                .about("Make the running sandbox send one notification (0015 closing balances, 0026 FX, 0028 CNY) to its callback")
                .arg(
                    Arg::new("type")
                        .required(true)
                        .value_parser(crate::trigger::TYPES)
                        .help("The notification type"),
                ),
        )
}

/// Runs `baas sandbox …`.
pub async fn run(args: &ArgMatches, profile_flag: Option<&str>) -> Result<(), Failure> {
    let start = match args.subcommand() {
        Some(("start", start)) => start,
        Some(("trigger", trigger)) => return crate::trigger::run(trigger, profile_flag).await,
        _ => {
            return Err(Failure::Local(
                "baas sandbox: name a command (start, trigger)".to_owned(),
            ))
        }
    };
    let mut config = SandboxConfig::default();
    config.port = start
        .get_one::<u16>("port")
        .copied()
        .unwrap_or(SANDBOX_PORT);
    config.state = start.get_one::<String>("state").map(Into::into);
    config.callback_url = start.get_one::<String>("callback").cloned();
    let sandbox = Sandbox::start_with(config)
        .await
        .map_err(|e| Failure::Local(format!("cannot start the sandbox: {e}")))?;
    println!("baas sandbox listening on {}", sandbox.base_url());
    println!("admin:          {}", sandbox.admin_url());
    println!("sender:         {DEFAULT_SENDER}");
    println!("service sender: {SERVICE_SENDER}");
    println!("key:            the sandbox's public test key (baas_sandbox::DEFAULT_KEY)");
    if sandbox.addr().port() != SANDBOX_PORT {
        println!(
            "commands without a profile find it with BAAS_SANDBOX_URL={}",
            sandbox.base_url()
        );
    }
    use std::io::Write;
    let _ = std::io::stdout().flush();
    tokio::signal::ctrl_c()
        .await
        .map_err(|e| Failure::Local(format!("cannot wait for Ctrl-C: {e}")))?;
    println!("stopping");
    Ok(())
}
