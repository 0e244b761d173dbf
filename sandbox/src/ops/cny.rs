//! Handlers of the `cny` group: CNY Express transfers and their queries.

use baas_client::cny::{
    ApplyForCnyExpressRequest, ApplyForCnyExpressResponse, GetCnyTransListRequest,
    GetCnyTransListResponse,
};
use baas_client::dispatch::cny::Request;
use baas_client::enums::BeneficiaryType;
use baas_client::records::{CnyTransferDetail, CnyTransferSummary, OrderItemReceived};
use rust_decimal::Decimal;
use serde_json::Value;

use super::wire::{answer, money};
use super::{
    checked_mul, count, given, given_document, int_text, minor_unit, page, paginate, rate,
    time_range, CNY_BANKS, CNY_NATIONALITIES,
};
use crate::bank::{fx_account, outside_account, tx_type, Bank, Cny, Effect, Oppo, Posting};
use crate::error::{codes, ApiError};

impl Bank {
    pub(super) fn handle_cny(&mut self, request: Request, now_ms: i64) -> Result<Value, ApiError> {
        match request {
            Request::ApplyForCnyExpress(r) => self.apply_cny(&r, now_ms),
            Request::GetCnyTransList(r) => self.cny_list(&r),
            Request::GetCnyTransferDetails(r) => self.cny_details(&r.application_id),
        }
    }

    /// Applies for a CNY Express transfer: checks the beneficiary and the orders, debits
    /// the payer (through the bank's CNY position when the account holds another
    /// currency), and keeps the application waiting for its OTP.
    fn apply_cny(
        &mut self,
        req: &ApplyForCnyExpressRequest,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        let payer = req.payer_account_id.as_str();
        let bank_code = req.beneficiary_bank_code.as_str();
        check_beneficiary(req)?;
        let (total, orders) = orders(req)?;
        let a = self.debit_account(payer)?;
        let (currency, user) = (a.currency.clone(), a.user_id.clone());
        let r =
            rate("CNY", &currency).ok_or_else(|| ApiError::new(codes::SYSTEM, "no CNY rate"))?;
        let debit = checked_mul(total, r, "oderArray")?.round_dp(2);
        let postings = postings(payer, &currency, debit, total);
        self.check_postings(&postings)?;
        let oppo = Oppo {
            account_id: req.beneficiary_account_id.clone(),
            name: req.beneficiary_name.clone(),
            bank_code: bank_code.to_owned(),
            channel: None,
            external: true,
        };
        let tx = self.new_tx(
            payer,
            tx_type::CNY_TRANSFER,
            debit,
            Decimal::ZERO,
            &currency,
            oppo,
            given(&req.remark).unwrap_or_default(),
            None,
            now_ms,
        );
        let id = self.next_id("CNY");
        let record = record(req, &id, total, orders);
        self.cnys.insert(
            id.clone(),
            Cny {
                id: id.clone(),
                tx_id: tx.clone(),
                user_id: user,
                payer_account_id: payer.to_owned(),
                record,
                status: 1,
                create_time: now_ms,
                completed_time: None,
            },
        );
        self.new_application(
            id.clone(),
            "applyForCnyExpress",
            postings,
            vec![Effect::Tx(tx), Effect::Cny(id.clone())],
        )?;
        let mut d = ApplyForCnyExpressResponse::default();
        d.application_id = Some(id);
        answer(&d)
    }

    fn cny_list(&self, req: &GetCnyTransListRequest) -> Result<Value, ApiError> {
        let user = req.user_id.as_str();
        let account = req.account_id.as_str();
        self.account(account)?;
        let (start, end) = time_range(req.start_time, req.end_time)?;
        // The spec types this operation's pageNo and pageSize as strings.
        let page = page(
            int_text("pageNo", &req.page_no)?,
            int_text("pageSize", &req.page_size)?,
        )?;
        let all: Vec<CnyTransferSummary> = self
            .cnys
            .values()
            .filter(|c| c.user_id == user && c.payer_account_id == account)
            .filter(|c| c.create_time >= start && c.create_time <= end)
            .map(summary)
            .collect();
        let mut d = GetCnyTransListResponse::default();
        d.total_rows = Some(count(all.len()));
        d.result = Some(paginate(&all, page));
        answer(&d)
    }

    fn cny_details(&self, id: &str) -> Result<Value, ApiError> {
        let c = self
            .cnys
            .get(id)
            .ok_or_else(|| ApiError::not_found(format!("CNY transfer {id}")))?;
        answer(&detail(c))
    }
}

/// The record as `/query/getCnyTransferDetails` answers it: the stored detail with the
/// transfer's status and times.
fn detail(c: &Cny) -> CnyTransferDetail {
    let mut d = c.record.clone();
    d.status = i32::try_from(c.status).ok();
    d.create_time = Some(c.create_time);
    d.completed_time = c.completed_time;
    d
}

/// The record as a row of `/query/getCnyTransList`: the detail without the orders and
/// the document links.
fn summary(c: &Cny) -> CnyTransferSummary {
    let d = detail(c);
    let mut s = CnyTransferSummary::default();
    s.application_id = d.application_id;
    s.payer_account_id = d.payer_account_id;
    s.beneficiary_type = d.beneficiary_type;
    s.beneficiary_name = d.beneficiary_name;
    s.beneficiary_country_code = d.beneficiary_country_code;
    s.beneficiary_bank_code = d.beneficiary_bank_code;
    s.beneficiary_bank_name = d.beneficiary_bank_name;
    s.beneficiary_bank_address = d.beneficiary_bank_address;
    s.beneficiary_id_number = d.beneficiary_id_number;
    s.beneficiary_account_id = d.beneficiary_account_id;
    s.payment_purpose = d.payment_purpose;
    s.message_to_beneficiary = d.message_to_beneficiary;
    s.remark = d.remark;
    s.amount = d.amount;
    s.status = d.status;
    s.create_time = d.create_time;
    s.completed_time = d.completed_time;
    s
}

