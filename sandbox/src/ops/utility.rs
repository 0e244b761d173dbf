//! Handlers of the `utility` group: airtime (single and bulk), bills, and their queries.

use baas_client::dispatch::utility::Request;
use baas_client::enums::NetworkProvider;
use baas_client::records::{MobileDetail, UtilityPayment};
use baas_client::utility::{
    AirtimeBulkPaymentResponse, AirtimePaymentRequest, AirtimePaymentResponse, BillPaymentRequest,
    BillPaymentResponse, BillQueryRequest, BillQueryResponse, BulkPaymentQueryRequest,
    BulkPaymentQueryResponse,
};
use baas_runtime::Scalar;
use rust_decimal::Decimal;
use serde_json::Value;

use super::wire::{answer, m2, wire};
use super::{count, given, minor_unit, not_served, opt_money, page, paginate, positive};
use crate::bank::{outside_account, tx_status, tx_type, AppState, Bank, Effect, Oppo, Payment};
use crate::error::ApiError;

/// The wire value of a network provider the sandbox serves (`field` its wire name).
fn network_provider(field: &str, provider: NetworkProvider) -> Result<i64, ApiError> {
    match provider {
        NetworkProvider::First | NetworkProvider::Second | NetworkProvider::Third => {
            Ok(provider.as_i64())
        }
        other => Err(not_served(
            field,
            &other,
            &[
                NetworkProvider::First,
                NetworkProvider::Second,
                NetworkProvider::Third,
            ],
        )),
    }
}

fn payment_record(p: &Payment) -> UtilityPayment {
    let mut r = UtilityPayment::default();
    r.payment_id = Some(p.id.clone());
    r.tx_id = Some(p.tx_id.clone());
    r.payment_type = Some(p.kind.to_owned());
    r.account_id = Some(p.account_id.clone());
    r.amount = Some(m2(p.amount));
    r.currency = Some(baas_client::enums::Currency::of(&p.currency));
    r.status = wire(p.status);
    r.create_time = Some(p.create_time);
    r.complete_time = p.complete_time;
    if p.kind == "AIRTIME" {
        r.mobile_number = Some(p.target.clone());
        r.network_provider = wire(p.provider);
    } else {
        r.bill_order_number = Some(p.target.clone());
        r.bill_type = wire(p.provider);
    }
    r.bulk_payment_order_id = p.bulk_id.clone();
    r
}

