//! The records the operations keep besides accounts and transactions: payments,
//! bills, SWIFT, CNY and FX applications, reversals, notifications waiting to be sent,
//! and the seeded onboarding applicants.

use baas_client::notifications::Payload;
use baas_client::records::{CnyTransferDetail, InterBankTransfer, ReversalApplication};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// A utility or airtime payment.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Payment {
    /// paymentId.
    pub id: String,
    /// Its transaction.
    pub tx_id: String,
    /// AIRTIME or BILL.
    #[serde(deserialize_with = "super::interned::payment_kind")]
    pub kind: super::interned::Constant,
    /// Paying account.
    pub account_id: String,
    /// Mobile number (airtime) or bill order number (bill).
    pub target: String,
    /// networkProvider (airtime) or billType (bill).
    pub provider: i64,
    /// Amount.
    pub amount: Decimal,
    /// Currency.
    pub currency: String,
    /// 1 waiting for OTP, 2 processing, 8 succeeded, 4 failed.
    pub status: i64,
    /// Epoch ms.
    pub create_time: i64,
    /// Epoch ms.
    pub complete_time: Option<i64>,
    /// Batch, for bulk airtime.
    pub bulk_id: Option<String>,
}

/// A bill the sandbox knows (billQuery).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Bill {
    /// Due date, `YYYY-MM-DD`.
    pub due_date: String,
    /// Amount still due.
    pub due_amount: Decimal,
    /// Mobile linked to the bill.
    pub mobile: String,
}

/// A SWIFT application.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Swift {
    /// applicationId.
    pub id: String,
    /// Its transaction.
    pub tx_id: String,
    /// What the application was sent with (echoed by the list and detail queries);
    /// the status, amounts and times below are added when it is answered.
    pub record: InterBankTransfer,
    /// Debited amount (account currency).
    pub debit_amount: Decimal,
    /// Fee.
    pub fee: Decimal,
    /// Account.
    pub account_id: String,
    /// Currency of the account.
    pub currency: String,
    /// 1 submitted, 2 validating, 3 approved, 4 rejected, 6 in transit.
    pub status: i64,
    /// Epoch ms.
    pub create_time: i64,
}

/// A CNY Express application.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Cny {
    /// applicationId.
    pub id: String,
    /// Its transaction.
    pub tx_id: String,
    /// User in the partner's system (owner of the payer account).
    pub user_id: String,
    /// The paying account.
    pub payer_account_id: String,
    /// The record as the detail query answers it, without the status and times below.
    pub record: CnyTransferDetail,
    /// Status: 1 submitted, 8 completed, 4 failed (sandbox values).
    pub status: i64,
    /// Epoch ms.
    pub create_time: i64,
    /// Epoch ms.
    pub completed_time: Option<i64>,
}

/// An FX request.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Fx {
    /// applicationId.
    pub id: String,
    /// Source account.
    pub source_account: String,
    /// Target account.
    pub target_account: String,
    /// Source currency.
    pub source_currency: String,
    /// Target currency.
    pub target_currency: String,
    /// Debited amount.
    pub source_amount: Decimal,
    /// Credited amount.
    pub target_amount: Decimal,
    /// Rate applied (target per source).
    pub rate: Decimal,
    /// 1 submitted, 6 successful, 7 failed.
    pub status: i64,
    /// Debit transaction.
    pub out_tx: Option<String>,
    /// Credit transaction.
    pub in_tx: Option<String>,
}

/// A reversal request.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Reversal {
    /// The record `/trans/queryTxReversal` answers.
    pub record: ReversalApplication,
}

/// A notification waiting to be delivered by the server: its payload record (the
/// generated `Payload` of its type: `0015`, `0026` or `0028`), written as `params`
/// when it is signed.
#[derive(Clone, Debug, PartialEq)]
pub struct Outgoing {
    /// The typed payload; its variant gives the notification type.
    pub payload: Payload,
}

impl Outgoing {
    /// The notification type (`0028`).
    pub fn notification_type(&self) -> String {
        self.payload.notification_type().as_str().to_owned()
    }
}

/// A seeded personal onboarding applicant.
#[derive(Clone, Debug)]
pub struct PersonalApplicant {
    /// KYC record, wire names.
    pub kyc: serde_json::Value,
    /// Status text.
    pub status_text: &'static str,
    /// Rejection reason id.
    pub rejection_id: Option<&'static str>,
    /// Rejection reason text.
    pub rejection_msg: Option<&'static str>,
    /// Account, once opened.
    pub account_id: Option<&'static str>,
    /// Account type, once opened.
    pub account_type: Option<&'static str>,
}

/// A seeded SME onboarding applicant.
#[derive(Clone, Debug)]
pub struct SmeApplicant {
    /// businessType: 1 sole proprietorship, 2 LLC, 3 partnership, 5 NGO/CBO.
    pub business_type: i64,
    /// Info record, wire names (common and type-specific fields).
    pub info: serde_json::Value,
    /// Account, once opened.
    pub account_id: Option<&'static str>,
    /// Account type, once opened.
    pub account_type: Option<&'static str>,
}
