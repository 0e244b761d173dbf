//! The generated client against the sandbox over HTTP on loopback: every operation at
//! least once, and the OTP flows. The groups are in `operations/`.

mod common;
mod operations;

use std::collections::BTreeSet;

use common::start;
use operations::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_on_a_fresh_sandbox() {
    let (sb, c) = start().await;
    accounts(&sb, &c).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn small_transfer_otp_flow_queries_reversal_on_a_fresh_sandbox() {
    let (sb, c) = start().await;
    small_transfer_otp_flow_queries_reversal(&sb, &c).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn business_transfer_airtime_bills_on_a_fresh_sandbox() {
    let (sb, c) = start().await;
    business_transfer_airtime_bills(&sb, &c).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swift_on_a_fresh_sandbox() {
    let (sb, c) = start().await;
    swift(&sb, &c).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fx_on_a_fresh_sandbox() {
    let (sb, c) = start().await;
    fx(&sb, &c).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cny_express_on_a_fresh_sandbox() {
    let (sb, c) = start().await;
    cny_express(&sb, &c).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn group_of_applications_one_otp_on_a_fresh_sandbox() {
    let (sb, c) = start().await;
    group_of_applications_one_otp(&sb, &c).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_balance_user_email_requests_on_a_fresh_sandbox() {
    let (sb, c) = start().await;
    closing_balance_user_email_requests(&sb, &c).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn onboarding_on_a_fresh_sandbox() {
    let (sb, c) = start().await;
    onboarding(&sb, &c).await;
}

/// Every group in turn on one sandbox, then: every operation of the generated client
/// succeeded at least once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_at_least_once() {
    let (sb, c) = start().await;
    every_group(&sb, &c).await;

    // Every operation of the generated client succeeded at least once.
    let succeeded: BTreeSet<String> = sb
        .requests()
        .into_iter()
        .filter(|r| r.code == "00000")
        .filter_map(|r| r.operation)
        .collect();
    let missing: Vec<&str> = baas_client::dispatch::OPERATIONS
        .iter()
        .map(|o| o.name)
        .filter(|n| !succeeded.contains(*n))
        .collect();
    assert!(
        missing.is_empty(),
        "operations never exercised: {missing:?}"
    );
}
