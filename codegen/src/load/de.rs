//! A serde deserializer over positioned YAML [`Node`]s.
//!
//! Plain scalars follow the YAML 1.2 core schema when a number, a boolean or null is
//! asked for; when a string is asked for, any scalar gives its literal text (so `100.50`
//! stays `100.50` and `wire: 01` stays `01`). Errors carry the position of the innermost
//! node that caused them. [`Spanned`](crate::spec_file::Spanned) values are recognised by
//! a reserved struct name and receive the file, line and column of their node.

mod error;
mod plain;

use serde::de::{
    self, value::StrDeserializer, value::U64Deserializer, DeserializeSeed, IntoDeserializer,
    MapAccess, SeqAccess, Unexpected, Visitor,
};

use super::{Node, NodeKind};
use crate::spec_file::{SPANNED_FIELDS, SPANNED_NAME};
pub(crate) use error::DeError;
use plain::{resolve, Plain};

/// Deserializer for one node of one file.
pub(crate) struct NodeDe<'a> {
    node: &'a Node,
    file: &'a str,
}

impl<'a> NodeDe<'a> {
    /// A deserializer for `node`, found in `file` (display name).
    pub(crate) fn new(node: &'a Node, file: &'a str) -> Self {
        NodeDe { node, file }
    }

    fn unexpected(&self) -> Unexpected<'a> {
        match &self.node.kind {
            NodeKind::Scalar { text, plain: true } => match resolve(text) {
                Plain::Null => Unexpected::Unit,
                Plain::Bool(b) => Unexpected::Bool(b),
                Plain::Int(i) => Unexpected::Signed(i),
                Plain::UInt(u) => Unexpected::Unsigned(u),
                Plain::Float(f) => Unexpected::Float(f),
                Plain::Str => Unexpected::Str(text),
            },
            NodeKind::Scalar { text, plain: false } => Unexpected::Str(text),
            NodeKind::Seq(_) => Unexpected::Seq,
            NodeKind::Map(_) => Unexpected::Map,
        }
    }

    fn invalid(&self, expected: &dyn de::Expected) -> DeError {
        de::Error::invalid_type(self.unexpected(), expected)
    }

    fn plain(&self) -> Option<Plain> {
        match &self.node.kind {
            NodeKind::Scalar { text, plain: true } => Some(resolve(text)),
            _ => None,
        }
    }
}

macro_rules! located {
    ($self:ident, $body:expr) => {{
        let node = $self.node;
        let r: Result<_, DeError> = $body;
        r.map_err(|e| e.at(node))
    }};
}

