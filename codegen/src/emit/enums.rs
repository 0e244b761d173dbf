//! Value sets: one forward-compatible enum each, with an `Unknown` variant whose content
//! only decoding can build.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::docs::{self, Doc};
use super::names::{ident, int_lit};
use crate::plan::{EnumPlan, SdkPlan};

/// Emits the enums declared in the spec, each with its name for sorting.
pub fn emit_enums(plan: &SdkPlan) -> Vec<(String, TokenStream)> {
    plan.enums
        .iter()
        .map(|def| (def.name.clone(), emit_enum(plan, def, &Extras::default())))
        .collect()
}

/// The opaque holders of unknown wire values, emitted once in the `enums` module: their
/// field is private to the generated crate, so a partner can read an unknown value but
/// never build one (a known wire value always decodes as its variant).
pub fn unknown_holders(plan: &SdkPlan, synthetic_strings: bool) -> TokenStream {
    let strings = synthetic_strings || plan.enums.iter().any(|e| !e.integer);
    let integers = plan.enums.iter().any(|e| e.integer);
    let mut out = TokenStream::new();
    if strings {
        out.extend(quote! {
            /// A string wire value this version of the client does not know, kept exactly as received.
            ///
            /// Only decoding a response builds one, and only for a value no variant has: a known wire value always decodes as its variant. Read it with [`UnknownValue::as_str`]; send it back by sending the enum that holds it.
            #[derive(Debug, Clone, PartialEq, Eq, Hash)]
            pub struct UnknownValue(String);

            impl UnknownValue {
                /// The wire value as received.
                #[must_use]
                pub fn as_str(&self) -> &str {
                    &self.0
                }
            }

            impl std::fmt::Display for UnknownValue {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str(&self.0)
                }
            }
        });
    }
    if integers {
        out.extend(quote! {
            /// An integer wire value this version of the client does not know, kept exactly as received.
            ///
            /// Only decoding a response builds one, and only for a value no variant has: a known wire value always decodes as its variant.
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
            pub struct UnknownInteger(i64);

            impl UnknownInteger {
                /// The wire value as received.
                #[must_use]
                pub fn get(self) -> i64 {
                    self.0
                }
            }

            impl std::fmt::Display for UnknownInteger {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    write!(f, "{}", self.0)
                }
            }
        });
    }
    out
}

/// Generator-written doc (already valid Markdown, one paragraph per line) added to an
/// enum built by the generator rather than declared under `enums:`.
#[derive(Debug, Default)]
pub struct Extras {
    /// Paragraphs of the type's doc, before its wire values.
    pub doc: Vec<String>,
    /// Paragraphs of each variant's doc (by index of `EnumPlan::values`), after its wire
    /// value and provenance.
    pub value_docs: Vec<Vec<String>>,
}

/// One forward-compatible enum: the spec's value sets, and the generator's own ones
/// (through `extras`), share this emitter so they behave alike.
pub fn emit_enum(plan: &SdkPlan, def: &EnumPlan, extras: &Extras) -> TokenStream {
    let parts = Parts {
        name: ident(&def.name),
        doc: enum_doc(plan, def, extras),
        variants: variants(def, extras),
        idents: def.values.iter().map(|v| ident(&v.name)).collect(),
        parse_error: quote!(baas_runtime::wire_enum::ParseEnumError),
        unknown_doc: format!(
            " A wire value of `{}` that this version of the client does not know, kept as received.",
            def.name
        ),
        known_doc: format!(
            " Every value of `{}` the spec lists, in spec order.",
            def.name
        ),
        wire_doc: format!(" This `{}` as it is sent and received.", def.name),
    };
    if def.integer {
        integer_enum(def, &parts)
    } else {
        string_enum(def, &parts)
    }
}

/// What the string and the integer form of an enum share.
struct Parts {
    name: Ident,
    /// The type's doc attributes.
    doc: TokenStream,
    /// Each listed value's variant with its doc and attributes.
    variants: Vec<TokenStream>,
    /// Each listed value's variant name.
    idents: Vec<Ident>,
    parse_error: TokenStream,
    /// The doc of the `Unknown` variant, naming the enum.
    unknown_doc: String,
    /// The doc of `KNOWN`, naming the enum.
    known_doc: String,
    /// The doc of the wire-value accessor, naming the enum.
    wire_doc: String,
}

/// The type's doc: the spec's text, the generator's, the wire values, provenance and
/// decisions.
fn enum_doc(plan: &SdkPlan, def: &EnumPlan, extras: &Extras) -> TokenStream {
    let mut doc = Doc::new();
    doc.text(&def.text);
    for line in &extras.doc {
        doc.raw(line);
    }
    let values: Vec<String> = def
        .values
        .iter()
        .map(|v| format!("`{}`: [`{}`]({}::{})", v.wire, v.name, def.name, v.name))
        .collect();
    doc.list("Wire values:", &values);
    if def.open {
        doc.text(&format!(
            "The list is open: [`{0}::of`] gives a value for a request from any wire text \
             (a listed one is its variant, any other is sent as given), and an answer's \
             unlisted value is kept in [`{0}::Unknown`].",
            def.name
        ));
    }
    docs::add_evidence(&mut doc, def.evidence.as_deref());
    docs::add_decisions(&mut doc, plan, &def.decisions);
    doc.outer()
}

