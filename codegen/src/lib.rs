//! `baas-codegen`: spec → checked model → emitted tokens → formatted files.

pub mod model;
pub mod emit;
pub mod format;
pub mod write;
