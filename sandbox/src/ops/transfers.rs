//! Handlers of the `transfers` group: transfers (internal, to other banks and mobile
//! money, to paybills and tills, SWIFT), their queries and the bank code list.

use std::collections::HashSet;

use baas_client::dispatch::transfers::Request;
use baas_client::enums::{AmountType, ChargeType, OrderByDesc, PayType, PaymentChannel, TxStatus};
use baas_client::records::{BankCode, InterBankTransfer, TransactionExtInfo, TransactionListItem};
use baas_client::transfers::{
    ApplyForMobileMoneyBusinessTransferRequest, ApplyForMobileMoneyBusinessTransferResponse,
    ApplyForTransferRequest, ApplyForTransferResponse, GetBankCodesResponse,
    GetInterBankTransferDetailsRequest, GetInterBankTransferListRequest,
    GetInterBankTransferListResponse, GetTransListRequest, GetTransListResponse,
    GetTransResultResponse, TelegraphicTransferRequest, TelegraphicTransferResponse,
};
use rust_decimal::Decimal;
use serde_json::Value;

use super::wire::{answer, m2, wire};
use super::{
    bank_kind, checked_mul, count, given, not_served, page, paginate, positive, rate, time_range,
    transfer_fee, BankKind, BANK_CODES,
};
use crate::bank::{outside_account, tx_type, Bank, Effect, Oppo, Swift, Tx};
use crate::error::ApiError;

/// Fills the members of transaction `t` into `$row`, a list row
/// ([`TransactionListItem`]) or the answer of getTransResult (the same members): the
/// service's vocabulary (public-facts.md, "Added 2026-11": `txType` codes,
/// `oppoAccountName`, `externalTxId`, `extInfo`, `paymentChannel`, `oppoBankCode`).
/// What the sandbox adds of its own (the fee, the counterparty's account, the remark)
/// is inside `extInfo`.
macro_rules! fill_tx {
    ($row:ident, $t:expr) => {{
        let t: &Tx = $t;
        let digits = t.id.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let text = |v: &str| Some(v.to_owned()).filter(|v| !v.is_empty());
        let mut ext = TransactionExtInfo::default();
        ext.transaction_narrative = Some(t.narrative.clone());
        ext.fee = Some(m2(t.fee));
        ext.oppo_account_id = Some(t.oppo.account_id.clone());
        ext.remark = text(&t.remark);
        $row.tx_id = Some(t.id.clone());
        $row.account_id = Some(t.account_id.clone());
        $row.tx_type = Some(baas_client::enums::TxType::of(t.tx_type));
        $row.tx_status = wire(t.status);
        $row.amount = Some(m2(t.amount));
        $row.currency = wire(t.currency.as_str());
        $row.create_time = Some(t.create_time);
        $row.complete_time = t.complete_time;
        $row.oppo_account_name = text(&t.oppo.name);
        $row.oppo_bank_code = text(&t.oppo.bank_code);
        $row.payment_channel = t.oppo.channel.map(str::to_owned);
        $row.external_tx_id = t.oppo.external.then(|| format!("EXT{digits}"));
        $row.ext_info = Some(ext);
    }};
}

