//! Handlers of the `account` group.

use baas_client::account::{
    ActivateAccountRequest, ActivateAccountResponse, ApplyForShortCodeRequest,
    ApplyForShortCodeResponse, CancelAccountOperationRequest, CancelAccountOperationResponse,
    EditSubAccountNameRequest, EditSubAccountNameResponse, GetAbnormalAccountListRequest,
    GetAbnormalAccountListResponse, GetAccountDetailsRequest, QueryAccountByShortCodeRequest,
    QueryAccountByShortCodeResponse, QueryAccountListByUserIdRequest,
    QueryAccountListByUserIdResponse, QueryForShortCodeRequest, QueryForShortCodeResponse,
};
use baas_client::dispatch::account::Request;
use baas_client::enums::{AbnormalStatus, DormantStatus, FreezeStatus};
use baas_client::records::{AbnormalAccount, AccountListItem};
use serde_json::Value;

use super::wire::{answer, code_and_msg, m2, wire};
use super::{count, given, page, paginate};
use crate::bank::{AppState, Application, Bank, Effect};
use crate::error::{codes, ApiError};

impl Bank {
    pub(super) fn handle_account(
        &mut self,
        request: Request,
        request_id: &str,
        now_ms: i64,
    ) -> Result<Value, ApiError> {
        match request {
            Request::GetAccountDetails(r) => self.account_details(&r),
            Request::QueryAccountListByUserId(r) => self.accounts_of_user(&r),
            Request::GetAbnormalAccountList(r) => self.abnormal_accounts(&r),
            Request::ApplyForShortCode(r) => self.apply_short_code(&r),
            Request::QueryForShortCode(r) => self.query_short_code(&r),
            Request::QueryAccountByShortCode(r) => self.account_by_short_code(&r),
            Request::ActivateAccount(r) => self.activate(&r, request_id),
            Request::EditSubAccountName(r) => self.edit_sub_account_name(&r),
            Request::CancelAccountOperation(r) => self.cancel_operation(&r),
            Request::ValidateAccount(r) => self.validate_account(&r),
            Request::QueryClosingBalance(r) => self.closing_balance(&r, now_ms),
        }
    }

    fn account_details(&self, r: &GetAccountDetailsRequest) -> Result<Value, ApiError> {
        let a = self.account(&r.account_id)?;
        let mut d = baas_client::records::Account::default();
        d.account_id = Some(a.id.clone());
        d.account_name = Some(a.name.clone());
        d.currency = wire(a.currency.as_str());
        d.account_type = wire(a.account_type.as_str());
        d.short_code = a.short_code.clone();
        d.account_status = wire(a.status);
        d.create_time = Some(a.create_time);
        d.balance = Some(m2(a.balance));
        d.dormant_status = Some(dormant_status(a.dormant));
        d.freeze_status = Some(freeze_status(a.frozen));
        answer(&d)
    }

    fn accounts_of_user(&self, r: &QueryAccountListByUserIdRequest) -> Result<Value, ApiError> {
        let user = &r.user_id;
        let accounts = self
            .accounts
            .values()
            .filter(|a| !a.system && a.user_id == *user)
            .map(|a| {
                let mut item = AccountListItem::default();
                item.balance = Some(m2(a.balance));
                item.account_id = Some(a.id.clone());
                item.account_name = Some(a.name.clone());
                item.currency = wire(a.currency.as_str());
                item.account_type = wire(a.account_type.as_str());
                item.dormant_status = Some(dormant_status(a.dormant));
                item.freeze_status = Some(freeze_status(a.frozen));
                item
            })
            .collect();
        let mut d = QueryAccountListByUserIdResponse::default();
        d.accounts = Some(accounts);
        answer(&d)
    }

    fn abnormal_accounts(&self, r: &GetAbnormalAccountListRequest) -> Result<Value, ApiError> {
        let page = page(r.page_no.into(), r.page_size.into())?;
        let all: Vec<AbnormalAccount> = self
            .accounts
            .values()
            .filter(|a| !a.system && (a.dormant || a.frozen || a.restricted))
            .map(|a| {
                let mut status = Vec::new();
                if a.dormant {
                    status.push(AbnormalStatus::Dormant);
                }
                if a.restricted {
                    status.push(AbnormalStatus::Restricted);
                }
                if a.frozen {
                    status.push(AbnormalStatus::Frozen);
                }
                let mut item = AbnormalAccount::default();
                item.user_id = Some(a.user_id.clone());
                item.account_id = Some(a.id.clone());
                item.account_type = wire(a.account_type.as_str());
                item.status = Some(status);
                item
            })
            .collect();
        let mut d = GetAbnormalAccountListResponse::default();
        d.total = Some(count(all.len()));
        d.result_array = Some(paginate(&all, page));
        answer(&d)
    }

    fn apply_short_code(&mut self, r: &ApplyForShortCodeRequest) -> Result<Value, ApiError> {
        let id = r.account_id.clone();
        if let Some(code) = &self.account(&id)?.short_code {
            return Err(ApiError::new(
                codes::SHORT_CODE_EXISTS,
                format!("account {id} already has short code {code}"),
            ));
        }
        let code = self.assign_short_code(&id);
        let mut d = ApplyForShortCodeResponse::default();
        d.account_id = Some(id);
        d.short_code = Some(code);
        answer(&d)
    }

