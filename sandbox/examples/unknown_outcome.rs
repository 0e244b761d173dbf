//! An unknown outcome resolved: the confirmation reaches the service but its answer is
//! lost. The client says `OutcomeUnknown` (never "retryable"), and the partner settles it
//! (`pending.settle()`, one lookup) instead of confirming twice.
//!
//! ```sh
//! cargo run -p baas-sandbox --example unknown_outcome
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use baas_client::enums::{Currency, OtpType};
use baas_client::transfers::{
    ApplyForTransferRequired, GetTransResultRequest, GetTransResultRequired,
};
use baas_client::transport::{BoxFuture, HttpsTransport};
use baas_client::{Client, Error, Outcome, Settlement, WaitPolicy};
use baas_runtime::{HttpRequest, HttpResponse, Transport};
use baas_sandbox::Sandbox;

/// Forwards every request, but loses the answer of the first confirmation (as a broken
/// connection would after the service received it).
struct LosesOneAnswer {
    inner: HttpsTransport,
    lost: AtomicBool,
}

impl Transport for LosesOneAnswer {
    fn post_json(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, Error>> {
        Box::pin(async move {
            let confirm = request.url.ends_with("/common/confirmOperation");
            let answer = self.inner.post_json(request).await;
            if confirm && !self.lost.swap(true, Ordering::SeqCst) {
                return Err(Error::transport(
                    "connection reset after sending",
                    true,
                    None,
                ));
            }
            answer
        })
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sandbox = Sandbox::start().await?;
    let transport = LosesOneAnswer {
        inner: HttpsTransport::new(Duration::from_secs(5))?,
        lost: AtomicBool::new(false),
    };
    let client = Client::with_transport(sandbox.client_config(), Arc::new(transport))?;
    let pending = client
        .apply_for_transfer(ApplyForTransferRequired {
            payer_account_id: "1000000001".into(),
            payee_bank_code: "46".into(),
            payee_account_id: "1000000004".into(),
            currency: Currency::Kes,
            amount: "75.00".parse()?,
        })
        .pending()
        .await?;
    pending.send_otp(OtpType::Sms).await?;
    let otp = sandbox.otp_for(pending.business_id());
    match pending.confirm(otp).await {
        Ok(()) => println!("confirmed"),
        Err(error) if error.outcome() == Outcome::Unknown => {
            assert!(
                !error.is_retryable(),
                "never repeat an unknown confirmation"
            );
            println!("unknown outcome: {error}");
            // Settle it: one lookup of the transfer (getTransResult, as the spec says);
            // only a transfer still waiting for its OTP may be confirmed again.
            match pending.settle().await {
                Settlement::NotConfirmed { state, otp_rule } => {
                    println!(
                        "still waiting for the OTP ({state}): confirming again is safe. {otp_rule}"
                    )
                }
                Settlement::Confirmed { state, is_final } => {
                    let query = GetTransResultRequest::new(GetTransResultRequired {
                        tx_id: pending.business_id().into(),
                    });
                    let policy = WaitPolicy::new(
                        Duration::from_millis(100),
                        Duration::from_secs(1),
                        Duration::from_secs(10),
                    );
                    let done = client.get_trans_result(query).until_final(&policy).await?;
                    println!(
                        "the confirmation had arrived (state {state}, final: {is_final}; now {:?}): not confirming again",
                        done.tx_status
                    );
                }
                Settlement::StillUnknown { error } => {
                    println!("the lookup did not tell ({error}): settle again later, never confirm blindly")
                }
                _ => println!("a settlement this example does not know: settle again later"),
            }
        }
        Err(error) => return Err(error.into()),
    }
    Ok(())
}
