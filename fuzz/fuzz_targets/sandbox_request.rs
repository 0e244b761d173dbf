#![no_main]
use std::sync::OnceLock;

static SANDBOX: OnceLock<baas_sandbox::Offline> = OnceLock::new();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let sandbox = SANDBOX.get_or_init(|| baas_sandbox::Offline::new());
    baas_tests::fuzz_bodies::sandbox_request(sandbox, data);
});
