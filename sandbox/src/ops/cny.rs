//! Handlers of the `cny` group: CNY Express transfers and their queries.

use baas_client::cny::{ApplyForCnyExpressRequest, GetCnyTransListRequest};
use baas_client::dispatch::cny::Request;
use baas_client::enums::BeneficiaryType;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use super::{
    checked_mul, given, int_text, minor_unit, page, paginate, rate, time_range, CNY_BANKS,
    CNY_NATIONALITIES,
};
use crate::bank::{
    fx_account, money_text, outside_account, tx_type, Bank, Cny, Effect, Oppo, Posting,
};
use crate::error::{codes, ApiError};

impl Bank {
    pub(super) fn handle_cny(&mut self, request: Request, now_ms: i64) -> Result<Value, ApiError> {
        match request {
            Request::ApplyForCnyExpress(r) => self.apply_cny(&r, now_ms),
            Request::GetCnyTransList(r) => self.cny_list(&r),
            Request::GetCnyTransferDetails(r) => self.cny_details(&r.application_id),
        }
    }

    fn apply_cny(
        &mut self,
        req: &ApplyForCnyExpressRequest,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        let payer = req.payer_account_id.as_str();
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
        let mut total = Decimal::ZERO;
        let mut orders = Vec::new();
        for (i, item) in req.oder_array.iter().enumerate() {
            let field = format!("oderArray[{i}].amount");
            let amount = minor_unit(&field, item.amount.as_decimal())?;
            total = total.checked_add(amount).ok_or_else(|| {
                ApiError::invalid(
                    "oderArray",
                    "the order amounts add up to more than the sandbox can hold",
                )
            })?;
            orders.push(json!({
                "productName": item.product_name, "quantity": item.quantity,
                "amount": money_text(amount, 4), "orderTime": item.order_time,
                "platform": item.platform,
            }));
        }
        if total <= Decimal::ZERO {
            return Err(ApiError::invalid(
                "oderArray",
                "the order amounts must add up to more than 0",
            ));
        }
        if total > Decimal::new(70_000, 0) && given(&req.invoice).is_none() {
            return Err(ApiError::invalid(
                "invoice",
                "is required when the amount exceeds 70,000 CNY",
            ));
        }
        let a = self.debit_account(payer)?;
        let (currency, user) = (a.currency.clone(), a.user_id.clone());
        let r =
            rate("CNY", &currency).ok_or_else(|| ApiError::new(codes::SYSTEM, "no CNY rate"))?;
        let debit = checked_mul(total, r, "oderArray")?.round_dp(2);
        let postings = if currency == "CNY" {
            vec![Posting {
                from: payer.to_owned(),
                to: outside_account("CNY"),
                amount: debit,
            }]
        } else {
            vec![Posting {
                from: payer.to_owned(),
                to: fx_account(&currency),
                amount: debit,
            }]
        };
        // The CNY leg leaves from the bank's CNY position to the outside world.
        let mut postings = postings;
        if currency != "CNY" {
            postings.push(Posting {
                from: fx_account("CNY"),
                to: outside_account("CNY"),
                amount: total,
            });
        }
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
        let link = |what: &str| format!("sandbox://files/{id}/{what}");
        let mut record = serde_json::Map::new();
        for (f, v) in [
            ("payerAccountId", Some(payer)),
            ("beneficiaryType", Some(req.beneficiary_type.as_str())),
            ("beneficiaryName", Some(req.beneficiary_name.as_str())),
            (
                "beneficiaryCountryCode",
                given(&req.beneficiary_country_code),
            ),
            ("beneficiaryBankCode", Some(bank_code)),
            ("beneficiaryBankName", Some(bank_name)),
            (
                "beneficiaryBankAddress",
                Some(req.beneficiary_bank_address.as_str()),
            ),
            (
                "beneficiaryIdNumber",
                Some(req.beneficiary_id_number.as_str()),
            ),
            (
                "beneficiaryAccountId",
                Some(req.beneficiary_account_id.as_str()),
            ),
            ("paymentPurpose", Some(req.payment_purpose.as_str())),
            ("messageToBeneficiary", given(&req.message_to_beneficiary)),
            ("remark", given(&req.remark)),
        ] {
            if let Some(v) = v.filter(|v| !v.is_empty()) {
                record.insert(f.into(), json!(v));
            }
        }
        record.insert("applicationId".into(), json!(id));
        record.insert("amount".into(), json!(money_text(total, 4)));
        record.insert(
            "supportDocumentFile".into(),
            json!(link("support-document")),
        );
        record.insert(
            "companyRegisDocumentFile".into(),
            json!(link("company-registration")),
        );
        record.insert(
            "invoice".into(),
            if given(&req.invoice).is_some() {
                json!(link("invoice"))
            } else {
                Value::Null
            },
        );
        self.cnys.insert(
            id.clone(),
            Cny {
                id: id.clone(),
                tx_id: tx.clone(),
                user_id: user,
                record,
                orders,
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
        Ok(json!({ "applicationId": id }))
    }

    fn cny_json(c: &Cny, detail: bool) -> Value {
        let mut m = c.record.clone();
        m.insert("status".into(), json!(c.status));
        m.insert("createTime".into(), json!(c.create_time));
        m.insert("completedTime".into(), json!(c.completed_time));
        if detail {
            m.insert("orders".into(), Value::Array(c.orders.clone()));
        } else {
            for f in ["supportDocumentFile", "companyRegisDocumentFile", "invoice"] {
                m.remove(f);
            }
        }
        Value::Object(m)
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
        let all: Vec<Value> = self
            .cnys
            .values()
            .filter(|c| {
                c.user_id == user && c.record.get("payerAccountId") == Some(&json!(account))
            })
            .filter(|c| c.create_time >= start && c.create_time <= end)
            .map(|c| Self::cny_json(c, false))
            .collect();
        Ok(json!({ "totalRows": all.len(), "result": paginate(&all, page) }))
    }

    fn cny_details(&self, id: &str) -> Result<Value, ApiError> {
        self.cnys
            .get(id)
            .map(|c| Self::cny_json(c, true))
            .ok_or_else(|| ApiError::not_found(format!("CNY transfer {id}")))
    }
}
