//! The serde traits of the one-pass signer: `Direct` as a `Serializer`, its objects and
//! arrays (`Compound`), and map keys (`KeyText`). What each value writes and pairs is in
//! the parent module; here each serde call is routed to it, or refused.

use serde::ser::{self, Impossible, Serialize};

use super::{Compound, Direct, Result, Unsupported};

impl<'a> ser::Serializer for &'a mut Direct {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Impossible<(), Unsupported>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Impossible<(), Unsupported>;

    fn serialize_bool(self, v: bool) -> Result {
        self.literal(v)
    }
    fn serialize_i8(self, v: i8) -> Result {
        self.literal(v)
    }
    fn serialize_i16(self, v: i16) -> Result {
        self.literal(v)
    }
    fn serialize_i32(self, v: i32) -> Result {
        self.literal(v)
    }
    fn serialize_i64(self, v: i64) -> Result {
        self.literal(v)
    }
    fn serialize_u8(self, v: u8) -> Result {
        self.literal(v)
    }
    fn serialize_u16(self, v: u16) -> Result {
        self.literal(v)
    }
    fn serialize_u32(self, v: u32) -> Result {
        self.literal(v)
    }
    fn serialize_u64(self, v: u64) -> Result {
        self.literal(v)
    }
    fn serialize_f32(self, _: f32) -> Result {
        Err(Unsupported)
    }
    fn serialize_f64(self, _: f64) -> Result {
        Err(Unsupported)
    }
    fn serialize_char(self, v: char) -> Result {
        self.string(v.encode_utf8(&mut [0u8; 4]))
    }
    fn serialize_str(self, v: &str) -> Result {
        self.string(v)
    }
    fn collect_str<T: std::fmt::Display + ?Sized>(self, value: &T) -> Result {
        // Displayed into a buffer kept for the call: no String per value.
        use std::io::Write;
        let mut text = std::mem::take(&mut self.scratch);
        text.clear();
        write!(text, "{value}").map_err(|_| Unsupported)?;
        let result = std::str::from_utf8(&text)
            .map_err(|_| Unsupported)
            .and_then(|text| self.string(text));
        self.scratch = text;
        result
    }
    fn serialize_bytes(self, _: &[u8]) -> Result {
        Err(Unsupported)
    }
    fn serialize_none(self) -> Result {
        Err(Unsupported)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result {
        Err(Unsupported)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result {
        Err(Unsupported)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        self.string(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result {
        Err(Unsupported)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>> {
        self.open(b'[', false)
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>> {
        self.open(b'[', false)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>> {
        self.open(b'[', false)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(Unsupported)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>> {
        self.open(b'{', true)
    }
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Compound<'a>> {
        // serde_json's raw values (RawJson, amounts written as numbers) are structs of
        // this name that only serde_json's own serializer writes as their text.
        if name.starts_with("$serde_json") {
            return Err(Unsupported);
        }
        self.open(b'{', true)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(Unsupported)
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.element(value)
    }
    fn end(self) -> Result {
        self.close()
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.element(value)
    }
    fn end(self) -> Result {
        self.close()
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.element(value)
    }
    fn end(self) -> Result {
        self.close()
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
        self.member_key(key)?;
        self.value(value)
    }
    fn end(self) -> Result {
        self.close()
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result {
        key.serialize(KeyText(self))
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.value(value)
    }
    fn end(self) -> Result {
        self.close()
    }
}

/// A map key: a string (anything else is left to the parse).
struct KeyText<'c, 'd>(&'c mut Compound<'d>);

impl ser::Serializer for KeyText<'_, '_> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Impossible<(), Unsupported>;
    type SerializeTuple = Impossible<(), Unsupported>;
    type SerializeTupleStruct = Impossible<(), Unsupported>;
    type SerializeTupleVariant = Impossible<(), Unsupported>;
    type SerializeMap = Impossible<(), Unsupported>;
    type SerializeStruct = Impossible<(), Unsupported>;
    type SerializeStructVariant = Impossible<(), Unsupported>;

    fn serialize_str(self, v: &str) -> Result {
        self.0.member_key(v)
    }
    fn serialize_bool(self, _: bool) -> Result {
        Err(Unsupported)
    }
    fn serialize_i8(self, _: i8) -> Result {
        Err(Unsupported)
    }
    fn serialize_i16(self, _: i16) -> Result {
        Err(Unsupported)
    }
    fn serialize_i32(self, _: i32) -> Result {
        Err(Unsupported)
    }
    fn serialize_i64(self, _: i64) -> Result {
        Err(Unsupported)
    }
    fn serialize_u8(self, _: u8) -> Result {
        Err(Unsupported)
    }
    fn serialize_u16(self, _: u16) -> Result {
        Err(Unsupported)
    }
    fn serialize_u32(self, _: u32) -> Result {
        Err(Unsupported)
    }
    fn serialize_u64(self, _: u64) -> Result {
        Err(Unsupported)
    }
    fn serialize_f32(self, _: f32) -> Result {
        Err(Unsupported)
    }
    fn serialize_f64(self, _: f64) -> Result {
        Err(Unsupported)
    }
    fn serialize_char(self, _: char) -> Result {
        Err(Unsupported)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result {
        Err(Unsupported)
    }
    fn serialize_none(self) -> Result {
        Err(Unsupported)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result {
        Err(Unsupported)
    }
    fn serialize_unit(self) -> Result {
        Err(Unsupported)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result {
        Err(Unsupported)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result {
        Err(Unsupported)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, _: &T) -> Result {
        Err(Unsupported)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result {
        Err(Unsupported)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(Unsupported)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(Unsupported)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(Unsupported)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(Unsupported)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(Unsupported)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(Unsupported)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(Unsupported)
    }
}
