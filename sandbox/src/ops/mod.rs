//! Every endpoint of the service, on the in-memory [`Bank`]. Requests arrive decoded and
//! validated as the generated request types (`baas_client::dispatch`, see `server`), one
//! module per spec group; the checks here are the ones only the service can make
//! (existence, balances, lists, windows, values it does not know).

use baas_client::dispatch::Request;
use baas_runtime::Amount;
use rust_decimal::Decimal;
use serde_json::Value;

use crate::bank::{
    fees_account, tx_status, AppState, Application, Bank, Effect, Oppo, Posting, Tx,
    INTERNAL_BANK_CODE, MAX_PAGE_SIZE, MINOR_UNIT_PLACES,
};
use crate::error::{codes, ApiError};

mod account;
mod cny;
mod fx;
mod onboarding;
mod otp;
mod reversal;
mod transfers;
mod user;
mod utility;
mod wire;

/// What a bank code reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BankKind {
    /// This bank: an internal transfer.
    Internal,
    /// A mobile money operator.
    MobileMoney,
    /// Another bank.
    Bank,
}

/// Bank codes the sandbox knows (`/staticData/getBankCodes`, `data.bankCodeList`):
/// code, name, kind. The codes are those seen live (public-facts.md: `46` is this
/// bank's own code **\[one peer, live\]**; `M-PESA`, `68`, `01` **\[one peer\]**); the
/// names and the item fields are the sandbox's own (not public).
pub const BANK_CODES: [(&str, &str, BankKind); 4] = [
    (INTERNAL_BANK_CODE, "This bank", BankKind::Internal),
    ("M-PESA", "M-PESA", BankKind::MobileMoney),
    ("68", "Bank 68", BankKind::Bank),
    ("01", "Bank 01", BankKind::Bank),
];

/// The word a peer tried for this bank; the service answers it with `10000`
/// (public-facts.md **\[one peer, live\]**).
pub const REFUSED_BANK_WORD: &str = "CHOICE";

/// The kind of `code`, or the service's answer to an unknown one.
fn bank_kind(field: &str, code: &str) -> Result<BankKind, ApiError> {
    if let Some((_, _, kind)) = BANK_CODES.iter().find(|(c, _, _)| *c == code) {
        return Ok(*kind);
    }
    if code == REFUSED_BANK_WORD {
        return Err(ApiError::new(
            codes::SYSTEM,
            format!(
                "{field}: `{code}` is not a bank code; this bank's code is {INTERNAL_BANK_CODE}"
            ),
        ));
    }
    Err(ApiError::new(
        codes::NO_BANK_CODE,
        format!("{field}: bank code does not exist: {code}"),
    ))
}

/// CNY Express banks (code, name).
pub const CNY_BANKS: [(&str, &str); 3] = [
    ("ICBC", "Industrial and Commercial Bank of China"),
    ("BOC", "Bank of China"),
    ("CCB", "China Construction Bank"),
];

/// Nationalities supported for individual CNY beneficiaries.
pub const CNY_NATIONALITIES: [&str; 4] = ["CN", "HK", "MO", "KE"];

/// KES value of one unit of each currency (the sandbox's fixed rate table).
pub fn kes_per_unit(currency: &str) -> Option<Decimal> {
    Some(match currency {
        "KES" => Decimal::ONE,
        "USD" => Decimal::new(12_950, 2),
        "EUR" => Decimal::new(14_025, 2),
        "GBP" => Decimal::new(16_380, 2),
        "CNY" => Decimal::new(1_790, 2),
        "TZS" => Decimal::new(5, 2),
        "UGX" => Decimal::new(35, 3),
        "RWF" => Decimal::new(98, 3),
        _ => return None,
    })
}

/// Units of `to` for one unit of `from`, 6 decimals.
pub fn rate(from: &str, to: &str) -> Option<Decimal> {
    let f = kes_per_unit(from)?;
    let t = kes_per_unit(to)?;
    f.checked_div(t).map(|r| r.round_dp(6))
}

