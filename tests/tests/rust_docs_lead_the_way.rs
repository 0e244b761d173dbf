//! The generated Rust client's docs show partners the short way (issue 34 item 7): a
//! nested request record needs one name (`OrderItemRequired { .. }.into()`, not
//! `OrderItem::new(OrderItemRequired { .. })`), and `group_applications` says that
//! `.pending()` finishes the group it makes. Read from the checked-in generated source,
//! which `generated_is_fresh` keeps equal to what the generator emits.

use baas_client::records::{OrderItem, OrderItemRequired};
use baas_client::Amount;

fn generated(file: &str) -> String {
    let path = format!("{}/../generated/src/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The rustdoc of the client method `method` (the `///` lines above its `pub fn`).
fn method_doc(client: &str, method: &str) -> String {
    let at = client
        .find(&format!("pub fn {method}("))
        .unwrap_or_else(|| panic!("no method {method}"));
    let head = &client[..at];
    let lines: Vec<&str> = head
        .lines()
        .rev()
        .skip(1)
        .take_while(|l| l.trim_start().starts_with("///"))
        .collect();
    lines.into_iter().rev().collect::<Vec<_>>().join("\n")
}

#[test]
fn nested_request_records_are_written_with_one_name() {
    let client = generated("client.rs");
    for record in ["OrderItem", "MobileDetail"] {
        let two_names = format!("records::{record}::new(baas_client::records::{record}Required");
        assert!(
            !client.contains(&two_names),
            "an example still writes {two_names}"
        );
        assert!(
            client.contains(&format!("vec![baas_client::records::{record}Required {{")),
            "no one-name example of {record}"
        );
    }
    let records = generated("records.rs");
    assert!(records.contains("vec![OrderItemRequired { .. }.into()]"));
    // What the examples write compiles, as a `Vec<OrderItem>` field takes it.
    let items: Vec<OrderItem> = vec![OrderItemRequired {
        product_name: "Phone".into(),
        quantity: 1,
        amount: Amount::new(150, 0),
        order_time: 1_700_000_000_000,
        platform: "shop".into(),
    }
    .into()];
    assert_eq!(items[0].product_name, "Phone");
}

#[test]
fn group_applications_says_pending_finishes_the_group() {
    let doc = method_doc(&generated("client.rs"), "group_applications");
    assert!(doc.contains("`.pending().await`"), "{doc}");
    assert!(doc.contains("group_pending"), "{doc}");
}
