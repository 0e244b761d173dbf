//! Handlers of the `onboarding` group: personal and SME onboarding queries on the
//! seeded applicants.

use baas_client::dispatch::onboarding::Request;
use baas_client::enums::BusinessType;
use baas_client::onboarding::{
    GetBusinessOnboardingRequestIdResponse, GetBusinessOnboardingStatusRequest,
    GetKycMediaListResponse, GetOnboardingRequestIdRequest, GetOnboardingRequestIdResponse,
    GetOnboardingStatusRequest,
};
use baas_client::records::KycMediaItem;
use baas_runtime::Scalar;
use serde_json::Value;

use super::given;
use super::wire::{answer, record, wire};
use crate::bank::{Bank, PersonalApplicant, SmeApplicant};
use crate::error::ApiError;

impl Bank {
    pub(super) fn handle_onboarding(&self, request: Request) -> Result<Value, ApiError> {
        match request {
            Request::GetOnboardingStatus(r) => self.personal_status(&r),
            Request::GetUserKyc(r) => {
                let a = self.personal_by_request(&r.onboarding_request_id)?;
                answer(&record::<baas_client::records::PersonalKyc>(&a.kyc)?)
            }
            Request::GetKycMediaList(r) => self.kyc_media(&r.onboarding_request_id),
            Request::GetOnboardingRequestId(r) => self.personal_request_id(&r),
            Request::GetBusinessOnboardingStatus(r) => self.sme_status(&r),
            Request::GetBusinessOnboardingRequestId(r) => {
                let a = self.sme_find(None, Some(&r.business_cer_no))?;
                let mut d = GetBusinessOnboardingRequestIdResponse::default();
                d.onboarding_request_id = text(&a.info, "onboardingRequestId");
                answer(&d)
            }
            // Each business type has its operation and its record.
            Request::GetStoreOnboardingInfo(r) => {
                let info =
                    self.sme_info(&r.onboarding_request_id, BusinessType::SoleProprietorship)?;
                answer(&record::<baas_client::records::StoreOnboardingInfo>(info)?)
            }
            Request::GetCompanyOnboardingInfo(r) => {
                let info = self.sme_info(&r.onboarding_request_id, BusinessType::Llc)?;
                answer(&record::<baas_client::records::CompanyOnboardingInfo>(
                    info,
                )?)
            }
            Request::GetPartnershipOnboardingInfo(r) => {
                let info = self.sme_info(&r.onboarding_request_id, BusinessType::Partnership)?;
                answer(&record::<baas_client::records::PartnershipOnboardingInfo>(
                    info,
                )?)
            }
            Request::GetOrganisationOnboardingInfo(r) => {
                let info = self.sme_info(&r.onboarding_request_id, BusinessType::NgoCbo)?;
                answer(&record::<baas_client::records::OrganisationOnboardingInfo>(
                    info,
                )?)
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
        let field = |a: &PersonalApplicant, k: &str| text(&a.kyc, k);
        let a = self
            .personal
            .iter()
            .find(|a| {
                user.is_none_or(|u| field(a, "userId").as_deref() == Some(u))
                    && req.is_none_or(|r| field(a, "onboardingRequestId").as_deref() == Some(r))
                    && mobile.is_none_or(|m| field(a, "mobile").as_deref() == Some(m))
            })
            .ok_or_else(|| ApiError::not_found("personal onboarding request"))?;
        let mut d = baas_client::records::PersonalOnboardingStatus::default();
        d.onboarding_request_id = field(a, "onboardingRequestId");
        d.onboarding_status = Some(a.status_text.to_owned());
        d.rejection_reason_id = a.rejection_id.map(Scalar::string);
        d.rejection_reason_msg = a.rejection_msg.map(str::to_owned);
        d.account_id = a.account_id.map(str::to_owned);
        d.account_type = a.account_type.and_then(wire);
        answer(&d)
    }

    fn personal_by_request(&self, id: &str) -> Result<&PersonalApplicant, ApiError> {
        self.personal
            .iter()
            .find(|a| text(&a.kyc, "onboardingRequestId").as_deref() == Some(id))
            .ok_or_else(|| ApiError::not_found(format!("onboarding request {id}")))
    }

    fn kyc_media(&self, onboarding_request_id: &str) -> Result<Value, ApiError> {
        let a = self.personal_by_request(onboarding_request_id)?;
        let id = text(&a.kyc, "onboardingRequestId").unwrap_or_default();
        let media = |media_type: &str, file_type_id: &str, file: &str| {
            let mut m = KycMediaItem::default();
            m.media_type = Some(Scalar::string(media_type));
            m.file_type_id = Some(Scalar::string(file_type_id));
            m.media_url = Some(format!("sandbox://files/{id}/{file}"));
            m
        };
        let mut d = GetKycMediaListResponse::default();
        d.media_list = Some(vec![
            media("ID_FRONT", "1", "id-front"),
            media("SELFIE", "3", "selfie"),
        ]);
        answer(&d)
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
                user.is_none_or(|u| text(&a.kyc, "userId").as_deref() == Some(u))
                    && mobile.is_none_or(|m| text(&a.kyc, "mobile").as_deref() == Some(m))
            })
            .collect();
        match matches.as_slice() {
            [one] => {
                let mut d = GetOnboardingRequestIdResponse::default();
                d.onboarding_request_id = text(&one.kyc, "onboardingRequestId");
                answer(&d)
            }
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
        let get = |a: &SmeApplicant, k: &str| text(&a.info, k);
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
                .and_then(|v| v.first())
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        // The first of the document's two shapes: one reason id and message.
        let mut d = baas_client::records::BusinessOnboardingStatus::default();
        d.onboarding_request_id = text(&a.info, "onboardingRequestId");
        d.onboarding_status = a.info.get("status").cloned().and_then(wire);
        d.rejection_reason_id = first("rejectReasonIds").map(Scalar::string);
        d.rejection_reason_msg = first("rejectReasonMsgs");
        d.account_id = a.account_id.map(str::to_owned);
        d.account_type = a.account_type.and_then(wire);
        answer(&d)
    }

    /// The info record of SME onboarding `id`, which must be of `business_type` (each
    /// business type has its operation).
    fn sme_info(&self, id: &str, business_type: BusinessType) -> Result<&Value, ApiError> {
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
        Ok(&a.info)
    }
}

/// The text of string member `k` of a seeded record.
fn text(seeded: &Value, k: &str) -> Option<String> {
    seeded.get(k).and_then(Value::as_str).map(str::to_owned)
}
