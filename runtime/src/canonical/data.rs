//! An answer's `data` decoded from the members the lean pass already delimited (issue 36
//! item 4: the call's own work), instead of `serde_json` scanning its text again.
//!
//! The lean pass (`compact`) records, for the top-level `data` object of a small body,
//! where each of its members' key and value are (relative to the start of `data`'s
//! text). Every key and every string there is plain: no escape, valid UTF-8 (the pass
//! takes nothing else), so a key or a string value is its text between the quotes. This
//! deserializer hands those to the caller's `Deserialize` as `serde_json` would hand the
//! same unescaped text (`visit_borrowed_str`), and gives every other value (numbers,
//! literals, objects, arrays) to `serde_json` itself over that value's own text, so their
//! decoding is `serde_json`'s. Anything it does not know how to mirror exactly (a
//! non-string map key read as a number, for one) is an error, and so is every error: the
//! caller then decodes `data`'s text with `serde_json` as before, which gives the result
//! or the error it always gave. `data_tests.rs` checks the two agree.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};

/// The members of `data` as the lean pass found them: `[key start, key end, value start,
/// value end]`, relative to `data`'s text (keys without their quotes, values whole).
pub(super) type DataMembers = [[u32; 4]];

/// Decodes `T` from `text` (an object whose members are `members`); `None` when the
/// caller must decode `text` with `serde_json` (see the module's doc).
pub(super) fn decode<'de, T: de::Deserialize<'de>>(
    text: &'de str,
    members: &DataMembers,
) -> Option<T> {
    T::deserialize(Object { text, members }).ok()
}

type Error = serde_json::Error;

/// Anything this deserializer leaves to `serde_json` reading the whole of `data`.
fn leave() -> Error {
    de::Error::custom("left to serde_json")
}

/// Methods that leave the value to `serde_json` reading the whole of `data`.
macro_rules! leave {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Error> {
                Err(leave())
            }
        )*
    };
}

/// [`leave!`] for the methods given a name.
macro_rules! leave_named {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(
                self,
                _name: &'static str,
                _visitor: V,
            ) -> Result<V::Value, Error> {
                Err(leave())
            }
        )*
    };
}

/// `data` itself.
struct Object<'de, 'm> {
    text: &'de str,
    members: &'m DataMembers,
}

impl<'de> Deserializer<'de> for Object<'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_map(Members {
            text: self.text,
            members: self.members.iter(),
            value: None,
        })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_any(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // An object is never `null`.
        visitor.visit_some(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    // Whatever else the type asks of an object (a sequence, a raw value, an enum, a
    // string, ...): `serde_json` over the whole text decides.
    leave! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
        deserialize_seq deserialize_identifier
    }
    leave_named! { deserialize_unit_struct deserialize_newtype_struct }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, _v: V) -> Result<V::Value, Error> {
        Err(leave())
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        _v: V,
    ) -> Result<V::Value, Error> {
        Err(leave())
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Error> {
        Err(leave())
    }
}

/// The members, one after the other.
struct Members<'de, 'm> {
    text: &'de str,
    members: std::slice::Iter<'m, [u32; 4]>,
    /// The value of the member whose key was just read.
    value: Option<&'de str>,
}

impl<'de> MapAccess<'de> for Members<'de, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some(&[key_start, key_end, start, end]) = self.members.next() else {
            return Ok(None);
        };
        let span = |from: u32, to: u32| self.text.get(from as usize..to as usize);
        let (Some(key), Some(value)) = (span(key_start, key_end), span(start, end)) else {
            return Err(leave());
        };
        self.value = Some(value);
        // A plain key is its text between the quotes, as `serde_json` hands an unescaped
        // key; read as anything but a string it fails, and `serde_json` decides.
        seed.deserialize(BorrowedStrDeserializer::new(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let text = self.value.take().ok_or_else(leave)?;
        seed.deserialize(Value(text))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.members.len())
    }
}

/// A member's value: its whole text. A plain string read as a string (or as anything,
/// or as an option of one) is its text between the quotes; everything else is
/// `serde_json`'s over the value's text.
struct Value<'de>(&'de str);

impl<'de> Value<'de> {
    /// The text between the quotes of a string value (plain: the lean pass took it).
    fn string(&self) -> Option<&'de str> {
        self.0.strip_prefix('"')?.strip_suffix('"')
    }

    fn json(&self) -> serde_json::Deserializer<serde_json::de::StrRead<'de>> {
        serde_json::Deserializer::from_str(self.0)
    }
}

/// The methods that read a plain string as `serde_json` reads it, and leave any other
/// value to `serde_json` over its text.
macro_rules! string_or_json {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                match self.string() {
                    Some(text) => visitor.visit_borrowed_str(text),
                    None => (&mut self.json()).$method(visitor),
                }
            }
        )*
    };
}

/// The methods `serde_json` answers over the value's text.
macro_rules! json {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                (&mut self.json()).$method(visitor)
            }
        )*
    };
}

impl<'de> Deserializer<'de> for Value<'de> {
    type Error = Error;

    string_or_json! { deserialize_any deserialize_str deserialize_string }

    json! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_bytes
        deserialize_byte_buf deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // The lean pass takes no `null` inside `data`: every value is `Some`.
        if self.0 == "null" {
            return (&mut self.json()).deserialize_option(visitor);
        }
        visitor.visit_some(self)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        (&mut self.json()).deserialize_unit_struct(name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        (&mut self.json()).deserialize_newtype_struct(name, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        (&mut self.json()).deserialize_tuple(len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        (&mut self.json()).deserialize_tuple_struct(name, len, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        (&mut self.json()).deserialize_struct(name, fields, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        (&mut self.json()).deserialize_enum(name, variants, visitor)
    }
}
