#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| baas_tests::fuzz_bodies::sandbox_request(data));
