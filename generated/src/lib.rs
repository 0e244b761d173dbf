//! baas-client (generated)
