//! [`SeenFile`]: the delivery ids a receiver processed, kept on disk.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{DeliveryId, Notification};
use crate::envelope::now_millis;

/// How long a [`SeenFile`] keeps an id by default, counted from when it was recorded:
/// 30 days. It must outlast every re-delivery of a notification the service makes,
/// and a re-delivery can come long after the first one: the service re-signs it with a
/// fresh timestamp (the sandbox does after a restart), so a receiver that was down for
/// longer than the [`super::Verifier`]'s freshness window gets a fresh-looking
/// notification it may already have processed. Only its id tells, so the id is kept
/// for far longer than the window or any outage. About 100 bytes per id.
pub const DEFAULT_KEEP: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// The first line of a file in the current format.
const HEADER: &str =
    "# baas seen-notifications v2: <recorded epoch ms> <notificationType> <requestId>, %XX-escaped";

/// The delivery ids a receiver has processed, kept in a file so that a restart does not
/// forget them (an in-memory set processes every notification re-delivered after a
/// restart a second time).
///
/// Each id is kept for a time counted from when it was **recorded** (`keep`, pass
/// [`DEFAULT_KEEP`]), never from the notification's own timestamp: a re-delivery
/// re-signed after a long outage is fresh by its timestamp and must still be known by
/// its id. Any requestId and type is kept exactly: the file holds one ASCII line per id,
/// `<recorded ms> <notificationType> <requestId>`, each byte outside `!`..`~` and `%`
/// written as `%XX`, so spaces, CR, LF, U+2028, U+0085, VT or FS in an id never split
/// or change it. Opening drops the ids older than `keep` and rewrites the file.
///
/// [`SeenFile::record`] keeps the id in memory first, then appends it to the file and
/// flushes it to disk. Should the write fail, the error says so, the id is still known
/// to this process (a re-delivery is recognised, so answer [`super::ACK`] to it), and
/// the line is written again with the next record; only a restart before any write
/// succeeds would process that notification again. One process at a time: with several
/// receivers, keep the ids in your database instead (a unique key on (`requestId`,
/// `notificationType`), inserted in the transaction that processes the notification).
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use baas_runtime::notification::{self, SeenFile, Verifier, DEFAULT_KEEP};
/// use baas_runtime::{PrivateKey, RawJson};
///
/// # let dir = std::env::temp_dir().join(format!("baas-seen-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let key = PrivateKey::new("partner-key");
/// let verifier = Verifier::new(key.clone(), "svc");
/// let path = dir.join("seen-notifications.txt");
/// # let params = RawJson::from_string("{}".to_owned())?;
/// # let body = notification::signed_body("0015", "N1", "svc", "en_KE", &params, &key)?;
/// let mut seen = SeenFile::open(&path, DEFAULT_KEEP)?;
/// let n = verifier.verify(&body)?;
/// if seen.is_new(&n.delivery_id()) {
///     // process it, then:
///     seen.record(&n)?;
/// }
/// drop(seen);
/// // After a restart the id is still known.
/// assert!(!SeenFile::open(&path, DEFAULT_KEEP)?.is_new(&n.delivery_id()));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct SeenFile {
    path: PathBuf,
    file: File,
    seen: HashMap<DeliveryId, i64>,
    /// Lines whose write failed, written again before the next one.
    unwritten: String,
}

impl SeenFile {
    /// Opens (or creates) the file, keeping each id for `keep` after it was recorded
    /// (pass [`DEFAULT_KEEP`]; it must be longer than any re-delivery can come).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Storage`](crate::ErrorKind::Storage) (the SDK's one [`crate::Error`],
    /// so `?` works in a function returning it), naming the file, with the operating
    /// system's error as its source: the file cannot be read, rewritten or created.
    pub fn open(path: impl AsRef<Path>, keep: Duration) -> Result<SeenFile, crate::Error> {
        Self::open_at(path, keep, now_millis())
    }

    pub(super) fn open_at(
        path: impl AsRef<Path>,
        keep: Duration,
        now_ms: i64,
    ) -> Result<SeenFile, crate::Error> {
        let path = path.as_ref();
        Self::open_io(path, keep, now_ms)
            .map_err(|e| crate::Error::storage(path, "cannot open the processed-ids file", e))
    }