    fn assign_short_code(&mut self, id: &str) -> String {
        let mut code = format!("S{}", self.next_id("").trim_start_matches('0'));
        while self.short_codes.contains_key(&code) {
            code = format!("S{}", self.next_id("").trim_start_matches('0'));
        }
        self.short_codes.insert(code.clone(), id.to_owned());
        if let Some(a) = self.accounts.get_mut(id) {
            a.short_code = Some(code.clone());
        }
        code
    }

    fn query_short_code(&self, r: &QueryForShortCodeRequest) -> Result<Value, ApiError> {
        let a = self.account(&r.account_id)?;
        match &a.short_code {
            Some(code) => {
                let mut d = QueryForShortCodeResponse::default();
                d.account_id = Some(a.id.clone());
                d.short_code = Some(code.clone());
                answer(&d)
            }
            None => Err(ApiError::not_found(format!(
                "account {} has no short code (apply with /account/applyForShortCode)",
                a.id
            ))),
        }
    }

    fn account_by_short_code(&self, r: &QueryAccountByShortCodeRequest) -> Result<Value, ApiError> {
        let code = r.short_code.as_str();
        match self.short_codes.get(code) {
            Some(id) => {
                let mut d = QueryAccountByShortCodeResponse::default();
                d.account_id = Some(id.clone());
                d.short_code = Some(code.to_owned());
                answer(&d)
            }
            None => Err(ApiError::new(
                codes::NO_ACCOUNT,
                format!("account does not exist for short code {code}"),
            )),
        }
    }

    fn activate(
        &mut self,
        r: &ActivateAccountRequest,
        request_id: &str,
    ) -> Result<Value, ApiError> {
        let id = r.account_id.clone();
        let a = self.account(&id)?;
        if !a.dormant {
            return Err(ApiError::invalid(
                "accountId",
                format!("account {id} is not dormant"),
            ));
        }
        let code = match a.short_code.clone() {
            Some(c) => c,
            None => self.assign_short_code(&id),
        };
        self.new_application(
            request_id.to_owned(),
            "activateAccount",
            vec![],
            vec![Effect::Activate(id.clone())],
        )?;
        let mut d = ActivateAccountResponse::default();
        d.account_id = Some(id);
        d.short_code = Some(code);
        answer(&d)
    }

    fn edit_sub_account_name(&mut self, r: &EditSubAccountNameRequest) -> Result<Value, ApiError> {
        let id = r.account_id.clone();
        let a = self.account(&id)?;
        let Some(business) = a.business_name.clone() else {
            return Err(ApiError::invalid(
                "accountId",
                format!("account {id} does not belong to an SME customer"),
            ));
        };
        let name = match given(&r.sub_account_name) {
            Some(sub) => format!("{business}_{sub}"),
            None => business,
        };
        let len = name.chars().count();
        if len > 255 {
            return Err(ApiError::invalid(
                "subAccountName",
                format!("the final name (business name, '_', subAccountName) has {len} characters, more than 255"),
            ));
        }
        if let Some(a) = self.accounts.get_mut(&id) {
            a.name = name.clone();
        }
        let app = self.next_id("APP");
        self.applications.insert(
            app.clone(),
            Application {
                id: app.clone(),
                postings: vec![],
                effects: vec![],
                members: vec![],
                state: AppState::Confirmed,
                group: None,
                otp_sent: false,
                wrong_attempts: 0,
                operation: "editSubAccountName",
            },
        );
        // The new name is read back with getAccountDetails: the answer has the
        // application only.
        let mut d = EditSubAccountNameResponse::default();
        d.application_id = Some(app);
        answer(&d)
    }

    fn cancel_operation(&mut self, r: &CancelAccountOperationRequest) -> Result<Value, ApiError> {
        let id = r.request_id.as_str();
        let app = self
            .applications
            .get_mut(id)
            .ok_or_else(|| ApiError::not_found(format!("account operation {id}")))?;
        if !["activateAccount", "addEmail", "verifyEmailAddress"].contains(&app.operation) {
            return Err(ApiError::invalid(
                "requestId",
                format!(
                    "{id} is a {} request, which cannot be cancelled here",
                    app.operation
                ),
            ));
        }
        if app.state != AppState::Pending {
            return Err(ApiError::invalid(
                "requestId",
                format!("operation {id} is no longer pending ({:?})", app.state),
            ));
        }
        // A grouped operation is confirmed with its group: cancelling it alone would
        // leave the group's confirmation to carry it out anyway.
        if let Some(group) = &app.group {
            return Err(ApiError::invalid(
                "requestId",
                format!("operation {id} belongs to group {group}; it is confirmed with the group"),
            ));
        }
        app.state = AppState::Cancelled;
        code_and_msg::<CancelAccountOperationResponse>()
    }
}

fn dormant_status(dormant: bool) -> DormantStatus {
    if dormant {
        DormantStatus::Dormant
    } else {
        DormantStatus::Normal
    }
}

/// `freezeStatus` of an account (also in the validateAccount answer).
pub(super) fn freeze_status(frozen: bool) -> FreezeStatus {
    if frozen {
        FreezeStatus::Frozen
    } else {
        FreezeStatus::Normal
    }
}