/// Fee of a small or business transfer: nothing inside the sandbox bank, 0.5% of the
/// amount (2 decimals) to anyone else.
pub fn transfer_fee(bank_code: &str, amount: Decimal) -> Decimal {
    if bank_code == INTERNAL_BANK_CODE {
        Decimal::ZERO
    } else {
        (amount * Decimal::new(5, 3)).round_dp(2)
    }
}

/// A required amount of money (`field` its wire name): greater than 0 and exact to the
/// minor unit.
fn positive(field: &str, amount: &Amount) -> Result<Decimal, ApiError> {
    let v = minor_unit(field, amount.as_decimal())?;
    if v <= Decimal::ZERO {
        return Err(ApiError::invalid(field, "must be greater than 0"));
    }
    Ok(v)
}

/// An optional amount of money: exact to the minor unit when given.
fn opt_money(field: &str, amount: Option<&Amount>) -> Result<Option<Decimal>, ApiError> {
    amount
        .map(|a| minor_unit(field, a.as_decimal()))
        .transpose()
}

/// An optional text as the service reads it: absent when not sent or sent empty.
fn given(text: &Option<String>) -> Option<&str> {
    text.as_deref().filter(|t| !t.is_empty())
}

/// A document that was sent and is not empty (`""` on the wire, as an empty string field,
/// counts as not given). Its Base64 was decoded strictly with the request, as the service
/// reads it.
fn given_document(doc: &Option<baas_client::Document>) -> Option<&baas_client::Document> {
    doc.as_ref().filter(|d| !d.is_empty())
}

/// (pageNo, pageSize) with pageNo >= 1 and 1 <= pageSize <= 50.
fn page(no: i64, size: i64) -> Result<(usize, usize), ApiError> {
    if size > MAX_PAGE_SIZE {
        return Err(ApiError::new(
            codes::PAGE_SIZE,
            format!("pageSize: {size} is over the maximum of {MAX_PAGE_SIZE}"),
        ));
    }
    if size < 1 {
        return Err(ApiError::invalid("pageSize", "must be at least 1"));
    }
    if no < 1 {
        return Err(ApiError::invalid("pageNo", "must be at least 1"));
    }
    Ok((
        usize::try_from(no).unwrap_or(usize::MAX),
        usize::try_from(size).unwrap_or(1),
    ))
}

/// An integer the spec types as a string (`field` its wire name).
fn int_text(field: &str, text: &str) -> Result<i64, ApiError> {
    text.trim()
        .parse()
        .map_err(|_| ApiError::invalid(field, format!("`{text}` is not an integer")))
}

/// (startTime, endTime), `15001` when the end is before the start.
fn time_range(start: i64, end: i64) -> Result<(i64, i64), ApiError> {
    if end < start {
        return Err(ApiError::new(
            codes::TIME_RANGE,
            "endTime: must not be before startTime",
        ));
    }
    Ok((start, end))
}

/// `12001` for a value of a spec value set that the sandbox does not serve: the
/// generated enum's `Unknown` (a wire value the spec does not list, which the service
/// refuses) or a value the spec added that the handler does not know yet. `field` is
/// the wire name, `served` the values the handler serves; enums display their wire value.
fn not_served<E: std::fmt::Display>(field: &str, value: &E, served: &[E]) -> ApiError {
    let served: Vec<String> = served.iter().map(ToString::to_string).collect();
    ApiError::invalid(
        field,
        format!("{value} is not one of {}", served.join(", ")),
    )
}

/// `12001` unless `value` is a whole number of the minor unit (0.01; see
/// [`MINOR_UNIT_PLACES`]). An amount the ledger cannot hold exactly would be rounded
/// wherever it is shown (`1500.005` credited shows as `1500.01`), so reported figures
/// would stop adding up to the ledger: it is refused instead.
fn minor_unit(field: &str, value: Decimal) -> Result<Decimal, ApiError> {
    if value.normalize().scale() > MINOR_UNIT_PLACES {
        return Err(ApiError::invalid(
            field,
            format!(
                "`{value}` is finer than the currency's minor unit (at most {MINOR_UNIT_PLACES} decimal places)"
            ),
        ));
    }
    Ok(value)
}

fn paginate<T: Clone>(items: &[T], (no, size): (usize, usize)) -> Vec<T> {
    items
        .iter()
        .skip(no.saturating_sub(1).saturating_mul(size))
        .take(size)
        .cloned()
        .collect()
}

