//! Rust identifiers, literals and type paths built from model names. The checker has
//! already made every name a valid identifier (keywords as `r#…`), so nothing here fails.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use crate::model::{DecimalWire, Number, TypeRef};
pub use crate::plan::Direction;

/// An identifier from a checked model name; `r#type` becomes a raw identifier.
pub fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

/// The name without a raw-identifier prefix (`r#type` -> `type`).
pub fn plain(name: &str) -> &str {
    name.strip_prefix("r#").unwrap_or(name)
}

/// An `i64` expression (negative values as a negated literal).
pub fn int_lit(value: i64) -> TokenStream {
    let abs = Literal::u64_unsuffixed(value.unsigned_abs());
    if value < 0 {
        quote!(-#abs)
    } else {
        quote!(#abs)
    }
}

/// A `u64` literal.
pub fn u64_lit(value: u64) -> Literal {
    Literal::u64_unsuffixed(value)
}

/// A `baas_runtime::Amount` constant expression for an exact checked number.
pub fn amount_expr(n: Number) -> TokenStream {
    let m = int_lit(n.mantissa);
    let s = Literal::u32_unsuffixed(n.scale);
    quote!(baas_runtime::Amount::new(#m, #s))
}

/// The Rust type of a model type (enums and records through `super::`).
pub fn rust_type(ty: &TypeRef, direction: Direction) -> TokenStream {
    match ty {
        TypeRef::String => quote!(String),
        TypeRef::Int => quote!(i32),
        TypeRef::Long => quote!(i64),
        TypeRef::Decimal { .. } => quote!(baas_runtime::Amount),
        TypeRef::Bool => quote!(bool),
        TypeRef::Date => quote!(baas_runtime::Date),
        TypeRef::Scalar => quote!(baas_runtime::Scalar),
        TypeRef::Json => quote!(baas_runtime::RawJson),
        TypeRef::Enum { name } => {
            let id = ident(name);
            quote!(super::enums::#id)
        }
        TypeRef::Record {
            name,
            received_name,
        } => {
            let id = ident(match direction {
                Direction::Sent => name,
                Direction::Received => received_name,
            });
            quote!(super::records::#id)
        }
        TypeRef::Array { item } => {
            let inner = rust_type(item, direction);
            quote!(Vec<#inner>)
        }
    }
}

/// The serde `with` module a field needs for `wire: number` decimals, if any.
pub fn number_with(ty: &TypeRef, optional: bool) -> Option<&'static str> {
    let number = |t: &TypeRef| {
        matches!(
            t,
            TypeRef::Decimal {
                wire: DecimalWire::Number
            }
        )
    };
    match ty {
        t if number(t) => Some(if optional {
            "baas_runtime::amount::option_number"
        } else {
            "baas_runtime::amount::number"
        }),
        TypeRef::Array { item } if number(item) => Some(if optional {
            "baas_runtime::amount::option_vec_number"
        } else {
            "baas_runtime::amount::vec_number"
        }),
        _ => None,
    }
}
