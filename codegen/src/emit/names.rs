//! Rust identifiers, literals and type paths built from model names.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use super::EmitError;
use crate::model::{DecimalWire, TypeRef};

/// An identifier from a model name; `r#type` becomes a raw identifier.
pub fn ident(name: &str) -> Result<Ident, EmitError> {
    if let Some(raw) = name.strip_prefix("r#") {
        if raw.is_empty() || !raw.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()) {
            return Err(EmitError::new(format!("`{name}` is not a Rust identifier")));
        }
        return Ok(Ident::new_raw(raw, Span::call_site()));
    }
    syn::parse_str::<Ident>(name)
        .map_err(|e| EmitError::new(format!("`{name}` is not a Rust identifier: {e}")))
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

/// Parses exact decimal text (`-12.50`) into `(mantissa, scale)`.
pub fn decimal_parts(text: &str) -> Result<(i64, u32), EmitError> {
    let bad = || {
        EmitError::new(format!(
            "`{text}` is not a decimal this generator can represent"
        ))
    };
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (int_part, frac_part) = match digits.split_once('.') {
        Some((i, f)) => (i, f),
        None => (digits, ""),
    };
    if int_part.is_empty()
        || !int_part.bytes().all(|b| b.is_ascii_digit())
        || !frac_part.bytes().all(|b| b.is_ascii_digit())
        || frac_part.len() > 28
    {
        return Err(bad());
    }
    let mut mantissa: i64 = 0;
    for b in int_part.bytes().chain(frac_part.bytes()) {
        mantissa = mantissa
            .checked_mul(10)
            .and_then(|m| m.checked_add(i64::from(b - b'0')))
            .ok_or_else(bad)?;
    }
    let scale = u32::try_from(frac_part.len()).map_err(|_| bad())?;
    Ok((if negative { -mantissa } else { mantissa }, scale))
}

/// A `baas_runtime::Amount` constant expression for exact decimal text.
pub fn amount_expr(text: &str) -> Result<TokenStream, EmitError> {
    let (mantissa, scale) = decimal_parts(text)?;
    let m = int_lit(mantissa);
    let s = Literal::u32_unsuffixed(scale);
    Ok(quote!(baas_runtime::Amount::new(#m, #s)))
}

/// Parses integer bound text.
pub fn int_bound(text: &str) -> Result<i64, EmitError> {
    text.trim_start_matches('+')
        .parse::<i64>()
        .map_err(|_| EmitError::new(format!("`{text}` is not an integer bound")))
}

/// The Rust type of a model type (enums and records through `super::`).
pub fn rust_type(ty: &TypeRef) -> Result<TokenStream, EmitError> {
    Ok(match ty {
        TypeRef::String => quote!(String),
        TypeRef::Int => quote!(i32),
        TypeRef::Long => quote!(i64),
        TypeRef::Decimal { .. } => quote!(baas_runtime::Amount),
        TypeRef::Bool => quote!(bool),
        TypeRef::Json => quote!(baas_runtime::RawJson),
        TypeRef::Enum { name } => {
            let id = ident(name)?;
            quote!(super::enums::#id)
        }
        TypeRef::Record { name } => {
            let id = ident(name)?;
            quote!(super::records::#id)
        }
        TypeRef::Array { item } => {
            let inner = rust_type(item)?;
            quote!(Vec<#inner>)
        }
    })
}

/// The serde `with` module a field needs for `wire: number` decimals, if any.
pub fn number_with(
    ty: &TypeRef,
    optional: bool,
    wire_name: &str,
) -> Result<Option<&'static str>, EmitError> {
    let number = |t: &TypeRef| {
        matches!(
            t,
            TypeRef::Decimal {
                wire: DecimalWire::Number
            }
        )
    };
    match ty {
        t if number(t) => Ok(Some(if optional {
            "baas_runtime::amount::option_number"
        } else {
            "baas_runtime::amount::number"
        })),
        TypeRef::Array { item } if number(item) => {
            if optional {
                Err(EmitError::new(format!(
                    "field `{wire_name}`: an optional array of `wire: number` decimals has no serde helper in the runtime"
                )))
            } else {
                Ok(Some("baas_runtime::amount::vec_number"))
            }
        }
        _ => Ok(None),
    }
}
