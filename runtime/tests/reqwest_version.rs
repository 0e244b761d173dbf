//! `HttpsTransport::from_client` takes the runtime's own reqwest: its rustdoc and the
//! README say which major version that is, and say the one in `Cargo.toml`.

fn read(path: &str) -> String {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

#[test]
fn the_reqwest_version_from_client_takes_is_written_where_partners_read() {
    let manifest = read("Cargo.toml");
    let line = manifest
        .lines()
        .find(|l| l.starts_with("reqwest ="))
        .expect("reqwest in runtime/Cargo.toml");
    let version = line
        .split("version = \"")
        .nth(1)
        .and_then(|v| v.split('"').next())
        .expect("a version");
    let said = format!("reqwest {version}");
    let transport = read("src/transport.rs");
    let doc = transport
        .split("pub fn from_client")
        .next()
        .and_then(|head| head.rsplit("\n\n").next())
        .expect("from_client's rustdoc");
    assert!(
        doc.contains(&said),
        "from_client's rustdoc does not say {said:?}:\n{doc}"
    );
    let readme = read("../README.md");
    let at = readme
        .find("from_client(")
        .expect("README names from_client");
    let paragraph = &readme[at..at + 400.min(readme.len() - at)];
    assert!(
        paragraph.contains(&said),
        "README beside from_client does not say {said:?}"
    );
    assert!(
        paragraph.contains("transport::reqwest"),
        "README names no re-export"
    );
}

/// The re-export is the reqwest `from_client` takes: this compiles only then.
#[test]
fn the_re_exported_reqwest_builds_a_client_from_client_takes() {
    use baas_runtime::transport::{reqwest, HttpsTransport};
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let _ = HttpsTransport::from_client(client);
}
