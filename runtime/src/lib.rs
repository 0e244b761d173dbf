//! baas-runtime