    fn open_io(path: &Path, keep: Duration, now_ms: i64) -> std::io::Result<SeenFile> {
        let path = path.to_path_buf();
        let oldest = now_ms.saturating_sub(i64::try_from(keep.as_millis()).unwrap_or(i64::MAX));
        let mut seen = HashMap::new();
        match File::open(&path) {
            Ok(file) => {
                let mut lines = BufReader::new(file).split(b'\n');
                let first = lines.next().transpose()?;
                let current = first.as_deref() == Some(HEADER.as_bytes());
                // A file of the first format (`<timestamp> <type> <requestId>`, not
                // escaped) is read as it was written, then rewritten in this one.
                let legacy = first.filter(|_| !current).into_iter().map(Ok);
                for line in legacy.chain(lines) {
                    let line = line?;
                    let parsed = if current {
                        parse_line(&line)
                    } else {
                        parse_legacy(&line)
                    };
                    // A line cut short by a crash is skipped.
                    if let Some((id, recorded)) = parsed {
                        if recorded >= oldest {
                            seen.insert(id, recorded);
                        }
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        // Rewrite what is kept into a new file, then put it in place.
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".tmp");
        let fresh = path.with_file_name(name);
        {
            let mut out = File::create(&fresh)?;
            let mut ids: Vec<_> = seen.iter().collect();
            ids.sort_by(|a, b| a.1.cmp(b.1).then_with(|| a.0.cmp(b.0)));
            let mut text = format!("{HEADER}\n");
            for (id, recorded) in ids {
                text.push_str(&line_of(id, *recorded));
            }
            out.write_all(text.as_bytes())?;
            out.sync_all()?;
        }
        std::fs::rename(&fresh, &path)?;
        let file = OpenOptions::new().append(true).open(&path)?;
        Ok(SeenFile {
            path,
            file,
            seen,
            unwritten: String::new(),
        })
    }

    /// True when this delivery id was not recorded yet.
    pub fn is_new(&self, id: &DeliveryId) -> bool {
        !self.seen.contains_key(id)
    }

    /// Records a processed notification: known to this process at once, on disk before
    /// it returns `Ok`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Storage`](crate::ErrorKind::Storage): the file cannot be written.
    /// The id is still recorded in memory (a re-delivery to this process is recognised:
    /// acknowledge it) and its line is written with the next record; a restart before
    /// then would process the notification again.
    pub fn record(&mut self, notification: &Notification) -> Result<(), crate::Error> {
        self.record_at(notification, now_millis())
    }

    pub(super) fn record_at(
        &mut self,
        notification: &Notification,
        now_ms: i64,
    ) -> Result<(), crate::Error> {
        let id = notification.delivery_id();
        self.unwritten.push_str(&line_of(&id, now_ms));
        self.seen.insert(id, now_ms);
        let written = self
            .file
            .write_all(self.unwritten.as_bytes())
            .and_then(|()| self.file.sync_data());
        written.map_err(|e| {
            crate::Error::storage(&self.path, "cannot write the processed-ids file", e)
        })?;
        self.unwritten.clear();
        Ok(())
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many ids are kept.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// True when no id is kept.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}

/// `text` with every byte outside `!`..`~`, and `%`, as `%XX`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if (b'!'..=b'~').contains(&b) && b != b'%' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The text [`escape`] wrote, or `None` for anything it never writes.
fn unescape(field: &[u8]) -> Option<String> {
    let mut out = Vec::with_capacity(field.len());
    let mut i = 0;
    while let Some(&b) = field.get(i) {
        if b == b'%' {
            let hex = std::str::from_utf8(field.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else if (b'!'..=b'~').contains(&b) {
            out.push(b);
            i += 1;
        } else {
            return None;
        }
    }
    String::from_utf8(out).ok()
}

fn line_of(id: &DeliveryId, recorded: i64) -> String {
    format!(
        "{recorded} {} {}\n",
        escape(&id.notification_type),
        escape(&id.request_id)
    )
}

fn parse_line(line: &[u8]) -> Option<(DeliveryId, i64)> {
    let mut parts = line.split(|b| *b == b' ');
    let recorded = std::str::from_utf8(parts.next()?).ok()?.parse().ok()?;
    let notification_type = unescape(parts.next()?)?;
    let request_id = unescape(parts.next()?)?;
    if parts.next().is_some() {
        return None;
    }
    Some((
        DeliveryId {
            request_id,
            notification_type,
        },
        recorded,
    ))
}

/// A line of the first format: `<timestamp> <type> <requestId>`, the requestId last and
/// as written (its timestamp, the notification's, is taken as when it was recorded).
fn parse_legacy(line: &[u8]) -> Option<(DeliveryId, i64)> {
    let line = std::str::from_utf8(line).ok()?;
    let mut parts = line.splitn(3, ' ');
    let timestamp = parts.next()?.parse().ok()?;
    let notification_type = parts.next()?.to_owned();
    let request_id = parts.next()?.to_owned();
    Some((
        DeliveryId {
            request_id,
            notification_type,
        },
        timestamp,
    ))
}

#[cfg(test)]
mod tests {
    use super::super::{signed_body_at, Verifier};
    use super::*;
    use crate::{PrivateKey, RawJson};

    const HOUR: i64 = 3_600_000;

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "baas-seen-{name}-{}-{}",
            std::process::id(),
            now_millis()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn n(kind: &str, id: &str, timestamp: i64) -> Notification {
        Notification {
            notification_type: kind.into(),
            request_id: id.into(),
            sender: Some("svc".into()),
            locale: None,
            timestamp: Some(timestamp),
            params: RawJson::default(),
        }
    }

    #[test]
    fn a_re_signed_re_delivery_after_an_outage_longer_than_the_window_is_not_new() {
        let dir = dir("outage");
        let path = dir.join("seen");
        let key = PrivateKey::new("k");
        let verifier = Verifier::new(key.clone(), "svc");
        let t0 = now_millis();
        let params = RawJson::from_string(r#"{"jobId":"J1"}"#.to_owned()).unwrap();
        let first = signed_body_at("0015", "NTF-1", "svc", "en_KE", &params, &key, t0).unwrap();
        {
            let mut seen = SeenFile::open_at(&path, DEFAULT_KEEP, t0).unwrap();
            let got = verifier.verify_at(&first, t0).unwrap();
            assert!(seen.is_new(&got.delivery_id()));
            seen.record_at(&got, t0).unwrap();
            // Not acknowledged: the receiver goes down here.
        }
        // Back after 3 days, three times the 24-hour window; the service re-signs the
        // delivery it never had an `ok` for.
        let back = t0 + 72 * HOUR;
        let again = signed_body_at("0015", "NTF-1", "svc", "en_KE", &params, &key, back).unwrap();
        assert!(
            verifier.verify_at(&first, back).is_err(),
            "the old one is stale"
        );
        let got = verifier
            .verify_at(&again, back)
            .expect("fresh by its timestamp");
        let seen = SeenFile::open_at(&path, DEFAULT_KEEP, back).unwrap();
        assert!(!seen.is_new(&got.delivery_id()), "processed twice");
        // Kept for `keep` after it was recorded, then dropped.
        let later = t0 + i64::try_from(DEFAULT_KEEP.as_millis()).unwrap() + 1;
        assert!(SeenFile::open_at(&path, DEFAULT_KEEP, later)
            .unwrap()
            .is_new(&got.delivery_id()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn any_id_is_recorded_exactly_and_survives_a_restart() {
        let dir = dir("exact");
        let path = dir.join("seen");
        let now = now_millis();
        let ids = [
            "N 1 with spaces",
            "cr\rhere",
            "lf\nhere",
            "crlf\r\n",
            "ls\u{2028}here",
            "nel\u{0085}here",
            "vt\u{000B}ff\u{000C}fs\u{001C}gs\u{001D}rs\u{001E}",
            "ps\u{2029}tab\tnul\u{0}",
            "100%25 literal %",
            "é日本🎉",
            "",
            " ",
        ];
        let kinds = ["0028", "00 28", "0\n28"];
        {
            let mut seen = SeenFile::open_at(&path, DEFAULT_KEEP, now).unwrap();
            for id in ids {
                for kind in kinds {
                    seen.record_at(&n(kind, id, 0), now).unwrap();
                }
            }
            assert_eq!(seen.len(), ids.len() * kinds.len());
        }
        let text = std::fs::read(&path).unwrap();
        assert!(text.is_ascii());
        let seen = SeenFile::open_at(&path, DEFAULT_KEEP, now + HOUR).unwrap();
        assert_eq!(seen.len(), ids.len() * kinds.len());
        for id in ids {
            for kind in kinds {
                assert!(
                    !seen.is_new(&n(kind, id, 0).delivery_id()),
                    "{kind:?} {id:?}"
                );
            }
            assert!(seen.is_new(&n("0015", id, 0).delivery_id()));
        }
        // Nearby ids are not confused with them.
        for other in ["N", "N 1", "cr", "cr\n", "ls", "100% literal %", "lf here"] {
            assert!(seen.is_new(&n("0028", other, 0).delivery_id()), "{other:?}");
        }
        drop(seen);
        // A line cut short by a crash is skipped, the rest kept.
        let mut text = std::fs::read(&path).unwrap();
        text.extend_from_slice(b"12 00");
        std::fs::write(&path, &text).unwrap();
        let seen = SeenFile::open_at(&path, DEFAULT_KEEP, now).unwrap();
        assert_eq!(seen.len(), ids.len() * kinds.len());
        assert_eq!(seen.path(), path);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A partner's function returning the SDK's error takes `?` on a `SeenFile` (it
    /// was a `std::io::Error`: E0277), and the error names the file.
    #[test]
    fn errors_are_the_sdks_own_and_name_the_file() {
        fn partner(path: &Path) -> Result<usize, crate::Error> {
            let seen = SeenFile::open(path, DEFAULT_KEEP)?;
            Ok(seen.len())
        }
        let dir = dir("error");
        let not_a_dir = dir.join("plain-file");
        std::fs::write(&not_a_dir, "x").unwrap();
        let path = not_a_dir.join("seen");
        let err = partner(&path).unwrap_err();
        let crate::ErrorKind::Storage {
            path: named,
            source,
            ..
        } = err.kind()
        else {
            panic!("not a storage error: {err:?}");
        };
        assert_eq!(named, &path);
        assert_ne!(source.kind(), std::io::ErrorKind::Other, "{source}");
        let text = err.to_string();
        assert!(
            text.contains("processed-ids file") && text.contains(&*path.to_string_lossy()),
            "{text}"
        );
        assert!(std::error::Error::source(&err).is_some());
        assert_eq!(err.outcome(), crate::Outcome::NotSent);
        assert!(!err.is_retryable());
        assert_eq!(partner(&dir.join("seen")).unwrap(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_of_the_first_format_is_read_and_rewritten() {
        let dir = dir("legacy");
        let path = dir.join("seen");
        let now = now_millis();
        std::fs::write(
            &path,
            format!(
                "{now} 0028 N 1 with spaces\n{} 0015 OLD\n",
                now - 40 * 24 * HOUR
            ),
        )
        .unwrap();
        let seen = SeenFile::open_at(&path, DEFAULT_KEEP, now).unwrap();
        assert!(!seen.is_new(&n("0028", "N 1 with spaces", 0).delivery_id()));
        assert!(seen.is_new(&n("0015", "OLD", 0).delivery_id()));
        drop(seen);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(HEADER), "{text}");
        assert!(text.contains(" 0028 N%201%20with%20spaces\n"), "{text}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `tests/data/seen-file.json`: the file the Python and TypeScript stores read and
    /// write too, byte for byte.
    #[test]
    fn the_shared_file_reads_and_writes_the_same_in_every_language() {
        let shared: serde_json::Value =
            serde_json::from_str(include_str!("../../../tests/data/seen-file.json")).unwrap();
        let recorded = shared["recorded_ms"].as_i64().unwrap();
        let text = shared["file"].as_str().unwrap();
        let ids: Vec<(String, String)> = shared["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|pair| {
                (
                    pair[0].as_str().unwrap().to_owned(),
                    pair[1].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let dir = dir("shared");
        let read = dir.join("read");
        std::fs::write(&read, text).unwrap();
        let seen = SeenFile::open_at(&read, DEFAULT_KEEP, recorded + HOUR).unwrap();
        assert_eq!(seen.len(), ids.len());
        for (kind, id) in &ids {
            assert!(
                !seen.is_new(&n(kind, id, 0).delivery_id()),
                "{kind:?} {id:?}"
            );
        }
        let written = dir.join("written");
        let mut mine = SeenFile::open_at(&written, DEFAULT_KEEP, recorded).unwrap();
        for (kind, id) in &ids {
            mine.record_at(&n(kind, id, 0), recorded).unwrap();
        }
        assert_eq!(std::fs::read_to_string(&written).unwrap(), text);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn escaping_round_trips_and_refuses_what_it_never_writes() {
        for text in ["", "a b", "%", "%25", "\u{2028}", "🎉", "a\u{0}b"] {
            assert_eq!(unescape(escape(text).as_bytes()).as_deref(), Some(text));
        }
        for bad in [&b"%"[..], b"%4", b"%GG", b"a b", b"%FF", b"\xc3\xa9"] {
            assert_eq!(unescape(bad), None, "{bad:?}");
        }
    }
}
