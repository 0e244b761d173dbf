//! A partner's unit test with the shipped mock (no sandbox, no network): stub what the
//! service answers, run the code under test, check what it sent.
//!
//! ```sh
//! cargo run -p baas-sandbox --example mock_unit_test
//! ```
//! (In a partner's crate this is a `#[tokio::test]` with `baas-client`'s `mock` feature.)

use std::sync::Arc;

use baas_client::account::{GetAccountDetailsRequest, GetAccountDetailsRequired};
use baas_client::mock::{MockTransport, Refusal};
use baas_client::records::Account;
use baas_client::{Client, Config, PrivateKey};

/// The partner's code under test: is the account's balance enough?
async fn can_pay(client: &Client, account: &str, amount: &str) -> Result<bool, baas_client::Error> {
    let details = client
        .get_account_details(GetAccountDetailsRequired {
            account_id: account.into(),
        })
        .send()
        .await?;
    let needed: baas_client::Amount = amount.parse().expect("an amount");
    Ok(details
        .balance
        .is_some_and(|b| b.as_decimal() >= needed.as_decimal()))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let key = PrivateKey::new("unit-test-key");
    let mock = Arc::new(MockTransport::new(key.clone()));
    // A stub answer in one expression: `with_*` on every received type (feature `mock`).
    mock.on::<GetAccountDetailsRequest, _>(|req| {
        Ok::<_, Refusal>(
            Account::default()
                .with_account_id(req.account_id.clone())
                .with_balance(baas_client::Amount::new(10000, 2)),
        )
    });
    let client =
        Client::with_transport(Config::new("https://mock.invalid", "me", key), mock.clone())?;
    assert!(can_pay(&client, "1000000001", "99.99").await?);
    assert!(!can_pay(&client, "1000000001", "100.01").await?);
    let asked = mock.requests_of::<GetAccountDetailsRequest>();
    assert_eq!(asked.len(), 2);
    println!(
        "unit test passed: {} requests, each signed and verified",
        asked.len()
    );
    Ok(())
}