/// The beneficiary's bank is on the CNY Express list under its name, and an individual's
/// nationality is one CNY Express serves.
fn check_beneficiary(req: &ApplyForCnyExpressRequest) -> Result<(), ApiError> {
    let bank_code = req.beneficiary_bank_code.as_str();
    let bank_name = req.beneficiary_bank_name.as_str();
    match CNY_BANKS.iter().find(|(c, _)| *c == bank_code) {
        None => {
            return Err(ApiError::invalid(
                "beneficiaryBankCode",
                format!("{bank_code} is not on the CNY Express bank list"),
            ))
        }
        Some((_, name)) if *name != bank_name => {
            return Err(ApiError::invalid(
                "beneficiaryBankName",
                format!("does not match bank {bank_code} ({name})"),
            ))
        }
        Some(_) => {}
    }
    // An unlisted beneficiaryType is not an individual: no nationality to check.
    if req.beneficiary_type == BeneficiaryType::Individual {
        let cc = given(&req.beneficiary_country_code)
            .ok_or_else(|| ApiError::missing("beneficiaryCountryCode"))?;
        if !CNY_NATIONALITIES.contains(&cc) {
            return Err(ApiError::invalid(
                "beneficiaryCountryCode",
                format!("{cc} is not a supported CNY nationality"),
            ));
        }
    }
    Ok(())
}

/// The orders as the answer shows them, and their total: more than 0, with an invoice
/// above 70,000 CNY.
fn orders(req: &ApplyForCnyExpressRequest) -> Result<(Decimal, Vec<OrderItemReceived>), ApiError> {
    let mut total = Decimal::ZERO;
    let mut orders = Vec::new();
    for (i, item) in req.order_array.iter().enumerate() {
        let field = format!("oderArray[{i}].amount");
        let amount = minor_unit(&field, item.amount.as_decimal())?;
        total = total.checked_add(amount).ok_or_else(|| {
            ApiError::invalid(
                "oderArray",
                "the order amounts add up to more than the sandbox can hold",
            )
        })?;
        let mut order = OrderItemReceived::default();
        order.product_name = Some(item.product_name.clone());
        order.quantity = Some(item.quantity);
        order.amount = Some(money(amount, 4));
        order.order_time = Some(item.order_time);
        order.platform = Some(item.platform.clone());
        orders.push(order);
    }
    if total <= Decimal::ZERO {
        return Err(ApiError::invalid(
            "oderArray",
            "the order amounts must add up to more than 0",
        ));
    }
    if total > Decimal::new(70_000, 0) && given_document(&req.invoice).is_none() {
        return Err(ApiError::invalid(
            "invoice",
            "is required when the amount exceeds 70,000 CNY",
        ));
    }
    Ok((total, orders))
}

/// The postings of a transfer debiting `debit` from the payer's `currency` account for
/// `total` CNY: straight out in CNY, or through the bank's positions.
fn postings(payer: &str, currency: &str, debit: Decimal, total: Decimal) -> Vec<Posting> {
    let mut postings = if currency == "CNY" {
        vec![Posting {
            from: payer.to_owned(),
            to: outside_account("CNY"),
            amount: debit,
        }]
    } else {
        vec![Posting {
            from: payer.to_owned(),
            to: fx_account(currency),
            amount: debit,
        }]
    };
    // The CNY leg leaves from the bank's CNY position to the outside world.
    if currency != "CNY" {
        postings.push(Posting {
            from: fx_account("CNY"),
            to: outside_account("CNY"),
            amount: total,
        });
    }
    postings
}

/// The transfer's detail record, with sandbox links for its documents.
fn record(
    req: &ApplyForCnyExpressRequest,
    id: &str,
    total: Decimal,
    orders: Vec<OrderItemReceived>,
) -> CnyTransferDetail {
    let payer = req.payer_account_id.as_str();
    let bank_code = req.beneficiary_bank_code.as_str();
    let bank_name = req.beneficiary_bank_name.as_str();
    let link = |what: &str| format!("sandbox://files/{id}/{what}");
    let text = |v: &str| Some(v.to_owned()).filter(|v| !v.is_empty());
    let mut record = CnyTransferDetail::default();
    record.application_id = Some(id.to_owned());
    record.payer_account_id = text(payer);
    record.beneficiary_type = Some(req.beneficiary_type.clone());
    record.beneficiary_name = text(&req.beneficiary_name);
    record.beneficiary_country_code = given(&req.beneficiary_country_code).and_then(text);
    record.beneficiary_bank_code = text(bank_code);
    record.beneficiary_bank_name = text(bank_name);
    record.beneficiary_bank_address = text(&req.beneficiary_bank_address);
    record.beneficiary_id_number = text(&req.beneficiary_id_number);
    record.beneficiary_account_id = text(&req.beneficiary_account_id);
    record.payment_purpose = Some(req.payment_purpose.clone());
    record.message_to_beneficiary = given(&req.message_to_beneficiary).and_then(text);
    record.remark = given(&req.remark).and_then(text);
    record.amount = Some(money(total, 4));
    record.orders = Some(orders);
    record.support_document_file = Some(link("support-document"));
    record.company_regis_document_file = Some(link("company-registration"));
    record.invoice = given_document(&req.invoice).map(|_| link("invoice"));
    record
}
