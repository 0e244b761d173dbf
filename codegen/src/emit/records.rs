//! Structs: operation requests, records and inline responses, with their serde
//! attributes, constructors, setters and validation.

use proc_macro2::TokenStream;
use quote::quote;

use super::docs::{self, Doc};
use super::names::{ident, number_with, plain, rust_type};
use super::validate;
use super::EmitError;
use crate::model::{Api, Field, Record, Requirement, TypeRef};

/// How a struct is used, which decides its shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Sent only: required fields are plain values passed to `new`, optional ones are
    /// `Option`s with setters; unknown fields are rejected when decoding.
    Request,
    /// Received only: every field is an `Option` that may be absent; unknown fields are
    /// ignored.
    Response,
    /// Sent and received: every field is an `Option` (responses decode leniently), but
    /// `new` takes the required ones and validation reports a missing one.
    Both,
}

impl Shape {
    /// The shape of a record from its uses.
    pub fn of_record(record: &Record) -> Shape {
        match (record.used_in_request, record.used_in_response) {
            (true, true) => Shape::Both,
            (true, false) => Shape::Request,
            _ => Shape::Response,
        }
    }

    /// Whether the field is stored as an `Option`.
    pub fn is_option(self, field: &Field) -> bool {
        match self {
            Shape::Request => field.required != Requirement::Required,
            Shape::Response | Shape::Both => true,
        }
    }

    fn sends(self) -> bool {
        self != Shape::Response
    }
}

/// What to emit for one struct.
pub struct StructSpec<'a> {
    /// Rust type name.
    pub name: &'a str,
    /// Doc of the type.
    pub doc: Doc,
    /// Fields in spec order.
    pub fields: &'a [Field],
    /// Shape.
    pub shape: Shape,
    /// Whether to emit `validate_at` (records used in requests).
    pub validate_at: bool,
}

/// Emits the struct, its constructor, setters and (for request records) `validate_at`.
pub fn emit_struct(api: &Api, spec: &StructSpec<'_>) -> Result<TokenStream, EmitError> {
    let name = ident(spec.name)?;
    let type_doc = spec.doc.outer();
    let mut field_tokens = Vec::new();
    for field in spec.fields {
        field_tokens.push(struct_field(api, field, spec.shape)?);
    }
    let required: Vec<&Field> = spec
        .fields
        .iter()
        .filter(|f| f.required == Requirement::Required)
        .collect();
    let has_default = !spec.shape.sends() || required.is_empty();
    let derive_default = if has_default {
        quote!(Default,)
    } else {
        quote!()
    };
    let deny = if spec.shape == Shape::Request {
        quote!(#[serde(deny_unknown_fields)])
    } else {
        quote!()
    };
    let mut out = quote! {
        #type_doc
        #[derive(Debug, Clone, PartialEq, #derive_default serde::Serialize, serde::Deserialize)]
        #deny
        #[non_exhaustive]
        pub struct #name {
            #(#field_tokens)*
        }
    };
    let mut methods = Vec::new();
    if spec.shape.sends() {
        methods.push(constructor(spec, &required)?);
        for field in spec
            .fields
            .iter()
            .filter(|f| f.required != Requirement::Required)
        {
            methods.push(setter(field)?);
        }
    }
    if spec.validate_at {
        methods.push(validate::record_validate_at(api, spec.fields, spec.shape)?);
    }
    if !methods.is_empty() {
        out.extend(quote! {
            impl #name {
                #(#methods)*
            }
        });
    }
    Ok(out)
}

