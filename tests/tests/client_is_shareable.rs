//! The generated client can be cloned into tasks and printed without leaking the key.

use baas_client::{Client, Config, PrivateKey};

fn assert_shareable<T: Clone + Send + Sync + std::fmt::Debug + 'static>() {}

#[test]
fn client_clones_into_tasks_and_debug_hides_the_key() {
    assert_shareable::<Client>();
    let config = Config::new(
        "https://baas.example.com",
        "partner",
        PrivateKey::new("do-not-print-me"),
    );
    let client = Client::new(config).expect("a usable configuration");
    let copy = client.clone();
    let shown = format!("{copy:?}");
    assert!(!shown.contains("do-not-print-me"), "{shown}");
    assert!(shown.contains("partner"), "{shown}");
}
