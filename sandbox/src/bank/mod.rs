//! The sandbox's in-memory bank: accounts, the ledger, applications waiting for an OTP,
//! transactions and the records of every operation. No I/O here; the HTTP layer
//! (`server`) calls [`Bank::handle`] under one lock, so every operation is atomic.
//!
//! Money is `rust_decimal::Decimal` (the type `baas_runtime::Amount` wraps), parsed from
//! the literal text of the request and written back as text; never `f64`.

use std::collections::BTreeMap;

use baas_runtime::Amount;
use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{codes, ApiError};

pub(crate) mod interned;
mod records;
mod tracked;

pub use tracked::Tracked;

/// Calls `$then!` with the name of every [`Tracked`] map of [`Bank`] (one list for
/// the state file's tables, its writes and reads, and [`Bank::forget_changes`]).
macro_rules! tracked_maps {
    ($then:ident) => {
        $then!(
            accounts,
            short_codes,
            applications,
            txs,
            payments,
            bulks,
            bills,
            swifts,
            cnys,
            fxs,
            reversals,
            jobs
        )
    };
}
pub(crate) use tracked_maps;

pub use records::{
    Bill, Cny, Fx, Outgoing, Payment, PersonalApplicant, Reversal, SmeApplicant, Swift,
};

/// This bank's own code (public-facts.md **\[one peer, live\]**): a transfer to it is
/// an internal transfer.
pub const INTERNAL_BANK_CODE: &str = "46";

/// Transaction statuses (public-facts.md, **\[live\]**).
pub mod tx_status {
    /// Submitted, waiting for the OTP.
    pub const SUBMITTED: i64 = 1;
    /// Processing.
    pub const PROCESSING: i64 = 2;
    /// Failed.
    pub const FAILED: i64 = 4;
    /// Succeeded.
    pub const SUCCEEDED: i64 = 8;
}

/// Days without a transaction after which an account becomes dormant (6 months).
pub const DORMANCY_DAYS: i64 = 183;
/// Days after completion during which a transaction may be reversed (1 month).
pub const REVERSAL_DAYS: i64 = 31;
/// Wrong OTPs accepted before the application is locked.
pub const MAX_OTP_ATTEMPTS: u32 = 5;
/// Largest page size (public-facts.md: above 50 the service answers 15002).
pub const MAX_PAGE_SIZE: i64 = 50;
/// Decimal places of the minor unit of every currency the sandbox holds. The document
/// shows every balance "with 2 decimal places", so an amount finer than 0.01 could not
/// be shown exactly: requests with one are refused (`12001`) and the ledger only ever
/// holds whole minor units.
pub const MINOR_UNIT_PLACES: u32 = 2;
/// Milliseconds in a day.
pub const DAY_MS: i64 = 86_400_000;

/// The OTP of an application in the sandbox: the last 6 decimal digits of the first
/// 8 bytes (big-endian) of SHA-256 of `"baas-sandbox-otp:" + businessId`.
///
/// A documented rule, so a test or a partner can compute it without a phone.
pub fn otp_for(business_id: &str) -> String {
    let digest = Sha256::digest(format!("baas-sandbox-otp:{business_id}").as_bytes());
    let mut first = [0u8; 8];
    for (dst, src) in first.iter_mut().zip(digest.iter()) {
        *dst = *src;
    }
    format!("{:06}", u64::from_be_bytes(first) % 1_000_000)
}

/// An amount with exactly `places` decimals (rounded half away from zero), as the
/// document shows money: `12.3` is written `"12.30"` with 2 places.
pub fn money(value: Decimal, places: u32) -> Amount {
    let mut v = value.round_dp_with_strategy(places, RoundingStrategy::MidpointAwayFromZero);
    v.rescale(places);
    Amount::from(v)
}

/// Text of an amount with exactly `places` decimals (see [`money`]).
pub fn money_text(value: Decimal, places: u32) -> String {
    money(value, places).to_string()
}

