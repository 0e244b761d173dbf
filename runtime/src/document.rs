//! [`Document`]: the bytes of a file the API carries as Base64 text (spec type
//! `document`, decision `document-type`).
//!
//! Partners give the bytes (or a path) and the SDK writes standard Base64 (RFC 4648 §4,
//! `A-Z a-z 0-9 + /`, padded with `=`), so no partner needs a Base64 crate of their own.
//! A document is never shown: its `Debug` is its size (documents are large and may hold
//! personal data, and requests are logged and traced).

use std::fmt;
use std::path::Path;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// The bytes of a document (a PDF, an image), sent as standard Base64 text with padding.
///
/// ```
/// use baas_runtime::Document;
///
/// let invoice = Document::from(b"%PDF-1.7".to_vec());
/// assert_eq!(invoice.to_base64(), "JVBERi0xLjc=");
/// assert_eq!(format!("{invoice:?}"), "Document(8 bytes)");
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Document {
    bytes: Vec<u8>,
}

impl Document {
    /// A document of these bytes.
    pub fn new(bytes: impl Into<Vec<u8>>) -> Document {
        Document {
            bytes: bytes.into(),
        }
    }

    /// The file at `path`, read whole.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Storage`](crate::ErrorKind::Storage) (the SDK's one [`crate::Error`],
    /// so `?` works in a function returning it), naming the file, with the operating
    /// system's error as its source: the file cannot be read.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Document, crate::Error> {
        let path = path.as_ref();
        std::fs::read(path)
            .map(Document::new)
            .map_err(|e| crate::Error::storage(path, "cannot read the document", e))
    }

    /// The document whose standard Base64 text (padded) is `text`, as the service reads
    /// it.
    ///
    /// # Errors
    ///
    /// Why `text` is not standard padded Base64 (the text itself is never quoted).
    pub fn from_base64(text: &str) -> Result<Document, NotBase64> {
        decode_strict(text.as_bytes()).map(Document::new)
    }

    /// The document of Base64 text as an answer may carry it: padding optional, the
    /// URL-safe alphabet (`-`, `_`) and white space (line breaks) accepted. Text that is
    /// still not Base64 is kept as it came (its UTF-8 bytes): reading an answer never
    /// fails over a document, and the text stays usable.
    pub fn from_base64_lenient(text: &str) -> Document {
        Document::new(decode_lenient(text).unwrap_or_else(|| text.as_bytes().to_vec()))
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes, taken.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The size in bytes (what `base64_max_bytes` limits).
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// True for a document of no bytes.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The standard Base64 text with padding, as sent.
    pub fn to_base64(&self) -> String {
        encode(&self.bytes)
    }
}

impl fmt::Debug for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Document({} bytes)", self.bytes.len())
    }
}

impl From<Vec<u8>> for Document {
    fn from(bytes: Vec<u8>) -> Document {
        Document::new(bytes)
    }
}

impl From<&[u8]> for Document {
    fn from(bytes: &[u8]) -> Document {
        Document::new(bytes)
    }
}

impl<const N: usize> From<&[u8; N]> for Document {
    fn from(bytes: &[u8; N]) -> Document {
        Document::new(bytes.as_slice())
    }
}

impl AsRef<[u8]> for Document {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl Serialize for Document {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_base64())
    }
}

/// Strict: standard padded Base64, as the service reads a request (the sandbox decodes
/// requests with it). Answers are read with [`crate::lenient::option_document`].
impl<'de> Deserialize<'de> for Document {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Document, D::Error> {
        struct Strict;
        impl Visitor<'_> for Strict {
            type Value = Document;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a document as standard Base64 text with padding")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Document, E> {
                Document::from_base64(v).map_err(E::custom)
            }
        }
        d.deserialize_str(Strict)
    }
}

/// Why a text is not standard padded Base64 (the text itself is never quoted: it may be
/// a document).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotBase64 {
    why: &'static str,
}

impl fmt::Display for NotBase64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not standard Base64 with padding: {}", self.why)
    }
}

impl std::error::Error for NotBase64 {}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    let sym = |n: u32, shift: u32| char::from(ALPHABET[((n >> shift) & 63) as usize]);
    let mut chunks = bytes.chunks_exact(3);
    for c in &mut chunks {
        let n = u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2]);
        for shift in [18, 12, 6, 0] {
            out.push(sym(n, shift));
        }
    }
    match *chunks.remainder() {
        [a] => {
            let n = u32::from(a) << 16;
            out.extend([sym(n, 18), sym(n, 12), '=', '=']);
        }
        [a, b] => {
            let n = u32::from(a) << 16 | u32::from(b) << 8;
            out.extend([sym(n, 18), sym(n, 12), sym(n, 6), '=']);
        }
        _ => {}
    }
    out
}

/// The 6-bit value of a symbol of the standard alphabet.
fn value(b: u8) -> Option<u32> {
    Some(u32::from(match b {
        b'A'..=b'Z' => b - b'A',
        b'a'..=b'z' => b - b'a' + 26,
        b'0'..=b'9' => b - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    }))
}

fn decode_strict(text: &[u8]) -> Result<Vec<u8>, NotBase64> {
    let no = |why| Err(NotBase64 { why });
    if text.len() % 4 != 0 {
        return no("its length is not a multiple of 4");
    }
    let padding = text.iter().rev().take_while(|b| **b == b'=').count();
    if padding > 2 {
        return no("more than two `=` at the end");
    }
    let body = &text[..text.len() - padding];
    let Some(values) = body.iter().map(|b| value(*b)).collect::<Option<Vec<u32>>>() else {
        return no("a character outside A-Z a-z 0-9 + / (or `=` before the end)");
    };
    // Bits the padding drops need not be zero (`QR==` reads as `QQ==`), as the common
    // decoders (Java's, Python's, PHP's) read them and as the OpenAPI pattern allows.
    Ok(pack(&values))
}

