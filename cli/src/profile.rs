//! Where calls go: a profile of the config file (base URL, sender, the service's sender,
//! where the key is), or with no profile the embedded sandbox (one started by `baas
//! sandbox start` on its port, else one in this process for this command).
//!
//! The key is read from an environment variable or a file, never from a flag (flags end
//! up in shell history and process lists), and is never printed.

use std::collections::BTreeMap;
use std::path::PathBuf;

use baas_runtime::{Config, PrivateKey};
use serde::Deserialize;

/// The variable holding the key when a profile names none.
pub const DEFAULT_KEY_VARIABLE: &str = "BAAS_PRIVATE_KEY";
/// The port `baas sandbox start` listens on unless told otherwise.
pub const SANDBOX_PORT: u16 = 8490;

/// The config file (`$BAAS_CONFIG`, else `$XDG_CONFIG_HOME/baas/config.yaml`, else
/// `~/.config/baas/config.yaml`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// The profile used when neither `--profile` nor `BAAS_PROFILE` names one.
    #[serde(default)]
    pub default: Option<String>,
    /// Profiles by name.
    #[serde(default)]
    pub profiles: BTreeMap<String, Profile>,
}

/// One profile.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// The service's base URL.
    pub base_url: String,
    /// The partner's sender name.
    pub sender: String,
    /// The sender name the service signs its notifications with (`baas listen`).
    #[serde(default)]
    pub service_sender: Option<String>,
    /// The environment variable holding the key (default `BAAS_PRIVATE_KEY`).
    #[serde(default)]
    pub key_env: Option<String>,
    /// A file holding the key (used when the variable is not set).
    #[serde(default)]
    pub key_file: Option<PathBuf>,
    /// The target is a baas-sandbox: OTPs are read from its admin API (`/_sandbox/api/`).
    #[serde(default)]
    pub sandbox: bool,
}

/// Where the config file is.
pub fn config_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("BAAS_CONFIG") {
        return Some(PathBuf::from(path));
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("baas").join("config.yaml"))
}

/// Reads the config file (none there: no profiles).
///
/// # Errors
/// The file exists but cannot be read or is not a config.
pub fn load() -> Result<(Option<PathBuf>, ConfigFile), String> {
    let Some(path) = config_path() else {
        return Ok((None, ConfigFile::default()));
    };
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_yaml::from_str(&text)
            .map(|c| (Some(path.clone()), c))
            .map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((None, ConfigFile::default())),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Where the key of a profile comes from, and the key.
pub struct Key {
    /// Where it was read from (`environment variable BAAS_PRIVATE_KEY`, `file …`).
    pub source: String,
    /// The key.
    pub key: PrivateKey,
}

/// The key of `profile`: its variable, else its file.
///
/// # Errors
/// Neither holds a key: says where it looked.
pub fn key(profile: &Profile) -> Result<Key, String> {
    let variable = profile.key_env.as_deref().unwrap_or(DEFAULT_KEY_VARIABLE);
    if let Some(key) = PrivateKey::from_env(variable) {
        return Ok(Key {
            source: format!("environment variable {variable}"),
            key,
        });
    }
    if let Some(file) = &profile.key_file {
        if let Some(key) = PrivateKey::from_file(file) {
            return Ok(Key {
                source: format!("file {}", file.display()),
                key,
            });
        }
    }
    let file = profile
        .key_file
        .as_ref()
        .map(|f| format!(" or the file {}", f.display()))
        .unwrap_or_default();
    Err(format!(
        "no key: set the environment variable {variable}{file} (the key is never taken from a flag)"
    ))
}

/// The profile in force: `--profile`, else `BAAS_PROFILE`, else the file's default.
/// `None`: no profile (the embedded sandbox).
///
/// # Errors
/// A named profile the file does not have.
pub fn chosen(flag: Option<&str>, file: &ConfigFile) -> Result<Option<(String, Profile)>, String> {
    let env = std::env::var("BAAS_PROFILE").ok().filter(|s| !s.is_empty());
    let name = flag
        .map(str::to_owned)
        .or(env)
        .or_else(|| file.default.clone());
    match name {
        None => Ok(None),
        Some(name) => match file.profiles.get(&name) {
            Some(p) => Ok(Some((name, p.clone()))),
            None => Err(format!(
                "no profile `{name}` in the config file ({})",
                config_path().map_or_else(|| "none".to_owned(), |p| p.display().to_string())
            )),
        },
    }
}

/// The client configuration of a profile.
///
/// # Errors
/// No key.
pub fn client_config(profile: &Profile) -> Result<Config, String> {
    let key = key(profile)?;
    Ok(Config::new(&profile.base_url, &profile.sender, key.key))
}

/// The URL of a sandbox started by `baas sandbox start` (`$BAAS_SANDBOX_URL`, else port
/// [`SANDBOX_PORT`] on loopback).
pub fn running_sandbox_url() -> String {
    std::env::var("BAAS_SANDBOX_URL")
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| format!("http://127.0.0.1:{SANDBOX_PORT}"))
}

