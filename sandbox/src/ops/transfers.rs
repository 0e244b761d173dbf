//! Handlers of the `transfers` group: transfers (internal, to other banks and mobile
//! money, to paybills and tills, SWIFT), their queries and the bank code list.

use std::collections::HashSet;

use baas_client::dispatch::transfers::Request;
use baas_client::enums::{AmountType, ChargeType, OrderByDesc, PayType, PaymentChannel, TxStatus};
use baas_client::transfers::{
    ApplyForMobileMoneyBusinessTransferRequest, ApplyForTransferRequest,
    GetInterBankTransferDetailsRequest, GetInterBankTransferListRequest, GetTransListRequest,
    TelegraphicTransferRequest,
};
use rust_decimal::Decimal;
use serde_json::{json, Value};

use super::{
    bank_kind, checked_mul, given, m2, not_served, page, paginate, positive, rate, time_range,
    transfer_fee, BankKind, BANK_CODES,
};
use crate::bank::{outside_account, tx_type, Bank, Effect, Oppo, Swift, Tx};
use crate::error::ApiError;

/// A transaction row in the service's vocabulary (public-facts.md, "Added 2026-11"):
/// `txType` codes, `oppoAccountName`, `externalTxId`, `extInfo` (an object),
/// `paymentChannel`, `oppoBankCode`. What the sandbox adds of its own (the fee, the
/// counterparty's account, the remark) is inside `extInfo`, the open object.
fn tx_json(t: &Tx) -> Value {
    let digits = t.id.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    json!({
        "txId": t.id, "accountId": t.account_id, "txType": t.tx_type, "txStatus": t.status,
        "amount": m2(t.amount), "currency": t.currency, "createTime": t.create_time,
        "completeTime": t.complete_time,
        "oppoAccountName": Some(&t.oppo.name).filter(|n| !n.is_empty()),
        "oppoBankCode": Some(&t.oppo.bank_code).filter(|n| !n.is_empty()),
        "paymentChannel": t.oppo.channel,
        "externalTxId": t.oppo.external.then(|| format!("EXT{digits}")),
        "extInfo": {
            "transactionNarrative": t.narrative, "fee": m2(t.fee),
            "oppoAccountId": t.oppo.account_id,
            "remark": Some(&t.remark).filter(|r| !r.is_empty()),
        },
    })
}

impl Bank {
    pub(super) fn handle_transfers(
        &mut self,
        request: Request,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        match request {
            Request::ApplyForMobileMoneyBusinessTransfer(r) => {
                self.apply_business_transfer(&r, now_ms)
            }
            Request::ApplyForTransfer(r) => self.apply_transfer(&r, now_ms),
            Request::GetTransList(r) => self.trans_list(&r),
            Request::GetTransResult(r) => self.trans_result(&r.tx_id),
            Request::TelegraphicTransfer(r) => self.apply_swift(&r, now_ms),
            Request::GetInterBankTransferList(r) => self.swift_list(&r),
            Request::GetInterBankTransferDetails(r) => self.swift_details(&r),
            // Its params are an open object the sandbox does not read.
            Request::GetBankCodes(_) => Ok(json!({
                "bankCodeList": BANK_CODES.iter().map(|(c, n, _)| json!({"bankCode": c, "bankName": n})).collect::<Vec<_>>()
            })),
        }
    }

    fn apply_transfer(
        &mut self,
        req: &ApplyForTransferRequest,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        let payer = req.payer_account_id.as_str();
        let bank_code = req.payee_bank_code.as_str();
        let payee = req.payee_account_id.as_str();
        // An unlisted currency is compared as its wire text: no account holds it.
        let currency = req.currency.as_str();
        let amount = positive("amount", &req.amount)?;
        let remark = given(&req.remark).unwrap_or_default();
        let a = self.debit_account(payer)?;
        if a.currency != currency {
            return Err(ApiError::invalid(
                "currency",
                format!(
                    "{currency} differs from the payer account's currency {}",
                    a.currency
                ),
            ));
        }
        let kind = bank_kind("payeeBankCode", bank_code)?;
        if kind == BankKind::Bank && given(&req.payee_account_name).is_none() {
            return Err(ApiError::invalid(
                "payeeAccountName",
                "is required when the counterparty is a bank",
            ));
        }
        let mut oppo = Oppo {
            account_id: payee.to_owned(),
            name: given(&req.payee_account_name)
                .unwrap_or_default()
                .to_owned(),
            bank_code: bank_code.to_owned(),
            channel: None,
            external: true,
        };
        let to = if kind == BankKind::Internal {
            let target = match self.short_codes.get(payee) {
                Some(id) => id.clone(),
                None => payee.to_owned(),
            };
            let b = self.credit_account(&target, "payeeAccountId")?;
            oppo.name = b.name.clone();
            oppo.channel = Some("INTERNAL_TRANSFER");
            oppo.external = false;
            if b.currency != currency {
                return Err(ApiError::invalid(
                    "payeeAccountId",
                    format!("account {target} holds {}, not {currency}", b.currency),
                ));
            }
            if target == payer {
                return Err(ApiError::invalid("payeeAccountId", "is the payer account"));
            }
            target
        } else {
            outside_account(currency)
        };
        let fee = transfer_fee(bank_code, amount);
        let postings = self.payout(payer, to.clone(), currency, amount, fee);
        self.check_postings(&postings)?;
        let tx_type = if kind == BankKind::MobileMoney {
            tx_type::MOBILE_MONEY_OUT
        } else {
            tx_type::TRANSFER_OUT
        };
        let tx = self.new_tx(
            payer,
            tx_type,
            amount,
            fee,
            currency,
            oppo,
            remark,
            Some(to.clone()),
            now_ms,
        );
        let mut effects = vec![Effect::Tx(tx.clone())];
        if kind == BankKind::Internal {
            effects.push(Effect::IncomingTx(tx.clone()));
        }
        self.new_application(tx.clone(), "applyForTransfer", postings, effects)?;
        Ok(json!({ "txId": tx }))
    }

