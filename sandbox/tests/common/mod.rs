//! Helpers shared by the end-to-end tests.
#![allow(dead_code)]

pub mod heavy;
pub mod raw;

use baas_client::enums::OtpType;
use baas_client::otp::{ConfirmOperationRequired, SendOtpRequired};
use baas_client::{Amount, Client};
use baas_sandbox::Sandbox;

/// A sandbox and a generated client pointed at it.
pub async fn start() -> (Sandbox, Client) {
    let sandbox = Sandbox::start().await.expect("sandbox starts");
    let client = Client::new(sandbox.client_config()).expect("client builds");
    (sandbox, client)
}

/// `"100.50"` as an Amount.
pub fn amount(text: &str) -> Amount {
    text.parse().expect("amount literal")
}

/// sendOtp + confirmOperation with the sandbox's OTP rule.
pub async fn confirm(client: &Client, sandbox: &Sandbox, business_id: &str) {
    client
        .send_otp(SendOtpRequired {
            business_id: business_id.into(),
            otp_type: OtpType::Sms,
        })
        .send()
        .await
        .expect("sendOtp");
    client
        .confirm_operation(ConfirmOperationRequired {
            business_id: business_id.into(),
            otp_code: sandbox.otp_for(business_id),
        })
        .send()
        .await
        .expect("confirmOperation");
}

/// The API result code of a failed call.
pub fn code<T: std::fmt::Debug>(result: Result<T, baas_client::Error>) -> String {
    match result {
        Ok(v) => panic!("expected an API error, got {v:?}"),
        Err(e) => e
            .api_code()
            .map(str::to_owned)
            .unwrap_or_else(|| format!("not an API error: {e}")),
    }
}

/// xorshift64*: a deterministic pseudo-random sequence (one per worker or partner of
/// the load tests).
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// One of `items`.
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
    /// An amount of 0.01 to `max` hundredths, as text.
    pub fn cents(&mut self, max: u64) -> String {
        let c = 1 + self.next() % max;
        format!("{}.{:02}", c / 100, c % 100)
    }
}
