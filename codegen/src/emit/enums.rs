//! Value sets: one forward-compatible enum each, with an `Unknown` variant.

use proc_macro2::TokenStream;
use quote::quote;

use super::docs::{self, Doc};
use super::names::{ident, int_bound, int_lit};
use super::EmitError;
use crate::model::{Api, EnumDef, EnumWireType};

/// Emits every value set of the API, and the `ResultCode` and `NotificationType` sets
/// built from `result_codes:` and `notifications:` (see `codes.rs`), sorted by name.
pub fn emit_enums(api: &Api) -> Result<TokenStream, EmitError> {
    let mut items: Vec<(&str, TokenStream)> = Vec::new();
    for def in &api.enums {
        items.push((def.name.as_str(), emit_enum(api, def, &Extras::default())?));
    }
    items.extend(super::codes::emit_codes(api)?);
    items.sort_by(|a, b| a.0.cmp(b.0));
    let mut out = TokenStream::new();
    for (_, tokens) in items {
        out.extend(tokens);
    }
    Ok(out)
}

/// Generator-written doc (already valid Markdown, one paragraph per line) added to an
/// enum built by the generator rather than declared under `enums:`.
#[derive(Debug, Default)]
pub(super) struct Extras {
    /// Paragraphs of the type's doc, before its wire values.
    pub doc: Vec<String>,
    /// Paragraphs of each variant's doc (by index of `EnumDef::values`), after its wire
    /// value and provenance.
    pub value_docs: Vec<Vec<String>>,
}

/// One forward-compatible enum: the spec's value sets, and the generator's own ones
/// (through `extras`), share this emitter so they behave alike.
pub(super) fn emit_enum(
    api: &Api,
    def: &EnumDef,
    extras: &Extras,
) -> Result<TokenStream, EmitError> {
    let name = ident(&def.name)?;
    let mut doc = Doc::new();
    doc.text(&def.doc);
    for line in &extras.doc {
        doc.raw(line);
    }
    let values: Vec<String> = def
        .values
        .iter()
        .map(|v| format!("`{}`: [`{}`]({}::{})", v.wire, v.name, def.name, v.name))
        .collect();
    doc.list("Wire values:", &values);
    doc.raw("A value this version does not know decodes as `Unknown` and is sent back unchanged.");
    docs::add_provenance(&mut doc, def.source);
    docs::add_decisions(&mut doc, api, &def.decisions);
    let doc = doc.outer();

    let mut variants = Vec::new();
    let mut idents = Vec::new();
    for (i, value) in def.values.iter().enumerate() {
        let id = ident(&value.name)?;
        let mut vdoc = Doc::new();
        vdoc.text(&value.doc);
        vdoc.raw(&format!("Wire value: `{}`.", value.wire));
        docs::add_provenance(&mut vdoc, value.source);
        for line in extras.value_docs.get(i).into_iter().flatten() {
            vdoc.raw(line);
        }
        let vdoc = vdoc.outer();
        variants.push(quote!(#vdoc #id,));
        idents.push(id);
    }
    let wires: Vec<&str> = def.values.iter().map(|v| v.wire.as_str()).collect();

    Ok(match def.wire_type {
        EnumWireType::String => quote! {
            #doc
            #[derive(Debug, Clone, PartialEq, Eq, Hash)]
            #[non_exhaustive]
            pub enum #name {
                #(#variants)*
                /// A wire value this version of the client does not know, kept as sent.
                Unknown(String),
            }

            impl #name {
                /// Every value the spec lists, in spec order.
                pub const KNOWN: &'static [#name] = &[#(#name::#idents),*];

                /// The wire value.
                pub fn as_str(&self) -> &str {
                    match self {
                        #(#name::#idents => #wires,)*
                        #name::Unknown(value) => value.as_str(),
                    }
                }

                /// The value for a wire text; never fails (unseen values are `Unknown`).
                pub fn from_wire(wire: &str) -> #name {
                    match wire {
                        #(#wires => #name::#idents,)*
                        other => #name::Unknown(other.to_owned()),
                    }
                }
            }

            impl std::fmt::Display for #name {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str(self.as_str())
                }
            }

            impl std::str::FromStr for #name {
                type Err = std::convert::Infallible;

                fn from_str(s: &str) -> Result<Self, Self::Err> {
                    Ok(#name::from_wire(s))
                }
            }

            impl From<&str> for #name {
                fn from(wire: &str) -> #name {
                    #name::from_wire(wire)
                }
            }

            impl serde::Serialize for #name {
                fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    baas_runtime::wire_enum::serialize_str(self.as_str(), serializer)
                }
            }

            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    let wire = baas_runtime::wire_enum::deserialize_str(deserializer)?;
                    Ok(#name::from_wire(&wire))
                }
            }
        },
        EnumWireType::Integer => {
            let mut nums = Vec::new();
            for v in &def.values {
                nums.push(int_lit(int_bound(&v.wire)?));
            }
            quote! {
                #doc
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
                #[non_exhaustive]
                pub enum #name {
                    #(#variants)*
                    /// A wire value this version of the client does not know, kept as sent.
                    Unknown(i64),
                }

                impl #name {
                    /// Every value the spec lists, in spec order.
                    pub const KNOWN: &'static [#name] = &[#(#name::#idents),*];

                    /// The wire value.
                    pub fn as_i64(&self) -> i64 {
                        match self {
                            #(#name::#idents => #nums,)*
                            #name::Unknown(value) => *value,
                        }
                    }

                    /// The wire value as text (`"-1"`).
                    pub fn as_str(&self) -> std::borrow::Cow<'static, str> {
                        match self {
                            #(#name::#idents => std::borrow::Cow::Borrowed(#wires),)*
                            #name::Unknown(value) => std::borrow::Cow::Owned(value.to_string()),
                        }
                    }

                    /// The value for a wire integer; never fails (unseen values are `Unknown`).
                    pub fn from_i64(wire: i64) -> #name {
                        match wire {
                            #(#nums => #name::#idents,)*
                            other => #name::Unknown(other),
                        }
                    }
                }

                impl From<i64> for #name {
                    fn from(wire: i64) -> #name {
                        #name::from_i64(wire)
                    }
                }

                impl std::fmt::Display for #name {
                    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        write!(f, "{}", self.as_i64())
                    }
                }

                impl std::str::FromStr for #name {
                    type Err = std::num::ParseIntError;

                    /// Parses the wire integer as text; a text that is not an integer fails.
                    fn from_str(s: &str) -> Result<Self, Self::Err> {
                        s.trim().parse::<i64>().map(#name::from_i64)
                    }
                }

                impl serde::Serialize for #name {
                    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                        baas_runtime::wire_enum::serialize_int(self.as_i64(), serializer)
                    }
                }

                impl<'de> serde::Deserialize<'de> for #name {
                    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                        baas_runtime::wire_enum::deserialize_int(deserializer).map(#name::from_i64)
                    }
                }
            }
        }
    })
}