/// `baas profile`: what is in force, the key redacted.
pub fn describe(flag: Option<&str>) -> Result<String, String> {
    let (path, file) = load()?;
    let mut out = String::new();
    let shown = path.as_ref().or(config_path().as_ref()).map_or_else(
        || "none".to_owned(),
        |p| {
            let exists = if path.is_some() { "" } else { " (not there)" };
            format!("{}{exists}", p.display())
        },
    );
    out.push_str(&format!("config file:    {shown}\n"));
    match chosen(flag, &file)? {
        Some((name, p)) => {
            out.push_str(&format!("profile:        {name}\n"));
            out.push_str(&format!("base URL:       {}\n", p.base_url));
            out.push_str(&format!("sender:         {}\n", p.sender));
            out.push_str(&format!(
                "service sender: {}\n",
                p.service_sender
                    .as_deref()
                    .unwrap_or("(not set: needed by `baas listen`)")
            ));
            match key(&p) {
                Ok(k) => out.push_str(&format!(
                    "key:            {} ({} bytes, from the {})\n",
                    baas_runtime::REDACTED,
                    k.key.expose().len(),
                    k.source
                )),
                Err(e) => out.push_str(&format!("key:            MISSING: {e}\n")),
            }
            if p.sandbox {
                out.push_str("sandbox:        yes (OTPs from its admin API)\n");
            }
        }
        None => {
            out.push_str("profile:        none: the embedded sandbox\n");
            out.push_str(&format!(
                "base URL:       {} when `baas sandbox start` runs, else a sandbox in this process (in memory)\n",
                running_sandbox_url()
            ));
            out.push_str(&format!(
                "sender:         {}\n",
                baas_sandbox::DEFAULT_SENDER
            ));
            out.push_str(&format!(
                "service sender: {}\n",
                baas_sandbox::SERVICE_SENDER
            ));
            out.push_str(&format!(
                "key:            {} (the sandbox's public test key)\n",
                baas_runtime::REDACTED
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_file_reads_and_refuses_a_key_written_in_it() {
        let file: ConfigFile = serde_yaml::from_str(
            "default: live\nprofiles:\n  live:\n    base_url: https://api.example\n    sender: p1\n    key_env: MY_KEY\n",
        )
        .unwrap();
        let (name, p) = chosen(None, &file).unwrap().unwrap();
        assert_eq!((name.as_str(), p.sender.as_str()), ("live", "p1"));
        assert!(chosen(Some("other"), &file).is_err());
        // A key in the file itself is not a setting: it would sit in clear beside the URL.
        assert!(serde_yaml::from_str::<ConfigFile>(
            "profiles:\n  x:\n    base_url: u\n    sender: s\n    key: secret\n"
        )
        .is_err());
    }
}
