//! Handlers of the `reversal` group (reversals and the fee call, which share a path), and
//! of two `account` operations from the document's same section: account validation and
//! closing balances.

use baas_client::account::{QueryClosingBalanceRequest, ValidateAccountRequest};
use baas_client::dispatch::reversal::Request;
use baas_client::enums::ValidateAccountType;
use baas_client::notifications::Payload;
use baas_client::records::{ClosingBalance, ClosingBalanceReport, ReversalApplication};
use baas_client::reversal::{
    FetchTransactionFeeRequest, QueryTxReversalRequest, TxReversalRequest, TxReversalResponse,
};
use baas_runtime::Scalar;
use rust_decimal::Decimal;
use serde_json::Value;

use super::wire::{answer, m2};
use super::{bank_kind, given, given_document, not_served, positive, transfer_fee};
use crate::bank::{
    tx_status, tx_type, Bank, Oppo, Outgoing, Posting, Reversal, Tx, DAY_MS, REVERSAL_DAYS,
};
use crate::error::{codes, ApiError};

impl Bank {
    pub(super) fn handle_reversal(
        &mut self,
        request: Request,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        match request {
            Request::TxReversal(r) => self.reversal(&r, now_ms),
            Request::QueryTxReversal(r) => self.query_reversal(&r),
            Request::FetchTransactionFee(r) => self.fee(&r),
        }
    }

    pub(super) fn validate_account(&self, r: &ValidateAccountRequest) -> Result<Value, ApiError> {
        let id = r.account_id.as_str();
        // The answer's accountType echoes the request's (its type is not shown).
        let mut d = baas_client::records::AccountValidationResult::default();
        d.account_type = Some(Scalar::integer(r.account_type.as_i64()));
        match r.account_type {
            ValidateAccountType::Internal => {
                let a = match self.account(id) {
                    Ok(a) => a,
                    Err(e) => match self.short_codes.get(id) {
                        Some(real) => self.account(real)?,
                        None => return Err(e),
                    },
                };
                d.account_id = Some(a.id.clone());
                d.account_name = Some(a.name.clone());
                d.freeze_status = Some(super::account::freeze_status(a.frozen));
                d.restrict_status = Some(Scalar::integer(i64::from(a.restricted)));
                answer(&d)
            }
            ValidateAccountType::MobileMoneyPaybill | ValidateAccountType::MobileMoneyTill => {
                let list = if r.account_type == ValidateAccountType::MobileMoneyPaybill {
                    &self.paybills
                } else {
                    &self.tills
                };
                let name = list.get(id).ok_or_else(|| ApiError::no_account(id))?;
                d.account_id = Some(id.to_owned());
                d.account_name = Some(name.clone());
                answer(&d)
            }
            ref other => Err(not_served(
                "accountType",
                other,
                &[
                    ValidateAccountType::Internal,
                    ValidateAccountType::MobileMoneyPaybill,
                    ValidateAccountType::MobileMoneyTill,
                ],
            )),
        }
    }

