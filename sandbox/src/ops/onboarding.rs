//! Handlers of the `onboarding` group: personal and SME onboarding queries on the
//! seeded applicants.

use baas_client::dispatch::onboarding::Request;
use baas_client::enums::BusinessType;
use baas_client::onboarding::{
    GetBusinessOnboardingStatusRequest, GetOnboardingRequestIdRequest, GetOnboardingStatusRequest,
};
use serde_json::{json, Value};

use super::given;
use crate::bank::{Bank, PersonalApplicant, SmeApplicant};
use crate::error::ApiError;

impl Bank {
    pub(super) fn handle_onboarding(&self, request: Request) -> Result<Value, ApiError> {
        match request {
            Request::GetOnboardingStatus(r) => self.personal_status(&r),
            Request::GetUserKyc(r) => self
                .personal_by_request(&r.onboarding_request_id)
                .map(|a| a.kyc.clone()),
            Request::GetKycMediaList(r) => self.kyc_media(&r.onboarding_request_id),
            Request::GetOnboardingRequestId(r) => self.personal_request_id(&r),
            Request::GetBusinessOnboardingStatus(r) => self.sme_status(&r),
            Request::GetBusinessOnboardingRequestId(r) => {
                let a = self.sme_find(None, Some(&r.business_cer_no))?;
                Ok(json!({ "onboardingRequestId": a.info.get("onboardingRequestId") }))
            }
            Request::GetStoreOnboardingInfo(r) => {
                self.sme_info(&r.onboarding_request_id, BusinessType::SoleProprietorship)
            }
            Request::GetCompanyOnboardingInfo(r) => {
                self.sme_info(&r.onboarding_request_id, BusinessType::Llc)
            }
            Request::GetPartnershipOnboardingInfo(r) => {
                self.sme_info(&r.onboarding_request_id, BusinessType::Partnership)
            }
            Request::GetOrganisationOnboardingInfo(r) => {
                self.sme_info(&r.onboarding_request_id, BusinessType::NgoCbo)
            }
        }
    }

    fn personal_status(&self, r: &GetOnboardingStatusRequest) -> Result<Value, ApiError> {
        let (user, req, mobile) = (
            given(&r.user_id),
            given(&r.onboarding_request_id),
            given(&r.mobile),
        );
        if user.is_none() && req.is_none() && mobile.is_none() {
            return Err(ApiError::invalid(
                "userId",
                "at least one of userId, onboardingRequestId, mobile must be given",
            ));
        }
        let field = |a: &PersonalApplicant, k: &str| {
            a.kyc.get(k).and_then(Value::as_str).map(str::to_owned)
        };
        let a = self
            .personal
            .iter()
            .find(|a| {
                user.is_none_or(|u| field(a, "userId").as_deref() == Some(u))
                    && req.is_none_or(|r| field(a, "onboardingRequestId").as_deref() == Some(r))
                    && mobile.is_none_or(|m| field(a, "mobile").as_deref() == Some(m))
            })
            .ok_or_else(|| ApiError::not_found("personal onboarding request"))?;
        Ok(json!({
            "onboardingRequestId": field(a, "onboardingRequestId"), "onboardingStatus": a.status_text,
            "rejectionReasonId": a.rejection_id, "rejectionReasonMsg": a.rejection_msg,
            "accountId": a.account_id, "accountType": a.account_type,
        }))
    }

    fn personal_by_request(&self, id: &str) -> Result<&PersonalApplicant, ApiError> {
        self.personal
            .iter()
            .find(|a| a.kyc.get("onboardingRequestId").and_then(Value::as_str) == Some(id))
            .ok_or_else(|| ApiError::not_found(format!("onboarding request {id}")))
    }