    fn apply_business_transfer(
        &mut self,
        req: &ApplyForMobileMoneyBusinessTransferRequest,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        let payer = req.payer_account_id.as_str();
        let short = req.payee_short_code.as_str();
        let amount = positive("amount", &req.amount)?;
        if !req.amount.is_whole() {
            return Err(ApiError::invalid("amount", "must be a whole number"));
        }
        let list = match &req.pay_type {
            PayType::Paybill => &self.paybills,
            PayType::TillBuyGoods => &self.tills,
            other => {
                return Err(not_served(
                    "payType",
                    other,
                    &[PayType::Paybill, PayType::TillBuyGoods],
                ))
            }
        };
        let Some(payee_name) = list.get(short).cloned() else {
            return Err(ApiError::no_account(short));
        };
        if req.pay_type == PayType::Paybill && given(&req.payee_reference_number).is_none() {
            return Err(ApiError::invalid(
                "payeeReferenceNumber",
                "is required when the receiver is a paybill",
            ));
        }
        let currency = self.debit_account(payer)?.currency.clone();
        let fee = transfer_fee("M-PESA", amount);
        let postings = self.payout(payer, outside_account(&currency), &currency, amount, fee);
        self.check_postings(&postings)?;
        let remark = given(&req.description).unwrap_or_default();
        let oppo = Oppo {
            account_id: short.to_owned(),
            name: payee_name,
            bank_code: String::new(),
            channel: None,
            external: true,
        };
        let tx = self.new_tx(
            payer,
            tx_type::PAYBILL_TILL,
            amount,
            fee,
            &currency,
            oppo,
            remark,
            Some(outside_account(&currency)),
            now_ms,
        );
        self.new_application(
            tx.clone(),
            "applyForMobileMoneyBusinessTransfer",
            postings,
            vec![Effect::Tx(tx.clone())],
        )?;
        Ok(json!({ "txId": tx }))
    }

    fn apply_swift(
        &mut self,
        req: &TelegraphicTransferRequest,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        let account = req.account_id.as_str();
        let amount = positive("amount", &req.amount)?;
        let credit_ccy = req.beneficiary_account_ccy.as_str();
        if req.payment_channel != PaymentChannel::Swift {
            return Err(ApiError::invalid(
                "paymentChannel",
                format!("must be {}", PaymentChannel::Swift),
            ));
        }
        let currency = self.debit_account(account)?.currency.clone();
        let debit = match req.amount_type {
            AmountType::DebitAccountCurrency => amount,
            AmountType::CreditAccountCurrency => {
                let r = rate(credit_ccy, &currency).ok_or_else(|| {
                    ApiError::invalid(
                        "beneficiaryAccountCcy",
                        format!("unsupported currency {credit_ccy}"),
                    )
                })?;
                checked_mul(amount, r, "amount")?.round_dp(2)
            }
            other => {
                return Err(not_served(
                    "amountType",
                    &other,
                    &[
                        AmountType::DebitAccountCurrency,
                        AmountType::CreditAccountCurrency,
                    ],
                ))
            }
        };
        let fee = match &req.charge_type {
            ChargeType::Our | ChargeType::Sha => (debit * Decimal::new(5, 3)).round_dp(2),
            ChargeType::Ben => Decimal::ZERO,
            other => {
                return Err(not_served(
                    "chargeType",
                    other,
                    &[ChargeType::Our, ChargeType::Ben, ChargeType::Sha],
                ))
            }
        };
        let postings = self.payout(account, outside_account(&currency), &currency, debit, fee);
        self.check_postings(&postings)?;
        let remark = given(&req.message_to_beneficiary).unwrap_or_default();
        let oppo = Oppo {
            account_id: req.beneficiary_account_id.clone(),
            name: req.beneficiary_name.clone(),
            bank_code: req.beneficiary_swift_bic.clone(),
            channel: Some("SWIFT"),
            external: true,
        };
        let tx = self.new_tx(
            account,
            tx_type::FOREIGN_TRANSFER_OUT,
            debit,
            fee,
            &currency,
            oppo,
            remark,
            Some(outside_account(&currency)),
            now_ms,
        );
        let id = self.next_id("TT");
        // The details echo the request (its wire form, from the typed request).
        let mut params = serde_json::to_value(req).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut params {
            m.remove("supportDocument");
        }
        self.swifts.insert(
            id.clone(),
            Swift {
                id: id.clone(),
                tx_id: tx.clone(),
                params,
                debit_amount: debit,
                fee,
                account_id: account.to_owned(),
                currency,
                status: 1,
                create_time: now_ms,
            },
        );
        self.new_application(
            id.clone(),
            "telegraphicTransfer",
            postings,
            vec![Effect::Tx(tx), Effect::Swift(id.clone())],
        )?;
        Ok(json!({ "applicationId": id }))
    }

