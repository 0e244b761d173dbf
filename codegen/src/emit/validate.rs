//! Generated validation: one `baas_runtime::Validator` call per check the plan gives a
//! field (`FieldPlan::checks`, from the rule registry), `validate_at` for records used in
//! requests, and the operation constraints the client checks. Reads only the plan (bounds
//! are numbers, constraints name resolved parameters), so it cannot fail.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::names::{amount_expr, ident, int_lit, u64_lit};
use crate::model::{Condition, ConstraintKind, Emptiness, ParamRef, TypeRef};
use crate::plan::{ConstraintPlan, FieldPlan};
use crate::rules::{Check, CheckArg, CheckLevel, CheckValue};

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

/// The plan's checks of a field at `level` (server-side rules have none).
fn checks(field: &FieldPlan, level: CheckLevel) -> impl Iterator<Item = &Check> {
    field.checks.iter().filter(move |c| c.level == level)
}

/// `v.<method>(path, value, args...)` for one check.
fn call(check: &Check, path: &TokenStream, value: TokenStream) -> TokenStream {
    let method = ident(check.method);
    let args = check.args.iter().map(|a| match a {
        CheckArg::Count(n) => {
            let n = u64_lit(*n);
            quote!(#n)
        }
        CheckArg::Places(n) => {
            let n = proc_macro2::Literal::u32_unsuffixed(*n);
            quote!(#n)
        }
        CheckArg::Integer(Some(n)) => {
            let n = int_lit(*n);
            quote!(Some(#n))
        }
        CheckArg::Amount(Some(n)) => {
            let a = amount_expr(*n);
            quote!(Some(#a))
        }
        CheckArg::Integer(None) | CheckArg::Amount(None) => quote!(None),
        CheckArg::Texts(values) => quote!(&[#(#values),*]),
    });
    quote!(v.#method(#path, #value, #(#args),*);)
}

/// Checks of one value of scalar (non-array) type `ty` at `place`, whose path is the
/// expression `path` (a `FieldPath`).
fn scalar_checks(
    field: &FieldPlan,
    ty: &TypeRef,
    place: &Place,
    path: &TokenStream,
    ctx: Ctx,
) -> Vec<TokenStream> {
    let mut out: Vec<TokenStream> = checks(field, CheckLevel::Value)
        .map(|check| {
            let value = match check.value {
                CheckValue::Text | CheckValue::Amount => place.by_ref(),
                CheckValue::Integer => int_value(ty, place),
                CheckValue::Wire => {
                    let receiver = place.receiver();
                    quote!(#receiver.as_str())
                }
                CheckValue::Size => {
                    let receiver = place.receiver();
                    quote!(#receiver.len())
                }
                // Lengths are array-level checks, made by the caller.
                CheckValue::Length => place.by_ref(),
            };
            call(check, path, value)
        })
        .collect();
    if let TypeRef::Record { .. } = ty {
        let receiver = place.receiver();
        let v = ctx.validator_arg();
        out.push(quote!(#receiver.validate_at(#v, #path);));
    }
    out
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
fn field_checks(field: &FieldPlan, ctx: Ctx) -> TokenStream {
    let wire = &field.wire_name;
    let optional = !field.required();
    let id = ident(&field.rust_name);
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
            for check in checks(field, CheckLevel::Array) {
                stmts.push(call(check, &path, quote!(#array.len())));
            }
            let element_path = quote!(at.field(#wire).index(i));
            let element = scalar_checks(field, item, &Place::Ref(quote!(item)), &element_path, ctx);
            if !element.is_empty() {
                stmts.push(quote! {
                    for (i, item) in #array.iter().enumerate() {
                        #(#element)*
                    }
                });
            }
        }
        ty => stmts.extend(scalar_checks(field, ty, &place, &path, ctx)),
    }
    let mut out = TokenStream::new();
    if let Some(emptiness) = field.non_empty() {
        // `new` makes a required string or document impossible to omit, but not to leave
        // empty: an empty account id or file is as missing as an absent one.
        let present = match emptiness {
            Emptiness::Text | Emptiness::Document => quote!(!self.#id.is_empty()),
        };
        out.extend(quote!(v.required(#path, #present);));
    }
    if stmts.is_empty() {
        return out;
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
    out
}

/// Whether a parameter is present: set, and for a string or a document non-empty.
fn present_expr(p: &ParamRef) -> TokenStream {
    let id = ident(&p.rust_name);
    match (p.empty, p.optional) {
        (Some(Emptiness::Text), true) => quote!(self.#id.as_deref().is_some_and(|s| !s.is_empty())),
        (Some(Emptiness::Document), true) => {
            quote!(self.#id.as_ref().is_some_and(|d| !d.is_empty()))
        }
        (None, true) => quote!(self.#id.is_some()),
        (Some(Emptiness::Text | Emptiness::Document), false) => quote!(!self.#id.is_empty()),
        (None, false) => quote!(true),
    }
}

/// `validate_at` of a record used in requests (its sent shape).
pub fn record_validate_at(fields: &[FieldPlan]) -> TokenStream {
    let body: TokenStream = fields
        .iter()
        .map(|f| field_checks(f, Ctx::Record))
        .collect();
    let (v, at) = if body.is_empty() {
        (quote!(_v), quote!(_at))
    } else {
        (quote!(v), quote!(at))
    };
    quote! {
        /// Checks this record's client-side rules; `at` is where the record sits in the request.
        pub(crate) fn validate_at(&self, #v: &mut baas_runtime::Validator, #at: baas_runtime::FieldPath<'_>) {
            #body
        }
    }
}

/// The body of an operation's `validate`: field rules then constraints.
pub fn request_validate_body(fields: &[FieldPlan], constraints: &[ConstraintPlan]) -> TokenStream {
    let mut body: TokenStream = fields
        .iter()
        .map(|f| field_checks(f, Ctx::Request))
        .collect();
    body.extend(constraints.iter().map(constraint_check));
    if body.is_empty() {
        return quote!(Ok(()));
    }
    quote! {
        let mut v = baas_runtime::Validator::new();
        let at = baas_runtime::FieldPath::ROOT;
        #body
        v.finish()
    }
}

fn constraint_check(c: &ConstraintPlan) -> TokenStream {
    let presence = |refs: &[ParamRef]| -> Vec<TokenStream> {
        refs.iter()
            .map(|p| {
                let n = &p.wire_name;
                let present = present_expr(p);
                quote!((#n, #present))
            })
            .collect()
    };
    match &c.kind {
        ConstraintKind::RequiredIf { field, when } => {
            let present = present_expr(field);
            let holds = condition_expr(when);
            let text = c.condition.as_deref().unwrap_or_default();
            let wire = &field.wire_name;
            quote!(v.required_if(at.field(#wire), #present, #holds, #text);)
        }
        ConstraintKind::AtLeastOneOf { fields } => {
            let pairs = presence(fields);
            quote!(v.at_least_one_of(at, &[#(#pairs),*]);)
        }
        ConstraintKind::ExactlyOneOf { fields } => {
            let pairs = presence(fields);
            quote!(v.exactly_one_of(at, &[#(#pairs),*]);)
        }
        ConstraintKind::ServerSide { .. } => quote!(),
    }
}

/// The condition as a `bool` expression. `Equals` compares wire text: a string
/// parameter's value, or an enum's `as_str()`/`as_i64()` (a known wire value always
/// decodes as its variant, so this is the variant test).
fn condition_expr(condition: &Condition) -> TokenStream {
    match condition {
        Condition::Equals { field, value } => {
            let id = ident(&field.rust_name);
            // The checker compares strings and enums only: a string is the one with `""`.
            let test = |x: TokenStream| {
                if field.empty == Some(Emptiness::Text) {
                    quote!(#x == #value)
                } else {
                    quote!(#x.to_string() == #value)
                }
            };
            if field.optional {
                let t = test(quote!(x));
                quote!(self.#id.as_ref().is_some_and(|x| #t))
            } else {
                test(quote!(self.#id))
            }
        }
        Condition::SumGreaterThan { array, item, value } => {
            let id = ident(&array.rust_name);
            let item_id = ident(&item.rust_name);
            let amounts = if item.optional {
                quote!(filter_map(|item| item.#item_id))
            } else {
                quote!(map(|item| item.#item_id))
            };
            let items = if array.optional {
                quote!(self.#id.iter().flatten())
            } else {
                quote!(self.#id.iter())
            };
            let threshold = amount_expr(*value);
            // Checked sum: an overflowing sum is certainly beyond the threshold's reach,
            // so the condition is taken to hold (the stricter reading).
            quote!(#items.#amounts.sum::<Option<baas_runtime::Amount>>().is_none_or(|total| total > #threshold))
        }
    }
}