    fn kyc_media(&self, onboarding_request_id: &str) -> Result<Value, ApiError> {
        let a = self.personal_by_request(onboarding_request_id)?;
        let id = a
            .kyc
            .get("onboardingRequestId")
            .cloned()
            .unwrap_or(Value::Null);
        let id = id.as_str().unwrap_or_default();
        Ok(json!({ "mediaList": [
            { "mediaType": "ID_FRONT", "fileTypeId": "1", "mediaUrl": format!("sandbox://files/{id}/id-front") },
            { "mediaType": "SELFIE", "fileTypeId": "3", "mediaUrl": format!("sandbox://files/{id}/selfie") },
        ]}))
    }

    /// The document makes both `userId` and `mobile` optional and, unlike for
    /// `getOnboardingStatus`, asks for neither: a request without them is valid, and
    /// identifies no onboarding request, so it is answered as a lookup that finds
    /// none (`14001`), not refused as a missing parameter (README, "Sandbox rules").
    fn personal_request_id(&self, r: &GetOnboardingRequestIdRequest) -> Result<Value, ApiError> {
        let (user, mobile) = (given(&r.user_id), given(&r.mobile));
        if user.is_none() && mobile.is_none() {
            return Err(ApiError::not_found(
                "personal onboarding request (neither userId nor mobile was given)",
            ));
        }
        let matches: Vec<_> = self
            .personal
            .iter()
            .filter(|a| {
                user.is_none_or(|u| a.kyc.get("userId").and_then(Value::as_str) == Some(u))
                    && mobile.is_none_or(|m| a.kyc.get("mobile").and_then(Value::as_str) == Some(m))
            })
            .collect();
        match matches.as_slice() {
            [one] => Ok(json!({ "onboardingRequestId": one.kyc.get("onboardingRequestId") })),
            [] => Err(ApiError::not_found("personal onboarding request")),
            _ => Err(ApiError::invalid(
                "userId",
                "matches several onboarding requests; give mobile",
            )),
        }
    }

    fn sme_find(&self, req: Option<&str>, cert: Option<&str>) -> Result<&SmeApplicant, ApiError> {
        if req.is_none() && cert.is_none() {
            return Err(ApiError::invalid(
                "onboardingRequestId",
                "at least one of onboardingRequestId, businessCerNo must be given",
            ));
        }
        let get =
            |a: &SmeApplicant, k: &str| a.info.get(k).and_then(Value::as_str).map(str::to_owned);
        self.sme
            .iter()
            .find(|a| {
                req.is_none_or(|r| get(a, "onboardingRequestId").as_deref() == Some(r))
                    && cert
                        .is_none_or(|c| get(a, "businessCertificateNumber").as_deref() == Some(c))
            })
            .ok_or_else(|| ApiError::not_found("SME onboarding request"))
    }

    fn sme_status(&self, r: &GetBusinessOnboardingStatusRequest) -> Result<Value, ApiError> {
        let a = self.sme_find(given(&r.onboarding_request_id), given(&r.business_cer_no))?;
        let first = |k: &str| {
            a.info
                .get(k)
                .and_then(Value::as_array)
                .and_then(|v| v.first().cloned())
        };
        Ok(json!({
            "onboardingRequestId": a.info.get("onboardingRequestId"), "onboardingStatus": a.info.get("status"),
            "rejectionReasonId": first("rejectReasonIds"), "rejectionReasonMsg": first("rejectReasonMsgs"),
            "accountId": a.account_id, "accountType": a.account_type,
        }))
    }

    /// The info record of SME onboarding `id`, which must be of `business_type` (each
    /// business type has its operation).
    fn sme_info(&self, id: &str, business_type: BusinessType) -> Result<Value, ApiError> {
        let a = self.sme_find(Some(id), None)?;
        if a.business_type != business_type.as_i64() {
            let name = |t: i64| match BusinessType::try_from(t) {
                Ok(BusinessType::SoleProprietorship) => "sole proprietorship",
                Ok(BusinessType::Llc) => "LLC",
                Ok(BusinessType::Partnership) => "partnership",
                _ => "NGO/CBO",
            };
            return Err(ApiError::not_found(format!(
                "{id} is a {} onboarding, not a {}",
                name(a.business_type),
                name(business_type.as_i64())
            )));
        }
        Ok(a.info.clone())
    }
}
