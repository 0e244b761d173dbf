//! Faults on the answers (issue 23 item 1), each against the generated client: a lost
//! or late answer of a money call is `OutcomeUnknown`, not re-sent, and the lookup
//! shows what happened; a busy query is retried; an unsigned, wrongly signed or altered
//! answer is refused.

mod common;

use std::time::Duration;

use baas_client::enums::{Currency, OtpType};
use baas_client::otp::*;
use baas_client::transfers::*;
use baas_client::{Client, ErrorKind, RawJson};
use baas_sandbox::faults::{scenario, AnswerFault, Fault};
use baas_sandbox::{Sandbox, SandboxConfig};
use common::amount;

const PAYER: &str = "1000000001";
const PAYEE: &str = "1000000004";

/// A sandbox with `faults` in force from the start and a client with a 400 ms timeout
/// and quick retries.
async fn start_with(faults: Vec<Fault>) -> (Sandbox, Client) {
    let mut config = SandboxConfig::default();
    config.faults = faults;
    let sandbox = Sandbox::start_with(config).await.expect("sandbox starts");
    let mut client_config = sandbox.client_config();
    client_config.request_timeout = Duration::from_millis(400);
    client_config.retry_backoff = Duration::from_millis(10);
    let client = Client::new(client_config).expect("client builds");
    (sandbox, client)
}

/// A transfer of 1000.50 from PAYER to PAYEE applied for, with its OTP sent.
async fn transfer_awaiting_confirmation(c: &Client) -> String {
    let tx = c
        .apply_for_transfer(ApplyForTransferRequired {
            payer_account_id: PAYER.into(),
            payee_bank_code: "46".into(),
            payee_account_id: "B1002".into(),
            currency: Currency::Kes,
            amount: amount("1000.50"),
        })
        .send()
        .await
        .expect("applyForTransfer")
        .tx_id
        .expect("a txId");
    c.send_otp(SendOtpRequired {
        business_id: tx.clone(),
        otp_type: OtpType::Sms,
    })
    .send()
    .await
    .expect("sendOtp");
    tx
}

fn confirmation(sb: &Sandbox, tx: &str) -> ConfirmOperationRequest {
    ConfirmOperationRequest::new(ConfirmOperationRequired {
        business_id: tx.into(),
        otp_code: sb.otp_for(tx),
    })
}

async fn tx_status(c: &Client, tx: &str) -> Option<baas_client::enums::TxStatus> {
    c.get_trans_result(GetTransResultRequired { tx_id: tx.into() })
        .send()
        .await
        .expect("getTransResult")
        .tx_status
}

/// Requests the sandbox saw for `operation`.
fn calls(sb: &Sandbox, operation: &str) -> usize {
    sb.requests()
        .iter()
        .filter(|r| r.operation.as_deref() == Some(operation))
        .count()
}

/// The confirmation's effect happened once: PAYER lost 1000.50, PAYEE got it, and the
/// totals did not change.
fn moved_once(
    sb: &Sandbox,
    totals_before: &std::collections::BTreeMap<String, baas_client::Amount>,
) {
    assert_eq!(sb.balance(PAYER), Some(amount("248999.50")));
    assert_eq!(sb.balance(PAYEE), Some(amount("101000.50")));
    assert_eq!(&sb.totals(), totals_before);
}

