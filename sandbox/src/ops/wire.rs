//! The answer boundary. Every handler builds the generated response type of its
//! operation (or its response record; the `server` feature gives them `Serialize`) and
//! [`answer`] writes it as the `data` JSON: the sandbox sends only the members the spec
//! declares, with the declared JSON types (a `None` field is left out, not `null`).

use baas_runtime::Amount;
use rust_decimal::Decimal;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

pub(super) use crate::bank::money;
use crate::error::{codes, ApiError};

/// The `data` of an answer: the operation's generated response type, as JSON.
///
/// `serde_json::to_value` keeps what the generated types write: money as strings
/// (`Amount` writes its decimal text), integers as integers (a `Scalar` written as a
/// number goes through `RawValue`, which `to_value` reads back as the number).
pub(super) fn answer<T: Serialize>(response: &T) -> Result<Value, ApiError> {
    serde_json::to_value(response).map_err(|e| {
        ApiError::new(
            codes::SYSTEM,
            format!("the sandbox cannot write its answer (a sandbox defect): {e}"),
        )
    })
}

/// The answer of an operation the service answers with code and msg only: its
/// generated response type `T` has no members, so there is no `data`.
pub(super) fn code_and_msg<T: Serialize + Default>() -> Result<Value, ApiError> {
    match answer(&T::default())? {
        Value::Object(members) if members.is_empty() => Ok(Value::Null),
        data => Ok(data),
    }
}

/// A value of a generated value set from its wire value (`"KES"`, `8`): a listed value
/// is its variant, any other is kept as `Unknown`, exactly as the client decodes it
/// (the sandbox holds a CNY account, and `Currency` does not list CNY: decision
/// account-currency-set). `None` only when the wire value has the other JSON type.
pub(super) fn wire<E: DeserializeOwned>(value: impl Into<Value>) -> Option<E> {
    serde_json::from_value(value.into()).ok()
}

/// A generated record from seeded JSON (the onboarding applicants): decoded as the
/// client decodes it, so what the sandbox then writes is the record's members only.
pub(super) fn record<T: DeserializeOwned>(seeded: &Value) -> Result<T, ApiError> {
    T::deserialize(seeded).map_err(|e| {
        ApiError::new(
            codes::SYSTEM,
            format!("a seeded record does not decode (a sandbox defect): {e}"),
        )
    })
}

/// An amount with 2 decimals, the minor unit of every currency the sandbox holds.
pub(super) fn m2(value: Decimal) -> Amount {
    money(value, 2)
}

#[cfg(test)]
mod tests {
    use baas_client::enums::{Currency, TxStatus};
    use baas_client::records::ReversalApplication;
    use baas_runtime::Scalar;

    use super::*;

    #[test]
    fn money_keeps_its_places_and_scalars_keep_their_json_type() {
        assert_eq!(m2(Decimal::new(123, 1)).to_string(), "12.30");
        assert_eq!(money(Decimal::new(7, 0), 4).to_string(), "7.0000");
        let mut r = ReversalApplication::default();
        r.status = Some(Scalar::integer(3));
        r.reversed_time = Some("2026-01-01".into());
        assert_eq!(
            answer(&r).unwrap(),
            serde_json::from_str::<Value>(r#"{"status":3,"reversedTime":"2026-01-01"}"#).unwrap()
        );
    }

    #[test]
    fn wire_values_the_spec_does_not_list_are_kept() {
        assert_eq!(wire::<Currency>("KES"), Some(Currency::Kes));
        let cny: Currency = wire("CNY").unwrap();
        assert_eq!(cny.as_str(), "CNY");
        assert_eq!(wire::<TxStatus>(8), Some(TxStatus::Succeeded));
        assert_eq!(answer(&cny).unwrap(), Value::from("CNY"));
    }
}
