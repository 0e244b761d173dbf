//! Structs: operation requests, records and inline responses, with their serde
//! attributes, constructors, setters and validation.
//!
//! One shape per direction. A **sent** struct (a request, or a record used in requests)
//! stores required fields as plain values and optional ones as `Option`s; its required
//! fields are given by name in a `<Name>Required` struct literal, so leaving one out, or
//! a spec change that adds, removes or renames one, is a compile error. A **received**
//! struct (a response, or a record used in responses) stores every field as an `Option`
//! and ignores unknown fields. A record used in both directions has both shapes: `<Name>`
//! (sent) and `<Name>Received`.

use proc_macro2::TokenStream;
use quote::quote;

use super::docs::{self, Doc};
use super::names::{ident, number_with, plain, rust_type, Direction};
use super::validate;
use crate::model::TypeRef;
use crate::plan::{FieldPlan, RecordPlan, SdkPlan};

/// What to emit for one struct.
pub struct StructSpec<'a> {
    /// Rust type name.
    pub name: &'a str,
    /// Name of the struct of required fields (sent structs with required fields).
    pub required_name: String,
    /// Doc of the type.
    pub doc: Doc,
    /// Further attributes of the type (`#[deprecated]`).
    pub attrs: TokenStream,
    /// Fields in spec order.
    pub fields: &'a [FieldPlan],
    /// Which shape.
    pub direction: Direction,
    /// Whether to emit `validate_at` (records used in requests).
    pub validate_at: bool,
}

impl StructSpec<'_> {
    fn required(&self) -> Vec<&FieldPlan> {
        match self.direction {
            Direction::Sent => self.fields.iter().filter(|f| f.required()).collect(),
            Direction::Received => Vec::new(),
        }
    }
}

/// Whether a field of a struct of this direction is stored as an `Option`.
pub fn is_option(field: &FieldPlan, direction: Direction) -> bool {
    direction == Direction::Received || !field.required()
}

/// The derives of a struct: sent structs serialize (and deserialize only in the
/// `server` feature, for the sandbox), received ones deserialize (and serialize only in
/// the `server` feature). Partners' builds compile half of serde's code.
fn derives(direction: Direction, default: bool) -> TokenStream {
    let default = if default { quote!(Default,) } else { quote!() };
    match direction {
        Direction::Sent => quote! {
            #[derive(Debug, Clone, PartialEq, #default serde::Serialize)]
            #[cfg_attr(feature = "server", derive(serde::Deserialize))]
            #[serde(deny_unknown_fields)]
        },
        Direction::Received => quote! {
            #[derive(Debug, Clone, PartialEq, #default serde::Deserialize)]
            #[cfg_attr(feature = "server", derive(serde::Serialize))]
        },
    }
}

/// Emits the struct, its struct of required fields, constructor, setters and (for
/// records used in requests) `validate_at`.
pub fn emit_struct(plan: &SdkPlan, spec: &StructSpec<'_>) -> TokenStream {
    let name = ident(spec.name);
    let type_doc = spec.doc.outer();
    let field_tokens: Vec<TokenStream> = spec
        .fields
        .iter()
        .map(|f| struct_field(plan, f, spec.direction))
        .collect();
    let required = spec.required();
    let derives = derives(spec.direction, required.is_empty());
    let attrs = &spec.attrs;
    let mut out = quote! {
        #type_doc
        #attrs
        #derives
        #[non_exhaustive]
        pub struct #name {
            #(#field_tokens)*
        }
    };
    let mut methods = Vec::new();
    if spec.direction == Direction::Sent {
        if required.is_empty() {
            methods.push(quote! {
                /// Creates the value with no field set; optional fields have setters.
                #[must_use]
                pub fn new() -> Self {
                    Self::default()
                }
            });
        } else {
            out.extend(required_struct(spec, &required));
            methods.push(constructor(spec, &required));
        }
        methods.extend(spec.fields.iter().filter(|f| !f.required()).map(setter));
    }
    if spec.direction == Direction::Received {
        methods.extend(spec.fields.iter().map(stub_setter));
    }
    if spec.validate_at {
        methods.push(validate::record_validate_at(spec.fields));
    }
    if !methods.is_empty() {
        out.extend(quote! {
            impl #name {
                #(#methods)*
            }
        });
    }
    out
}

