//! Figures reported for a past day: closing balances are what the ledger held when the
//! day ended, not the balance when the report is asked for.

use baas_client::notifications::Payload;
use serde_json::json;

use super::{transfer, NOW, T};
use crate::bank::DAY_MS;

/// The closing balances notification 0015 reports for `date`: (accountId, balance).
fn closing_balances(t: &mut T, date: &str) -> Vec<(String, String)> {
    t.ok("queryClosingBalance", json!({ "queryDate": date }));
    let outbox = t.bank.take_outbox();
    let [out] = outbox.as_slice() else {
        panic!("one notification expected: {outbox:?}");
    };
    let Payload::ClosingBalances(report) = &out.payload else {
        panic!("not a closing balance report: {out:?}");
    };
    assert_eq!(
        report.query_date.map(|d| d.to_string()).as_deref(),
        Some(date)
    );
    report
        .balances
        .clone()
        .unwrap_or_default()
        .into_iter()
        .map(|b| {
            (
                b.account_id.unwrap_or_default(),
                b.closing_balance.map(|a| a.to_string()).unwrap_or_default(),
            )
        })
        .collect()
}

fn of<'a>(balances: &'a [(String, String)], account: &str) -> &'a str {
    balances
        .iter()
        .find(|(a, _)| a == account)
        .map_or("(absent)", |(_, b)| b.as_str())
}

#[test]
fn closing_balances_are_what_the_ledger_held_when_the_day_ended() {
    // NOW is 2025-06-15 (UTC).
    let mut t = T::new();
    let first = t.ok(
        "applyForTransfer",
        transfer("1000000001", "1000000004", "1000"),
    );
    t.confirm(first["txId"].as_str().unwrap());
    t.now = NOW + DAY_MS; // 2025-06-16
    let second = t.ok(
        "applyForTransfer",
        transfer("1000000001", "1000000004", "500"),
    );
    t.confirm(second["txId"].as_str().unwrap());
    t.now = NOW + 3 * DAY_MS; // 2025-06-18: both days have ended
    assert_eq!(t.bal("1000000001").to_string(), "248500.00");

    let before = closing_balances(&mut t, "2025-06-14");
    assert_eq!(of(&before, "1000000001"), "250000.00");
    assert_eq!(of(&before, "1000000004"), "100000.00");
    let day_one = closing_balances(&mut t, "2025-06-15");
    assert_eq!(of(&day_one, "1000000001"), "249000.00");
    assert_eq!(of(&day_one, "1000000004"), "101000.00");
    let day_two = closing_balances(&mut t, "2025-06-16");
    assert_eq!(of(&day_two, "1000000001"), "248500.00");
    assert_eq!(of(&day_two, "1000000004"), "101500.00");
    // A day with no change holds the day before's figures; an account untouched
    // keeps its seeded balance.
    let day_three = closing_balances(&mut t, "2025-06-17");
    assert_eq!(day_three, day_two);
    assert_eq!(of(&day_one, "1000000002"), "5000.00");
    // Before the seeded accounts were opened (2024-01-01) there is nothing to report.
    assert!(closing_balances(&mut t, "2023-12-31").is_empty());
}
