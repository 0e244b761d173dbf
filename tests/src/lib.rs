//! Tests of the generator and across crates (see `tests/tests/`).
//!
//! [`fixtures`] holds the generator's output for the small specs in
//! `tests/fixtures/gen/`: checked in and compiled here, so the snapshot tests compare
//! them with a fresh render *and* the compiler checks that they build.

pub mod fixtures;

/// The Rust examples of the root `README.md`, compiled (and the sandbox one run) by
/// `cargo test`, so the partner's first call cannot drift from the generated API.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeExamples;
