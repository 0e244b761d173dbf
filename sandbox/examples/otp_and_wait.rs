//! A transfer applied, confirmed with its OTP through the pending-application handle,
//! and waited for until its state is final.
//!
//! ```sh
//! cargo run -p baas-sandbox --example otp_and_wait
//! ```

use std::time::Duration;

use baas_client::enums::{Currency, OtpType};
use baas_client::transfers::{
    ApplyForTransferRequest, ApplyForTransferRequired, GetTransResultRequest,
    GetTransResultRequired,
};
use baas_client::{Client, WaitPolicy};
use baas_sandbox::Sandbox;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sandbox = Sandbox::start().await?;
    let client = Client::new(sandbox.client_config())?;
    let transfer = ApplyForTransferRequest::new(ApplyForTransferRequired {
        payer_account_id: "1000000001".into(),
        payee_bank_code: "46".into(),
        payee_account_id: "1000000004".into(),
        currency: Currency::Kes,
        amount: "120.00".parse()?,
    });
    let pending = client.apply_for_transfer(transfer).pending().await?;
    println!("applied: {}", pending.business_id());
    pending.send_otp(OtpType::Sms).await?;
    // The customer reads the OTP from their phone; the sandbox computes it.
    pending
        .confirm(sandbox.otp_for(pending.business_id()))
        .await?;

    let query = GetTransResultRequest::new(GetTransResultRequired {
        tx_id: pending.business_id().into(),
    });
    let policy = WaitPolicy::new(
        Duration::from_millis(100),
        Duration::from_secs(2),
        Duration::from_secs(30),
    );
    let result = client.get_trans_result(query).until_final(&policy).await?;
    println!("final txStatus: {:?}", result.tx_status);
    Ok(())
}
