//! Profiles and the embedded sandbox: a call through a profile of the config file with
//! its key from the environment, `baas profile` showing it with the key redacted, a
//! profile without its key refused before anything is sent, and with no profile and no
//! sandbox running, a verified call against a sandbox in the command's own process (the
//! README's first lines).

mod common;

use std::net::TcpListener;

use baas_sandbox::{Sandbox, DEFAULT_KEY, DEFAULT_SENDER};

fn config_file(sandbox: &Sandbox) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("baas-cli-profile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("config.yaml");
    std::fs::write(
        &path,
        format!(
            "default: local\nprofiles:\n  local:\n    base_url: {}\n    sender: {DEFAULT_SENDER}\n    \
             service_sender: baas-sandbox\n    key_env: TEST_BAAS_KEY\n    sandbox: true\n",
            sandbox.base_url()
        ),
    )
    .unwrap();
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_profile_calls_with_its_key_and_shows_it_redacted() {
    let sandbox = Sandbox::start().await.unwrap();
    let config = config_file(&sandbox);

    let mut show = common::baas(&sandbox);
    show.env("BAAS_CONFIG", &config)
        .env("TEST_BAAS_KEY", DEFAULT_KEY)
        .arg("profile");
    let shown = common::run(show).await;
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert!(
        shown.stdout.contains("profile:        local"),
        "{}",
        shown.stdout
    );
    assert!(
        shown.stdout.contains(&sandbox.base_url()),
        "{}",
        shown.stdout
    );
    assert!(
        shown.stdout.contains("[redacted]") && shown.stdout.contains("TEST_BAAS_KEY"),
        "{}",
        shown.stdout
    );
    assert!(
        !shown.stdout.contains(DEFAULT_KEY),
        "the key is never shown"
    );

    let mut get = common::baas(&sandbox);
    get.env("BAAS_CONFIG", &config)
        .env("TEST_BAAS_KEY", DEFAULT_KEY)
        .env("BAAS_SANDBOX_URL", "http://127.0.0.1:9") // not used: the profile is
        .args([
            "account",
            "get-account-details",
            "--account-id",
            "1000000001",
        ]);
    let got = common::run(get).await;
    assert_eq!(got.code, 0, "{}", got.stderr);
    let answer: serde_json::Value = serde_json::from_str(&got.stdout).unwrap();
    assert_eq!(answer["accountId"], "1000000001");
    assert_eq!(sandbox.requests_seen(), 1);

    // No key in the environment: refused before anything is sent.
    let mut keyless = common::baas(&sandbox);
    keyless
        .env("BAAS_CONFIG", &config)
        .env_remove("TEST_BAAS_KEY")
        .args([
            "account",
            "get-account-details",
            "--account-id",
            "1000000001",
        ]);
    let refused = common::run(keyless).await;
    assert_eq!(refused.code, 3, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("TEST_BAAS_KEY"),
        "{}",
        refused.stderr
    );
    assert_eq!(sandbox.requests_seen(), 1);

    // A profile the file does not have.
    let mut unknown = common::baas(&sandbox);
    unknown
        .env("BAAS_CONFIG", &config)
        .args(["--profile", "nope", "profile"]);
    assert_eq!(common::run(unknown).await.code, 1);
    let _ = std::fs::remove_file(config);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_no_profile_and_no_sandbox_running_the_call_is_made_in_process() {
    // Somewhere nothing answers, so no `baas sandbox start` is found.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let sandbox = Sandbox::start().await.unwrap();
    let mut cmd = common::baas(&sandbox);
    cmd.env("BAAS_SANDBOX_URL", &url).args([
        "account",
        "get-account-details",
        "--account-id",
        "1000000001",
        "--format",
        "yaml",
    ]);
    let ran = common::run(cmd).await;
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stdout.contains("accountId: '1000000001'"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stderr.contains("sandbox in this process"),
        "{}",
        ran.stderr
    );
    assert!(ran.stderr.contains("verified answer"), "{}", ran.stderr);
    assert_eq!(sandbox.requests_seen(), 0, "not the test's sandbox");
}