/// Lenient: white space skipped, `-`/`_` read as `+`/`/`, padding optional. `None` when
/// it is still not Base64.
fn decode_lenient(text: &str) -> Option<Vec<u8>> {
    let symbols: Vec<u8> = text
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .map(|b| match b {
            b'-' => b'+',
            b'_' => b'/',
            other => other,
        })
        .collect();
    let body = symbols
        .strip_suffix(b"==")
        .or_else(|| symbols.strip_suffix(b"="));
    let body = body.unwrap_or(&symbols);
    if body.len() % 4 == 1 || (body.len() != symbols.len() && symbols.len() % 4 != 0) {
        return None;
    }
    let values = body
        .iter()
        .map(|b| value(*b))
        .collect::<Option<Vec<u32>>>()?;
    Some(pack(&values))
}

/// 6-bit values into bytes (a last partial group gives one or two bytes).
fn pack(values: &[u32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() / 4 * 3 + 2);
    for group in values.chunks(4) {
        let n = group
            .iter()
            .chain(std::iter::repeat(&0))
            .take(4)
            .fold(0u32, |n, v| n << 6 | v);
        let [_, a, b, c] = n.to_be_bytes();
        out.extend_from_slice(&[a, b, c][..group.len().saturating_sub(1)]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_rfc_4648_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, b64) in vectors {
            assert_eq!(Document::from(plain.as_bytes()).to_base64(), b64);
            assert_eq!(
                Document::from_base64(b64).unwrap().as_bytes(),
                plain.as_bytes()
            );
            assert_eq!(
                Document::from_base64_lenient(b64).as_bytes(),
                plain.as_bytes()
            );
        }
        let all: Vec<u8> = (0..=255).collect();
        let doc = Document::new(all.clone());
        assert_eq!(
            Document::from_base64(&doc.to_base64())
                .unwrap()
                .into_bytes(),
            all
        );
    }

    #[test]
    fn strict_refuses_what_the_service_would() {
        for bad in [
            "Zg", "Zg=", "Zm9v\n", "Zm-v", "Z===", "Zm9v====", "=Zm9", "Zm=v",
        ] {
            let e = Document::from_base64(bad).unwrap_err();
            assert!(
                e.to_string().starts_with("not standard Base64"),
                "{bad}: {e}"
            );
        }
        assert_eq!(Document::from_base64("Zh==").unwrap().as_bytes(), b"f");
    }

    #[test]
    fn lenient_reads_variants_and_keeps_what_is_not_base64() {
        assert_eq!(Document::from_base64_lenient("Zm9vYg").as_bytes(), b"foob");
        assert_eq!(
            Document::from_base64_lenient("Zm9v\r\nYmFy").as_bytes(),
            b"foobar"
        );
        assert_eq!(
            Document::from_base64_lenient("-_8=").as_bytes(),
            [0xfb, 0xff]
        );
        // Not Base64 at all: the text itself, never an error.
        let kept = Document::from_base64_lenient("data:application/pdf;base64,JVBE");
        assert_eq!(kept.as_bytes(), b"data:application/pdf;base64,JVBE");
        assert_eq!(Document::from_base64_lenient("Z").as_bytes(), b"Z");
    }

    #[test]
    fn debug_shows_the_size_only() {
        let doc = Document::from(b"secret passport scan");
        assert_eq!(format!("{doc:?}"), "Document(20 bytes)");
        assert_eq!(format!("{:?}", Some(&doc)), "Some(Document(20 bytes))");
    }

    #[test]
    fn serializes_as_base64_and_reads_strictly() {
        let doc = Document::from(b"foobar");
        assert_eq!(serde_json::to_string(&doc).unwrap(), "\"Zm9vYmFy\"");
        let back: Document = serde_json::from_str("\"Zm9vYmFy\"").unwrap();
        assert_eq!(back, doc);
        let e = serde_json::from_str::<Document>("\"Zm9vYmF\"").unwrap_err();
        assert!(e.to_string().contains("not standard Base64"), "{e}");
    }

    #[test]
    fn an_answers_document_never_fails_to_read() {
        #[derive(serde::Deserialize)]
        struct Answer {
            #[serde(default, deserialize_with = "crate::lenient::option_document")]
            doc: Option<Document>,
        }
        let read = |json: &str| serde_json::from_str::<Answer>(json).map(|a| a.doc);
        assert_eq!(
            read(r#"{"doc":"Zm9vYg"}"#).unwrap(),
            Some(Document::from(b"foob"))
        );
        let kept = read(r#"{"doc":"not base64!"}"#).unwrap();
        assert_eq!(kept, Some(Document::from(b"not base64!")));
        assert_eq!(read(r#"{"doc":null}"#).unwrap(), None);
        assert_eq!(read("{}").unwrap(), None);
        assert!(read(r#"{"doc":12}"#).is_err());
    }

    #[test]
    fn from_path_reads_the_file_or_names_it() {
        let dir = std::env::temp_dir().join(format!("baas-doc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("invoice.pdf");
        std::fs::write(&file, b"%PDF-1.7").unwrap();
        assert_eq!(
            Document::from_path(&file).unwrap().to_base64(),
            "JVBERi0xLjc="
        );
        let missing = dir.join("missing.pdf");
        let e = Document::from_path(&missing).unwrap_err();
        assert!(
            matches!(e.kind(), crate::ErrorKind::Storage { .. }),
            "{e:?}"
        );
        assert!(e.to_string().contains("missing.pdf"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
