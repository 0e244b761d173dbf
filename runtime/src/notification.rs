//! Callback notifications: verify a received body, read its type and params, answer
//! [`ACK`].
//!
//! The service POSTs a signed envelope (`requestId`, `sender`, `notificationType`,
//! `locale`, `timestamp`, `salt`, `signature`, `params`) signed like a request with the
//! partner's key. It re-delivers (up to 5 times) until it receives the plain body `ok`,
//! so a receiver must be idempotent: [`Notification::delivery_id`] is the same for
//! every delivery of one notification.

use serde::{Deserialize, Serialize};

use crate::envelope::{new_salt, now_millis};
use crate::error::{Error, ErrorKind};
use crate::raw_json::RawJson;
use crate::secret::PrivateKey;

/// The body to answer once a notification is processed (or recognised as a duplicate).
pub const ACK: &str = "ok";

/// A verified notification.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Notification {
    /// The notification number, e.g. `"0028"` (CNY transfer).
    pub notification_type: String,
    /// The notification's requestId.
    pub request_id: String,
    /// The service's sender name, when given.
    pub sender: Option<String>,
    /// The locale, when given.
    pub locale: Option<String>,
    /// Epoch milliseconds, when given.
    pub timestamp: Option<i64>,
    /// The payload, verbatim (`{}` when absent).
    pub params: RawJson,
}

/// Identifies one notification across its deliveries: (`requestId`, `notificationType`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeliveryId {
    /// The notification's requestId.
    pub request_id: String,
    /// The notification number.
    pub notification_type: String,
}

impl Notification {
    /// The key to recognise a repeated delivery: store it once processed, and answer
    /// [`ACK`] without processing again when it is seen a second time.
    pub fn delivery_id(&self) -> DeliveryId {
        DeliveryId {
            request_id: self.request_id.clone(),
            notification_type: self.notification_type.clone(),
        }
    }

    /// The answer body, [`ACK`].
    pub fn ack(&self) -> &'static str {
        ACK
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Fields {
    request_id: String,
    #[serde(deserialize_with = "type_text")]
    notification_type: String,
    sender: Option<String>,
    locale: Option<String>,
    timestamp: Option<i64>,
    params: Option<RawJson>,
}

fn type_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    crate::wire_enum::deserialize_str(d).map(|c| c.into_owned())
}

/// Verifies a received notification body with the signing algorithm (numbers as their
/// literal text) and returns its content. Errors: [`ErrorKind::Decode`] for a malformed body,
/// [`ErrorKind::SignatureMissing`] (an unsigned notification is never accepted),
/// [`ErrorKind::SignatureInvalid`].
pub fn verify(body: &[u8], key: &PrivateKey) -> Result<Notification, Error> {
    let flat = crate::canonical::Flattened::parse(body).map_err(|e| {
        Error::decode(
            None,
            format!("notification is not a usable JSON object: {e}"),
            body,
            Some(Box::new(e)),
        )
    })?;
    match crate::sign::verify_flattened(&flat, key) {
        Ok(()) => {}
        Err(crate::sign::VerifyError::Missing) => return Err(ErrorKind::SignatureMissing.into()),
        Err(_) => return Err(ErrorKind::SignatureInvalid.into()),
    }
    let text = std::str::from_utf8(body)
        .map_err(|e| Error::decode(None, format!("notification is not UTF-8: {e}"), body, None))?;
    let fields: Fields = serde_json::from_str(text).map_err(|e| {
        Error::decode(
            None,
            format!("cannot decode the notification: {e}"),
            body,
            Some(Box::new(e)),
        )
    })?;
    Ok(Notification {
        notification_type: fields.notification_type,
        request_id: fields.request_id,
        sender: fields.sender,
        locale: fields.locale,
        timestamp: fields.timestamp,
        params: fields.params.unwrap_or_default(),
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Outgoing<'a> {
    request_id: &'a str,
    sender: &'a str,
    notification_type: &'a str,
    locale: &'a str,
    timestamp: i64,
    salt: &'a str,
    params: &'a RawJson,
}

/// Tool for test servers: a signed notification body (fresh timestamp and salt).
pub fn signed_body(
    notification_type: &str,
    request_id: &str,
    sender: &str,
    locale: &str,
    params: &RawJson,
    key: &PrivateKey,
) -> Result<Vec<u8>, Error> {
    let salt = new_salt()?;
    let outgoing = Outgoing {
        request_id,
        sender,
        notification_type,
        locale,
        timestamp: now_millis(),
        salt: &salt,
        params,
    };
    let bytes = serde_json::to_vec(&outgoing).map_err(|e| ErrorKind::Encode {
        message: e.to_string(),
        source: Some(Box::new(e)),
    })?;
    crate::sign::sign_and_attach(bytes, key).map_err(|e| {
        ErrorKind::Encode {
            message: e.to_string(),
            source: Some(Box::new(e)),
        }
        .into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_and_dedup() {
        let key = PrivateKey::new("k");
        let params =
            RawJson::from_string(r#"{"applicationId":"A1","amount":100.50}"#.into()).unwrap();
        let body = signed_body("0028", "N1", "svc", "en_KE", &params, &key).unwrap();
        let n = verify(&body, &key).unwrap();
        assert_eq!(n.notification_type, "0028");
        assert_eq!(n.params.get(), r#"{"applicationId":"A1","amount":100.50}"#);
        assert_eq!(n.ack(), "ok");
        let again = verify(&body, &key).unwrap();
        assert_eq!(again.delivery_id(), n.delivery_id());
        let other = verify(
            &signed_body("0028", "N2", "svc", "en_KE", &params, &key).unwrap(),
            &key,
        )
        .unwrap();
        assert_ne!(other.delivery_id(), n.delivery_id());
        let tampered = String::from_utf8(body).unwrap().replace("100.50", "100.5");
        assert!(matches!(
            verify(tampered.as_bytes(), &key).map_err(Error::into_kind),
            Err(ErrorKind::SignatureInvalid)
        ));
        assert!(matches!(
            verify(br#"{"requestId":"x","notificationType":"0028"}"#, &key)
                .map_err(Error::into_kind),
            Err(ErrorKind::SignatureMissing)
        ));
        assert!(matches!(
            verify(b"ok", &key).map_err(Error::into_kind),
            Err(ErrorKind::Decode { .. })
        ));
        // A numeric notificationType is kept as text.
        let numeric = crate::sign::sign_and_attach(
            br#"{"requestId":"x","notificationType":15}"#.to_vec(),
            &key,
        )
        .unwrap();
        assert_eq!(verify(&numeric, &key).unwrap().notification_type, "15");
    }
}
