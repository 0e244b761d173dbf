//! The `baas` binary against the sandbox, as a user runs it: a paged list with `--all`, an
//! OTP transfer waited for with `--wait`, `--otp` settling a confirmation whose request or
//! answer was lost, the exit codes of a refused call, of one never sent and of a dropped
//! answer, and `--dry-run` bytes the service accepts as signed.

mod common;

use baas_runtime::{sign, PrivateKey};
use baas_sandbox::{Sandbox, DEFAULT_KEY};
use common::{call, seen, transfer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_otp_transfer_confirmed_and_waited_for_moves_the_money() {
    let sandbox = Sandbox::start().await.unwrap();
    let before = sandbox.balance("1000000004").unwrap();
    let mut args = transfer("120.50");
    args.push("--otp".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let applied = call(&sandbox, &args).await;
    assert_eq!(applied.code, 0, "{}", applied.stderr);
    let answer: serde_json::Value = serde_json::from_str(&applied.stdout).unwrap();
    let tx = answer["txId"].as_str().unwrap().to_owned();
    assert!(applied.stderr.contains("OTP sent"), "{}", applied.stderr);
    assert!(
        applied
            .stderr
            .contains(&format!("application {tx} confirmed")),
        "{}",
        applied.stderr
    );
    assert_eq!(seen(&sandbox, "confirmOperation"), 1);

    let waited = call(
        &sandbox,
        &[
            "transfers",
            "get-trans-result",
            "--tx-id",
            &tx,
            "--wait",
            "--format",
            "json",
        ],
    )
    .await;
    assert_eq!(waited.code, 0, "{}", waited.stderr);
    let result: serde_json::Value = serde_json::from_str(&waited.stdout).unwrap();
    assert_eq!(result["txStatus"], 8);
    assert_eq!(
        result["amount"], "120.50",
        "money printed as its exact text"
    );
    assert!(
        waited.stderr.contains("state 8 (final)"),
        "{}",
        waited.stderr
    );
    let after = sandbox.balance("1000000004").unwrap();
    assert_eq!(
        after,
        before.checked_add("120.50".parse().unwrap()).unwrap()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn all_follows_every_page_as_json_lines() {
    let sandbox = Sandbox::start().await.unwrap();
    for _ in 0..4 {
        let args = transfer("1.00");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(call(&sandbox, &args).await.code, 0);
    }
    let listed = call(
        &sandbox,
        &[
            "transfers",
            "get-trans-list",
            "--account-id",
            "1000000001",
            "--tx-type",
            "[]",
            "--tx-status",
            "[]",
            "--start-time",
            "0",
            "--end-time",
            "9999999999999",
            "--page-size",
            "2",
            "--order-by-desc",
            "1",
            "--all",
        ],
    )
    .await;
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let lines: Vec<serde_json::Value> = listed
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    // The seeded transaction and the four applied.
    assert_eq!(lines.len(), 5, "{}", listed.stdout);
    let mut ids: Vec<&str> = lines.iter().filter_map(|l| l["txId"].as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 5, "every item once");
    assert_eq!(seen(&sandbox, "getTransList"), 3, "pages of 2: 2, 2, 1");
}

/// Sets `fault` on the sandbox's next `confirmOperation`.
fn lose_next_confirmation(sandbox: &Sandbox, fault: &str) {
    let scenario = format!("faults:\n  - operation: confirmOperation\n    fault: {fault}\n");
    for fault in baas_sandbox::faults::scenario::parse("test", &scenario).unwrap() {
        sandbox.inject(fault);
    }
}

/// What `--otp` did on a transfer whose first confirmation met a fault.
struct Settled {
    /// What the command printed.
    ran: common::Ran,
    /// The confirmations and lookups the sandbox saw by the command's end.
    confirmations: usize,
    lookups: usize,
    /// The money the payee received, once the transfer was final.
    received: baas_runtime::Amount,
}

/// `--otp` on a transfer of `amount` whose first confirmation meets `fault`.
async fn otp_transfer_with_lost_confirmation(fault: &str, amount: &str) -> Settled {
    let sandbox = Sandbox::start().await.unwrap();
    let before = sandbox.balance("1000000004").unwrap();
    lose_next_confirmation(&sandbox, fault);
    let mut args = transfer(amount);
    args.push("--otp".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let ran = call(&sandbox, &args).await;
    let confirmations = seen(&sandbox, "confirmOperation");
    let lookups = seen(&sandbox, "getTransResult");
    if ran.code == 0 {
        let answer: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
        let tx = answer["txId"].as_str().unwrap();
        let args = ["transfers", "get-trans-result", "--tx-id", tx, "--wait"];
        let waited = call(&sandbox, &args).await;
        assert_eq!(waited.code, 0, "{}", waited.stderr);
    }
    let after = sandbox.balance("1000000004").unwrap();
    Settled {
        ran,
        confirmations,
        lookups,
        received: after.checked_sub(before).unwrap(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn otp_settles_a_confirmation_that_never_arrived_and_confirms_again() {
    let settled = otp_transfer_with_lost_confirmation("lose_request", "7.25").await;
    let stderr = &settled.ran.stderr;
    assert_eq!(settled.ran.code, 0, "{stderr}");
    assert!(
        stderr.contains("looking it up with getTransResult"),
        "{stderr}"
    );
    assert!(
        stderr.contains("confirming again with the same OTP"),
        "{stderr}"
    );
    assert_eq!(settled.confirmations, 2, "lost once, then confirmed");
    assert_eq!(settled.lookups, 1, "one lookup");
    assert_eq!(
        settled.received,
        "7.25".parse().unwrap(),
        "moved exactly once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn otp_settles_a_confirmation_whose_answer_was_lost_without_confirming_again() {
    let settled = otp_transfer_with_lost_confirmation("drop_answer", "8.50").await;
    let stderr = &settled.ran.stderr;
    assert_eq!(settled.ran.code, 0, "{stderr}");
    assert!(
        stderr.contains("looking it up with getTransResult"),
        "{stderr}"
    );
    assert!(!stderr.contains("confirming again"), "{stderr}");
    assert_eq!(settled.confirmations, 1, "never confirmed twice");
    assert_eq!(settled.lookups, 1, "one lookup");
    assert_eq!(
        settled.received,
        "8.50".parse().unwrap(),
        "moved exactly once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exit_codes_say_not_sent_refused_and_unknown() {
    let sandbox = Sandbox::start().await.unwrap();

    // Three decimal places: the client's own validation, nothing sent.
    let args = transfer("1.001");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let invalid = call(&sandbox, &args).await;
    assert_eq!(invalid.code, 3, "{}", invalid.stderr);
    assert!(invalid.stderr.contains("amount"), "{}", invalid.stderr);
    let missing = call(&sandbox, &["transfers", "apply-for-transfer"]).await;
    assert_eq!(missing.code, 3, "{}", missing.stderr);
    assert!(
        missing.stderr.contains("--payer-account-id"),
        "{}",
        missing.stderr
    );
    assert_eq!(sandbox.requests_seen(), 0, "nothing reached the sandbox");

    // More than the balance: a signed refusal.
    let args = transfer("99999999.00");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let refused = call(&sandbox, &args).await;
    assert_eq!(refused.code, 4, "{}", refused.stderr);
    assert!(refused.stderr.contains("14009"), "{}", refused.stderr);

    // The answer dropped after the effect: outcome unknown, never re-sent, and the
    // query that tells is named.
    let faults = baas_sandbox::faults::scenario::parse(
        "test",
        "faults:\n  - operation: applyForTransfer\n    fault: drop_answer\n",
    )
    .unwrap();
    for fault in faults {
        sandbox.inject(fault);
    }
    let before = seen(&sandbox, "applyForTransfer");
    let args = transfer("2.00");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let unknown = call(&sandbox, &args).await;
    assert_eq!(unknown.code, 5, "{}", unknown.stderr);
    assert_eq!(seen(&sandbox, "applyForTransfer"), before + 1, "sent once");
    assert!(
        unknown.stderr.contains("baas transfers get-trans-result"),
        "{}",
        unknown.stderr
    );
    assert!(unknown.stderr.contains("requestId"), "{}", unknown.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_prints_the_bytes_the_client_signs() {
    let sandbox = Sandbox::start().await.unwrap();
    let args = transfer("3.25");
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    args.extend(["--dry-run", "--envelope-request-id", "cli-dry-run-1"]);
    let dry = call(&sandbox, &args).await;
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert_eq!(sandbox.requests_seen(), 0, "a dry run sends nothing");
    let body = dry.bytes.strip_suffix(b"\n").unwrap().to_vec();
    let key = PrivateKey::new(DEFAULT_KEY);
    sign::verify(&body, &key).expect("signed with the key");
    assert!(!dry.stderr.contains(DEFAULT_KEY), "the key is redacted");
    assert!(
        dry.stderr.contains("senderKey=[redacted]"),
        "{}",
        dry.stderr
    );
    let envelope: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(envelope["requestId"], "cli-dry-run-1");
    assert_eq!(envelope["params"]["amount"], "3.25");

    // Those exact bytes, sent as they are, are a request the service accepts.
    let url = format!("{}/trans/v2/applyForTransfer", sandbox.base_url());
    let answer = baas_runtime::transport::reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let answer: serde_json::Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(answer["code"], "00000", "{answer}");
    assert_eq!(answer["requestId"], "cli-dry-run-1");
}
