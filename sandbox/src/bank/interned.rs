//! Reading back the `&'static str` fields of the bank's records from a state file: a
//! stored text becomes the constant it was written from, and a text that is none of
//! them is an error naming it (a state file written by another version, or edited).

use serde::de::{Deserializer, Error};
use serde::Deserialize;

use super::tx_type;

/// A `&'static str` field of a record. (Named, because serde's derive borrows a field
/// written `&str` from the input, which would tie the record to `'static` input.)
pub type Constant = &'static str;

/// Every transaction type code the sandbox writes.
pub(crate) const TX_TYPES: [&str; 8] = [
    tx_type::MOBILE_MONEY_OUT,
    tx_type::TRANSFER_OUT,
    tx_type::TRANSFER_IN,
    tx_type::PAYBILL_TILL,
    tx_type::UTILITY,
    tx_type::FOREIGN_TRANSFER_OUT,
    tx_type::REVERSAL,
    tx_type::CNY_TRANSFER,
];

/// Every `paymentChannel` the sandbox writes.
pub(crate) const CHANNELS: [&str; 2] = ["INTERNAL_TRANSFER", "SWIFT"];

/// Every kind of utility payment.
pub(crate) const PAYMENT_KINDS: [&str; 2] = ["AIRTIME", "BILL"];

fn one_of<E: Error>(text: &str, known: &[&'static str], what: &str) -> Result<&'static str, E> {
    known
        .iter()
        .find(|k| **k == text)
        .copied()
        .ok_or_else(|| E::custom(format!("`{text}` is not a {what} this sandbox knows")))
}

/// A transaction type code ([`TX_TYPES`]).
pub(super) fn tx_type<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    one_of(&String::deserialize(d)?, &TX_TYPES, "transaction type")
}

/// A payment channel ([`CHANNELS`]), or none.
pub(super) fn channel<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'static str>, D::Error> {
    Option::<String>::deserialize(d)?
        .map(|c| one_of(&c, &CHANNELS, "payment channel"))
        .transpose()
}

/// An operation name of the spec (`baas_client::dispatch::OPERATIONS`).
pub(super) fn operation<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let text = String::deserialize(d)?;
    baas_client::dispatch::OPERATIONS
        .iter()
        .find(|o| o.name == text)
        .map(|o| o.name)
        .ok_or_else(|| D::Error::custom(format!("`{text}` is not an operation of the spec")))
}

/// A utility payment kind ([`PAYMENT_KINDS`]).
pub(super) fn payment_kind<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    one_of(&String::deserialize(d)?, &PAYMENT_KINDS, "payment kind")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct T {
        #[serde(deserialize_with = "tx_type")]
        t: &'static str,
        #[serde(deserialize_with = "channel")]
        c: Option<&'static str>,
        #[serde(deserialize_with = "operation")]
        o: &'static str,
    }

    #[test]
    fn known_texts_come_back_as_their_constants_and_others_are_named_errors() {
        let t: T =
            serde_json::from_str(r#"{"t":"TTID0003","c":null,"o":"applyForTransfer"}"#).unwrap();
        assert_eq!((t.t, t.c, t.o), ("TTID0003", None, "applyForTransfer"));
        let bad = serde_json::from_str::<T>(r#"{"t":"TTID9999","c":null,"o":"x"}"#)
            .err()
            .unwrap();
        assert!(
            bad.to_string()
                .contains("`TTID9999` is not a transaction type"),
            "{bad}"
        );
        let bad = serde_json::from_str::<T>(r#"{"t":"TTID0003","c":"FAX","o":"x"}"#)
            .err()
            .unwrap();
        assert!(
            bad.to_string().contains("`FAX` is not a payment channel"),
            "{bad}"
        );
    }
}
