//! State that survives restarts (`--state FILE`, [`crate::SandboxConfig::state`]): the
//! bank (accounts, the ledger, applications with their OTP attempts, transactions and
//! every other record), the requestIds seen and the notifications not yet delivered, in
//! one SQLite file (WAL mode, `synchronous=FULL`).
//!
//! Every request whose requestId was accepted is written in one transaction, committed
//! before its answer is sent: its requestId, every record it changed, its ledger lines,
//! the id counter and the notifications it produced. A sandbox killed at any moment
//! restarts with the state of the last answered request or a later one, never with part
//! of one. The file holds its schema version ([`SCHEMA_VERSION`], as SQLite's
//! `user_version`) and this crate's mark ([`APPLICATION_ID`], as `application_id`), so
//! another file is refused with an error saying what it is, never read as state.
//!
//! Not kept: the faults in force (test setup: give them again with `--scenario`), the
//! request log and the delivery attempts shown on the admin page, the callback URL and
//! the partner (from the command line). Kept besides the bank: the clock offset.

mod schema;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::bank::{tracked_maps, Bank, Change, Tracked};

pub use schema::{APPLICATION_ID, SCHEMA_VERSION};

/// Why a state file cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StateError {
    /// The file cannot be opened or created.
    #[error("state file {path}: cannot open it: {source}")]
    Open {
        /// The file.
        path: PathBuf,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// The file is not an SQLite database.
    #[error("state file {path}: not an SQLite database (a baas-sandbox state file is one; give a new path to start afresh)")]
    NotSqlite {
        /// The file.
        path: PathBuf,
    },
    /// An SQLite database of something else.
    #[error("state file {path}: an SQLite database, but not a baas-sandbox state file ({what}); give a new path to start afresh")]
    NotOurs {
        /// The file.
        path: PathBuf,
        /// What it has instead.
        what: String,
    },
    /// A state file of another schema version.
    #[error("state file {path}: schema version {found}, this sandbox reads version {expected}; use the sandbox that wrote it, or a new path to start afresh")]
    Version {
        /// The file.
        path: PathBuf,
        /// The file's version.
        found: i64,
        /// The version this sandbox reads.
        expected: i64,
    },
    /// Another process (a sandbox still running) holds the file.
    #[error("state file {path}: in use by another process (another sandbox on the same file?)")]
    Busy {
        /// The file.
        path: PathBuf,
    },
    /// A row that does not read back (a file edited by hand or damaged).
    #[error("state file {path}: {table} row {key}: {problem}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The table.
        table: &'static str,
        /// The row's key.
        key: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A new state file could not be created (owner-only: mode 0600).
    #[error("state file {path}: cannot create it: {source}")]
    Create {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// Reading or writing failed.
    #[error("state file {path}: {doing}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done.
        doing: &'static str,
        /// SQLite's error.
        source: rusqlite::Error,
    },
}

/// A notification waiting for its delivery to finish, as kept in the state file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedNotification {
    /// Its requestId (the same on every attempt and after a restart).
    pub request_id: String,
    /// Its type (`0028`).
    pub notification_type: String,
    /// Its `params`, as JSON text.
    pub params: String,
}

/// How a queued notification's delivery ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivered {
    /// The receiver answered `ok`.
    Acknowledged,
    /// Every attempt failed.
    GivenUp,
}

/// What a state file held when it was opened.
#[derive(Debug)]
pub struct Restored {
    /// The bank.
    pub bank: Bank,
    /// The requestIds seen, oldest first (at most the replay memory's size).
    pub request_ids: Vec<String>,
    /// Notifications whose delivery had not finished.
    pub queue: Vec<QueuedNotification>,
    /// The clock offset, ms.
    pub clock_offset_ms: i64,
    /// True when the file was created now (seeded), false when it was read.
    pub created: bool,
}

/// Every this many commits, requestIds older than the newest `replay_memory` are
/// deleted from the file (the sandbox no longer checks them, in memory either).
pub const PRUNE_EVERY: u64 = 1024;

