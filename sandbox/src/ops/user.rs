//! Handlers of the `user` group. The document does not show these requests' shapes:
//! each is an OTP-confirmed, cancellable request whose businessId is the envelope's
//! requestId.

use baas_client::dispatch::user::Request;
use serde::Serialize;
use serde_json::Value;

use super::wire::answer;
use crate::bank::Bank;
use crate::error::{codes, ApiError};

/// The sandbox's answer to both (decision: no evidence shapes these answers, so the
/// spec keeps them opaque JSON): the businessId to confirm with the OTP.
#[derive(Serialize)]
struct BusinessId<'a> {
    #[serde(rename = "businessId")]
    business_id: &'a str,
}

impl Bank {
    pub(super) fn handle_user(
        &mut self,
        request: Request,
        request_id: &str,
    ) -> Result<Value, ApiError> {
        // The params of both are an open object the sandbox does not read.
        let operation = match request {
            Request::AddEmail(_) => "addEmail",
            Request::VerifyEmailAddress(_) => "verifyEmailAddress",
        };
        self.new_application(request_id.to_owned(), operation, vec![], vec![])?;
        let data = baas_runtime::RawJson::from_serialize(&BusinessId {
            business_id: request_id,
        })
        .map_err(|e| ApiError::new(codes::SYSTEM, e.to_string()))?;
        // `AddEmailResponse` and `VerifyEmailAddressResponse` are both this opaque JSON.
        answer::<baas_client::RawJson>(&data)
    }
}