async fn lost_confirmation_is_unknown_then_looked_up(fault: AnswerFault) {
    let (sb, c) = start_with(vec![]).await;
    let totals = sb.totals();
    let tx = transfer_awaiting_confirmation(&c).await;
    sb.inject(Fault::answer("confirmOperation", fault.clone()).when("businessId", &tx));
    let err = c
        .confirm_operation(confirmation(&sb, &tx))
        .send()
        .await
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::OutcomeUnknown { .. }),
        "{fault:?}: {err:?}"
    );
    assert_eq!(calls(&sb, "confirmOperation"), 1, "{fault:?}: re-sent");
    assert_eq!(
        tx_status(&c, &tx).await,
        Some(baas_client::enums::TxStatus::Succeeded)
    );
    moved_once(&sb, &totals);
    assert_eq!(sb.faults()[0].hits, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_confirmation_answer_is_unknown_not_resent_and_looked_up() {
    lost_confirmation_is_unknown_then_looked_up(AnswerFault::DropAnswer).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_confirmation_answer_is_unknown_not_resent_and_looked_up() {
    lost_confirmation_is_unknown_then_looked_up(AnswerFault::Delay(Duration::from_millis(1500)))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_or_busy_query_is_retried_and_succeeds() {
    let (sb, c) = start_with(vec![
        Fault::answer(
            "getBankCodes",
            AnswerFault::Delay(Duration::from_millis(1500)),
        ),
        Fault::answer(
            "getTransResult",
            AnswerFault::Code {
                code: "10001".into(),
                effect: false,
            },
        )
        .times(2),
    ])
    .await;
    let codes = c
        .get_bank_codes(GetBankCodesRequest::new(RawJson::empty_object()))
        .send()
        .await
        .expect("retried");
    assert!(codes.bank_code_list.is_some_and(|l| !l.is_empty()));
    assert_eq!(calls(&sb, "getBankCodes"), 2);

    let tx = transfer_awaiting_confirmation(&c).await;
    // Two busy answers, then the real one (the client retries twice by default).
    assert_eq!(
        tx_status(&c, &tx).await,
        Some(baas_client::enums::TxStatus::Submitted)
    );
    assert_eq!(calls(&sb, "getTransResult"), 3);
    let codes: Vec<_> = sb.requests().iter().map(|r| r.code.clone()).collect();
    assert_eq!(
        codes.iter().filter(|c| *c == "10001").count(),
        2,
        "{codes:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_service_code_with_or_without_the_effect() {
    let (sb, c) = start_with(vec![]).await;
    let totals = sb.totals();
    let tx = transfer_awaiting_confirmation(&c).await;
    // Busy without the effect: a money call is not re-sent; nothing moved.
    sb.inject(Fault::answer(
        "confirmOperation",
        AnswerFault::Code {
            code: "10001".into(),
            effect: false,
        },
    ));
    let err = c
        .confirm_operation(confirmation(&sb, &tx))
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.api_code(), Some("10001"), "{err:?}");
    assert_eq!(calls(&sb, "confirmOperation"), 1);
    assert_eq!(sb.balance(PAYER), Some(amount("250000.00")));
    assert_eq!(
        tx_status(&c, &tx).await,
        Some(baas_client::enums::TxStatus::Submitted)
    );
    // 10000 with the effect: the answer says failure, the lookup says it happened.
    sb.inject(Fault::answer(
        "confirmOperation",
        AnswerFault::Code {
            code: "10000".into(),
            effect: true,
        },
    ));
    let err = c
        .confirm_operation(confirmation(&sb, &tx))
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.api_code(), Some("10000"), "{err:?}");
    assert_eq!(calls(&sb, "confirmOperation"), 2);
    assert_eq!(
        tx_status(&c, &tx).await,
        Some(baas_client::enums::TxStatus::Succeeded)
    );
    moved_once(&sb, &totals);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unsigned_wrongly_signed_and_altered_answers_are_refused() {
    let (sb, c) = start_with(vec![]).await;
    let tx = transfer_awaiting_confirmation(&c).await;
    let query = GetTransResultRequest::new(GetTransResultRequired { tx_id: tx.clone() });
    for fault in [
        AnswerFault::Unsigned,
        AnswerFault::BadSignature,
        AnswerFault::Altered,
    ] {
        sb.inject(Fault::answer("getTransResult", fault.clone()));
        let err = c.get_trans_result(query.clone()).send().await.unwrap_err();
        match (&fault, err.kind()) {
            (AnswerFault::Unsigned, ErrorKind::SignatureMissing)
            | (AnswerFault::BadSignature | AnswerFault::Altered, ErrorKind::SignatureInvalid) => {}
            (_, other) => panic!("{fault:?}: {other:?}"),
        }
    }
    assert_eq!(
        calls(&sb, "getTransResult"),
        3,
        "refused answers are not retried"
    );
    // The faults were for one call each: the next answer is sound.
    assert!(c.get_trans_result(query).send().await.is_ok());
    // A money call answered unsigned has an unknown outcome (the effect happened).
    let totals = sb.totals();
    sb.inject(Fault::answer("confirmOperation", AnswerFault::Altered));
    let err = c
        .confirm_operation(confirmation(&sb, &tx))
        .send()
        .await
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::OutcomeUnknown { .. }),
        "{err:?}"
    );
    assert_eq!(
        tx_status(&c, &tx).await,
        Some(baas_client::enums::TxStatus::Succeeded)
    );
    moved_once(&sb, &totals);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fault_matching_a_parameter_spares_other_values() {
    let (sb, c) = start_with(vec![Fault::answer(
        "applyForTransfer",
        AnswerFault::Unsigned,
    )
    .when("payerAccountId", "1000000002")
    .times(5)])
    .await;
    // PAYER is not 1000000002: untouched.
    transfer_awaiting_confirmation(&c).await;
    assert_eq!(sb.faults()[0].hits, 0);
    assert_eq!(sb.faults()[0].remaining, Some(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seeded_probability_hits_the_same_calls_in_every_run() {
    let run = || async {
        let (sb, c) = start_with(vec![Fault::answer(
            "getBankCodes",
            AnswerFault::Code {
                code: "10002".into(),
                effect: false,
            },
        )
        .probability(0.5, 11)])
        .await;
        let mut client_config = sb.client_config();
        client_config.max_retries = 0;
        let c0 = Client::new(client_config).unwrap();
        drop(c);
        let mut pattern = Vec::new();
        for _ in 0..16 {
            pattern.push(
                c0.get_bank_codes(GetBankCodesRequest::new(RawJson::empty_object()))
                    .send()
                    .await
                    .is_ok(),
            );
        }
        pattern
    };
    let first = run().await;
    assert_eq!(first, run().await);
    assert!(first.contains(&true) && first.contains(&false), "{first:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scenario_file_loses_a_confirmation_answer() {
    let faults = scenario::parse(
        "lose.yaml",
        "faults:\n  - operation: confirmOperation\n    fault: drop_answer\n",
    )
    .unwrap();
    let (sb, c) = start_with(faults).await;
    let totals = sb.totals();
    let tx = transfer_awaiting_confirmation(&c).await;
    let err = c
        .confirm_operation(confirmation(&sb, &tx))
        .send()
        .await
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::OutcomeUnknown { .. }),
        "{err:?}"
    );
    assert_eq!(calls(&sb, "confirmOperation"), 1);
    assert_eq!(
        tx_status(&c, &tx).await,
        Some(baas_client::enums::TxStatus::Succeeded)
    );
    moved_once(&sb, &totals);
}

#[test]
fn the_command_refuses_a_bad_scenario_naming_its_line() {
    let dir = std::env::temp_dir().join(format!("baas-sandbox-scenario-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.yaml");
    std::fs::write(
        &file,
        "faults:\n  - operation: confirmOperation\n    fault: drop_answer\n  - operation: confirmOperation\n    fault: vanish\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_baas-sandbox"))
        .arg("--scenario")
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.yaml:4: faults[1]: unknown fault `vanish`"),
        "{err}"
    );
}