impl Bank {
    pub(super) fn handle_utility(
        &mut self,
        request: Request,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        match request {
            Request::AirtimePayment(r) => self.airtime(&r, now_ms),
            Request::AirtimeBulkPayment(r) => {
                self.airtime_bulk(&r.account_id, &r.mobile_details, now_ms)
            }
            Request::BillQuery(r) => self.bill_query(&r),
            Request::BillPayment(r) => self.bill_payment(&r, now_ms),
            Request::PaymentQuery(r) => self.payment_query(&r.payment_id),
            Request::BulkPaymentQuery(r) => self.bulk_payment_query(&r),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn new_payment(
        &mut self,
        account: &str,
        currency: &str,
        kind: &'static str,
        target: &str,
        provider: i64,
        amount: Decimal,
        bulk: Option<String>,
        now_ms: i64,
    ) -> (String, String) {
        let oppo = Oppo {
            account_id: target.to_owned(),
            external: true,
            ..Oppo::default()
        };
        let tx = self.new_tx(
            account,
            tx_type::UTILITY,
            amount,
            Decimal::ZERO,
            currency,
            oppo,
            "",
            Some(outside_account(currency)),
            now_ms,
        );
        let id = self.next_id("PAY");
        self.payments.insert(
            id.clone(),
            Payment {
                id: id.clone(),
                tx_id: tx.clone(),
                kind,
                account_id: account.into(),
                target: target.into(),
                provider,
                amount,
                currency: currency.into(),
                status: 1,
                create_time: now_ms,
                complete_time: None,
                bulk_id: bulk,
            },
        );
        (id, tx)
    }

    fn airtime(&mut self, r: &AirtimePaymentRequest, now_ms: i64) -> Result<Value, ApiError> {
        let account = r.account_id.as_str();
        let mobile = r.mobile_number.as_str();
        let provider = network_provider("networkProvider", r.network_provider)?;
        let amount = positive("amount", &r.amount)?;
        let currency = self.debit_account(account)?.currency.clone();
        let postings = self.payout(
            account,
            outside_account(&currency),
            &currency,
            amount,
            Decimal::ZERO,
        );
        self.check_postings(&postings)?;
        let (pid, tx) = self.new_payment(
            account, &currency, "AIRTIME", mobile, provider, amount, None, now_ms,
        );
        self.new_application(
            pid.clone(),
            "airtimePayment",
            postings,
            vec![Effect::Tx(tx.clone()), Effect::Payment(pid.clone())],
        )?;
        let mut d = AirtimePaymentResponse::default();
        d.tx_id = Some(tx);
        d.payment_id = Some(pid);
        answer(&d)
    }

    fn airtime_bulk(
        &mut self,
        account: &str,
        items: &[MobileDetail],
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        let currency = self.debit_account(account)?.currency.clone();
        if items.is_empty() {
            return Err(ApiError::invalid(
                "mobileDetails",
                "must hold at least one item",
            ));
        }
        let mut parsed = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let f = |n: &str| format!("mobileDetails[{i}].{n}");
            let mobile = item.mobile_number.as_str();
            let provider = network_provider(&f("networkProvider"), item.network_provider)?;
            let amount = item.amount.as_decimal();
            if amount <= Decimal::ZERO {
                return Err(ApiError::invalid(
                    &f("amount"),
                    "must be an amount greater than 0",
                ));
            }
            let amount = minor_unit(&f("amount"), amount)?;
            parsed.push((mobile.to_owned(), provider, amount));
        }
        let mut postings = Vec::new();
        for (_, _, amount) in &parsed {
            postings.extend(self.payout(
                account,
                outside_account(&currency),
                &currency,
                *amount,
                Decimal::ZERO,
            ));
        }
        self.check_postings(&postings)?;
        let bulk = self.next_id("BULK");
        let mut effects = Vec::new();
        let mut ids = Vec::new();
        for (mobile, provider, amount) in parsed {
            let (pid, tx) = self.new_payment(
                account,
                &currency,
                "AIRTIME",
                &mobile,
                provider,
                amount,
                Some(bulk.clone()),
                now_ms,
            );
            effects.push(Effect::Tx(tx));
            effects.push(Effect::Payment(pid.clone()));
            ids.push(pid);
        }
        self.bulks.insert(bulk.clone(), ids);
        self.new_application(bulk.clone(), "airtimeBulkPayment", postings, effects)?;
        let mut d = AirtimeBulkPaymentResponse::default();
        d.bulk_payment_order_id = Some(bulk);
        answer(&d)
    }

    fn bill_query(&self, r: &BillQueryRequest) -> Result<Value, ApiError> {
        // An unlisted billType finds no bill.
        let ty = r.bill_type.as_i64();
        let number = r.bill_order_number.as_str();
        let bill = self
            .bills
            .get(&(ty, number.to_owned()))
            .ok_or_else(|| ApiError::not_found(format!("bill {number} of type {ty}")))?;
        if let Some(m) = given(&r.mobile) {
            if m != bill.mobile {
                return Err(ApiError::invalid(
                    "mobile",
                    format!("is not the mobile linked to bill {number}"),
                ));
            }
        }
        // dueDate's type is not shown: the sandbox writes the date as text.
        let mut d = BillQueryResponse::default();
        d.due_date = Some(Scalar::string(bill.due_date.as_str()));
        d.due_amount = Some(m2(bill.due_amount));
        d.currency = Some(baas_client::enums::Currency::Kes);
        answer(&d)
    }

    fn bill_payment(&mut self, r: &BillPaymentRequest, now_ms: i64) -> Result<Value, ApiError> {
        let account = r.account_id.as_str();
        let ty = r.bill_type.as_i64();
        let number = r.bill_order_number.as_str();
        let due = self
            .bills
            .get(&(ty, number.to_owned()))
            .ok_or_else(|| ApiError::not_found(format!("bill {number} of type {ty}")))?
            .due_amount;
        let amount = match opt_money("amount", r.amount.as_ref())? {
            Some(a) if a > Decimal::ZERO => a,
            Some(_) => return Err(ApiError::invalid("amount", "must be greater than 0")),
            None if due > Decimal::ZERO => due,
            None => {
                return Err(ApiError::invalid(
                    "amount",
                    format!("bill {number} has nothing due; give an amount"),
                ))
            }
        };
        let currency = self.debit_account(account)?.currency.clone();
        if currency != "KES" {
            return Err(ApiError::invalid(
                "accountId",
                "bills are paid from a KES account",
            ));
        }
        let postings = self.payout(
            account,
            outside_account(&currency),
            &currency,
            amount,
            Decimal::ZERO,
        );
        self.check_postings(&postings)?;
        let (pid, tx) =
            self.new_payment(account, &currency, "BILL", number, ty, amount, None, now_ms);
        self.new_application(
            pid.clone(),
            "billPayment",
            postings,
            vec![Effect::Tx(tx.clone()), Effect::Payment(pid.clone())],
        )?;
        let mut d = BillPaymentResponse::default();
        d.tx_id = Some(tx);
        d.payment_id = Some(pid);
        answer(&d)
    }

    fn payment_query(&self, id: &str) -> Result<Value, ApiError> {
        let p = self
            .payments
            .get(id)
            .ok_or_else(|| ApiError::not_found(format!("payment {id}")))?;
        let d: baas_client::records::UtilityPayment = payment_record(p);
        answer(&d)
    }

    fn bulk_payment_query(&self, r: &BulkPaymentQueryRequest) -> Result<Value, ApiError> {
        let id = r.bulk_payment_order_id.as_str();
        let page = page(r.page_no.into(), r.page_size.into())?;
        let ids = self
            .bulks
            .get(id)
            .ok_or_else(|| ApiError::not_found(format!("bulk payment {id}")))?;
        let all: Vec<UtilityPayment> = ids
            .iter()
            .filter_map(|pid| self.payments.get(pid))
            .map(payment_record)
            .collect();
        let status = self.applications.get(id).map(|a| match a.state {
            AppState::Pending => 1,
            AppState::Confirmed => tx_status::SUCCEEDED,
            AppState::Cancelled | AppState::Failed => tx_status::FAILED,
        });
        let mut d = BulkPaymentQueryResponse::default();
        d.bulk_payment_order_id = Some(id.to_owned());
        d.status = status.and_then(wire);
        d.total_rows = Some(count(all.len()));
        d.result = Some(paginate(&all, page));
        answer(&d)
    }
}
