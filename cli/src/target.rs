//! The service a command talks to: a profile's, a running `baas sandbox start`, or a
//! sandbox in this process (no profile and none running).

use std::time::Duration;

use baas_runtime::transport::reqwest;
use baas_runtime::{Config, PrivateKey};
use baas_sandbox::Sandbox;

use crate::exit::Failure;
use crate::profile::{self, Profile};
use crate::table::{Operation, GROUPS};

/// Where calls go.
pub enum Target {
    /// A profile's service (`admin`: the sandbox's URL, when the profile says it is one).
    Remote {
        /// The client's configuration.
        config: Config,
        /// The base URL of a sandbox's admin API, when the target is a sandbox.
        admin: Option<String>,
    },
    /// A sandbox in this process, in memory, for this command.
    Embedded(Sandbox),
}

/// A `baas sandbox start` answering on `url` (its admin API, quickly).
async fn answers(url: &str) -> bool {
    let Ok(client) = reqwest::Client::builder()
        .timeout(Duration::from_millis(800))
        .no_proxy()
        .build()
    else {
        return false;
    };
    client
        .get(format!("{}/_sandbox/api/faults", url.trim_end_matches('/')))
        .send()
        .await
        .is_ok_and(|r| r.status().is_success())
}

impl Target {
    /// The target of `profile`, or with none the embedded sandbox.
    ///
    /// # Errors
    /// A profile without a key; a sandbox that cannot start.
    pub async fn resolve(profile: Option<&Profile>) -> Result<Target, Failure> {
        if let Some(p) = profile {
            let config = profile::client_config(p).map_err(Failure::NotSent)?;
            let admin = p.sandbox.then(|| p.base_url.clone());
            return Ok(Target::Remote { config, admin });
        }
        let url = profile::running_sandbox_url();
        if answers(&url).await {
            let config = Config::new(
                &url,
                baas_sandbox::DEFAULT_SENDER,
                PrivateKey::new(baas_sandbox::DEFAULT_KEY),
            );
            return Ok(Target::Remote {
                config,
                admin: Some(url),
            });
        }
        eprintln!(
            "baas: no profile and no `baas sandbox start` at {url}: using a sandbox in this process (in memory, gone when the command ends)"
        );
        Sandbox::start()
            .await
            .map(Target::Embedded)
            .map_err(|e| Failure::Local(format!("cannot start the embedded sandbox: {e}")))
    }

    /// The client's configuration.
    pub fn config(&self) -> Config {
        match self {
            Target::Remote { config, .. } => config.clone(),
            Target::Embedded(sandbox) => sandbox.client_config(),
        }
    }

    /// The Rust client of the target.
    ///
    /// # Errors
    /// A configuration the client refuses (not sent).
    pub fn client(&self) -> Result<baas_client::Client, Failure> {
        baas_client::Client::new(self.config()).map_err(|e| Failure::NotSent(e.to_string()))
    }

    /// The OTP of application `business_id`: the sandbox's (its admin API, or the one in
    /// this process), else read from the terminal.
    ///
    /// # Errors
    /// The sandbox does not know the application; stdin cannot be read.
    pub async fn otp(&self, business_id: &str) -> Result<String, Failure> {
        match self {
            Target::Embedded(sandbox) => Ok(sandbox.otp_for(business_id)),
            Target::Remote {
                admin: Some(url), ..
            } => admin_otp(url, business_id).await,
            Target::Remote { admin: None, .. } => prompt(business_id),
        }
    }
}

/// The OTP the sandbox at `url` shows for `business_id` (`/_sandbox/api/applications`).
async fn admin_otp(url: &str, business_id: &str) -> Result<String, Failure> {
    let fail = |e: String| {
        Failure::Local(format!(
            "cannot read the OTP of {business_id} from the sandbox's admin API: {e}"
        ))
    };
    let client = reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| fail(e.to_string()))?;
    let body = client
        .get(format!(
            "{}/_sandbox/api/applications",
            url.trim_end_matches('/')
        ))
        .send()
        .await
        .map_err(|e| fail(e.to_string()))?
        .bytes()
        .await
        .map_err(|e| fail(e.to_string()))?;
    let rows: Vec<serde_json::Value> =
        serde_json::from_slice(&body).map_err(|e| fail(e.to_string()))?;
    rows.iter()
        .find(|r| r.get("business_id").and_then(|v| v.as_str()) == Some(business_id))
        .and_then(|r| r.get("otp").and_then(|v| v.as_str()))
        .map(str::to_owned)
        .ok_or_else(|| fail("no pending application of that id".to_owned()))
}

/// Reads the OTP from the terminal (the customer received it).
fn prompt(business_id: &str) -> Result<String, Failure> {
    eprint!("OTP for {business_id}: ");
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|e| Failure::Local(format!("cannot read the OTP: {e}")))?;
    let code = line.trim().to_owned();
    if code.is_empty() {
        return Err(Failure::Local("no OTP given".to_owned()));
    }
    Ok(code)
}

/// The commands of the status queries in the group of `op` (which query tells the
/// outcome of one of its calls).
pub fn status_queries(op: &Operation) -> Vec<String> {
    GROUPS
        .iter()
        .filter(|g| g.operations.iter().any(|o| std::ptr::eq(o, op)))
        .flat_map(|g| {
            g.operations
                .iter()
                .filter(|o| o.until_final.is_some())
                .map(move |o| format!("baas {} {}", g.name, o.command))
        })
        .collect()
}

/// The command that sends operation `wire` with parameter `param` set to `value`
/// (`baas transfers get-trans-result --tx-id T1`).
pub fn command_of(wire: &str, param: &str, value: &str) -> String {
    GROUPS
        .iter()
        .flat_map(|g| g.operations.iter().map(move |o| (g, o)))
        .find(|(_, o)| o.wire == wire)
        .map(|(g, o)| {
            let flag = o
                .fields
                .iter()
                .find(|f| f.wire == param)
                .map_or(param, |f| f.flag);
            format!("`baas {} {} --{flag} {value}`", g.name, o.command)
        })
        .unwrap_or_else(|| format!("`{wire}` ({param} {value})"))
}