/// An open state file, held exclusively by this process.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    /// Ledger lines of the bank's journal already in the file.
    ledger_written: usize,
    /// requestIds checked for replays (the newest); older ones are pruned.
    replay_memory: usize,
    /// Commits since the file was opened.
    commits: u64,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

/// A map key as the text of its row.
pub(crate) trait RowKey: Sized {
    fn to_text(&self) -> String;
    fn from_text(text: &str) -> Option<Self>;
}

impl RowKey for String {
    fn to_text(&self) -> String {
        self.clone()
    }
    fn from_text(text: &str) -> Option<String> {
        Some(text.to_owned())
    }
}

/// A bill's key (bill type, number) as `[type,"number"]`.
impl RowKey for (i64, String) {
    fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
    fn from_text(text: &str) -> Option<(i64, String)> {
        serde_json::from_str(text).ok()
    }
}

impl Store {
    /// Opens `path` (created and seeded with `Bank::seeded(now_ms)` when it does not
    /// exist or is an empty file), holding it until the store is dropped, and reads the
    /// state back. The last `replay_memory` requestIds are returned.
    pub fn open(
        path: &Path,
        now_ms: i64,
        replay_memory: usize,
    ) -> Result<(Store, Restored), StateError> {
        let conn = schema::connect(path)?;
        let mut store = Store {
            conn,
            path: path.to_owned(),
            ledger_written: 0,
            replay_memory,
            commits: 0,
        };
        match schema::identify(&store.conn, path)? {
            schema::Found::Empty => {
                let mut bank = Bank::seeded(now_ms);
                bank.mark_all_changed();
                store.create(&mut bank, now_ms)?;
                let restored = Restored {
                    bank,
                    request_ids: Vec::new(),
                    queue: Vec::new(),
                    clock_offset_ms: 0,
                    created: true,
                };
                Ok((store, restored))
            }
            schema::Found::Ours => {
                schema::claim(&store.conn, path)?;
                let restored = store.read(replay_memory)?;
                store.ledger_written = restored.bank.journal.len();
                Ok((store, restored))
            }
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The error of a failed read or write while `doing`.
    fn io(&self, doing: &'static str) -> impl Fn(rusqlite::Error) -> StateError + '_ {
        move |source| busy_or(&self.path, doing, source)
    }

    /// Creates the schema and writes the seeded bank, in one transaction.
    fn create(&mut self, bank: &mut Bank, now_ms: i64) -> Result<(), StateError> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Exclusive)
            .map_err(|e| busy_or(&path, "creating the schema", e))?;
        schema::create(&tx).map_err(|e| busy_or(&path, "creating the schema", e))?;
        set_meta(&tx, "seed_ms", now_ms).map_err(|e| busy_or(&path, "writing the seed", e))?;
        set_meta(&tx, "clock_offset_ms", 0).map_err(|e| busy_or(&path, "writing the seed", e))?;
        let written =
            write_bank(&tx, bank, 0).map_err(|e| busy_or(&path, "writing the seed", e))?;
        tx.commit()
            .map_err(|e| busy_or(&path, "writing the seed", e))?;
        self.ledger_written = written;
        Ok(())
    }

    /// Writes what one request changed, in one transaction: its requestId, the bank's
    /// changed records, new ledger lines and counter (when `bank` is given), and the
    /// notifications it produced.
    pub fn commit(
        &mut self,
        request_id: &str,
        bank: Option<&mut Bank>,
        queued: &[QueuedNotification],
    ) -> Result<(), StateError> {
        let path = self.path.clone();
        let fail = |e| busy_or(&path, "writing a request's changes", e);
        let tx = self.conn.transaction().map_err(fail)?;
        tx.execute(
            "INSERT OR IGNORE INTO request_ids (request_id) VALUES (?1)",
            params![request_id],
        )
        .map_err(fail)?;
        let mut written = self.ledger_written;
        if let Some(bank) = bank {
            written = write_bank(&tx, bank, self.ledger_written).map_err(fail)?;
        }
        for n in queued {
            tx.execute(
                "INSERT INTO notifications (request_id, notification_type, params, state) \
                 VALUES (?1, ?2, ?3, 'pending')",
                params![n.request_id, n.notification_type, n.params],
            )
            .map_err(fail)?;
        }
        if (self.commits + 1) % PRUNE_EVERY == 0 {
            let keep = i64::try_from(self.replay_memory).unwrap_or(i64::MAX);
            tx.execute(
                "DELETE FROM request_ids WHERE rowid <= (SELECT max(rowid) FROM request_ids) - ?1",
                params![keep],
            )
            .map_err(fail)?;
        }
        tx.commit().map_err(fail)?;
        self.ledger_written = written;
        self.commits += 1;
        Ok(())
    }

    /// Records how the delivery of notification `request_id` ended (it is not resent
    /// after a restart).
    pub fn delivered(&mut self, request_id: &str, how: Delivered) -> Result<(), StateError> {
        let state = match how {
            Delivered::Acknowledged => "acknowledged",
            Delivered::GivenUp => "given_up",
        };
        self.conn
            .execute(
                "UPDATE notifications SET state = ?2 WHERE request_id = ?1",
                params![request_id, state],
            )
            .map_err(self.io("recording a delivery"))?;
        Ok(())
    }

    /// Records the clock offset.
    pub fn set_clock_offset(&mut self, offset_ms: i64) -> Result<(), StateError> {
        set_meta(&self.conn, "clock_offset_ms", offset_ms)
            .map_err(self.io("recording the clock"))?;
        Ok(())
    }

    /// Reads the whole state back.
    fn read(&self, replay_memory: usize) -> Result<Restored, StateError> {
        let seed_ms = self.meta("seed_ms")?;
        let mut bank = Bank::seeded(seed_ms);
        macro_rules! load {
            ($($field:ident),*) => {$(
                bank.$field.replace(self.table(stringify!($field))?);
            )*};
        }
        tracked_maps!(load);
        bank.journal = self.ledger()?;
        bank.counter = u64::try_from(self.meta("counter")?).unwrap_or_default();
        Ok(Restored {
            bank,
            request_ids: self.request_ids(replay_memory)?,
            queue: self.queue()?,
            clock_offset_ms: self.meta("clock_offset_ms")?,
            created: false,
        })
    }

    fn meta(&self, key: &'static str) -> Result<i64, StateError> {
        let value: Option<i64> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .map_err(self.io("reading meta"))?;
        value.ok_or_else(|| self.corrupt("meta", key, "missing".into()))
    }

    fn corrupt(&self, table: &'static str, key: &str, problem: String) -> StateError {
        StateError::Corrupt {
            path: self.path.clone(),
            table,
            key: key.to_owned(),
            problem,
        }
    }

    fn table<K: RowKey + Ord, V: DeserializeOwned>(
        &self,
        table: &'static str,
    ) -> Result<BTreeMap<K, V>, StateError> {
        let sql = format!("SELECT key, record FROM {table}");
        let mut stmt = self
            .conn
            .prepare(&sql)
            .map_err(self.io("reading records"))?;
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .map_err(self.io("reading records"))?;
        let mut out = BTreeMap::new();
        for row in rows {
            let (key, record) = row.map_err(self.io("reading records"))?;
            let k = K::from_text(&key)
                .ok_or_else(|| self.corrupt(table, &key, "the key does not read".into()))?;
            let v = serde_json::from_str(&record)
                .map_err(|e| self.corrupt(table, &key, e.to_string()))?;
            out.insert(k, v);
        }
        Ok(out)
    }

    fn ledger(&self) -> Result<Vec<Change>, StateError> {
        let mut stmt = self
            .conn
            .prepare("SELECT seq, at_ms, account_id, amount FROM ledger ORDER BY seq")
            .map_err(self.io("reading the ledger"))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })
            .map_err(self.io("reading the ledger"))?;
        let mut out = Vec::new();
        for row in rows {
            let (seq, at_ms, account_id, amount) = row.map_err(self.io("reading the ledger"))?;
            let amount = amount
                .parse()
                .map_err(|e| self.corrupt("ledger", &seq.to_string(), format!("amount: {e}")))?;
            out.push(Change {
                at_ms,
                account_id,
                amount,
            });
        }
        Ok(out)
    }

    fn request_ids(&self, newest: usize) -> Result<Vec<String>, StateError> {
        let newest = i64::try_from(newest).unwrap_or(i64::MAX);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT request_id FROM (SELECT rowid, request_id FROM request_ids \
                 ORDER BY rowid DESC LIMIT ?1) ORDER BY rowid",
            )
            .map_err(self.io("reading requestIds"))?;
        let rows = stmt
            .query_map([newest], |r| r.get::<_, String>(0))
            .map_err(self.io("reading requestIds"))?;
        rows.collect::<Result<_, _>>()
            .map_err(self.io("reading requestIds"))
    }

    fn queue(&self) -> Result<Vec<QueuedNotification>, StateError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT request_id, notification_type, params FROM notifications \
                 WHERE state = 'pending' ORDER BY rowid",
            )
            .map_err(self.io("reading notifications"))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(QueuedNotification {
                    request_id: r.get(0)?,
                    notification_type: r.get(1)?,
                    params: r.get(2)?,
                })
            })
            .map_err(self.io("reading notifications"))?;
        rows.collect::<Result<_, _>>()
            .map_err(self.io("reading notifications"))
    }
}

