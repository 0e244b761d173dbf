//! Handlers of the `account` group.

use baas_client::account::{
    ActivateAccountRequest, ApplyForShortCodeRequest, CancelAccountOperationRequest,
    EditSubAccountNameRequest, GetAbnormalAccountListRequest, GetAccountDetailsRequest,
    QueryAccountByShortCodeRequest, QueryAccountListByUserIdRequest, QueryForShortCodeRequest,
};
use baas_client::dispatch::account::Request;
use baas_client::enums::AbnormalStatus;
use serde_json::{json, Value};

use super::{given, m2, page, paginate};
use crate::bank::{AppState, Application, Bank, Effect};
use crate::error::{codes, ApiError};

impl Bank {
    pub(super) fn handle_account(
        &mut self,
        request: Request,
        request_id: &str,
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
        }
    }

    fn account_details(&self, r: &GetAccountDetailsRequest) -> Result<Value, ApiError> {
        let a = self.account(&r.account_id)?;
        Ok(json!({
            "accountId": a.id, "accountName": a.name, "currency": a.currency,
            "accountType": a.account_type, "shortCode": a.short_code,
            "accountStatus": a.status, "createTime": a.create_time, "balance": m2(a.balance),
            "dormantStatus": i64::from(a.dormant), "freezeStatus": i64::from(a.frozen),
        }))
    }

    fn accounts_of_user(&self, r: &QueryAccountListByUserIdRequest) -> Result<Value, ApiError> {
        let user = &r.user_id;
        let accounts: Vec<Value> = self
            .accounts
            .values()
            .filter(|a| !a.system && a.user_id == *user)
            .map(|a| {
                json!({
                    "accountId": a.id, "accountName": a.name, "currency": a.currency,
                    "accountType": a.account_type, "dormantStatus": i64::from(a.dormant),
                    "freezeStatus": i64::from(a.frozen),
                })
            })
            .collect();
        Ok(json!({ "accounts": accounts }))
    }

    fn abnormal_accounts(&self, r: &GetAbnormalAccountListRequest) -> Result<Value, ApiError> {
        let page = page(r.page_no.into(), r.page_size.into())?;
        let all: Vec<Value> = self
            .accounts
            .values()
            .filter(|a| !a.system && (a.dormant || a.frozen || a.restricted))
            .map(|a| {
                let mut status = Vec::new();
                if a.dormant {
                    status.push(AbnormalStatus::Dormant.as_i64());
                }
                if a.restricted {
                    status.push(AbnormalStatus::Restricted.as_i64());
                }
                if a.frozen {
                    status.push(AbnormalStatus::Frozen.as_i64());
                }
                json!({"userId": a.user_id, "accountId": a.id, "accountType": a.account_type, "status": status})
            })
            .collect();
        Ok(json!({ "total": all.len(), "resultArray": paginate(&all, page) }))
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
        Ok(json!({ "accountId": id, "shortCode": code }))
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
            Some(code) => Ok(json!({ "accountId": a.id, "shortCode": code })),
            None => Err(ApiError::not_found(format!(
                "account {} has no short code (apply with /account/applyForShortCode)",
                a.id
            ))),
        }
    }

    fn account_by_short_code(&self, r: &QueryAccountByShortCodeRequest) -> Result<Value, ApiError> {
        let code = r.short_code.as_str();
        match self.short_codes.get(code) {
            Some(id) => Ok(json!({ "accountId": id, "shortCode": code })),
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
        Ok(json!({ "accountId": id, "shortCode": code }))
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
        Ok(json!({ "applicationId": app, "accountName": name }))
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
        Ok(Value::Null)
    }
}
