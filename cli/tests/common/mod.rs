//! Running the `baas` binary as a user would, against a sandbox in the test process.

#![allow(dead_code)]

use std::process::{Command, Output, Stdio};

use baas_sandbox::Sandbox;

/// What one run of `baas` gave.
pub struct Ran {
    /// The exit code.
    pub code: i32,
    /// Stdout.
    pub stdout: String,
    /// Stderr.
    pub stderr: String,
    /// Stdout as bytes.
    pub bytes: Vec<u8>,
}

/// `baas` with no config file and no profile, pointed at `sandbox`.
pub fn baas(sandbox: &Sandbox) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_baas"));
    cmd.env("BAAS_CONFIG", "/nonexistent/baas-config.yaml")
        .env_remove("BAAS_PROFILE")
        .env_remove("BAAS_PRIVATE_KEY")
        .env("BAAS_SANDBOX_URL", sandbox.base_url())
        .stdin(Stdio::null());
    cmd
}

/// Runs `cmd` off the async runtime's threads (the sandbox answers on them).
pub async fn run(mut cmd: Command) -> Ran {
    let out: Output = tokio::task::spawn_blocking(move || cmd.output())
        .await
        .expect("joins")
        .expect("baas runs");
    Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        bytes: out.stdout,
    }
}

/// `baas ARGS` against `sandbox`.
pub async fn call(sandbox: &Sandbox, args: &[&str]) -> Ran {
    let mut cmd = baas(sandbox);
    cmd.args(args);
    run(cmd).await
}

/// The flags of a transfer of `amount` KES from the seeded 1000000001 to 1000000004.
pub fn transfer(amount: &str) -> Vec<String> {
    [
        "transfers",
        "apply-for-transfer",
        "--payer-account-id",
        "1000000001",
        "--payee-bank-code",
        "46",
        "--payee-account-id",
        "1000000004",
        "--currency",
        "KES",
        "--amount",
        amount,
        "--format",
        "json",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect()
}

/// How many requests of `operation` the sandbox answered.
pub fn seen(sandbox: &Sandbox, operation: &str) -> usize {
    sandbox
        .requests()
        .iter()
        .filter(|r| r.operation.as_deref() == Some(operation))
        .count()
}