/// A bank account (customer or system).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Account {
    /// Account number.
    pub id: String,
    /// Display name.
    pub name: String,
    /// ISO currency code.
    pub currency: String,
    /// Account type code (C001, C002, B001, ...).
    pub account_type: String,
    /// Short code, once applied for.
    pub short_code: Option<String>,
    /// 0 Normal, 1 Locked, 2 Closed.
    pub status: i64,
    /// Unix timestamp (seconds).
    pub create_time: i64,
    /// Balance.
    pub balance: Decimal,
    /// Dormant (no transactions for 6 months).
    pub dormant: bool,
    /// Frozen.
    pub frozen: bool,
    /// Restricted.
    pub restricted: bool,
    /// Owner's user id in the partner's system.
    pub user_id: String,
    /// For SME accounts: the parent business name (prefix of sub-account names).
    pub business_name: Option<String>,
    /// Last transaction (epoch ms), for dormancy.
    pub last_activity_ms: i64,
    /// System accounts (fees, outside world, FX position) are not visible to partners
    /// and may go negative.
    pub system: bool,
}

/// One leg of a money movement, always within one currency.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Posting {
    /// Debited account.
    pub from: String,
    /// Credited account.
    pub to: String,
    /// Amount, positive.
    pub amount: Decimal,
}

/// Transaction type codes (`txType`), the service's vocabulary (public-facts.md,
/// "Added 2026-11"; the list is open).
pub mod tx_type {
    /// Withdraw to mobile money **\[docs\]**.
    pub const MOBILE_MONEY_OUT: &str = "TTID0001";
    /// Transfer out **\[docs\]** (also the debit leg of an FX conversion: one peer
    /// reports `TTID0010` for foreign-currency exchange, a code that does not say which
    /// leg a row is, so the sandbox keeps transfer out and in for the two legs).
    pub const TRANSFER_OUT: &str = "TTID0002";
    /// Transfer in **\[docs\]** (also the credit leg of an FX conversion).
    pub const TRANSFER_IN: &str = "TTID0003";
    /// Paybill / till payment **\[one peer\]**.
    pub const PAYBILL_TILL: &str = "TTID0005";
    /// Utility payment (bills and airtime) **\[one peer\]**.
    pub const UTILITY: &str = "TTID0006";
    /// Foreign-currency transfer out (SWIFT) **\[one peer\]**.
    pub const FOREIGN_TRANSFER_OUT: &str = "TTID0009";
    /// Reversal **\[docs\]**.
    pub const REVERSAL: &str = "TTID0011";
    /// CNY transfer **\[one peer\]**.
    pub const CNY_TRANSFER: &str = "TTID0027";
}

/// The other side of a transaction.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Oppo {
    /// Account, short code, mobile number or bill number.
    pub account_id: String,
    /// Name, when known (`oppoAccountName`).
    pub name: String,
    /// Bank code (`oppoBankCode`), when known.
    pub bank_code: String,
    /// `paymentChannel` where the value is known (`INTERNAL_TRANSFER` **\[live\]**,
    /// `SWIFT` from the document); absent otherwise.
    #[serde(deserialize_with = "interned::channel")]
    pub channel: Option<interned::Constant>,
    /// The money leaves the bank: the row carries an `externalTxId`.
    pub external: bool,
}

/// A transaction record (what getTransList and getTransResult return).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Tx {
    /// Transaction id.
    pub id: String,
    /// Account the record belongs to.
    pub account_id: String,
    /// Type code (see [`tx_type`]).
    #[serde(deserialize_with = "interned::tx_type")]
    pub tx_type: interned::Constant,
    /// Money came in (transfer in, reversal) rather than went out.
    pub credit: bool,
    /// Amount (without fee).
    pub amount: Decimal,
    /// Fee charged with it.
    pub fee: Decimal,
    /// Currency.
    pub currency: String,
    /// Status (see [`tx_status`]).
    pub status: i64,
    /// Epoch ms.
    pub create_time: i64,
    /// Epoch ms, once completed.
    pub complete_time: Option<i64>,
    /// The other side.
    pub oppo: Oppo,
    /// What happened, in words (`extInfo.transactionNarrative`).
    pub narrative: String,
    /// Remark.
    pub remark: String,
    /// Account that received the money (for reversals): internal payee or outside world.
    pub credited_account: Option<String>,
    /// Set once reversed.
    pub reversed_by: Option<String>,
}

/// What an application does once confirmed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Effect {
    /// Completes transaction `0`.
    Tx(String),
    /// Completes utility/airtime payment `0`.
    Payment(String),
    /// Completes SWIFT application `0`.
    Swift(String),
    /// Completes CNY application `0` (notification 0028).
    Cny(String),
    /// Completes FX application `0` (notification 0026).
    Fx(String),
    /// Reactivates dormant account `0`.
    Activate(String),
    /// Credits a transfer's payee: writes the incoming record for transaction `0`.
    IncomingTx(String),
}

