//! Signing and verification of message bodies (requests, responses, notifications).
//!
//! A request is signed over the exact bytes that are sent: the envelope is serialized
//! without `signature`, those bytes are canonicalized and hashed, and
//! `,"signature":"<hex>"` is spliced in before the final `}` ([`attach_signature`]).
//! A received body is verified over its own bytes, numbers as their literal text.
//! Signatures are compared in constant time.

use subtle::ConstantTimeEq;

use crate::canonical::{Borrowed, CanonicalError, Flattened};
use crate::secret::PrivateKey;

/// Lowercase hex signature of a JSON object body (its top-level `signature`, if any,
/// is left out of the canonical string). A body whose canonical string could stand for
/// another body is refused with [`CanonicalError::Ambiguous`] (see
/// [`Flattened::parse_unambiguous`]), a `null` array element included (R2): nothing is
/// signed that a verifier would refuse.
///
/// A `null` member is skipped, as the API document says (the signature is the same
/// with or without it, and every decoder reads it as absent), and each one is reported
/// with `tracing::warn!` (target `baas_runtime::sign`, field `path`): a body with nulls
/// is usually written by a JSON library that writes absent fields as `null`. To get the
/// paths in the result, use [`Flattened::null_member_paths`]. (Such a body used to be
/// refused, see CHANGELOG.md; the client's own requests still refuse any `null`: the
/// SDK never sends one.)
pub fn sign(body: &[u8], key: &PrivateKey) -> Result<String, CanonicalError> {
    let flat = Borrowed::parse_unambiguous(body)?;
    warn_null_members(&flat);
    Ok(flat.signature_hex(key))
}

/// One `tracing::warn!` per `null` member of a body being signed (nothing is walked
/// when it has none).
fn warn_null_members(flat: &Borrowed<'_>) {
    flat.for_each_null_member(|path| {
        tracing::warn!(
            path,
            "signing: the null member `{path}` is skipped (the API document leaves nulls out \
             of the signed text; the receiver reads it as absent)"
        );
    });
}

/// Why a body does not verify.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum VerifyError {
    /// The body has no canonical string (not a JSON object, duplicate keys, ...), or
    /// its canonical string could stand for another body:
    /// `Malformed(CanonicalError::Ambiguous { path, rule })` (see
    /// [`Flattened::parse_unambiguous`]). Such a body is refused whatever its signature.
    Malformed(CanonicalError),
    /// The body has no `signature`.
    Missing,
    /// The `signature` does not match the body and key.
    Mismatch,
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VerifyError::Malformed(e) => write!(f, "cannot verify: {e}"),
            VerifyError::Missing => f.write_str("the body has no signature"),
            VerifyError::Mismatch => f.write_str("the signature does not match the body"),
        }
    }
}

impl std::error::Error for VerifyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VerifyError::Malformed(e) => Some(e),
            _ => None,
        }
    }
}

/// Verifies the top-level `signature` of a received JSON object body. A body that
/// breaks a re-cut rule is refused with
/// `VerifyError::Malformed(CanonicalError::Ambiguous { .. })` before its signature is
/// looked at (see [`Flattened::parse_unambiguous`]).
pub fn verify(body: &[u8], key: &PrivateKey) -> Result<(), VerifyError> {
    // Read in place: no copy of the body (see `Flattened`).
    let flat = Borrowed::parse_unambiguous(body).map_err(VerifyError::Malformed)?;
    verify_borrowed(&flat, key)
}

/// [`verify_flattened`] of a body read in place (the envelope's opener).
pub(crate) fn verify_borrowed(flat: &Borrowed<'_>, key: &PrivateKey) -> Result<(), VerifyError> {
    let received = match flat.signature_bytes() {
        None => Received::Missing,
        Some(bytes) => Received::of_bytes(bytes),
    };
    compare(received, || flat.digest(key))
}

/// Verifies an already flattened body. Flatten it with
/// [`Flattened::parse_unambiguous`]: this does not apply the re-cut rules itself.
pub fn verify_flattened(flat: &Flattened, key: &PrivateKey) -> Result<(), VerifyError> {
    compare(Received::of(flat.signature()), || flat.digest(key))
}

/// A body's signature, copied to the stack (so the body's reader is free to hash).
enum Received {
    Missing,
    /// Not 64 bytes: matches no digest.
    Malformed,
    Hex([u8; 64]),
}

