//! The partner's private key, held so that it never prints.

use std::fmt;

/// The partner's private signing key (the `senderKey` of the signing algorithm).
///
/// `Debug` and `Display` print `[redacted]`; the bytes are overwritten when the value
/// is dropped. The key is only ever read by the signer ([`PrivateKey::expose`]).
#[derive(Clone)]
pub struct PrivateKey {
    bytes: Vec<u8>,
}

/// Text printed instead of a secret.
pub const REDACTED: &str = "[redacted]";

impl PrivateKey {
    /// Wraps a key as given by the account manager.
    pub fn new(key: impl Into<String>) -> PrivateKey {
        PrivateKey {
            bytes: key.into().into_bytes(),
        }
    }

    /// Reads the key from an environment variable; `None` when unset, empty or not UTF-8.
    ///
    /// The variable is left in this process's environment: every child process started
    /// afterwards inherits it unless told otherwise (`Command::env_remove(variable)`),
    /// and it can be read in `/proc/<pid>/environ` by the same user. Removing it here
    /// would race with any thread reading the environment, so it is the program's
    /// choice: start children without it, or read the key from a file readable by this
    /// user only ([`PrivateKey::from_file`]).
    pub fn from_env(variable: &str) -> Option<PrivateKey> {
        let value = std::env::var(variable).ok()?;
        if value.is_empty() {
            None
        } else {
            Some(PrivateKey::new(value))
        }
    }

    /// Reads the key from a file (the whole file, without a final line break); `None`
    /// when the file cannot be read, is empty or is not UTF-8. Nothing of the key stays
    /// in the environment, and the bytes read are wiped when not used.
    pub fn from_file(path: impl AsRef<std::path::Path>) -> Option<PrivateKey> {
        let mut bytes = std::fs::read(path).ok()?;
        let end = bytes
            .iter()
            .rposition(|b| *b != b'\n' && *b != b'\r')
            .map_or(0, |i| i + 1);
        let key = match std::str::from_utf8(bytes.get(..end).unwrap_or_default()) {
            Ok(text) if !text.is_empty() => Some(PrivateKey::new(text)),
            _ => None,
        };
        wipe(&mut bytes);
        key
    }

    /// The key's bytes, for the signer only. Never log or print them.
    pub fn expose(&self) -> &[u8] {
        &self.bytes
    }

    /// True when the key is empty (a configuration error).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// Equality in constant time for keys of equal length, so comparing keys leaks no prefix.
impl PartialEq for PrivateKey {
    fn eq(&self, other: &PrivateKey) -> bool {
        use subtle::ConstantTimeEq;
        self.bytes.ct_eq(&other.bytes).into()
    }
}

impl Eq for PrivateKey {}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl fmt::Display for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl Drop for PrivateKey {
    fn drop(&mut self) {
        wipe(&mut self.bytes);
    }
}

/// Overwrites a buffer that held secret material.
pub(crate) fn wipe(bytes: &mut [u8]) {
    bytes.fill(0);
    std::hint::black_box(&bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_is_by_bytes() {
        assert_eq!(PrivateKey::new("k1"), PrivateKey::new("k1"));
        assert_ne!(PrivateKey::new("k1"), PrivateKey::new("k2"));
        assert_ne!(PrivateKey::new("k1"), PrivateKey::new("k10"));
        assert_ne!(PrivateKey::new(""), PrivateKey::new("k"));
    }

    #[test]
    fn from_file_drops_the_line_break() {
        let path = std::env::temp_dir().join(format!("baas-key-{}", std::process::id()));
        std::fs::write(&path, "file-key\r\n").unwrap();
        assert_eq!(
            PrivateKey::from_file(&path),
            Some(PrivateKey::new("file-key"))
        );
        std::fs::write(&path, "\n").unwrap();
        assert_eq!(PrivateKey::from_file(&path), None);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(PrivateKey::from_file(&path), None);
    }

    #[test]
    fn never_prints() {
        let key = PrivateKey::new("top-secret-key");
        assert_eq!(format!("{key}"), "[redacted]");
        assert_eq!(format!("{key:?}"), "[redacted]");
        assert_eq!(format!("{:#?}", Some(&key)), "Some(\n    [redacted],\n)");
        assert_eq!(key.expose(), b"top-secret-key");
    }
}