/// State of an application.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AppState {
    /// Waiting for OTP confirmation.
    Pending,
    /// Confirmed and executed.
    Confirmed,
    /// Cancelled before confirmation.
    Cancelled,
    /// Confirmation found the money missing.
    Failed,
}

/// An operation waiting for `sendOtp` + `confirmOperation`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Application {
    /// businessId used for the OTP.
    pub id: String,
    /// Money to move on confirmation.
    pub postings: Vec<Posting>,
    /// Records to complete on confirmation.
    pub effects: Vec<Effect>,
    /// For a group: the member ids.
    pub members: Vec<String>,
    /// State.
    pub state: AppState,
    /// Group this application was merged into.
    pub group: Option<String>,
    /// An OTP was sent.
    pub otp_sent: bool,
    /// Wrong OTPs so far.
    pub wrong_attempts: u32,
    /// Operation name (for messages).
    #[serde(deserialize_with = "interned::operation")]
    pub operation: interned::Constant,
}

/// The whole in-memory bank.
///
/// What requests change is in [`Tracked`] maps (each remembers the keys changed since
/// the last write to a state file), the `journal` (appended to) and the id `counter`;
/// the onboarding applicants, paybills and tills are seed data no request changes.
#[derive(Debug, Default)]
pub struct Bank {
    pub(crate) accounts: Tracked<String, Account>,
    pub(crate) short_codes: Tracked<String, String>,
    pub(crate) applications: Tracked<String, Application>,
    pub(crate) txs: Tracked<String, Tx>,
    pub(crate) payments: Tracked<String, Payment>,
    pub(crate) bulks: Tracked<String, Vec<String>>,
    pub(crate) bills: Tracked<(i64, String), Bill>,
    pub(crate) swifts: Tracked<String, Swift>,
    pub(crate) cnys: Tracked<String, Cny>,
    pub(crate) fxs: Tracked<String, Fx>,
    pub(crate) reversals: Tracked<String, Reversal>,
    pub(crate) jobs: Tracked<String, ()>,
    pub(crate) personal: Vec<PersonalApplicant>,
    pub(crate) sme: Vec<SmeApplicant>,
    pub(crate) paybills: BTreeMap<String, String>,
    pub(crate) tills: BTreeMap<String, String>,
    pub(crate) outbox: Vec<Outgoing>,
    pub(crate) counter: u64,
    /// Every balance change since the seed, in the order applied: a figure reported
    /// for a past moment (a day's closing balance) is read back from it.
    pub(crate) journal: Vec<Change>,
}

/// One balance change of the ledger.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Change {
    /// When it was applied, epoch ms.
    pub at_ms: i64,
    /// The account.
    pub account_id: String,
    /// The change of its balance (negative for a debit).
    pub amount: Decimal,
}

/// Where fees go, per currency.
pub fn fees_account(currency: &str) -> String {
    format!("SYS-FEES-{currency}")
}
/// Where external payouts go (and reversals of them come from), per currency.
pub fn outside_account(currency: &str) -> String {
    format!("SYS-OUTSIDE-{currency}")
}
/// The bank's FX position, per currency.
pub fn fx_account(currency: &str) -> String {
    format!("SYS-FX-{currency}")
}

/// Currencies the sandbox keeps system accounts for.
pub const CURRENCIES: [&str; 8] = ["KES", "USD", "EUR", "GBP", "TZS", "UGX", "RWF", "CNY"];

impl Bank {
    /// A fresh id: `prefix` + 10 digits, unique within this bank. Application ids
    /// share one namespace with partner-chosen requestIds (the businessId of an
    /// activation or email request), so an id a partner already took is skipped.
    pub(crate) fn next_id(&mut self, prefix: &str) -> String {
        // At most `applications.len()` ids can be taken: the loop ends by then.
        for _ in 0..=self.applications.len() {
            self.counter = self.counter.saturating_add(1);
            let id = format!("{prefix}{:010}", self.counter);
            if !self.applications.contains_key(&id) {
                return id;
            }
        }
        self.counter = self.counter.saturating_add(1);
        format!("{prefix}{:010}", self.counter)
    }

    /// Adds an account (seed helper).
    pub(crate) fn add_account(&mut self, account: Account) {
        if let Some(code) = &account.short_code {
            self.short_codes.insert(code.clone(), account.id.clone());
        }
        self.accounts.insert(account.id.clone(), account);
    }