fn struct_field(plan: &SdkPlan, field: &FieldPlan, direction: Direction) -> TokenStream {
    let id = ident(&field.rust_name);
    let optional = is_option(field, direction);
    let base = rust_type(&field.ty, direction);
    let ty = if optional {
        quote!(Option<#base>)
    } else {
        base
    };
    let doc = docs::field_doc(plan, field, direction).outer();
    let deprecated = docs::deprecated_attr(field.deprecated());
    let mut serde_args = Vec::new();
    if plain(&field.rust_name) != field.wire_name {
        let wire = &field.wire_name;
        serde_args.push(quote!(rename = #wire));
    }
    if optional {
        serde_args.push(quote!(default, skip_serializing_if = "Option::is_none"));
    }
    if let Some(with) = number_with(&field.ty, optional) {
        serde_args.push(quote!(with = #with));
    } else if let Some(lenient) = lenient_with(&field.ty, direction) {
        serde_args.push(quote!(deserialize_with = #lenient));
    }
    let serde_attr = if serde_args.is_empty() {
        quote!()
    } else {
        quote!(#[serde(#(#serde_args),*)])
    };
    quote! {
        #doc
        #deprecated
        #serde_attr
        pub #id: #ty,
    }
}

/// The `baas_runtime::lenient` decoder of a string or integer field of a received
/// struct: a response must not fail over `"12"` versus `12`. Sent structs (decoded only
/// by test servers) stay strict.
fn lenient_with(ty: &TypeRef, direction: Direction) -> Option<&'static str> {
    if direction == Direction::Sent {
        return None;
    }
    match ty {
        TypeRef::String => Some("baas_runtime::lenient::option_string"),
        TypeRef::Int => Some("baas_runtime::lenient::option_i32"),
        TypeRef::Long => Some("baas_runtime::lenient::option_i64"),
        TypeRef::Document => Some("baas_runtime::lenient::option_document"),
        _ => None,
    }
}

/// `<Name>Required`: the required fields, public, built with a struct literal.
fn required_struct(spec: &StructSpec<'_>, required: &[&FieldPlan]) -> TokenStream {
    let name = &spec.name;
    let req = ident(&spec.required_name);
    let fields = required.iter().map(|f| {
        let id = ident(&f.rust_name);
        let ty = rust_type(&f.ty, Direction::Sent);
        let mut doc = Doc::new();
        doc.raw(&format!(
            "Wire name `{}` ({}): see [`{name}::{}`].",
            f.wire_name,
            docs::type_words(&f.ty, Direction::Sent),
            plain(&f.rust_name)
        ));
        let doc = doc.outer();
        let deprecated = docs::deprecated_attr(f.deprecated());
        quote! {
            #doc
            #deprecated
            pub #id: #ty,
        }
    });
    let mut doc = Doc::new();
    doc.raw(&format!(
        "The required fields of [`{name}`], by name: build it with a struct literal and pass it to [`{name}::new`] (then set optional fields), or, where a `{name}` is expected (a field, an item of a `Vec<{name}>`), give the literal alone with `.into()`, one name: `vec![{req} {{ .. }}.into()]`. A setter taking `impl Into<{name}>` takes the literal as it is.",
        req = spec.required_name
    ));
    let doc = doc.outer();
    let ty = ident(name);
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq)]
        pub struct #req {
            #(#fields)*
        }

        impl From<#req> for #ty {
            fn from(required: #req) -> #ty {
                #ty::new(required)
            }
        }
    }
}

fn constructor(spec: &StructSpec<'_>, required: &[&FieldPlan]) -> TokenStream {
    let req = ident(&spec.required_name);
    let names: Vec<_> = required.iter().map(|f| ident(&f.rust_name)).collect();
    let inits = spec.fields.iter().map(|f| {
        let id = ident(&f.rust_name);
        if !f.required() {
            quote!(#id: None)
        } else {
            quote!(#id)
        }
    });
    let listed: Vec<String> = required
        .iter()
        .map(|f| format!("`{}`", f.wire_name))
        .collect();
    let doc = format!(
        " Builds `{}` from its required fields ({}), given by name; optional fields have setters.",
        spec.name,
        listed.join(", ")
    );
    quote! {
        #[doc = #doc]
        #[must_use]
        pub fn new(required: #req) -> Self {
            let #req { #(#names),* } = required;
            Self { #(#inits),* }
        }
    }
}

fn setter(field: &FieldPlan) -> TokenStream {
    let id = ident(&field.rust_name);
    let base = rust_type(&field.ty, Direction::Sent);
    let doc = format!(
        " Sets `{}` (see the field's documentation).",
        field.wire_name
    );
    let deprecated = docs::deprecated_attr(field.deprecated());
    quote! {
        #[doc = #doc]
        #deprecated
        #[must_use]
        pub fn #id(mut self, value: impl Into<#base>) -> Self {
            self.#id = Some(value.into());
            self
        }
    }
}

/// `with_<field>` on a received struct, in the `server` feature (which `mock` turns on,
/// with the `Serialize` a stub answer needs): a stub answer in one
/// expression (`Account::default().with_balance(..)`), where `#[non_exhaustive]` forbids
/// a struct literal.
fn stub_setter(field: &FieldPlan) -> TokenStream {
    let id = ident(&field.rust_name);
    let with = ident(&format!("with_{}", plain(&field.rust_name)));
    let base = rust_type(&field.ty, Direction::Received);
    let doc = format!(
        " This value with `{}` set: for stub answers in unit tests (feature `mock`; what only a test or server builds), e.g. `Type::default().with_a(..).with_b(..)`.",
        field.wire_name
    );
    let deprecated = docs::deprecated_attr(field.deprecated());
    quote! {
        #[cfg(feature = "server")]
        #[doc = #doc]
        #deprecated
        #[must_use]
        pub fn #with(mut self, value: impl Into<#base>) -> Self {
            self.#id = Some(value.into());
            self
        }
    }
}

/// Emits every record of the API, sorted by name: for each direction it is used in, one
/// shape.
pub fn emit_records(plan: &SdkPlan) -> TokenStream {
    let mut out = TokenStream::new();
    for record in &plan.records {
        if record.sent {
            out.extend(record_shape(plan, record, Direction::Sent));
        }
        if record.received {
            out.extend(record_shape(plan, record, Direction::Received));
        }
    }
    out
}

fn record_shape(plan: &SdkPlan, record: &RecordPlan, direction: Direction) -> TokenStream {
    let mut doc = Doc::new();
    doc.text(&record.text);
    match (direction, record.two_shapes()) {
        (Direction::Sent, true) => {
            doc.raw(&format!(
                "The shape sent in requests (responses carry [`{}`]).",
                record.received_name
            ));
        }
        (Direction::Received, true) => {
            doc.raw(&format!(
                "The shape received in responses (requests send [`{}`]).",
                record.name
            ));
        }
        _ => {}
    }
    docs::add_evidence(&mut doc, record.evidence.as_deref());
    docs::add_decisions(&mut doc, plan, &record.decisions);
    emit_struct(
        plan,
        &StructSpec {
            name: record.name_in(direction),
            required_name: format!("{}Required", record.name),
            attrs: TokenStream::new(),
            doc,
            fields: &record.fields,
            direction,
            validate_at: direction == Direction::Sent,
        },
    )
}
