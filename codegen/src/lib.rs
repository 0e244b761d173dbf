//! `baas-codegen`: spec → checked model → emitted tokens → formatted files.

pub mod model;