/// `a * b`, or `12001` naming `field` when the product does not fit the decimal type
/// (a hostile amount must be refused, not panic the handler).
fn checked_mul(a: Decimal, b: Decimal, field: &str) -> Result<Decimal, ApiError> {
    a.checked_mul(b)
        .ok_or_else(|| ApiError::invalid(field, "is larger than any amount the sandbox can hold"))
}

/// A count of rows as the spec's `int` (`totalRows`, `total`).
fn count(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

impl Bank {
    /// Runs one decoded, validated request (see `baas_client::dispatch::decode`).
    /// `request_id` is the envelope's requestId (the businessId of an account
    /// activation and of the user requests); `now_ms` the clock. Returns the response's
    /// `data` (`Value::Null` for code/msg-only answers), written from the operation's
    /// generated response type (`ops::wire::answer`): only the members the spec
    /// declares, of their declared JSON types.
    ///
    /// Each spec group has its module (`ops::<group>`) matching every operation of the
    /// group's generated enum and reading the typed fields: a spec change the handlers do
    /// not follow (an operation, a field, a value set) stops the sandbox compiling.
    pub fn handle(
        &mut self,
        request: Request,
        request_id: &str,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        self.refresh_dormancy(now_ms);
        match request {
            Request::Account(r) => self.handle_account(r, request_id, now_ms),
            Request::Cny(r) => self.handle_cny(r, now_ms),
            Request::Fx(r) => self.handle_fx(r, now_ms),
            Request::Onboarding(r) => self.handle_onboarding(r),
            Request::Otp(r) => self.handle_otp(r, now_ms),
            Request::Reversal(r) => self.handle_reversal(r, now_ms),
            Request::Transfers(r) => self.handle_transfers(r, now_ms),
            Request::User(r) => self.handle_user(r, request_id),
            Request::Utility(r) => self.handle_utility(r, now_ms),
        }
    }

    // ------------------------------------------------------------------ applications

    fn new_application(
        &mut self,
        id: String,
        operation: &'static str,
        postings: Vec<Posting>,
        effects: Vec<Effect>,
    ) -> Result<(), ApiError> {
        if self.applications.contains_key(&id) {
            return Err(ApiError::new(
                codes::INVALID_REQUEST_ID,
                format!("application {id} exists already"),
            ));
        }
        self.applications.insert(
            id.clone(),
            Application {
                id,
                postings,
                effects,
                members: vec![],
                state: AppState::Pending,
                group: None,
                otp_sent: false,
                wrong_attempts: 0,
                operation,
            },
        );
        Ok(())
    }

    /// A new outgoing (debit) transaction, submitted.
    #[allow(clippy::too_many_arguments)]
    fn new_tx(
        &mut self,
        account: &str,
        tx_type: &'static str,
        amount: Decimal,
        fee: Decimal,
        currency: &str,
        oppo: Oppo,
        remark: &str,
        credited: Option<String>,
        now_ms: i64,
    ) -> String {
        let id = self.next_id("TX");
        let narrative = match oppo.name.as_str() {
            "" => format!("To {}", oppo.account_id),
            name => format!("To {name} ({})", oppo.account_id),
        };
        self.txs.insert(
            id.clone(),
            Tx {
                id: id.clone(),
                account_id: account.to_owned(),
                tx_type,
                credit: false,
                amount,
                fee,
                currency: currency.to_owned(),
                status: tx_status::SUBMITTED,
                create_time: now_ms,
                complete_time: None,
                oppo,
                narrative,
                remark: remark.to_owned(),
                credited_account: credited,
                reversed_by: None,
            },
        );
        id
    }

    /// Postings of an outgoing payment: amount to `to`, fee to the fee account.
    fn payout(
        &self,
        from: &str,
        to: String,
        currency: &str,
        amount: Decimal,
        fee: Decimal,
    ) -> Vec<Posting> {
        let mut out = vec![Posting {
            from: from.to_owned(),
            to,
            amount,
        }];
        if fee > Decimal::ZERO {
            out.push(Posting {
                from: from.to_owned(),
                to: fees_account(currency),
                amount: fee,
            });
        }
        out
    }
}