impl Received {
    fn of(signature: Option<&str>) -> Received {
        match signature {
            None => Received::Missing,
            Some(s) => Received::of_bytes(s.as_bytes()),
        }
    }

    fn of_bytes(signature: &[u8]) -> Received {
        match <[u8; 64]>::try_from(signature) {
            Ok(hex) => Received::Hex(hex),
            Err(_) => Received::Malformed,
        }
    }
}

/// The received signature against the digest (computed only when there is one).
fn compare(received: Received, digest: impl FnOnce() -> [u8; 32]) -> Result<(), VerifyError> {
    let received = match received {
        Received::Missing => return Err(VerifyError::Missing),
        Received::Malformed => {
            // Hashed all the same: the time taken does not tell a short signature.
            let _ = digest();
            return Err(VerifyError::Mismatch);
        }
        Received::Hex(hex) => hex,
    };
    // The expected hex on the stack: no allocation per verification.
    let expected = digest_hex(&digest());
    // Compared in constant time eight bytes at a time (the same bytes as
    // `constant_time_eq`, eight times fewer steps).
    let words = |hex: &[u8; 64]| {
        let mut words = [0u64; 8];
        for (word, chunk) in words.iter_mut().zip(hex.chunks_exact(8)) {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(chunk);
            *word = u64::from_le_bytes(bytes);
        }
        words
    };
    if bool::from(words(&expected).ct_eq(&words(&received))) {
        Ok(())
    } else {
        Err(VerifyError::Mismatch)
    }
}

/// Result of [`check`]: what the signature should be and what the body carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// The signature the body and key give.
    pub expected: String,
    /// The body's `signature`, if any.
    pub received: Option<String>,
}

impl Check {
    /// True when the body carries the expected signature (constant-time comparison).
    pub fn holds(&self) -> bool {
        self.received
            .as_deref()
            .is_some_and(|r| constant_time_eq(self.expected.as_bytes(), r.as_bytes()))
    }
}

/// Computes the expected signature of a body and reports the one it carries (for
/// debugging tools such as `baas-sign --verify`). A body that breaks a re-cut rule is
/// refused with [`CanonicalError::Ambiguous`], as [`verify`] refuses it.
pub fn check(body: &[u8], key: &PrivateKey) -> Result<Check, CanonicalError> {
    let flat = Borrowed::parse_unambiguous(body)?;
    Ok(Check {
        expected: flat.signature_hex(key),
        received: flat.signature().map(str::to_owned),
    })
}

/// Equality of two byte strings in time independent of where they differ.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && bool::from(a.ct_eq(b))
}

/// Splices `,"signature":"<hex>"` before the final `}` of a serialized JSON object that
/// has no `signature` yet, so the sent text is exactly the signed text plus the
/// signature.
pub fn attach_signature(mut body: Vec<u8>, signature_hex: &str) -> Result<Vec<u8>, CanonicalError> {
    let last = body
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .ok_or(CanonicalError::NotAnObject)?;
    if body.get(last) != Some(&b'}') {
        return Err(CanonicalError::NotAnObject);
    }
    let before = body
        .get(..last)
        .and_then(|head| head.iter().rposition(|b| !b.is_ascii_whitespace()))
        .ok_or(CanonicalError::NotAnObject)?;
    let empty = body.get(before) == Some(&b'{');
    body.truncate(last);
    if !empty {
        body.push(b',');
    }
    body.extend_from_slice(b"\"signature\":\"");
    body.extend_from_slice(signature_hex.as_bytes());
    body.extend_from_slice(b"\"}");
    Ok(body)
}

/// Signs a serialized JSON object and returns the text to send. A body that already
/// has a top-level `signature` (even `null`) is refused with
/// [`CanonicalError::AlreadySigned`], one that breaks a re-cut rule with
/// [`CanonicalError::Ambiguous`] (see [`Flattened::parse_unambiguous`]; a `null` array
/// element included). A `null` member is skipped and reported, as by [`sign`].
pub fn sign_and_attach(body: Vec<u8>, key: &PrivateKey) -> Result<Vec<u8>, CanonicalError> {
    let signature = {
        let flat = Borrowed::parse_unambiguous(&body)?;
        if flat.has_signature_key() {
            return Err(CanonicalError::AlreadySigned);
        }
        warn_null_members(&flat);
        flat.signature_hex_bytes(key)
    };
    attach_signature(body, hex_str(&signature))
}

