//! baas-sandbox: an in-memory sandbox of the BaaS partner API on loopback.

pub mod bank;
pub mod error;
pub mod json;
pub mod ops;
pub mod seed;
pub mod signing;