/// One variant per listed value, with its doc and `#[deprecated]`.
fn variants(def: &EnumPlan, extras: &Extras) -> Vec<TokenStream> {
    let mut variants = Vec::new();
    for (i, value) in def.values.iter().enumerate() {
        let id = ident(&value.name);
        let mut vdoc = Doc::new();
        vdoc.text(&value.text);
        let mut wire = format!("Wire value: `{}`.", value.wire);
        if let Some(p) = &value.evidence {
            wire.push(' ');
            wire.push_str(p);
        }
        vdoc.sentence(&wire);
        for line in extras.value_docs.get(i).into_iter().flatten() {
            vdoc.raw(line);
        }
        let deprecated = docs::deprecated_attr(value.doc.deprecated.as_deref());
        let vdoc = vdoc.outer();
        variants.push(quote!(#vdoc #deprecated #id,));
    }
    variants
}

/// An enum of string wire values: the type, its wire text both ways, `Display`,
/// `FromStr` and serde.
fn string_enum(def: &EnumPlan, parts: &Parts) -> TokenStream {
    let Parts {
        name,
        doc,
        variants,
        idents,
        parse_error,
        unknown_doc,
        known_doc,
        wire_doc,
    } = parts;
    let from_text_doc = format!(" The `{}` of a received wire text: a listed one is its variant, any other is kept in `Unknown`.", def.name);
    let parse_text_doc = format!(
        " The `{}` variant of a listed wire value; any other text is an error (never `Unknown`).",
        def.name
    );
    let wires: Vec<&str> = def.values.iter().map(|v| v.wire.as_str()).collect();
    let of = def.open.then(|| {
        let of_doc = format!(
            " The `{}` of any wire text, for a request (the list is open): a listed one is \
             its variant, any other is kept in `Unknown` and sent as given.",
            def.name
        );
        quote! {
            #[doc = #of_doc]
            #[must_use]
            pub fn of(wire: &str) -> #name {
                #name::from_wire(wire)
            }
        }
    });
    quote! {
            #doc
            #[derive(Debug, Clone, PartialEq, Eq, Hash)]
            #[non_exhaustive]
            pub enum #name {
                #(#variants)*
                #[doc = #unknown_doc]
                Unknown(UnknownValue),
            }

            impl #name {
                #[doc = #known_doc]
                pub const KNOWN: &'static [#name] = &[#(#name::#idents),*];

                #[doc = #wire_doc]
                #[must_use]
                pub fn as_str(&self) -> &str {
                    match self {
                        #(#name::#idents => #wires,)*
                        #name::Unknown(value) => value.as_str(),
                    }
                }

                #[doc = #from_text_doc]
                pub(crate) fn from_wire(wire: &str) -> #name {
                    match wire {
                        #(#wires => #name::#idents,)*
                        other => #name::Unknown(UnknownValue(other.to_owned())),
                    }
                }

                #of
            }

            impl std::fmt::Display for #name {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str(self.as_str())
                }
            }

            impl std::str::FromStr for #name {
                type Err = #parse_error;

                #[doc = #parse_text_doc]
                fn from_str(s: &str) -> Result<Self, Self::Err> {
                    match #name::from_wire(s) {
                        #name::Unknown(_) => Err(#parse_error::new(s)),
                        known => Ok(known),
                    }
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
    }
}

/// An enum of integer wire values: the type, its wire integer both ways, `TryFrom<i64>`,
/// `Display`, `FromStr` and serde.
fn integer_enum(def: &EnumPlan, parts: &Parts) -> TokenStream {
    let Parts {
        name,
        doc,
        variants,
        idents,
        parse_error,
        unknown_doc,
        known_doc,
        wire_doc,
    } = parts;
    let from_int_doc = format!(" The `{}` of a received wire integer: a listed one is its variant, any other is kept in `Unknown`.", def.name);
    let try_int_doc = format!(
        " The `{}` variant of a listed wire integer; any other is an error (never `Unknown`).",
        def.name
    );
    let parse_int_doc = format!(
        " The `{}` variant of a listed wire integer written as text; any other text is an error.",
        def.name
    );
    let nums: Vec<TokenStream> = def
        .values
        .iter()
        .map(|v| int_lit(v.integer.unwrap_or_default()))
        .collect();
    quote! {
        #doc
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum #name {
            #(#variants)*
            #[doc = #unknown_doc]
            Unknown(UnknownInteger),
        }

        impl #name {
            #[doc = #known_doc]
            pub const KNOWN: &'static [#name] = &[#(#name::#idents),*];

            #[doc = #wire_doc]
            #[must_use]
            pub fn as_i64(&self) -> i64 {
                match self {
                    #(#name::#idents => #nums,)*
                    #name::Unknown(value) => value.get(),
                }
            }

            #[doc = #from_int_doc]
            pub(crate) fn from_i64(wire: i64) -> #name {
                match wire {
                    #(#nums => #name::#idents,)*
                    other => #name::Unknown(UnknownInteger(other)),
                }
            }
        }

        impl TryFrom<i64> for #name {
            type Error = #parse_error;

            #[doc = #try_int_doc]
            fn try_from(wire: i64) -> Result<Self, Self::Error> {
                match #name::from_i64(wire) {
                    #name::Unknown(_) => Err(#parse_error::new(&wire.to_string())),
                    known => Ok(known),
                }
            }
        }

        impl std::fmt::Display for #name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", self.as_i64())
            }
        }

        impl std::str::FromStr for #name {
            type Err = #parse_error;

            #[doc = #parse_int_doc]
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let wire = baas_runtime::wire_enum::parse_int(s)?;
                #name::try_from(wire).map_err(|_| #parse_error::new(s))
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
