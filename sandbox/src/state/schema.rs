//! The state file's schema: what identifies it, creating it, and opening it for this
//! process alone.
//!
//! Tables (version 1): `meta` (key, integer value: `seed_ms`, `counter`,
//! `clock_offset_ms`, `opened_ms`); one table per kind of bank record (`accounts`,
//! `short_codes`, `applications`, `txs`, `payments`, `bulks`, `bills`, `swifts`, `cnys`,
//! `fxs`, `reversals`, `jobs`), each row a key and the record as JSON; `ledger` (every
//! balance change, in order); `request_ids` (every requestId accepted, in order);
//! `notifications` (requestId, type, params, and `pending`, `acknowledged` or
//! `given_up`).

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, ErrorCode};

use super::StateError;

/// SQLite `application_id` of a baas-sandbox state file (`BaAS`).
pub const APPLICATION_ID: i64 = 0x4261_4153;
/// Schema version this sandbox writes and reads (SQLite `user_version`).
pub const SCHEMA_VERSION: i64 = 1;

/// The tables of bank records, one per [`crate::bank::Tracked`] map of the bank.
macro_rules! names {
    ($($map:ident),*) => { [$(stringify!($map)),*] };
}
pub(super) const RECORD_TABLES: [&str; 12] = crate::bank::tracked_maps!(names);

/// What a file opened as SQLite holds.
pub(super) enum Found {
    /// Nothing (a new or empty file): to be created.
    Empty,
    /// A state file of this schema version.
    Ours,
}

/// Opens (or creates) the file. Nothing is written yet: a file that is not a state
/// file is left as it is.
pub(super) fn connect(path: &Path) -> Result<Connection, StateError> {
    create_private(path)?;
    let conn = Connection::open(path).map_err(|source| StateError::Open {
        path: path.to_owned(),
        source,
    })?;
    conn.busy_timeout(Duration::from_millis(250))
        .map_err(|source| StateError::Open {
            path: path.to_owned(),
            source,
        })?;
    // Before the first read: this process alone uses the file, so the WAL's index is
    // kept in memory (no FILE-shm), and a second sandbox is refused as busy. A read
    // takes a shared lock only: a file that is not a state file is still not changed.
    conn.query_row("PRAGMA locking_mode = EXCLUSIVE", [], |_| Ok(()))
        .map_err(|source| classify(path, "opening it", source))?;
    Ok(conn)
}

/// Creates `path` empty, readable and writable by its owner only (0600), when it does
/// not exist: it holds every OTP-confirmed movement and requestId, and SQLite creates
/// its `-wal` file with the same mode. An existing file keeps its mode.
fn create_private(path: &Path) -> Result<(), StateError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(source) => Err(StateError::Create {
            path: path.to_owned(),
            source,
        }),
    }
}

/// Says what the file is, refusing anything but an empty database or a state file of
/// [`SCHEMA_VERSION`]; then turns on WAL and full synchronous commits.
pub(super) fn identify(conn: &Connection, path: &Path) -> Result<Found, StateError> {
    let read = |what: &str| -> Result<i64, StateError> {
        conn.query_row(&format!("PRAGMA {what}"), [], |r| r.get(0))
            .map_err(|source| classify(path, "reading the header", source))
    };
    let application_id = read("application_id")?;
    let version = read("user_version")?;
    // Counts schema changes: 0 when the file has never had a table.
    let schema_changes = read("schema_version")?;
    let found = match (application_id, version) {
        (APPLICATION_ID, SCHEMA_VERSION) => Found::Ours,
        (APPLICATION_ID, found) => {
            return Err(StateError::Version {
                path: path.to_owned(),
                found,
                expected: SCHEMA_VERSION,
            })
        }
        (0, 0) if schema_changes == 0 => Found::Empty,
        (other, version) => {
            return Err(StateError::NotOurs {
                path: path.to_owned(),
                what: format!("application_id {other:#x}, user_version {version}"),
            })
        }
    };
    let set = |pragma: &str, value: &str| -> Result<(), StateError> {
        conn.query_row(&format!("PRAGMA {pragma} = {value}"), [], |_| Ok(()))
            .map_err(|source| classify(path, "setting it up", source))
    };
    set("journal_mode", "WAL")?;
    conn.execute_batch("PRAGMA synchronous = FULL")
        .map_err(|source| classify(path, "setting it up", source))?;
    Ok(found)
}

/// Takes the file for this process (a write, which in exclusive locking mode keeps the
/// lock until the connection closes).
pub(super) fn claim(conn: &Connection, path: &Path) -> Result<(), StateError> {
    let now = baas_runtime::envelope::now_millis();
    super::set_meta(conn, "opened_ms", now).map_err(|source| classify(path, "opening it", source))
}

/// Creates the tables and marks the file (inside the caller's transaction).
pub(super) fn create(conn: &Connection) -> rusqlite::Result<()> {
    let mut sql = String::from(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
         CREATE TABLE ledger (seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL,
             account_id TEXT NOT NULL, amount TEXT NOT NULL);
         CREATE TABLE request_ids (request_id TEXT PRIMARY KEY);
         CREATE TABLE notifications (request_id TEXT PRIMARY KEY,
             notification_type TEXT NOT NULL, params TEXT NOT NULL,
             state TEXT NOT NULL CHECK (state IN ('pending', 'acknowledged', 'given_up')));
         CREATE INDEX notifications_pending ON notifications (state);\n",
    );
    for table in RECORD_TABLES {
        sql.push_str(&format!(
            "CREATE TABLE {table} (key TEXT PRIMARY KEY, record TEXT NOT NULL);\n"
        ));
    }
    sql.push_str(&format!(
        "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};"
    ));
    conn.execute_batch(&sql)
}

/// The error for `source`: not SQLite, busy, or an I/O error while `doing`.
pub(super) fn classify(path: &Path, doing: &'static str, source: rusqlite::Error) -> StateError {
    match source.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => StateError::NotSqlite {
            path: path.to_owned(),
        },
        _ => super::busy_or(path, doing, source),
    }
}
