//! Random concurrent transfers through the generated client: money is conserved
//! (every currency's total, customers plus fees plus outside world, is unchanged) and
//! no customer balance goes negative. The workers are tokio tasks on a multi-thread
//! runtime sharing one client, and the test checks that calls really overlapped.

mod common;

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use baas_client::enums::{Currency, OtpType};
use baas_client::otp::{ConfirmOperationRequired, SendOtpRequired};
use baas_client::transfers::{ApplyForTransferRequest, ApplyForTransferRequired};
use baas_client::{Amount, Client};
use common::{amount, start, Rng};

const KES_ACCOUNTS: [&str; 4] = ["1000000001", "1000000003", "1000000004", "2000000002"];
const BANKS: [&str; 3] = ["46", "46", "M-PESA"];

/// Calls in flight now, and the most seen at once.
#[derive(Default)]
struct InFlight {
    now: AtomicUsize,
    max: AtomicUsize,
}

impl InFlight {
    async fn track<F: Future>(&self, call: F) -> F::Output {
        let n = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.max.fetch_max(n, Ordering::SeqCst);
        let out = call.await;
        self.now.fetch_sub(1, Ordering::SeqCst);
        out
    }
}

async fn worker(
    client: Arc<Client>,
    sandbox: Arc<baas_sandbox::Sandbox>,
    in_flight: Arc<InFlight>,
    start: Arc<tokio::sync::Barrier>,
    seed: u64,
    rounds: u32,
) -> (u32, u32) {
    let mut rng = Rng(seed);
    // Every worker starts its first call together with the others.
    start.wait().await;
    let (mut done, mut refused) = (0, 0);
    for _ in 0..rounds {
        let payer = rng.pick(&KES_ACCOUNTS);
        let payee = rng.pick(&KES_ACCOUNTS);
        let bank = rng.pick(&BANKS);
        if payer == payee && bank == "46" {
            continue;
        }
        // 0.01 .. 2000.00, sometimes more than the small accounts hold.
        let value = amount(&rng.cents(200_000));
        let request = ApplyForTransferRequest::new(ApplyForTransferRequired {
            payer_account_id: payer.into(),
            payee_bank_code: bank.into(),
            payee_account_id: payee.into(),
            currency: Currency::Kes,
            amount: value,
        });
        let tx = match in_flight
            .track(client.apply_for_transfer(request).send())
            .await
        {
            Ok(r) => r.tx_id.unwrap(),
            Err(e) => {
                assert_eq!(e.api_code(), Some("14009"), "{e}");
                refused += 1;
                continue;
            }
        };
        in_flight
            .track(
                client
                    .send_otp(SendOtpRequired {
                        business_id: tx.clone(),
                        otp_type: OtpType::Sms,
                    })
                    .send(),
            )
            .await
            .unwrap();
        let otp = sandbox.otp_for(&tx);
        match in_flight
            .track(
                client
                    .confirm_operation(ConfirmOperationRequired {
                        business_id: tx.clone(),
                        otp_code: otp,
                    })
                    .send(),
            )
            .await
        {
            Ok(_) => done += 1,
            // Another worker spent the money between application and confirmation.
            Err(e) => {
                assert_eq!(e.api_code(), Some("14009"), "{e}");
                refused += 1;
            }
        }
    }
    (done, refused)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn money_is_conserved_across_random_concurrent_transfers() {
    let (sandbox, client) = start().await;
    let before = sandbox.totals();
    let customers_before: Amount = KES_ACCOUNTS
        .iter()
        .map(|a| sandbox.balance(a).unwrap())
        .fold(Amount::ZERO, |x, y| x.checked_add(y).unwrap());
    let (sandbox, client) = (Arc::new(sandbox), Arc::new(client));
    let in_flight = Arc::new(InFlight::default());
    const WORKERS: usize = 8;
    let start = Arc::new(tokio::sync::Barrier::new(WORKERS));
    let tasks: Vec<_> = (0..WORKERS as u64)
        .map(|i| {
            tokio::spawn(worker(
                client.clone(),
                sandbox.clone(),
                in_flight.clone(),
                start.clone(),
                0x9E37_79B9_7F4A_7C15 ^ (i + 1),
                25,
            ))
        })
        .collect();
    let (mut done, mut refused) = (0, 0);
    for t in tasks {
        let (d, r) = t.await.unwrap();
        done += d;
        refused += r;
    }
    assert!(done > 50, "only {done} transfers went through");
    let overlap = in_flight.max.load(Ordering::SeqCst);
    assert!(
        overlap >= 2,
        "calls never overlapped (at most {overlap} in flight): the run was sequential"
    );
    assert!(
        refused > 0,
        "the small wallet never ran dry: the test did not exercise refusals"
    );
    assert_eq!(sandbox.totals(), before);
    for a in KES_ACCOUNTS {
        assert!(
            sandbox.balance(a).unwrap() >= Amount::ZERO,
            "{a} went negative"
        );
    }
    // Money that left the customers is exactly what the fee and payout accounts hold.
    let customers_after: Amount = KES_ACCOUNTS
        .iter()
        .map(|a| sandbox.balance(a).unwrap())
        .fold(Amount::ZERO, |x, y| x.checked_add(y).unwrap());
    let left = sandbox
        .balance("SYS-FEES-KES")
        .unwrap()
        .checked_add(sandbox.balance("SYS-OUTSIDE-KES").unwrap())
        .unwrap();
    assert_eq!(customers_after.checked_add(left), Some(customers_before));
    assert!(left > amount("0"));
}