    /// A customer (non-system) account, or 13000.
    pub fn account(&self, id: &str) -> Result<&Account, ApiError> {
        match self.accounts.get(id) {
            Some(a) if !a.system => Ok(a),
            _ => Err(ApiError::no_account(id)),
        }
    }

    /// A customer account usable for a debit: exists, not frozen, not dormant, normal.
    pub fn debit_account(&self, id: &str) -> Result<&Account, ApiError> {
        let a = self.account(id)?;
        if a.frozen {
            return Err(ApiError::new(
                codes::NO_PERMISSION,
                format!("account {id} is frozen"),
            ));
        }
        if a.dormant {
            return Err(ApiError::new(
                codes::NO_PERMISSION,
                format!("account {id} is dormant; activate it first (/account/activateAccount)"),
            ));
        }
        if a.status != 0 {
            return Err(ApiError::new(
                codes::NO_PERMISSION,
                format!("account {id} is not in Normal status"),
            ));
        }
        Ok(a)
    }

    /// A customer account that may be credited (the payee of an internal transfer,
    /// the target of an FX conversion), `field` naming it in errors.
    ///
    /// The document has `/account/validateAccount` report `freezeStatus` (and
    /// `restrictStatus`) "before a transfer", so that a payer checks the payee: a
    /// frozen payee is refused (`11000`, as for a frozen payer), at application. A
    /// dormant payee is accepted: validateAccount does not report dormancy, dormancy
    /// only means "no transactions for 6 consecutive months", and the document's only
    /// way out of it is `/account/activateAccount` (so the account stays dormant after
    /// the credit). A closed account (`accountStatus` 2) takes nothing.
    pub fn credit_account(&self, id: &str, field: &str) -> Result<&Account, ApiError> {
        let a = self.account(id)?;
        if a.frozen {
            return Err(ApiError::new(
                codes::NO_PERMISSION,
                format!(
                    "{field}: account {id} is frozen (freezeStatus 1) and cannot receive money; check a payee with /account/validateAccount first"
                ),
            ));
        }
        if a.status == 2 {
            return Err(ApiError::new(
                codes::NO_PERMISSION,
                format!("{field}: account {id} is closed"),
            ));
        }
        Ok(a)
    }

    /// Sum of all balances (customer and system) per currency. Constant across every
    /// operation: money only moves between accounts of one currency.
    pub fn totals(&self) -> BTreeMap<String, Decimal> {
        let mut out: BTreeMap<String, Decimal> = BTreeMap::new();
        for a in self.accounts.values() {
            let e = out.entry(a.currency.clone()).or_default();
            *e += a.balance;
        }
        out
    }

    /// Balance of any account (system accounts included), if it exists.
    pub fn balance(&self, id: &str) -> Option<Decimal> {
        self.accounts.get(id).map(|a| a.balance)
    }

    /// Checks that `postings` can be applied: every account exists, both sides of each
    /// posting share a currency, amounts are positive, and no customer account would go
    /// below zero (the sum over all postings is checked, not each one alone).
    pub fn check_postings(&self, postings: &[Posting]) -> Result<(), ApiError> {
        self.balances_after(postings).map(|_| ())
    }

