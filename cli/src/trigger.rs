//! `baas sandbox trigger 0015|0026|0028`: makes a running sandbox send one notification of
//! that type to its callback, by making the calls that produce it (through the Rust
//! client, as any command): a closing-balance job (0015), an FX conversion (0026), a CNY
//! Express transfer confirmed with its OTP (0028), with the seeded accounts.

use clap::ArgMatches;
use serde_json::json;

use crate::exit::Failure;
use crate::target::Target;

/// The types the sandbox sends.
pub const TYPES: [&str; 3] = ["0015", "0026", "0028"];

fn request<O: serde::de::DeserializeOwned>(params: serde_json::Value) -> Result<O, Failure> {
    serde_json::from_value(params).map_err(|e| Failure::Local(format!("internal: {e}")))
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Runs `baas sandbox trigger TYPE` against the sandbox in force.
pub async fn run(args: &ArgMatches, profile_flag: Option<&str>) -> Result<(), Failure> {
    let kind = args
        .get_one::<String>("type")
        .map(String::as_str)
        .unwrap_or_default();
    let (_, file) = crate::profile::load().map_err(Failure::Local)?;
    let chosen = crate::profile::chosen(profile_flag, &file).map_err(Failure::Local)?;
    let target = Target::resolve(chosen.as_ref().map(|(_, p)| p)).await?;
    match &target {
        Target::Remote { admin: Some(_), .. } => {}
        _ => {
            return Err(Failure::NotSent(
                "the target is not a running sandbox: start one with `baas sandbox start --callback URL` (or use a profile with `sandbox: true`)".to_owned(),
            ))
        }
    }
    let client = target.client()?;
    let op = |name: &str| {
        crate::table::GROUPS
            .iter()
            .flat_map(|g| g.operations.iter())
            .find(|o| o.wire == name)
    };
    let fail = |name: &str, e: &baas_runtime::Error| match op(name) {
        Some(o) => crate::call::failure(o, e),
        None => Failure::Local(e.to_string()),
    };
    match kind {
        "0015" => {
            let r: baas_client::account::QueryClosingBalanceRequest =
                request(json!({"queryDate": "2024-12-31"}))?;
            client
                .query_closing_balance(r)
                .send()
                .await
                .map_err(|e| fail("queryClosingBalance", &e))?;
        }
        "0026" => {
            let r: baas_client::fx::ApplyForFcExchangeRequest = request(json!({
                "sourceCurrency": "KES", "targetCurrency": "USD",
                "sourceAccount": "1000000001", "targetAccount": "1000000002",
                "sourceAmount": "10.00"
            }))?;
            client
                .apply_for_fc_exchange(r)
                .send()
                .await
                .map_err(|e| fail("applyForFcExchange", &e))?;
        }
        "0028" => {
            let r: baas_client::cny::ApplyForCnyExpressRequest = request(json!({
                "payerAccountId": "2000000005", "beneficiaryType": "2",
                "beneficiaryName": "Shanghai Trading", "beneficiaryIdNumber": "91310000",
                "beneficiaryBankCode": "BOC", "beneficiaryBankName": "Bank of China",
                "beneficiaryBankAddress": "Shanghai", "beneficiaryAccountId": "6222",
                "paymentPurpose": "PURCHASE_GOODS", "supportDocumentFile": "aGk=",
                "supportDocumentType": "pdf", "companyRegisDocumentFile": "aGk=",
                "companyRegisDocumentType": "pdf", "invoiceDocumentType": "pdf",
                "oderArray": [{"productName": "tea", "quantity": 2, "amount": "10.5",
                    "orderTime": now_ms(), "platform": "shop"}]
            }))?;
            let pending = client
                .apply_for_cny_express(r)
                .pending()
                .await
                .map_err(|e| fail("applyForCnyExpress", &e))?;
            pending
                .send_otp(baas_client::enums::OtpType::Sms)
                .await
                .map_err(|e| fail("sendOtp", &e))?;
            let code = target.otp(pending.business_id()).await?;
            pending
                .confirm(code)
                .await
                .map_err(|e| fail("confirmOperation", &e))?;
        }
        other => {
            return Err(Failure::NotSent(format!(
                "the sandbox sends {}, not {other}",
                TYPES.join(", ")
            )))
        }
    }
    eprintln!("baas sandbox: notification {kind} queued to the sandbox's callback");
    Ok(())
}
