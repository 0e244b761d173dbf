//! The operation groups of the end-to-end tests: each drives the generated client
//! against a sandbox through every operation of its group (shared by `e2e_operations`,
//! one test per group, and `e2e_strict_shapes`, which decodes every answer strictly).

mod accounts;
mod payments;

use baas_client::Client;
use baas_sandbox::Sandbox;

pub use accounts::{accounts, closing_balance_user_email_requests, onboarding};
pub use payments::{
    business_transfer_airtime_bills, cny_express, fx, group_of_applications_one_otp,
    small_transfer_otp_flow_queries_reversal, swift,
};

/// Start of every time range queried (epoch ms).
pub const T0: i64 = 0;
/// End of every time range queried: 2100-01-01.
pub const T1: i64 = 4_102_444_800_000;

/// Every group in turn on one sandbox (their expectations hold in this order).
pub async fn every_group(sb: &Sandbox, c: &Client) {
    accounts(sb, c).await;
    small_transfer_otp_flow_queries_reversal(sb, c).await;
    business_transfer_airtime_bills(sb, c).await;
    swift(sb, c).await;
    fx(sb, c).await;
    cny_express(sb, c).await;
    group_of_applications_one_otp(sb, c).await;
    closing_balance_user_email_requests(sb, c).await;
    onboarding(sb, c).await;
}