    fn trans_list(&self, req: &GetTransListRequest) -> Result<Value, ApiError> {
        let account = req.account_id.as_str();
        self.account(account)?;
        let (start, end) = time_range(req.start_time, req.end_time)?;
        let page = page(req.page_no.into(), req.page_size.into())?;
        // An unlisted txType or txStatus matches no row (as any absent one).
        // Sets: the lists come from the request and are looked up once per transaction.
        let types: HashSet<&str> = req.tx_type.iter().map(String::as_str).collect();
        let statuses: HashSet<i64> = req.tx_status.iter().map(TxStatus::as_i64).collect();
        let mut rows: Vec<&Tx> = self
            .txs
            .values()
            .filter(|t| t.account_id == account)
            .filter(|t| types.is_empty() || types.contains(&t.tx_type))
            .filter(|t| statuses.is_empty() || statuses.contains(&t.status))
            .filter(|t| t.create_time >= start && t.create_time <= end)
            .collect();
        rows.sort_by(|a, b| (a.create_time, &a.id).cmp(&(b.create_time, &b.id)));
        // An unlisted order reads as oldest first, the default.
        if req.order_by_desc == OrderByDesc::NewestFirst {
            rows.reverse();
        }
        let all: Vec<Value> = rows.into_iter().map(tx_json).collect();
        Ok(json!({ "totalRows": all.len(), "result": paginate(&all, page) }))
    }

    fn trans_result(&self, id: &str) -> Result<Value, ApiError> {
        self.txs
            .get(id)
            .map(tx_json)
            .ok_or_else(|| ApiError::not_found(format!("transaction {id}")))
    }

    fn swift_json(&self, s: &Swift) -> Value {
        let mut v = s.params.clone();
        if let Value::Object(m) = &mut v {
            m.insert("applicationId".into(), json!(s.id));
            m.insert("txId".into(), json!(s.tx_id));
            m.insert("status".into(), json!(s.status));
            m.insert("debitAmount".into(), json!(m2(s.debit_amount)));
            m.insert("fee".into(), json!(m2(s.fee)));
            m.insert("currency".into(), json!(s.currency));
            m.insert("createTime".into(), json!(s.create_time));
        }
        v
    }

    fn swift_list(&self, req: &GetInterBankTransferListRequest) -> Result<Value, ApiError> {
        let account = req.account_id.as_str();
        self.account(account)?;
        let (start, end) = time_range(req.start_time, req.end_time)?;
        let page = page(req.page_no.into(), req.page_size.into())?;
        let all: Vec<Value> = self
            .swifts
            .values()
            .filter(|s| s.account_id == account && s.create_time >= start && s.create_time <= end)
            .map(|s| self.swift_json(s))
            .collect();
        Ok(json!({ "totalRows": all.len(), "result": paginate(&all, page) }))
    }

    fn swift_details(&self, req: &GetInterBankTransferDetailsRequest) -> Result<Value, ApiError> {
        let id = req.application_id.as_str();
        let account = req.account_id.as_str();
        match self.swifts.get(id) {
            Some(s) if s.account_id == account => Ok(self.swift_json(s)),
            _ => Err(ApiError::not_found(format!(
                "inter-bank transfer {id} of account {account}"
            ))),
        }
    }
}
