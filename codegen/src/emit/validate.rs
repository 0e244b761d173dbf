//! Generated validation: one `baas_runtime::Validator` call per client-checked rule,
//! `validate_at` for records used in requests, and the operation constraints.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::docs::condition_text;
use super::names::{amount_expr, ident, int_bound, int_lit, u64_lit};
use super::records::Shape;
use super::EmitError;
use crate::model::{
    Api, Condition, Constraint, ConstraintKind, EnumWireType, Field, Requirement, Rule, RuleKind,
    TypeRef,
};

/// Where validation code runs: in an operation's `validate`, which owns the validator
/// (`let mut v`), or in a record's `validate_at`, which borrows it (`v: &mut Validator`).
/// Both name the path of the value they check `at`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Request,
    Record,
}

impl Ctx {
    /// The validator as the argument of a nested record's `validate_at`.
    fn validator_arg(self) -> TokenStream {
        match self {
            Ctx::Request => quote!(&mut v),
            Ctx::Record => quote!(v),
        }
    }
}

/// How the checks of one value reach it.
enum Place {
    /// `self.<field>`, a value of the field's type.
    Field(Ident),
    /// A binding holding a reference to the value (`value`, `item`).
    Ref(TokenStream),
}

impl Place {
    /// The value as a reference (`&self.x`, `value`).
    fn by_ref(&self) -> TokenStream {
        match self {
            Place::Field(id) => quote!(&self.#id),
            Place::Ref(r) => r.clone(),
        }
    }

    /// The value itself, for `Copy` types (`self.x`, `*value`).
    fn by_value(&self) -> TokenStream {
        match self {
            Place::Field(id) => quote!(self.#id),
            Place::Ref(r) => quote!(*#r),
        }
    }

    /// A method call receiver (`self.x`, `value`): auto-referencing does the rest.
    fn receiver(&self) -> TokenStream {
        match self {
            Place::Field(id) => quote!(self.#id),
            Place::Ref(r) => r.clone(),
        }
    }
}

fn checked(rules: &[Rule]) -> impl Iterator<Item = &RuleKind> {
    rules
        .iter()
        .map(|r| &r.kind)
        .filter(|k| !matches!(k, RuleKind::ServerSide { .. }))
}

/// Checks of one value of scalar (non-array) type `ty` at `place`, whose path is the
/// expression `path` (a `FieldPath`).
fn scalar_checks(
    api: &Api,
    field: &Field,
    ty: &TypeRef,
    place: &Place,
    path: &TokenStream,
    ctx: Ctx,
) -> Result<Vec<TokenStream>, EmitError> {
    let wire = &field.wire_name;
    let mismatch = |kind: &RuleKind| {
        EmitError::new(format!(
            "field `{wire}`: rule {kind:?} does not apply to its type"
        ))
    };
    let value = place.by_ref();
    let mut out = Vec::new();
    for kind in checked(&field.rules) {
        if matches!(kind, RuleKind::MaxItems { .. } | RuleKind::MinItems { .. }) {
            continue; // array-level, handled by the caller
        }
        let stmt = match (ty, kind) {
            (TypeRef::String, RuleKind::MaxChars { max }) => {
                let max = u64_lit(*max);
                quote!(v.max_chars(#path, #value, #max);)
            }
            (TypeRef::String, RuleKind::MinChars { min }) => {
                let min = u64_lit(*min);
                quote!(v.min_chars(#path, #value, #min);)
            }
            (TypeRef::String, RuleKind::Alphanumeric) => {
                quote!(v.alphanumeric(#path, #value);)
            }
            (TypeRef::String, RuleKind::Base64MaxBytes { max }) => {
                let max = u64_lit(*max);
                quote!(v.base64_max_bytes(#path, #value, #max);)
            }
            (TypeRef::Int | TypeRef::Long, RuleKind::Range { min, max }) => {
                let bound = |b: &Option<String>| -> Result<TokenStream, EmitError> {
                    Ok(match b {
                        Some(t) => {
                            let n = int_lit(int_bound(t)?);
                            quote!(Some(#n))
                        }
                        None => quote!(None),
                    })
                };
                let (lo, hi) = (bound(min)?, bound(max)?);
                let val = int_value(ty, place);
                quote!(v.range_int(#path, #val, #lo, #hi);)
            }
            (TypeRef::Int | TypeRef::Long, RuleKind::Positive) => {
                let val = int_value(ty, place);
                quote!(v.positive_int(#path, #val);)
            }
            (TypeRef::Decimal { .. }, RuleKind::Range { min, max }) => {
                let bound = |b: &Option<String>| -> Result<TokenStream, EmitError> {
                    Ok(match b {
                        Some(t) => {
                            let a = amount_expr(t)?;
                            quote!(Some(#a))
                        }
                        None => quote!(None),
                    })
                };
                let (lo, hi) = (bound(min)?, bound(max)?);
                quote!(v.range_amount(#path, #value, #lo, #hi);)
            }
            (TypeRef::Decimal { .. }, RuleKind::Positive) => {
                quote!(v.positive_amount(#path, #value);)
            }
            (TypeRef::Decimal { .. }, RuleKind::Whole) => quote!(v.whole(#path, #value);),
            (TypeRef::Decimal { .. }, RuleKind::DecimalPlaces { places }) => {
                let places = proc_macro2::Literal::u32_unsuffixed(*places);
                quote!(v.decimal_places(#path, #value, #places);)
            }
            (_, kind) => return Err(mismatch(kind)),
        };
        out.push(stmt);
    }
    if let TypeRef::Record { name: record } = ty {
        match api.record(record) {
            Some(_) => {
                let receiver = place.receiver();
                let v = ctx.validator_arg();
                out.push(quote!(#receiver.validate_at(#v, #path);));
            }
            None => {
                return Err(EmitError::new(format!(
                    "field `{wire}`: record `{record}` is not declared"
                )))
            }
        }
    }
    Ok(out)
}

/// An integer value as the `i64` the validator takes.
fn int_value(ty: &TypeRef, place: &Place) -> TokenStream {
    let value = place.by_value();
    match ty {
        TypeRef::Int => quote!(i64::from(#value)),
        _ => value,
    }
}

/// Checks of one field, reading `self.<field>`.
fn field_checks(
    api: &Api,
    field: &Field,
    optional: bool,
    ctx: Ctx,
) -> Result<TokenStream, EmitError> {
    let wire = &field.wire_name;
    let id = ident(&field.rust_name)?;
    let path = quote!(at.field(#wire));
    // An optional field is checked inside `if let Some(value) = &self.<field>`.
    let place = if optional {
        Place::Ref(quote!(value))
    } else {
        Place::Field(id.clone())
    };
    let mut stmts = Vec::new();
    match &field.ty {
        TypeRef::Array { item } => {
            let array = place.receiver();
            for kind in checked(&field.rules) {
                match kind {
                    RuleKind::MaxItems { max } => {
                        let max = u64_lit(*max);
                        stmts.push(quote!(v.max_items(#path, #array.len(), #max);));
                    }
                    RuleKind::MinItems { min } => {
                        let min = u64_lit(*min);
                        stmts.push(quote!(v.min_items(#path, #array.len(), #min);));
                    }
                    _ => {}
                }
            }
            let element_path = quote!(at.field(#wire).index(i));
            let element = scalar_checks(
                api,
                field,
                item,
                &Place::Ref(quote!(item)),
                &element_path,
                ctx,
            )?;
            if !element.is_empty() {
                stmts.push(quote! {
                    for (i, item) in #array.iter().enumerate() {
                        #(#element)*
                    }
                });
            }
        }
        ty => stmts.extend(scalar_checks(api, field, ty, &place, &path, ctx)?),
    }
    let mut out = TokenStream::new();
    if optional && field.required == Requirement::Required {
        // A record sent and received: stored as an Option, required when sent.
        let present = present_expr(field, true)?;
        out.extend(quote!(v.required(#path, #present);));
    }
    if !optional && field.required == Requirement::Required && field.ty == TypeRef::String {
        // `new` makes a required string impossible to omit, but not to leave empty: an
        // empty account id or name is as missing as an absent one.
        let present = present_expr(field, false)?;
        out.extend(quote!(v.required(#path, #present);));
    }
    if stmts.is_empty() {
        return Ok(out);
    }
    out.extend(if optional {
        quote! {
            if let Some(value) = &self.#id {
                #(#stmts)*
            }
        }
    } else {
        quote!(#(#stmts)*)
    });
    Ok(out)
}

/// Whether a field is present: set, and for strings non-empty.
fn present_expr(field: &Field, optional: bool) -> Result<TokenStream, EmitError> {
    let id = ident(&field.rust_name)?;
    Ok(match (&field.ty, optional) {
        (TypeRef::String, true) => quote!(self.#id.as_deref().is_some_and(|s| !s.is_empty())),
        (_, true) => quote!(self.#id.is_some()),
        (TypeRef::String, false) => quote!(!self.#id.is_empty()),
        (_, false) => quote!(true),
    })
}

/// `validate_at` of a record used in requests.
pub fn record_validate_at(
    api: &Api,
    fields: &[Field],
    shape: Shape,
) -> Result<TokenStream, EmitError> {
    let mut body = TokenStream::new();
    for field in fields {
        body.extend(field_checks(
            api,
            field,
            shape.is_option(field),
            Ctx::Record,
        )?);
    }
    let (v, at) = if body.is_empty() {
        (quote!(_v), quote!(_at))
    } else {
        (quote!(v), quote!(at))
    };
    Ok(quote! {
        /// Checks this record's client-side rules; `at` is where the record sits in the request.
        pub(crate) fn validate_at(&self, #v: &mut baas_runtime::Validator, #at: baas_runtime::FieldPath<'_>) {
            #body
        }
    })
}

/// The body of an operation's `validate`: field rules then constraints.
pub fn request_validate_body(
    api: &Api,
    fields: &[Field],
    constraints: &[Constraint],
) -> Result<TokenStream, EmitError> {
    let mut body = TokenStream::new();
    for field in fields {
        body.extend(field_checks(
            api,
            field,
            Shape::Request.is_option(field),
            Ctx::Request,
        )?);
    }
    for constraint in constraints {
        body.extend(constraint_check(api, fields, constraint)?);
    }
    if body.is_empty() {
        return Ok(quote!(Ok(())));
    }
    Ok(quote! {
        let mut v = baas_runtime::Validator::new();
        let at = baas_runtime::FieldPath::ROOT;
        #body
        v.finish()
    })
}

fn param<'a>(fields: &'a [Field], wire: &str) -> Result<&'a Field, EmitError> {
    fields.iter().find(|f| f.wire_name == wire).ok_or_else(|| {
        EmitError::new(format!(
            "constraint names `{wire}`, which is not a parameter"
        ))
    })
}

fn constraint_check(api: &Api, fields: &[Field], c: &Constraint) -> Result<TokenStream, EmitError> {
    let presence = |names: &[String]| -> Result<Vec<TokenStream>, EmitError> {
        names
            .iter()
            .map(|n| {
                let f = param(fields, n)?;
                let present = present_expr(f, Shape::Request.is_option(f))?;
                Ok(quote!((#n, #present)))
            })
            .collect()
    };
    Ok(match &c.kind {
        ConstraintKind::RequiredIf { field, when } => {
            let f = param(fields, field)?;
            let present = present_expr(f, Shape::Request.is_option(f))?;
            let holds = condition_expr(api, fields, when)?;
            let text = condition_text(when);
            quote!(v.required_if(at.field(#field), #present, #holds, #text);)
        }
        ConstraintKind::AtLeastOneOf { fields: names } => {
            let pairs = presence(names)?;
            quote!(v.at_least_one_of(at, &[#(#pairs),*]);)
        }
        ConstraintKind::ExactlyOneOf { fields: names } => {
            let pairs = presence(names)?;
            quote!(v.exactly_one_of(at, &[#(#pairs),*]);)
        }
        ConstraintKind::ServerSide { .. } => quote!(),
    })
}

fn condition_expr(
    api: &Api,
    fields: &[Field],
    condition: &Condition,
) -> Result<TokenStream, EmitError> {
    match condition {
        Condition::Equals { field, value } => {
            let f = param(fields, field)?;
            let id = ident(&f.rust_name)?;
            let optional = Shape::Request.is_option(f);
            let bad = || {
                EmitError::new(format!(
                    "condition on `{field}`: `{value}` does not fit its type"
                ))
            };
            Ok(match &f.ty {
                TypeRef::Enum { name } => {
                    let def = api
                        .enum_def(name)
                        .ok_or_else(|| EmitError::new(format!("enum `{name}` is not declared")))?;
                    // Compared on the wire value, so a hand-built `Unknown("1")` counts too.
                    let test = |x: TokenStream| -> Result<TokenStream, EmitError> {
                        Ok(match def.wire_type {
                            EnumWireType::String => quote!(#x.as_str() == #value),
                            EnumWireType::Integer => {
                                let n = int_lit(int_bound(value).map_err(|_| bad())?);
                                quote!(#x.as_i64() == #n)
                            }
                        })
                    };
                    if optional {
                        let test = test(quote!(x))?;
                        quote!(self.#id.as_ref().is_some_and(|x| #test))
                    } else {
                        test(quote!(self.#id))?
                    }
                }
                TypeRef::String => {
                    if optional {
                        quote!(self.#id.as_deref() == Some(#value))
                    } else {
                        quote!(self.#id == #value)
                    }
                }
                TypeRef::Int | TypeRef::Long => {
                    let n = int_lit(int_bound(value).map_err(|_| bad())?);
                    if optional {
                        quote!(self.#id == Some(#n))
                    } else {
                        quote!(self.#id == #n)
                    }
                }
                TypeRef::Bool => {
                    let b: bool = value.parse().map_err(|_| bad())?;
                    if optional {
                        quote!(self.#id == Some(#b))
                    } else {
                        quote!(self.#id == #b)
                    }
                }
                TypeRef::Decimal { .. } => {
                    let a = amount_expr(value)?;
                    if optional {
                        quote!(self.#id == Some(#a))
                    } else {
                        quote!(self.#id == #a)
                    }
                }
                _ => return Err(bad()),
            })
        }
        Condition::SumGreaterThan {
            array,
            item_field,
            value,
        } => {
            let f = param(fields, array)?;
            let id = ident(&f.rust_name)?;
            let record_name = match &f.ty {
                TypeRef::Array { item } => match item.as_ref() {
                    TypeRef::Record { name } => name,
                    _ => {
                        return Err(EmitError::new(format!(
                            "`{array}` is not an array of records"
                        )))
                    }
                },
                _ => {
                    return Err(EmitError::new(format!(
                        "`{array}` is not an array of records"
                    )))
                }
            };
            let record = api
                .record(record_name)
                .ok_or_else(|| EmitError::new(format!("record `{record_name}` is not declared")))?;
            let item = record
                .fields
                .iter()
                .find(|x| x.wire_name == *item_field)
                .ok_or_else(|| {
                    EmitError::new(format!("`{record_name}` has no field `{item_field}`"))
                })?;
            if !matches!(item.ty, TypeRef::Decimal { .. }) {
                return Err(EmitError::new(format!(
                    "`{record_name}.{item_field}` is not a decimal"
                )));
            }
            let item_id = ident(&item.rust_name)?;
            let amounts = if Shape::of_record(record).is_option(item) {
                quote!(filter_map(|item| item.#item_id))
            } else {
                quote!(map(|item| item.#item_id))
            };
            let items = if Shape::Request.is_option(f) {
                quote!(self.#id.iter().flatten())
            } else {
                quote!(self.#id.iter())
            };
            let threshold = amount_expr(value)?;
            // Checked sum: an overflowing sum is certainly beyond the threshold's reach,
            // so the condition is taken to hold (the stricter reading).
            Ok(
                quote!(#items.#amounts.sum::<Option<baas_runtime::Amount>>().is_none_or(|total| total > #threshold)),
            )
        }
    }
}