/// The two lowercase hex digits of every byte value.
const HEX_PAIRS: [[u8; 2]; 256] = {
    let digits = b"0123456789abcdef";
    let mut pairs = [[0u8; 2]; 256];
    let mut i = 0;
    while i < 256 {
        pairs[i] = [digits[i >> 4], digits[i & 15]];
        i += 1;
    }
    pairs
};

/// Writes the lowercase hex digits of `bytes` into `out` (two per byte; as many bytes as
/// `out` has room for): a table of digit pairs, a few instructions a byte where the
/// `hex` crate's iterator takes several times that (issue 36: a call writes 92 bytes as
/// hex, the salt, the requestId, the signature, the digest it verifies against).
#[inline]
pub(crate) fn hex_into(bytes: &[u8], out: &mut [u8]) {
    for (pair, &b) in out.chunks_exact_mut(2).zip(bytes) {
        pair.copy_from_slice(&HEX_PAIRS[usize::from(b)]);
    }
}

/// The lowercase hex of a digest.
#[inline]
pub(crate) fn digest_hex(digest: &[u8; 32]) -> [u8; 64] {
    let mut hex = [0u8; 64];
    hex_into(digest, &mut hex);
    hex
}

/// The text of hex digits (ASCII, so always UTF-8).
pub(crate) fn hex_str(hex: &[u8; 64]) -> &str {
    std::str::from_utf8(hex).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attach_to_empty_and_full_objects() {
        assert_eq!(
            attach_signature(b"{}".to_vec(), "ab").unwrap(),
            br#"{"signature":"ab"}"#
        );
        assert_eq!(
            attach_signature(b"{\"a\":1} \n".to_vec(), "ab").unwrap(),
            br#"{"a":1,"signature":"ab"}"#
        );
        assert!(attach_signature(b"[1]".to_vec(), "ab").is_err());
        assert!(attach_signature(b"}".to_vec(), "ab").is_err());
        assert!(attach_signature(Vec::new(), "ab").is_err());
    }

    #[test]
    fn sign_and_attach_refuses_a_body_already_signed() {
        let key = PrivateKey::new("k");
        // Appending a second `signature` would give duplicate keys: a body that no
        // verifier accepts (and that JSON libraries read in different ways).
        for signed in [
            &br#"{"a":1,"signature":"00"}"#[..],
            br#"{"signature":null}"#,
        ] {
            assert_eq!(
                sign_and_attach(signed.to_vec(), &key),
                Err(CanonicalError::AlreadySigned),
                "{}",
                String::from_utf8_lossy(signed)
            );
        }
        let once = sign_and_attach(br#"{"a":1}"#.to_vec(), &key).unwrap();
        assert_eq!(verify(&once, &key), Ok(()));
    }

    #[test]
    fn a_signature_verifies_only_when_every_hex_digit_matches() {
        let key = PrivateKey::new("k");
        let body = br#"{"a":"x"}"#;
        let good = sign(body, &key).unwrap();
        let with = |signature: &str| {
            let text = format!(r#"{{"a":"x","signature":"{signature}"}}"#);
            verify(text.as_bytes(), &key)
        };
        assert_eq!(with(&good), Ok(()));
        let flip = |at: usize| {
            let mut s = good.clone().into_bytes();
            s[at] = if s[at] == b'0' { b'1' } else { b'0' };
            String::from_utf8(s).unwrap()
        };
        for at in [0, 7, 8, 31, 56, 63] {
            assert_eq!(with(&flip(at)), Err(VerifyError::Mismatch), "{at}");
        }
        for wrong in [
            good.to_uppercase(),
            good[..63].to_owned(),
            format!("{good}0"),
            String::new(),
        ] {
            if wrong != good {
                assert_eq!(with(&wrong), Err(VerifyError::Mismatch), "{wrong}");
            }
        }
    }

    #[test]
    fn hex_digits_are_the_hex_crates() {
        let bytes: Vec<u8> = (0..=255).collect();
        let mut out = vec![0u8; 512];
        hex_into(&bytes, &mut out);
        assert_eq!(out, hex::encode(&bytes).into_bytes());
        let digest: [u8; 32] = std::array::from_fn(|i| (i * 37 + 11) as u8);
        assert_eq!(hex_str(&digest_hex(&digest)), hex::encode(digest));
    }

    #[test]
    fn constant_time() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}
