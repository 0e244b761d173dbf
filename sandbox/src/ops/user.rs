//! Handlers of the `user` group. The document does not show these requests' shapes:
//! each is an OTP-confirmed, cancellable request whose businessId is the envelope's
//! requestId.

use baas_client::dispatch::user::Request;
use serde_json::{json, Value};

use crate::bank::Bank;
use crate::error::ApiError;

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
        Ok(json!({ "businessId": request_id }))
    }
}