impl<'de, 'a> de::Deserializer<'de> for NodeDe<'a> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        located!(
            self,
            match &self.node.kind {
                NodeKind::Scalar { text, plain: true } => match resolve(text) {
                    Plain::Null => visitor.visit_unit(),
                    Plain::Bool(b) => visitor.visit_bool(b),
                    Plain::Int(i) => visitor.visit_i64(i),
                    Plain::UInt(u) => visitor.visit_u64(u),
                    Plain::Float(f) => visitor.visit_f64(f),
                    Plain::Str => visitor.visit_str(text),
                },
                NodeKind::Scalar { text, plain: false } => visitor.visit_str(text),
                NodeKind::Seq(items) => visit_seq(items, self.file, visitor),
                NodeKind::Map(entries) => visit_map(entries, self.file, visitor),
            }
        )
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        located!(
            self,
            match self.plain() {
                Some(Plain::Bool(b)) => visitor.visit_bool(b),
                _ => Err(self.invalid(&visitor)),
            }
        )
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        located!(
            self,
            match self.plain() {
                Some(Plain::Int(i)) => visitor.visit_i64(i),
                Some(Plain::UInt(u)) => visitor.visit_u64(u),
                _ => Err(self.invalid(&visitor)),
            }
        )
    }

    fn deserialize_i8<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_i64(v)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_i64(v)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_i64(v)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_i64(v)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_i64(v)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_i64(v)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_i64(v)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        located!(
            self,
            match self.plain() {
                Some(Plain::Float(f)) => visitor.visit_f64(f),
                Some(Plain::Int(i)) => visitor.visit_i64(i),
                Some(Plain::UInt(u)) => visitor.visit_u64(u),
                _ => Err(self.invalid(&visitor)),
            }
        )
    }
    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_f64(v)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        located!(
            self,
            match &self.node.kind {
                NodeKind::Scalar { text, plain: true } if matches!(resolve(text), Plain::Null) => {
                    Err(self.invalid(&visitor))
                }
                NodeKind::Scalar { text, .. } => visitor.visit_str(text),
                _ => Err(self.invalid(&visitor)),
            }
        )
    }
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_str(v)
    }
    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_str(v)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_str(v)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_str(v)
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_str(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.plain() {
            Some(Plain::Null) => located!(self, visitor.visit_none()),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        located!(
            self,
            match self.plain() {
                Some(Plain::Null) => visitor.visit_unit(),
                _ => Err(self.invalid(&visitor)),
            }
        )
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_unit(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        located!(
            self,
            match &self.node.kind {
                NodeKind::Seq(items) => visit_seq(items, self.file, visitor),
                _ => Err(self.invalid(&visitor)),
            }
        )
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, DeError> {
        self.deserialize_seq(v)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        located!(
            self,
            match &self.node.kind {
                NodeKind::Map(entries) => visit_map(entries, self.file, visitor),
                _ => Err(self.invalid(&visitor)),
            }
        )
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        if name == SPANNED_NAME {
            return visitor.visit_map(SpannedAccess {
                node: self.node,
                file: self.file,
                step: 0,
            });
        }
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        located!(
            self,
            match &self.node.kind {
                NodeKind::Scalar { text, .. } =>
                    visitor.visit_enum(text.as_str().into_deserializer()),
                _ => Err(self.invalid(&visitor)),
            }
        )
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }
}

fn visit_seq<'de, V: Visitor<'de>>(
    items: &[Node],
    file: &str,
    visitor: V,
) -> Result<V::Value, DeError> {
    visitor.visit_seq(SeqDe {
        items: items.iter(),
        file,
    })
}

fn visit_map<'de, V: Visitor<'de>>(
    entries: &[(Node, Node)],
    file: &str,
    visitor: V,
) -> Result<V::Value, DeError> {
    visitor.visit_map(MapDe {
        entries: entries.iter(),
        value: None,
        file,
    })
}

struct SeqDe<'a> {
    items: std::slice::Iter<'a, Node>,
    file: &'a str,
}

impl<'de, 'a> SeqAccess<'de> for SeqDe<'a> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        match self.items.next() {
            Some(node) => seed
                .deserialize(NodeDe::new(node, self.file))
                .map(Some)
                .map_err(|e| e.at(node)),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct MapDe<'a> {
    entries: std::slice::Iter<'a, (Node, Node)>,
    value: Option<&'a Node>,
    file: &'a str,
}

impl<'de, 'a> MapAccess<'de> for MapDe<'a> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        match self.entries.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(NodeDe::new(key, self.file))
                    .map(Some)
                    .map_err(|e| e.at(key))
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        match self.value.take() {
            Some(node) => seed
                .deserialize(NodeDe::new(node, self.file))
                .map_err(|e| e.at(node)),
            None => Err(de::Error::custom(
                "a mapping value was asked for before its key",
            )),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// Feeds a `Spanned<T>`: file, line, column, then the node itself as the value.
struct SpannedAccess<'a> {
    node: &'a Node,
    file: &'a str,
    step: usize,
}

impl<'de, 'a> MapAccess<'de> for SpannedAccess<'a> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        match SPANNED_FIELDS.get(self.step) {
            Some(key) => seed
                .deserialize(StrDeserializer::<DeError>::new(key))
                .map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let step = self.step;
        self.step += 1;
        match step {
            0 => seed.deserialize(StrDeserializer::<DeError>::new(self.file)),
            1 => seed.deserialize(U64Deserializer::<DeError>::new(self.node.line as u64)),
            2 => seed.deserialize(U64Deserializer::<DeError>::new(self.node.column as u64)),
            _ => seed
                .deserialize(NodeDe::new(self.node, self.file))
                .map_err(|e| e.at(self.node)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Diagnostic;
    use crate::load::parse;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct T {
        name: String,
        n: Option<u64>,
        flag: Option<bool>,
    }

    fn de<X: for<'d> Deserialize<'d>>(text: &str) -> Result<X, Diagnostic> {
        let root = parse("f.yaml", text)?.expect("a document");
        X::deserialize(NodeDe::new(&root, "f.yaml")).map_err(|e| e.into_diagnostic("f.yaml", &root))
    }

    #[test]
    fn strings_keep_literal_text() {
        let t: T = de("name: 100.50\nn: 3\n").expect("decodes");
        assert_eq!(t.name, "100.50");
        assert_eq!(t.n, Some(3));
    }

    #[test]
    fn unknown_key_is_located_with_suggestion() {
        let e = de::<T>("name: x\nnmae: y\n").expect_err("unknown key");
        assert_eq!((e.location.line, e.location.column), (2, 1));
        assert_eq!(e.message, "unknown key `nmae`");
        assert!(e.help.unwrap_or_default().contains("did you mean `name`?"));
    }

    #[test]
    fn wrong_type_is_located_at_the_value() {
        let e = de::<T>("name: x\nflag: maybe\n").expect_err("bad bool");
        assert_eq!((e.location.line, e.location.column), (2, 7));
        assert!(e.message.contains("invalid type"), "{}", e.message);
    }

    #[test]
    fn missing_key_is_located_at_the_mapping() {
        let e = de::<T>("\n  n: 1\n").expect_err("missing name");
        assert_eq!((e.location.line, e.location.column), (2, 3));
        assert_eq!(e.message, "missing key `name`");
    }

    #[test]
    fn negative_count_is_refused() {
        let e = de::<T>("name: x\nn: -1\n").expect_err("negative");
        assert_eq!(e.location.line, 2);
    }
}