fn busy_or(path: &Path, doing: &'static str, source: rusqlite::Error) -> StateError {
    match source.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
            StateError::Busy {
                path: path.to_owned(),
            }
        }
        _ => StateError::Io {
            path: path.to_owned(),
            doing,
            source,
        },
    }
}

fn set_meta(conn: &Connection, key: &str, value: i64) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?1, ?2) \
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        params![key, value],
    )?;
    Ok(())
}

/// Writes the bank's changed records, the ledger lines after the first
/// `ledger_written` and the counter; returns the ledger lines now written.
fn write_bank(
    tx: &Transaction<'_>,
    bank: &mut Bank,
    ledger_written: usize,
) -> rusqlite::Result<usize> {
    macro_rules! save {
        ($($field:ident),*) => {$(
            write_table(tx, stringify!($field), &mut bank.$field)?;
        )*};
    }
    tracked_maps!(save);
    let mut stmt =
        tx.prepare_cached("INSERT INTO ledger (at_ms, account_id, amount) VALUES (?1, ?2, ?3)")?;
    for c in bank.journal.iter().skip(ledger_written) {
        stmt.execute(params![c.at_ms, c.account_id, c.amount.to_string()])?;
    }
    set_meta(
        tx,
        "counter",
        i64::try_from(bank.counter).unwrap_or(i64::MAX),
    )?;
    Ok(bank.journal.len())
}

fn write_table<K: RowKey + Ord + Clone, V: Serialize>(
    tx: &Transaction<'_>,
    table: &str,
    map: &mut Tracked<K, V>,
) -> rusqlite::Result<()> {
    for key in map.take_changed() {
        let text = key.to_text();
        match map.get(&key) {
            Some(value) => {
                let record = serde_json::to_string(value)
                    .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
                let sql = format!(
                    "INSERT INTO {table} (key, record) VALUES (?1, ?2) \
                     ON CONFLICT (key) DO UPDATE SET record = excluded.record"
                );
                tx.prepare_cached(&sql)?.execute(params![text, record])?;
            }
            None => {
                let sql = format!("DELETE FROM {table} WHERE key = ?1");
                tx.prepare_cached(&sql)?.execute(params![text])?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