    fn reversal(&mut self, r: &TxReversalRequest, now_ms: i64) -> Result<Value, ApiError> {
        let tx_id = r.transaction_id.as_str();
        let tx = self
            .txs
            .get(tx_id)
            .ok_or_else(|| ApiError::not_found(format!("transaction {tx_id}")))?
            .clone();
        if tx.credit || tx.status != tx_status::SUCCEEDED {
            return Err(ApiError::invalid(
                "transactionId",
                format!("transaction {tx_id} is not a succeeded debit"),
            ));
        }
        if let Some(by) = &tx.reversed_by {
            return Err(ApiError::invalid(
                "transactionId",
                format!("transaction {tx_id} was reversed by {by}"),
            ));
        }
        let completed = tx.complete_time.unwrap_or(tx.create_time);
        if now_ms - completed > REVERSAL_DAYS * DAY_MS {
            return Err(ApiError::invalid(
                "transactionId",
                "reversal is possible only within 1 month of the transaction",
            ));
        }
        let from = tx.credited_account.clone().ok_or_else(|| {
            ApiError::invalid(
                "transactionId",
                format!("transaction {tx_id} cannot be reversed"),
            )
        })?;
        let postings = vec![Posting {
            from: from.clone(),
            to: tx.account_id.clone(),
            amount: tx.amount,
        }];
        self.apply_postings(&postings, now_ms)?;
        let app = self.next_id("REV");
        let rev_tx = self.next_id("TX");
        self.txs.insert(
            rev_tx.clone(),
            Tx {
                id: rev_tx.clone(),
                account_id: tx.account_id.clone(),
                tx_type: tx_type::REVERSAL,
                credit: true,
                amount: tx.amount,
                fee: Decimal::ZERO,
                currency: tx.currency.clone(),
                status: tx_status::SUCCEEDED,
                create_time: now_ms,
                complete_time: Some(now_ms),
                oppo: Oppo {
                    external: false,
                    channel: None,
                    ..tx.oppo.clone()
                },
                narrative: format!("Reversal of {tx_id}"),
                remark: given(&r.reversal_reason).unwrap_or_default().to_owned(),
                credited_account: None,
                reversed_by: None,
            },
        );
        if let Some(t) = self.txs.get_mut(tx_id) {
            t.reversed_by = Some(app.clone());
        }
        let mut record = ReversalApplication::default();
        record.application_id = Some(app.clone());
        record.transaction_id = Some(tx_id.to_owned());
        record.reversal_receipt_no = given(&r.reversal_receipt_no).map(str::to_owned);
        record.reversed_time = given(&r.reversed_time).map(str::to_owned);
        record.reversal_reason = given(&r.reversal_reason).map(str::to_owned);
        record.voucher =
            given_document(&r.voucher_base64).map(|_| format!("sandbox://files/{app}/voucher"));
        // The sandbox's value: 3, the reversal is done (the values are not shown).
        record.status = Some(Scalar::integer(3));
        record.reversal_tx_id = Some(rev_tx);
        self.reversals.insert(app.clone(), Reversal { record });
        let mut d = TxReversalResponse::default();
        d.application_id = Some(app);
        answer(&d)
    }

    fn query_reversal(&self, r: &QueryTxReversalRequest) -> Result<Value, ApiError> {
        let id = r.application_id.as_str();
        let rev = self
            .reversals
            .get(id)
            .ok_or_else(|| ApiError::not_found(format!("reversal {id}")))?;
        answer(&rev.record)
    }

    fn fee(&self, r: &FetchTransactionFeeRequest) -> Result<Value, ApiError> {
        self.account(&r.payer_account_id)?;
        let code = r.benificiary_bank_code.as_str();
        bank_kind("benificiaryBankCode", code)?;
        let amount = positive("amount", &r.amount)?;
        let mut d = baas_client::records::FeeResult::default();
        d.fee_amount = Some(m2(transfer_fee(code, amount)));
        answer(&d)
    }

    pub(super) fn closing_balance(
        &mut self,
        r: &QueryClosingBalanceRequest,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        // A day of the calendar by its type: the request did not decode otherwise.
        let date = r.query_date;
        let day = date.days();
        let today = now_ms.div_euclid(DAY_MS);
        if day >= today {
            return Err(ApiError::new(
                codes::TIME_RANGE,
                format!("queryDate: {date} has not ended yet (UTC); a closing balance exists once its day is over"),
            ));
        }
        let job = self.next_id("JOB");
        self.jobs.insert(job.clone(), ());
        // What the ledger held when the day ended, for the accounts open by then.
        let day_end = (day + 1).saturating_mul(DAY_MS);
        let balances = self
            .accounts
            .values()
            .filter(|a| !a.system && a.create_time.saturating_mul(1000) < day_end)
            .map(|a| {
                let mut b = ClosingBalance::default();
                b.account_id = Some(a.id.clone());
                b.currency = Some(baas_client::enums::Currency::of(&a.currency));
                b.closing_balance = Some(m2(self.balance_at(&a.id, day_end)));
                b
            })
            .collect();
        let mut report = ClosingBalanceReport::default();
        report.job_id = Some(job.clone());
        report.query_date = Some(date);
        report.status = Some("SUCCESS".to_owned());
        report.generated_time = Some(now_ms);
        report.balances = Some(balances);
        self.outbox.push(Outgoing {
            payload: Payload::ClosingBalances(report),
        });
        let mut d = baas_client::records::ClosingBalanceJob::default();
        d.job_id = Some(job);
        answer(&d)
    }
}
