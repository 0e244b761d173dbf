//! Handlers of the `fx` group.

use baas_client::dispatch::fx::Request;
use baas_client::enums::CurrencyPair;
use baas_client::fx::{
    ApplyForFcExchangeRequest, ApplyForFcExchangeResponse, GetForeignExchangeRateRequest,
    GetForeignExchangeRateResponse, GetFxRequestStatusRequest,
};
use rust_decimal::Decimal;
use serde_json::Value;

use super::wire::{answer, m2, wire};
use super::{checked_mul, not_served, opt_money, rate};
use crate::bank::{fx_account, Bank, Effect, Fx, Posting};
use crate::error::ApiError;

impl Bank {
    pub(super) fn handle_fx(&mut self, request: Request, now_ms: i64) -> Result<Value, ApiError> {
        match request {
            Request::GetForeignExchangeRate(r) => self.fx_rate(&r, now_ms),
            Request::ApplyForFcExchange(r) => self.apply_fx(&r, now_ms),
            Request::GetFxRequestStatus(r) => self.fx_status(&r),
        }
    }

    /// Converts between two of a partner's accounts at once (no OTP): checks the accounts
    /// and amounts, and books the conversion.
    fn apply_fx(
        &mut self,
        req: &ApplyForFcExchangeRequest,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        // An unlisted currency is compared as its wire text: no account holds it.
        let src_ccy = req.source_currency.as_str();
        let tgt_ccy = req.target_currency.as_str();
        let src = req.source_account.as_str();
        let tgt = req.target_account.as_str();
        self.check_fx_accounts(req)?;
        let r = rate(src_ccy, tgt_ccy)
            .ok_or_else(|| ApiError::invalid("sourceCurrency", "unsupported currency pair"))?;
        let (source_amount, target_amount) = amounts(req, r)?;
        let postings = vec![
            Posting {
                from: src.to_owned(),
                to: fx_account(src_ccy),
                amount: source_amount,
            },
            Posting {
                from: fx_account(tgt_ccy),
                to: tgt.to_owned(),
                amount: target_amount,
            },
        ];
        self.check_postings(&postings)?;
        let id = self.next_id("FX");
        self.fxs.insert(
            id.clone(),
            Fx {
                id: id.clone(),
                source_account: src.into(),
                target_account: tgt.into(),
                source_currency: src_ccy.into(),
                target_currency: tgt_ccy.into(),
                source_amount,
                target_amount,
                rate: r,
                status: 1,
                out_tx: None,
                in_tx: None,
            },
        );
        // No OTP (decision otp-scope: the FX statuses, 1 submitted ... 6 successful,
        // have no OTP step [docs]; the client says so too): the conversion is booked at
        // once, status 6 and notification 0026, or 7 when the postings fail.
        let effects = [Effect::Fx(id.clone())];
        if let Err(e) = self.apply_postings(&postings, now_ms) {
            self.fail_effects(&effects, now_ms);
            return Err(e);
        }
        self.complete_effects(&effects, now_ms);
        let mut d = ApplyForFcExchangeResponse::default();
        d.application_id = Some(id);
        d.source_amount = Some(m2(source_amount));
        d.target_amount = Some(m2(target_amount));
        d.fx_rate = Some(r.into());
        answer(&d)
    }

    /// The source account can be debited and holds the source currency, the target
    /// account can be credited and holds the target currency, and the two differ.
    fn check_fx_accounts(&self, req: &ApplyForFcExchangeRequest) -> Result<(), ApiError> {
        let src_ccy = req.source_currency.as_str();
        let tgt_ccy = req.target_currency.as_str();
        let src = req.source_account.as_str();
        let tgt = req.target_account.as_str();
        let sa = self.debit_account(src)?;
        if sa.currency != src_ccy {
            return Err(ApiError::invalid(
                "sourceCurrency",
                format!("account {src} holds {}", sa.currency),
            ));
        }
        let ta = self.credit_account(tgt, "targetAccount")?;
        if ta.currency != tgt_ccy {
            return Err(ApiError::invalid(
                "targetCurrency",
                format!("account {tgt} holds {}", ta.currency),
            ));
        }
        if src_ccy == tgt_ccy {
            return Err(ApiError::invalid(
                "targetCurrency",
                "must differ from sourceCurrency",
            ));
        }
        Ok(())
    }

    fn fx_rate(&self, r: &GetForeignExchangeRateRequest, now_ms: i64) -> Result<Value, ApiError> {
        let pair = &r.currency_pair;
        if let CurrencyPair::Unknown(_) = pair {
            return Err(not_served("currencyPair", pair, CurrencyPair::KNOWN));
        }
        let (base, quote) = pair
            .as_str()
            .split_once('/')
            .ok_or_else(|| ApiError::invalid("currencyPair", "must be BASE/QUOTE"))?;
        let quote_rate = rate(base, quote)
            .ok_or_else(|| ApiError::invalid("currencyPair", "unsupported currency"))?;
        let mut d = GetForeignExchangeRateResponse::default();
        d.currency_pair = Some(pair.clone());
        d.rate = Some(quote_rate.into());
        d.quote_time = Some(now_ms);
        answer(&d)
    }

    fn fx_status(&self, r: &GetFxRequestStatusRequest) -> Result<Value, ApiError> {
        let id = r.application_id.as_str();
        let f = self
            .fxs
            .get(id)
            .ok_or_else(|| ApiError::not_found(format!("FX request {id}")))?;
        // errorCode and errorMsg are left out: the sandbox keeps no reason with a
        // failed conversion (the call that failed was answered with its code).
        let mut d = baas_client::records::FxRequest::default();
        d.application_id = Some(f.id.clone());
        d.out_tx_id = f.out_tx.clone();
        d.in_tx_id = f.in_tx.clone();
        d.status = wire(f.status);
        d.currency = Some(baas_client::enums::Currency::of(&f.target_currency));
        d.amount = Some(m2(f.target_amount));
        d.fx_rate = Some(f.rate.into());
        answer(&d)
    }
}

/// The source and target amounts at rate `r`: exactly one is given, the other is
/// converted (rounded to 2 places), and both are more than 0.
fn amounts(req: &ApplyForFcExchangeRequest, r: Decimal) -> Result<(Decimal, Decimal), ApiError> {
    let (source_amount, target_amount) = match (
        opt_money("sourceAmount", req.source_amount.as_ref())?,
        opt_money("targetAmount", req.target_amount.as_ref())?,
    ) {
        (Some(s), None) => (s, checked_mul(s, r, "sourceAmount")?.round_dp(2)),
        (None, Some(t)) => (
            t.checked_div(r)
                .map(|v| v.round_dp(2))
                .ok_or_else(|| ApiError::invalid("targetAmount", "cannot be converted"))?,
            t,
        ),
        _ => {
            return Err(ApiError::invalid(
                "sourceAmount",
                "exactly one of sourceAmount and targetAmount must be given",
            ))
        }
    };
    if source_amount <= Decimal::ZERO || target_amount <= Decimal::ZERO {
        return Err(ApiError::invalid(
            "sourceAmount",
            "the converted amounts must be greater than 0",
        ));
    }
    Ok((source_amount, target_amount))
}
