//! Handlers of the `other` group: reversals and the fee call (one path), account
//! validation, closing balances.

use baas_client::dispatch::other::Request;
use baas_client::enums::ValidateAccountType;
use baas_client::other::{
    FetchTransactionFeeRequest, QueryClosingBalanceRequest, QueryTxReversalRequest,
    TxReversalRequest, ValidateAccountRequest,
};
use rust_decimal::Decimal;
use serde_json::{json, Value};

use super::{bank_kind, calendar_day, given, m2, not_served, positive, transfer_fee};
use crate::bank::{
    tx_status, tx_type, Bank, Oppo, Outgoing, Posting, Reversal, Tx, DAY_MS, REVERSAL_DAYS,
};
use crate::error::{codes, ApiError};

impl Bank {
    pub(super) fn handle_other(
        &mut self,
        request: Request,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        match request {
            Request::TxReversal(r) => self.reversal(&r, now_ms),
            Request::QueryTxReversal(r) => self.query_reversal(&r),
            Request::FetchTransactionFee(r) => self.fee(&r),
            Request::ValidateAccount(r) => self.validate_account(&r),
            Request::QueryClosingBalance(r) => self.closing_balance(&r, now_ms),
        }
    }

    fn validate_account(&self, r: &ValidateAccountRequest) -> Result<Value, ApiError> {
        let id = r.account_id.as_str();
        let kind = r.account_type.as_i64();
        match r.account_type {
            ValidateAccountType::Internal => {
                let a = match self.account(id) {
                    Ok(a) => a,
                    Err(e) => match self.short_codes.get(id) {
                        Some(real) => self.account(real)?,
                        None => return Err(e),
                    },
                };
                Ok(json!({
                    "accountId": a.id, "accountName": a.name, "accountType": kind,
                    "freezeStatus": i64::from(a.frozen), "restrictStatus": i64::from(a.restricted),
                }))
            }
            ValidateAccountType::MobileMoneyPaybill | ValidateAccountType::MobileMoneyTill => {
                let list = if r.account_type == ValidateAccountType::MobileMoneyPaybill {
                    &self.paybills
                } else {
                    &self.tills
                };
                let name = list.get(id).ok_or_else(|| ApiError::no_account(id))?;
                Ok(json!({ "accountId": id, "accountName": name, "accountType": kind }))
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
        let voucher = given(&r.voucher_base64).map(|_| format!("sandbox://files/{app}/voucher"));
        self.reversals.insert(app.clone(), Reversal { record: json!({
            "applicationId": app, "transactionId": tx_id, "reversalReceiptNo": given(&r.reversal_receipt_no),
            "reversedTime": given(&r.reversed_time), "reversalReason": given(&r.reversal_reason),
            "voucher": voucher, "status": 3, "reversalTxId": rev_tx,
        })});
        Ok(json!({ "applicationId": app }))
    }

    fn query_reversal(&self, r: &QueryTxReversalRequest) -> Result<Value, ApiError> {
        let id = r.application_id.as_str();
        self.reversals
            .get(id)
            .map(|rev| rev.record.clone())
            .ok_or_else(|| ApiError::not_found(format!("reversal {id}")))
    }

    fn fee(&self, r: &FetchTransactionFeeRequest) -> Result<Value, ApiError> {
        self.account(&r.payer_account_id)?;
        let code = r.benificiary_bank_code.as_str();
        bank_kind("benificiaryBankCode", code)?;
        let amount = positive("amount", &r.amount)?;
        Ok(json!({ "feeAmount": m2(transfer_fee(code, amount)) }))
    }

    fn closing_balance(
        &mut self,
        r: &QueryClosingBalanceRequest,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        let date = r.query_date.as_str();
        let day = calendar_day(date).ok_or_else(|| {
            ApiError::invalid(
                "queryDate",
                format!("`{date}` is not a UTC date YYYY-MM-DD of the calendar"),
            )
        })?;
        let today = now_ms.div_euclid(DAY_MS);
        if day >= today {
            return Err(ApiError::new(
                codes::TIME_RANGE,
                format!("queryDate: {date} has not ended yet (UTC); a closing balance exists once its day is over"),
            ));
        }
        let job = self.next_id("JOB");
        self.jobs.insert(job.clone());
        let balances: Vec<Value> = self
            .accounts
            .values()
            .filter(|a| !a.system)
            .map(|a| {
                json!({
                    "accountId": a.id, "currency": a.currency, "closingBalance": m2(a.balance),
                })
            })
            .collect();
        self.outbox.push(Outgoing { notification_type: "0015", params: json!({
            "jobId": job, "queryDate": date, "status": "SUCCESS", "generatedTime": now_ms, "balances": balances,
        })});
        Ok(json!({ "jobId": job }))
    }
}
