//! `baas-sandbox --port N [--callback URL]`: runs the in-memory sandbox on
//! 127.0.0.1 until interrupted, printing how to reach it.

use std::process::ExitCode;

use baas_sandbox::{Sandbox, SandboxConfig, DEFAULT_KEY, DEFAULT_SENDER};

const USAGE: &str = "usage: baas-sandbox [--port N] [--callback http://127.0.0.1:PORT/path]

Runs the in-memory BaaS sandbox on 127.0.0.1 (port 0 = any free port) until Ctrl-C.";

fn parse(args: &[String]) -> Result<SandboxConfig, String> {
    let mut config = SandboxConfig::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--port" => {
                let v = it.next().ok_or("--port needs a value")?;
                config.port = v
                    .parse()
                    .map_err(|_| format!("--port: `{v}` is not a port number (0-65535)"))?;
            }
            "--callback" => {
                config.callback_url = Some(it.next().ok_or("--callback needs a URL")?.clone());
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(config)
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match parse(&args) {
        Ok(c) => c,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("baas-sandbox: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let sandbox = match Sandbox::start_with(config).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("baas-sandbox: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("baas-sandbox listening on {}", sandbox.base_url());
    println!("sender: {DEFAULT_SENDER}");
    println!("key:    {DEFAULT_KEY}   (test key)");
    println!("OTP:    baas_sandbox::otp_for(businessId): first 8 bytes of SHA-256(\"baas-sandbox-otp:\" + businessId), big-endian, mod 1000000, 6 digits");
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

    #[test]
    fn parses_port_and_callback() {
        let args: Vec<String> = ["--port", "8080", "--callback", "http://127.0.0.1:9/cb"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let c = parse(&args).unwrap();
        assert_eq!(c.port, 8080);
        assert_eq!(c.callback_url.as_deref(), Some("http://127.0.0.1:9/cb"));
        assert!(parse(&["--port".to_string(), "x".to_string()]).is_err());
        assert!(parse(&["--bogus".to_string()]).is_err());
    }
}