fn struct_field(api: &Api, field: &Field, shape: Shape) -> Result<TokenStream, EmitError> {
    let id = ident(&field.rust_name)?;
    let optional = shape.is_option(field);
    let base = rust_type(&field.ty)?;
    let ty = if optional {
        quote!(Option<#base>)
    } else {
        base
    };
    let doc = docs::field_doc(api, field, shape.sends()).outer();
    let mut serde_args = Vec::new();
    if plain(&field.rust_name) != field.wire_name {
        let wire = &field.wire_name;
        serde_args.push(quote!(rename = #wire));
    }
    if optional {
        serde_args.push(quote!(default, skip_serializing_if = "Option::is_none"));
    }
    if let Some(with) = number_with(&field.ty, optional, &field.wire_name)? {
        serde_args.push(quote!(with = #with));
    }
    if let Some(lenient) = lenient_with(&field.ty, optional, shape) {
        serde_args.push(quote!(deserialize_with = #lenient));
    }
    let serde_attr = if serde_args.is_empty() {
        quote!()
    } else {
        quote!(#[serde(#(#serde_args),*)])
    };
    Ok(quote! {
        #doc
        #serde_attr
        pub #id: #ty,
    })
}

/// The `baas_runtime::lenient` decoder of an optional string or integer field of a
/// received struct: a response must not fail over `"12"` versus `12`. Requests
/// (decoded only by test servers) stay strict.
fn lenient_with(ty: &TypeRef, optional: bool, shape: Shape) -> Option<&'static str> {
    if shape == Shape::Request || !optional {
        return None;
    }
    match ty {
        TypeRef::String => Some("baas_runtime::lenient::option_string"),
        TypeRef::Int => Some("baas_runtime::lenient::option_i32"),
        TypeRef::Long => Some("baas_runtime::lenient::option_i64"),
        _ => None,
    }
}

/// Parameter type of `new` / a setter: strings take `impl Into<String>`.
fn param_type(ty: &TypeRef) -> Result<TokenStream, EmitError> {
    let base = rust_type(ty)?;
    Ok(match ty {
        TypeRef::String | TypeRef::Array { .. } => quote!(impl Into<#base>),
        _ => base,
    })
}

fn constructor(spec: &StructSpec<'_>, required: &[&Field]) -> Result<TokenStream, EmitError> {
    let mut params = Vec::new();
    let mut inits = Vec::new();
    for field in spec.fields {
        let id = ident(&field.rust_name)?;
        if field.required == Requirement::Required {
            let pty = param_type(&field.ty)?;
            params.push(quote!(#id: #pty));
            let value = match field.ty {
                TypeRef::String | TypeRef::Array { .. } => quote!(#id.into()),
                _ => quote!(#id),
            };
            if spec.shape.is_option(field) {
                inits.push(quote!(#id: Some(#value)));
            } else if matches!(field.ty, TypeRef::String | TypeRef::Array { .. }) {
                inits.push(quote!(#id: #value));
            } else {
                inits.push(quote!(#id));
            }
        } else {
            inits.push(quote!(#id: None));
        }
    }
    let mut doc = Doc::new();
    if required.is_empty() {
        doc.raw("Creates the value with no field set; optional fields have setters.");
    } else {
        let names: Vec<String> = required
            .iter()
            .map(|f| format!("`{}`", f.wire_name))
            .collect();
        doc.raw(&format!(
            "Creates the value from its required fields ({}); optional fields have setters.",
            names.join(", ")
        ));
    }
    let doc = doc.outer();
    let allow = if params.len() > 7 {
        quote!(#[allow(clippy::too_many_arguments)])
    } else {
        quote!()
    };
    Ok(quote! {
        #doc
        #allow
        #[must_use]
        pub fn new(#(#params),*) -> Self {
            Self { #(#inits),* }
        }
    })
}

fn setter(field: &Field) -> Result<TokenStream, EmitError> {
    let id = ident(&field.rust_name)?;
    let base = rust_type(&field.ty)?;
    let mut doc = Doc::new();
    doc.raw(&format!(
        "Sets `{}` (see the field's documentation).",
        field.wire_name
    ));
    let doc = doc.outer();
    Ok(quote! {
        #doc
        #[must_use]
        pub fn #id(mut self, value: impl Into<#base>) -> Self {
            self.#id = Some(value.into());
            self
        }
    })
}

/// Emits every record of the API, sorted by name.
pub fn emit_records(api: &Api) -> Result<TokenStream, EmitError> {
    let mut out = TokenStream::new();
    for record in &api.records {
        let shape = Shape::of_record(record);
        let mut doc = Doc::new();
        doc.text(&record.doc);
        doc.raw(&match shape {
            Shape::Request => "Sent in requests.".to_owned(),
            Shape::Response => "Received in responses: every field may be absent, fields the service adds later are ignored, and string and integer fields accept either JSON spelling (`12` or `\"12\"`).".to_owned(),
            Shape::Both => "Sent in requests and received in responses: fields are optional so responses decode even when some are absent; `new` takes the fields a request requires, and validation reports a missing one.".to_owned(),
        });
        docs::add_provenance(&mut doc, record.source);
        docs::add_decisions(&mut doc, api, &record.decisions);
        let spec = StructSpec {
            name: &record.name,
            doc,
            fields: &record.fields,
            shape,
            validate_at: record.used_in_request,
        };
        out.extend(emit_struct(api, &spec)?);
    }
    Ok(out)
}
