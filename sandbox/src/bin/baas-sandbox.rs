//! `baas-sandbox --port N [--callback URL] [--state FILE] [--admin-token TOKEN]`: runs the sandbox on
//! 127.0.0.1 until interrupted, printing how to reach it; in memory, or with its state
//! kept in FILE across restarts.

use std::process::ExitCode;

use baas_sandbox::faults::scenario::{self, ScenarioError};
use baas_sandbox::{Sandbox, SandboxConfig, DEFAULT_KEY, DEFAULT_SENDER, SERVICE_SENDER};

/// Runs the in-memory BaaS sandbox on 127.0.0.1 until Ctrl-C.
#[derive(clap::Parser, Debug)]
#[command(name = "baas-sandbox", version)]
struct Args {
    /// Port on 127.0.0.1 (0 = any free port).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Where notifications are POSTed (e.g. http://127.0.0.1:9000/callbacks).
    #[arg(long)]
    callback: Option<String>,
    /// A YAML scenario file of faults to put in force (see the README, "Faults on
    /// demand").
    #[arg(long, value_name = "FILE")]
    scenario: Option<std::path::PathBuf>,
    /// Do not serve the admin page at /_sandbox/.
    #[arg(long)]
    no_admin: bool,
    /// Keep the state (accounts, ledger, applications, requestIds seen, notifications
    /// not yet delivered, clock) in this SQLite file across restarts; created seeded
    /// when it does not exist. Without it everything is in memory.
    #[arg(long, value_name = "FILE")]
    state: Option<std::path::PathBuf>,
    /// Require this token for the admin page and API (X-Sandbox-Admin-Token header, or
    /// the admin URL with ?token= printed below). Printable ASCII without space, ';',
    /// ',', '"', '\\', '&', '#', '%', '+' or '='.
    #[arg(long, value_name = "TOKEN")]
    admin_token: Option<String>,
}

fn config(args: Args) -> Result<SandboxConfig, ScenarioError> {
    let mut config = SandboxConfig::default();
    config.port = args.port;
    config.callback_url = args.callback;
    config.admin = !args.no_admin;
    config.state = args.state;
    config.admin_token = args.admin_token;
    if let Some(file) = &args.scenario {
        config.faults = scenario::load(file)?;
    }
    Ok(config)
}

#[tokio::main]
async fn main() -> ExitCode {
    // clap exits with 2 on a usage error and 0 on --help / --version.
    let config = match config(<Args as clap::Parser>::parse()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("baas-sandbox: scenario {e}");
            return ExitCode::from(2);
        }
    };
    let faults = config.faults.clone();
    let admin = config.admin;
    let state = config.state.clone();
    let sandbox = match Sandbox::start_with(config).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("baas-sandbox: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("baas-sandbox listening on {}", sandbox.base_url());
    match (admin, sandbox.admin_token()) {
        (true, Some(token)) => {
            println!("admin:  {}?token={token}", sandbox.admin_url());
            println!("token:  {token}   (admin token: the X-Sandbox-Admin-Token header)");
        }
        (true, None) => println!("admin:  {}", sandbox.admin_url()),
        (false, _) => {}
    }
    match &state {
        Some(file) => println!("state:  {} (SQLite, kept across restarts)", file.display()),
        None => println!("state:  in memory (--state FILE keeps it across restarts)"),
    }
    println!("sender: {DEFAULT_SENDER}");
    println!("service: {SERVICE_SENDER}   (the sender of its answers and notifications: give it to your notification verifier)");
    println!("key:    {DEFAULT_KEY}   (test key)");
    for fault in &faults {
        println!("fault:  {fault}");
    }
    println!("OTP:    baas_sandbox::otp_for(businessId): first 8 bytes of SHA-256(\"baas-sandbox-otp:\" + businessId), big-endian, mod 1000000, 6 digits");
    if admin {
        println!(
            "        each pending application's OTP: {}api/applications",
            sandbox.admin_url()
        );
    }
    match tokio::signal::ctrl_c().await {
        Ok(()) => {
            println!("stopping");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("baas-sandbox: cannot wait for Ctrl-C: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn parses_port_and_callback() {
        let c = config(
            Args::try_parse_from([
                "baas-sandbox",
                "--port",
                "8080",
                "--callback",
                "http://127.0.0.1:9/cb",
            ])
            .unwrap(),
        )
        .unwrap();
        assert_eq!(c.port, 8080);
        assert!(c.admin);
        assert_eq!(c.callback_url.as_deref(), Some("http://127.0.0.1:9/cb"));
        assert_eq!(
            config(Args::try_parse_from(["baas-sandbox"]).unwrap())
                .unwrap()
                .port,
            0
        );
        assert!(Args::try_parse_from(["baas-sandbox", "--port", "x"]).is_err());
        assert!(Args::try_parse_from(["baas-sandbox", "--port", "70000"]).is_err());
        assert!(Args::try_parse_from(["baas-sandbox", "--bogus"]).is_err());
        let quiet = Args::try_parse_from(["baas-sandbox", "--no-admin"]).unwrap();
        assert!(!config(quiet).unwrap().admin);
        let token = Args::try_parse_from(["baas-sandbox", "--admin-token", "t0k"]).unwrap();
        assert_eq!(config(token).unwrap().admin_token.as_deref(), Some("t0k"));
        let kept = Args::try_parse_from(["baas-sandbox", "--state", "s.db"]).unwrap();
        assert_eq!(
            config(kept).unwrap().state,
            Some(std::path::PathBuf::from("s.db"))
        );
    }

    #[test]
    fn the_example_scenario_loads_and_a_missing_one_is_an_error() {
        let example = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/example.yaml");
        let c =
            config(Args::try_parse_from(["baas-sandbox", "--scenario", example]).unwrap()).unwrap();
        assert!(c.faults.len() >= 11, "{:?}", c.faults);
        let missing = config(
            Args::try_parse_from(["baas-sandbox", "--scenario", "/nonexistent/s.yaml"]).unwrap(),
        )
        .unwrap_err();
        assert!(
            missing
                .to_string()
                .starts_with("/nonexistent/s.yaml:0: cannot read"),
            "{missing}"
        );
    }
}