/// A row of getTransList.
fn tx_row(t: &Tx) -> TransactionListItem {
    let mut row = TransactionListItem::default();
    fill_tx!(row, t);
    row
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
            Request::GetBankCodes(_) => {
                let list = BANK_CODES
                    .iter()
                    .map(|(code, name, _)| {
                        let mut b = BankCode::default();
                        b.bank_code = Some((*code).to_owned());
                        b.bank_name = Some((*name).to_owned());
                        b
                    })
                    .collect();
                let mut d = GetBankCodesResponse::default();
                d.bank_code_list = Some(list);
                answer(&d)
            }
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
        let mut d = ApplyForTransferResponse::default();
        d.tx_id = Some(tx);
        answer(&d)
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
        let mut d = ApplyForMobileMoneyBusinessTransferResponse::default();
        d.tx_id = Some(tx);
        answer(&d)
    }

    /// Applies for a SWIFT transfer: the debit in the account's currency (converted when
    /// the amount is in the beneficiary's), its fee, and the application waiting for its
    /// OTP.
    fn apply_swift(
        &mut self,
        req: &TelegraphicTransferRequest,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        let account = req.account_id.as_str();
        let amount = positive("amount", &req.amount)?;
        if req.payment_channel != PaymentChannel::Swift {
            return Err(ApiError::invalid(
                "paymentChannel",
                format!("must be {}", PaymentChannel::Swift),
            ));
        }
        let currency = self.debit_account(account)?.currency.clone();
        let debit = swift_debit(req, amount, &currency)?;
        let fee = swift_fee(&req.charge_type, debit)?;
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
        let record = sent_record(req, amount);
        self.swifts.insert(
            id.clone(),
            Swift {
                id: id.clone(),
                tx_id: tx.clone(),
                record,
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
        let mut d = TelegraphicTransferResponse::default();
        d.application_id = Some(id);
        answer(&d)
    }

    fn trans_list(&self, req: &GetTransListRequest) -> Result<Value, ApiError> {
        let account = req.account_id.as_str();
        self.account(account)?;
        let (start, end) = time_range(req.start_time, req.end_time)?;
        let page = page(req.page_no.into(), req.page_size.into())?;
        // An unlisted txType or txStatus matches no row (as any absent one).
        // Sets: the lists come from the request and are looked up once per transaction.
        let types: HashSet<&str> = req
            .tx_type
            .iter()
            .map(baas_client::enums::TxType::as_str)
            .collect();
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
        let all: Vec<TransactionListItem> = rows.into_iter().map(tx_row).collect();
        let mut d = GetTransListResponse::default();
        d.total_rows = Some(count(all.len()));
        d.result = Some(paginate(&all, page));
        answer(&d)
    }

    fn trans_result(&self, id: &str) -> Result<Value, ApiError> {
        let t = self
            .txs
            .get(id)
            .ok_or_else(|| ApiError::not_found(format!("transaction {id}")))?;
        let mut d = GetTransResultResponse::default();
        fill_tx!(d, t);
        answer(&d)
    }

    fn swift_list(&self, req: &GetInterBankTransferListRequest) -> Result<Value, ApiError> {
        let account = req.account_id.as_str();
        self.account(account)?;
        let (start, end) = time_range(req.start_time, req.end_time)?;
        let page = page(req.page_no.into(), req.page_size.into())?;
        let all: Vec<InterBankTransfer> = self
            .swifts
            .values()
            .filter(|s| s.account_id == account && s.create_time >= start && s.create_time <= end)
            .map(swift_record)
            .collect();
        let mut d = GetInterBankTransferListResponse::default();
        d.total_rows = Some(count(all.len()));
        d.result = Some(paginate(&all, page));
        answer(&d)
    }

    fn swift_details(&self, req: &GetInterBankTransferDetailsRequest) -> Result<Value, ApiError> {
        let id = req.application_id.as_str();
        let account = req.account_id.as_str();
        match self.swifts.get(id) {
            Some(s) if s.account_id == account => answer(&swift_record(s)),
            _ => Err(ApiError::not_found(format!(
                "inter-bank transfer {id} of account {account}"
            ))),
        }
    }
}

/// A SWIFT application as the list and the details answer it: what it was sent with,
/// and its status, amounts and time.
fn swift_record(s: &Swift) -> InterBankTransfer {
    let mut r = s.record.clone();
    r.application_id = Some(s.id.clone());
    r.tx_id = Some(s.tx_id.clone());
    r.account_id = Some(s.account_id.clone());
    r.status = wire(s.status);
    r.debit_amount = Some(m2(s.debit_amount));
    r.fee = Some(m2(s.fee));
    r.currency = Some(baas_client::enums::Currency::of(&s.currency));
    r.create_time = Some(s.create_time);
    r
}

/// The amount debited from an account in `currency`: `amount` itself, or converted from
/// the beneficiary's currency when the amount is in it.
fn swift_debit(
    req: &TelegraphicTransferRequest,
    amount: Decimal,
    currency: &str,
) -> Result<Decimal, ApiError> {
    let credit_ccy = req.beneficiary_account_ccy.as_str();
    let debit = match req.amount_type {
        AmountType::DebitAccountCurrency => amount,
        AmountType::CreditAccountCurrency => {
            let r = rate(credit_ccy, currency).ok_or_else(|| {
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
    Ok(debit)
}

/// A SWIFT transfer's fee: 0.5% of the debit when the payer pays (`OUR`, `SHA`), else 0.
fn swift_fee(charge_type: &ChargeType, debit: Decimal) -> Result<Decimal, ApiError> {
    let fee = match charge_type {
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
    Ok(fee)
}

/// What the list and the details echo of a SWIFT application: what it was sent with (not
/// its support document).
fn sent_record(req: &TelegraphicTransferRequest, amount: Decimal) -> InterBankTransfer {
    let mut record = InterBankTransfer::default();
    record.beneficiary_bic = Some(req.beneficiary_swift_bic.clone());
    record.beneficiary_bank_name = Some(req.beneficiary_bank_name.clone());
    record.beneficiary_bank_country = req.beneficiary_bank_country.clone();
    record.beneficiary_bank_city = Some(req.beneficiary_bank_city.clone());
    record.beneficiary_bank_address = req.beneficiary_bank_address.clone();
    record.beneficiary_account_id = Some(req.beneficiary_account_id.clone());
    record.beneficiary_account_currency = Some(req.beneficiary_account_ccy.clone());
    record.beneficiary_name = Some(req.beneficiary_name.clone());
    record.beneficiary_email = req.beneficiary_email.clone();
    record.amount = Some(m2(amount));
    record.amount_type = Some(req.amount_type);
    record.message_to_beneficiary = req.message_to_beneficiary.clone();
    record.payment_channel = Some(req.payment_channel.clone());
    record.payment_purpose_id = Some(req.payment_purpose_id.clone());
    record.payment_purpose = req.payment_purpose.clone();
    record.sender_address = Some(req.sender_address.clone());
    record.charge_type = Some(req.charge_type.clone());
    record
}