    /// The balance of every account `postings` touch once they are applied, after the
    /// checks of [`Bank::check_postings`]. All arithmetic is checked: an amount near the
    /// limit of the decimal type (a hostile request) is refused, never a panic.
    fn balances_after(&self, postings: &[Posting]) -> Result<BTreeMap<String, Decimal>, ApiError> {
        let too_large =
            || ApiError::invalid("amount", "is larger than any amount the sandbox can hold");
        let mut net: BTreeMap<&str, Decimal> = BTreeMap::new();
        for p in postings {
            let from = self
                .accounts
                .get(&p.from)
                .ok_or_else(|| ApiError::no_account(&p.from))?;
            let to = self
                .accounts
                .get(&p.to)
                .ok_or_else(|| ApiError::no_account(&p.to))?;
            if from.currency != to.currency {
                return Err(ApiError::new(
                    codes::SYSTEM,
                    format!(
                        "posting between {} ({}) and {} ({})",
                        from.id, from.currency, to.id, to.currency
                    ),
                ));
            }
            if p.amount < Decimal::ZERO {
                return Err(ApiError::new(codes::SYSTEM, "negative posting"));
            }
            let debit = net.entry(p.from.as_str()).or_default();
            *debit = debit.checked_sub(p.amount).ok_or_else(too_large)?;
            let credit = net.entry(p.to.as_str()).or_default();
            *credit = credit.checked_add(p.amount).ok_or_else(too_large)?;
        }
        // Debits first: an amount nobody holds is "insufficient balance", whatever the
        // order of the account ids.
        let mut out = BTreeMap::new();
        for (id, delta) in net.iter().filter(|(_, d)| **d < Decimal::ZERO) {
            let a = self
                .accounts
                .get(*id)
                .ok_or_else(|| ApiError::no_account(id))?;
            match a.balance.checked_add(*delta) {
                Some(after) if a.system || after >= Decimal::ZERO => {
                    out.insert((*id).to_owned(), after);
                }
                _ => {
                    return Err(ApiError::new(
                        codes::INSUFFICIENT_BALANCE,
                        format!(
                            "insufficient balance in {id}: balance {}, needed {}",
                            money_text(a.balance, 2),
                            money_text(-*delta, 2)
                        ),
                    ))
                }
            }
        }
        for (id, delta) in net.iter().filter(|(_, d)| **d >= Decimal::ZERO) {
            let a = self
                .accounts
                .get(*id)
                .ok_or_else(|| ApiError::no_account(id))?;
            let after = a.balance.checked_add(*delta).ok_or_else(too_large)?;
            out.insert((*id).to_owned(), after);
        }
        Ok(out)
    }

    /// Applies `postings` atomically after [`Bank::check_postings`].
    pub fn apply_postings(&mut self, postings: &[Posting], now_ms: i64) -> Result<(), ApiError> {
        for (id, balance) in self.balances_after(postings)? {
            if let Some(a) = self.accounts.get_mut(&id) {
                let amount = balance - a.balance;
                a.balance = balance;
                a.last_activity_ms = now_ms;
                self.journal.push(Change {
                    at_ms: now_ms,
                    account_id: id,
                    amount,
                });
            }
        }
        Ok(())
    }

    /// What account `id` held just before `at_ms` (epoch ms): its balance without the
    /// changes applied since. A seeded balance was held since the account was created.
    pub fn balance_at(&self, id: &str, at_ms: i64) -> Decimal {
        let now = self.accounts.get(id).map_or(Decimal::ZERO, |a| a.balance);
        self.journal
            .iter()
            .filter(|c| c.account_id == id && c.at_ms >= at_ms)
            .fold(now, |held, c| held - c.amount)
    }

    /// Marks accounts dormant after [`DORMANCY_DAYS`] without a transaction (the
    /// automatic transition of the spec), evaluated whenever the bank is used.
    pub fn refresh_dormancy(&mut self, now_ms: i64) {
        let asleep: Vec<String> = self
            .accounts
            .values()
            .filter(|a| {
                !a.system && !a.dormant && now_ms - a.last_activity_ms > DORMANCY_DAYS * DAY_MS
            })
            .map(|a| a.id.clone())
            .collect();
        for id in asleep {
            if let Some(a) = self.accounts.get_mut(&id) {
                a.dormant = true;
            }
        }
    }

    /// Forgets which records changed (without a state file nothing reads it).
    pub(crate) fn forget_changes(&mut self) {
        macro_rules! forget {
            ($($map:ident),*) => {$( self.$map.take_changed(); )*};
        }
        tracked_maps!(forget);
    }

    /// Marks every record changed (a new state file writes them all).
    pub(crate) fn mark_all_changed(&mut self) {
        macro_rules! mark {
            ($($map:ident),*) => {$( self.$map.mark_all_changed(); )*};
        }
        tracked_maps!(mark);
    }

    /// Takes the notifications produced since the last call.
    pub fn take_outbox(&mut self) -> Vec<Outgoing> {
        std::mem::take(&mut self.outbox)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn otp_rule_is_stable_and_six_digits() {
        let a = otp_for("TX0000000001");
        assert_eq!(a.len(), 6);
        assert!(a.chars().all(|c| c.is_ascii_digit()));
        assert_eq!(a, otp_for("TX0000000001"));
        assert_ne!(a, otp_for("TX0000000002"));
    }

    #[test]
    fn money_text_keeps_places() {
        assert_eq!(money_text(Decimal::new(123, 1), 2), "12.30");
        assert_eq!(money_text(Decimal::new(5, 3), 2), "0.01");
        assert_eq!(money_text(Decimal::new(7, 0), 4), "7.0000");
    }
}
