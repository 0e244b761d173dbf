//! A partner's first step: start the embedded sandbox, read an account, make a
//! transfer, confirm it with the OTP and print the result. Loopback only.
//!
//! ```sh
//! cargo run --example quickstart
//! ```

use baas_client::account::GetAccountDetailsRequired;
use baas_client::enums::{Currency, OtpType};
use baas_client::transfers::{
    ApplyForTransferRequest, ApplyForTransferRequired, GetTransResultRequired,
};
use baas_client::{Amount, Client};
use baas_sandbox::Sandbox;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. The sandbox: in memory, on 127.0.0.1, with a test partner and seeded accounts.
    let sandbox = Sandbox::start().await?;
    println!(
        "sandbox at {} (sender {})",
        sandbox.base_url(),
        sandbox.sender()
    );

    // 2. The generated client, configured for the sandbox (base URL, sender, test key).
    let client = Client::new(sandbox.client_config())?;

    // 3. Read an account.
    let account = client
        .get_account_details(GetAccountDetailsRequired {
            account_id: "1000000001".into(),
        })
        .send()
        .await?;
    println!(
        "account {} ({}) balance {} {}",
        account.account_id.unwrap_or_default(),
        account.account_name.unwrap_or_default(),
        account.balance.map(|b| b.to_string()).unwrap_or_default(),
        account.currency.map(|c| c.to_string()).unwrap_or_default(),
    );

    // 4. Apply for an internal transfer: nothing moves until the OTP confirms it.
    let amount: Amount = "1500.50".parse()?;
    let transfer = ApplyForTransferRequest::new(ApplyForTransferRequired {
        payer_account_id: "1000000001".into(),
        payee_bank_code: "46".into(),
        payee_account_id: "1000000004".into(),
        currency: Currency::Kes,
        amount,
    })
    .remark("quickstart");
    // The pending application knows its business id (a transfer's txId).
    let pending = client
        .apply_for_transfer(transfer.clone())
        .pending()
        .await?;
    let tx_id = pending.business_id().to_owned();
    println!("transfer applied: txId {tx_id} (waiting for the OTP)");

    // 5. Send and confirm the OTP. In the sandbox the code follows a documented rule.
    pending.send_otp(OtpType::Sms).await?;
    let otp = sandbox.otp_for(&tx_id);
    pending.confirm(otp.clone()).await?;
    println!("confirmed with OTP {otp}");

    // 6. The result.
    let result = client
        .get_trans_result(GetTransResultRequired { tx_id })
        .send()
        .await?;
    println!(
        "transaction {}: txStatus {:?} via {}",
        result.tx_id.unwrap_or_default(),
        result.tx_status,
        result.payment_channel.unwrap_or_default()
    );
    let account = client
        .get_account_details(GetAccountDetailsRequired {
            account_id: "1000000001".into(),
        })
        .send()
        .await?;
    println!(
        "new balance {} {}",
        account.balance.map(|b| b.to_string()).unwrap_or_default(),
        account.currency.map(|c| c.to_string()).unwrap_or_default()
    );
    Ok(())
}

// `cargo test -p baas-sandbox` runs the quickstart too (`test = true` in Cargo.toml), so
// a partner's first step cannot break unnoticed.
#[cfg(test)]
mod tests {
    #[test]
    fn quickstart_runs() {
        super::main().expect("the quickstart succeeds");
    }
}
