//! The state file: what is written reads back equal, and every file that is not a
//! state file of this version is refused with an error saying what it is.

use std::path::PathBuf;

use serde_json::{json, Value};

use super::*;
use crate::bank::otp_for;
use crate::json::Json;

const NOW: i64 = 1_750_000_000_000;

/// A fresh directory for one test's files.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("baas-state-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A bank driven as the server drives it, each request committed to the store.
struct Driven {
    bank: Bank,
    store: Store,
    n: u32,
    notifications: Vec<QueuedNotification>,
}

impl Driven {
    fn call(&mut self, operation: &str, params: Value) -> Value {
        self.n += 1;
        let rid = format!("REQ{:04}", self.n);
        let name = baas_client::dispatch::OPERATIONS
            .iter()
            .find(|o| o.name == operation)
            .map(|o| o.name)
            .unwrap();
        let request = crate::server::decode_request(&[name], Json::from_value(&params))
            .unwrap_or_else(|e| panic!("{operation}: {e}"));
        let data = self
            .bank
            .handle(request, &rid, NOW + i64::from(self.n))
            .unwrap_or_else(|e| panic!("{operation}: {e}"));
        let queued: Vec<QueuedNotification> = self
            .bank
            .take_outbox()
            .into_iter()
            .enumerate()
            .map(|(i, n)| QueuedNotification {
                request_id: format!("NTF{rid}-{i}"),
                notification_type: n.notification_type(),
                params: n.payload.to_params().unwrap().get().to_owned(),
            })
            .collect();
        self.store
            .commit(&rid, Some(&mut self.bank), &queued)
            .unwrap();
        self.notifications.extend(queued);
        data
    }

    fn confirm(&mut self, id: &str) {
        self.call("sendOtp", json!({"businessId": id, "otpType": "sms"}));
        self.call(
            "confirmOperation",
            json!({"businessId": id, "otpCode": otp_for(id)}),
        );
    }
}

fn transfer(payer: &str, payee: &str, bank: &str, amount: &str) -> Value {
    json!({"payerAccountId": payer, "payeeBankCode": bank, "payeeAccountId": payee,
           "payeeAccountName": "Payee", "currency": "KES", "amount": amount})
}

/// Operations that write every kind of record: transfers (internal, outgoing, pending,
/// grouped, reversed), airtime (single and bulk) and bills, activation, sub-account
/// names, short codes, FX and CNY (with their notifications), closing balances, SWIFT,
/// a wrong OTP.
fn workload(d: &mut Driven) {
    let tx = d.call(
        "applyForTransfer",
        transfer("1000000001", "1000000004", "46", "300"),
    )["txId"]
        .as_str()
        .unwrap()
        .to_owned();
    d.confirm(&tx);
    d.call(
        "txReversal",
        json!({"transactionId": tx, "reversalReason": "duplicate"}),
    );
    let out = d.call(
        "applyForTransfer",
        transfer("1000000001", "0700", "68", "1000.50"),
    )["txId"]
        .as_str()
        .unwrap()
        .to_owned();
    d.confirm(&out);
    let pending = d.call(
        "applyForTransfer",
        transfer("1000000004", "1000000001", "46", "5"),
    )["txId"]
        .as_str()
        .unwrap()
        .to_owned();
    d.call("sendOtp", json!({"businessId": pending, "otpType": "sms"}));
    d.bank
        .handle(
            crate::server::decode_request(
                &["confirmOperation"],
                Json::from_value(&json!({"businessId": pending, "otpCode": "000000"})),
            )
            .unwrap(),
            "WRONG",
            NOW,
        )
        .unwrap_err();
    d.store.commit("WRONG", Some(&mut d.bank), &[]).unwrap();
    let a = d.call(
        "applyForTransfer",
        transfer("1000000001", "1000000004", "46", "10"),
    )["txId"]
        .clone();
    let b = d.call(
        "airtimePayment",
        json!({"accountId": "1000000001", "mobileNumber": "254700000001",
               "networkProvider": 0, "amount": "50"}),
    );
    let g = d.call(
        "groupApplications",
        json!({"applicationIdList": [a, b["paymentId"]]}),
    );
    d.confirm(g["applicationId"].as_str().unwrap());
    d.call("activateAccount", json!({"accountId": "1000000005"}));
    d.confirm(&format!("REQ{:04}", d.n));
    d.call(
        "editSubAccountName",
        json!({"accountId": "2000000002", "subAccountName": "Ops"}),
    );
    d.call("applyForShortCode", json!({"accountId": "1000000002"}));
    d.call(
        "applyForFcExchange",
        json!({"sourceCurrency": "KES", "targetCurrency": "EUR", "sourceAccount": "2000000001",
               "targetAccount": "2000000003", "targetAmount": "100"}),
    );
    let cny = d.call("applyForCnyExpress", json!({"payerAccountId": "2000000001", "beneficiaryType": "2",
        "beneficiaryName": "上海贸易", "beneficiaryIdNumber": "91310000", "beneficiaryBankCode": "BOC",
        "beneficiaryBankName": "Bank of China", "beneficiaryBankAddress": "Shanghai", "beneficiaryAccountId": "6222",
        "paymentPurpose": "PURCHASE_GOODS", "supportDocumentFile": "aGk=", "supportDocumentType": "pdf",
        "companyRegisDocumentFile": "aGk=", "companyRegisDocumentType": "pdf", "invoiceDocumentType": "pdf",
        "oderArray": [{"productName": "tea", "quantity": 2, "amount": "1000.5", "orderTime": NOW, "platform": "shop"}]}));
    d.confirm(cny["applicationId"].as_str().unwrap());
    d.call("queryClosingBalance", json!({"queryDate": "2025-06-14"}));
    let swift = d.call(
        "telegraphicTransfer",
        json!({"accountId": "1000000002", "beneficiarySwiftBic": "DEUTDEFF",
               "beneficiaryBankName": "Deutsche Bank", "beneficiaryBankCity": "Frankfurt",
               "beneficiaryAccountId": "DE89370400440532013000", "beneficiaryAccountCcy": "EUR",
               "beneficiaryName": "Hans Muster", "amount": "1000", "amountType": 0,
               "paymentChannel": "SWIFT", "paymentPurposeId": "GDDS",
               "senderAddress": "Nairobi", "chargeType": "OUR"}),
    );
    d.confirm(swift["applicationId"].as_str().unwrap());
    let bill = d.call(
        "billPayment",
        json!({"accountId": "1000000001", "billType": 6, "billOrderNumber": "WATER-2002"}),
    );
    d.confirm(bill["paymentId"].as_str().unwrap());
    let bulk = d.call(
        "airtimeBulkPayment",
        json!({"accountId": "1000000001", "mobileDetails": [
            {"mobileNumber": "254700000001", "networkProvider": 0, "amount": "10"},
            {"mobileNumber": "254700000002", "networkProvider": 1, "amount": "20"}]}),
    );
    d.confirm(bulk["bulkPaymentOrderId"].as_str().unwrap());
}

#[test]
fn every_record_reads_back_as_it_was_written() {
    let path = dir("roundtrip").join("state.db");
    let (store, restored) = Store::open(&path, NOW, 100).unwrap();
    assert!(restored.created);
    let mut d = Driven {
        bank: restored.bank,
        store,
        n: 0,
        notifications: Vec::new(),
    };
    workload(&mut d);
    assert_eq!(
        d.notifications
            .iter()
            .map(|n| n.notification_type.as_str())
            .collect::<Vec<_>>(),
        ["0026", "0028", "0015"]
    );
    d.store
        .delivered(&d.notifications[0].request_id, Delivered::Acknowledged)
        .unwrap();
    d.store.set_clock_offset(86_400_000).unwrap();
    for table in schema::RECORD_TABLES {
        let rows: i64 = d
            .store
            .conn
            .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .unwrap();
        assert!(rows > 0, "the workload writes {table}");
    }
    let before = format!("{:?}", d.bank);
    let totals = d.bank.totals();
    let n = d.n;
    drop(d.store);

    let (_store, again) = Store::open(&path, NOW + 999_999, 100).unwrap();
    assert!(!again.created);
    assert_eq!(format!("{:?}", again.bank), before);
    assert_eq!(again.bank.totals(), totals);
    assert_eq!(again.clock_offset_ms, 86_400_000);
    // Acknowledged notifications are not sent again; the others are, as they were.
    assert_eq!(again.queue, d.notifications[1..]);
    // Every requestId, in order; the newest 100 when the memory holds 100.
    let mut ids: Vec<String> = (1..=n).map(|i| format!("REQ{i:04}")).collect();
    ids.insert(
        ids.iter().position(|i| i == "REQ0009").unwrap() + 1,
        "WRONG".into(),
    );
    assert_eq!(again.request_ids, ids);
    drop(_store);
    let (_, newest) = Store::open(&path, NOW, 3).unwrap();
    assert_eq!(newest.request_ids, ids[ids.len() - 3..]);
}

#[cfg(unix)]
#[test]
fn a_new_state_file_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let d = dir("mode");
    let path = d.join("state.db");
    let (store, _) = Store::open(&path, NOW, 10).unwrap();
    drop(store);
    for entry in std::fs::read_dir(&d).unwrap() {
        let entry = entry.unwrap();
        let mode = entry.metadata().unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}: {mode:o}", entry.path().display());
    }
    // An existing file keeps the mode its owner gave it.
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    drop(Store::open(&path, NOW, 10).unwrap());
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

#[test]
fn a_second_sandbox_on_the_same_file_is_refused() {
    let path = dir("busy").join("state.db");
    let (_held, _) = Store::open(&path, NOW, 10).unwrap();
    let e = Store::open(&path, NOW, 10).unwrap_err();
    assert!(matches!(e, StateError::Busy { .. }), "{e:?}");
    assert!(e.to_string().contains("in use by another process"), "{e}");
}

#[test]
fn files_that_are_not_state_files_are_refused_and_left_as_they_were() {
    let d = dir("bad");
    let text = d.join("notes.txt");
    let content = "these are notes, not a database\n".repeat(200);
    std::fs::write(&text, &content).unwrap();
    let e = Store::open(&text, NOW, 10).unwrap_err();
    assert!(matches!(e, StateError::NotSqlite { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        format!(
            "state file {}: not an SQLite database (a baas-sandbox state file is one; give a \
             new path to start afresh)",
            text.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&text).unwrap(), content);

    let other = d.join("other.db");
    Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE songs (title TEXT); PRAGMA user_version = 3;")
        .unwrap();
    let e = Store::open(&other, NOW, 10).unwrap_err();
    assert!(matches!(e, StateError::NotOurs { .. }), "{e:?}");
    assert!(
        e.to_string().contains("application_id 0x0, user_version 3"),
        "{e}"
    );
    let tables: i64 = Connection::open(&other)
        .unwrap()
        .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
        .unwrap();
    assert_eq!(tables, 1, "the other database is not changed");

    let newer = d.join("newer.db");
    drop(Store::open(&newer, NOW, 10).unwrap());
    Connection::open(&newer)
        .unwrap()
        .execute_batch("PRAGMA user_version = 2")
        .unwrap();
    let e = Store::open(&newer, NOW, 10).unwrap_err();
    assert!(
        matches!(
            e,
            StateError::Version {
                found: 2,
                expected: 1,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .contains("schema version 2, this sandbox reads version 1"),
        "{e}"
    );
}

#[test]
fn an_empty_file_starts_seeded_and_a_damaged_row_is_named() {
    let d = dir("rows");
    let empty = d.join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    let (store, restored) = Store::open(&empty, NOW, 10).unwrap();
    assert!(restored.created);
    assert_eq!(
        format!("{:?}", restored.bank),
        format!("{:?}", Bank::seeded(NOW))
    );
    drop(store);
    Connection::open(&empty)
        .unwrap()
        .execute(
            "UPDATE accounts SET record = '{\"id\": 7}' WHERE key = '1000000001'",
            [],
        )
        .unwrap();
    let e = Store::open(&empty, NOW, 10).unwrap_err();
    assert!(
        matches!(&e, StateError::Corrupt { table: "accounts", key, .. } if key == "1000000001"),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .contains("accounts row 1000000001: invalid type"),
        "{e}"
    );

    let missing_dir = d.join("no/such/dir/state.db");
    let e = Store::open(&missing_dir, NOW, 10).unwrap_err();
    assert!(matches!(e, StateError::Create { .. }), "{e:?}");
    assert!(e.to_string().contains("cannot create it"), "{e}");
}

/// The code and msg of a signed request to `path` with `params`.
fn ask(
    shared: &std::sync::Arc<crate::server::Shared>,
    path: &str,
    params: Value,
) -> (String, String) {
    let key = baas_runtime::PrivateKey::new(crate::DEFAULT_KEY);
    let signed =
        baas_runtime::envelope::sign_request(&params, crate::DEFAULT_SENDER, "en_KE", &key)
            .unwrap();
    let body = crate::server::answer_path(shared, path, &signed.body);
    let answer: Value = serde_json::from_slice(&body).unwrap();
    (
        answer["code"].as_str().unwrap().to_owned(),
        answer["msg"].as_str().unwrap_or_default().to_owned(),
    )
}

#[test]
fn a_failed_write_answers_10000_from_then_on_and_a_restart_has_every_request_answered_before() {
    let path = dir("failed-write").join("state.db");
    let now = baas_runtime::envelope::now_millis();
    let config = crate::SandboxConfig::default();
    let (store, restored) = Store::open(&path, now, 10).unwrap();
    let shared = std::sync::Arc::new(crate::server::Shared::restored(
        restored.bank,
        crate::SERVICE_SENDER.to_owned(),
        &config,
        Some(store),
        restored.request_ids,
        0,
    ));
    let transfer = |amount: &str| {
        json!({"payerAccountId": "1000000001", "payeeBankCode": "46",
               "payeeAccountId": "1000000004", "currency": "KES", "amount": amount})
    };
    assert_eq!(
        ask(&shared, "/trans/v2/applyForTransfer", transfer("1.00")).0,
        "00000"
    );
    // The disk "fills up": every write of a transaction row fails from now on.
    crate::server::lock(shared.store.as_ref().unwrap())
        .conn
        .execute_batch(
            "CREATE TRIGGER full BEFORE INSERT ON txs BEGIN SELECT RAISE(FAIL, 'disk full'); END;",
        )
        .unwrap();
    let (code, msg) = ask(&shared, "/trans/v2/applyForTransfer", transfer("2.00"));
    assert_eq!(code, "10000");
    assert!(
        msg.contains("disk full") && msg.contains("until it is restarted"),
        "{msg}"
    );
    // Even a request that writes no transaction is refused: memory is ahead of the file.
    let (code, again) = ask(
        &shared,
        "/query/getAccountDetails",
        json!({"accountId": "1000000001"}),
    );
    assert_eq!((code.as_str(), again.as_str()), ("10000", msg.as_str()));
    drop(shared);

    Connection::open(&path)
        .unwrap()
        .execute_batch("DROP TRIGGER full")
        .unwrap();
    let (_store, after) = Store::open(&path, now, 10).unwrap();
    let amounts: Vec<String> = after
        .bank
        .txs
        .values()
        .filter(|t| t.account_id == "1000000001" && t.create_time >= now)
        .map(|t| t.amount.to_string())
        .collect();
    assert_eq!(
        amounts,
        ["1.00"],
        "the answered apply is kept, the refused one is not"
    );
    assert_eq!(after.request_ids.len(), 1);
}

#[test]
fn request_ids_older_than_the_replay_memory_are_pruned_from_the_file() {
    let path = dir("prune").join("state.db");
    let (mut store, _) = Store::open(&path, NOW, 5).unwrap();
    let count = |store: &Store| -> i64 {
        store
            .conn
            .query_row("SELECT count(*) FROM request_ids", [], |r| r.get(0))
            .unwrap()
    };
    for i in 1..PRUNE_EVERY {
        store.commit(&format!("R{i}"), None, &[]).unwrap();
    }
    assert_eq!(count(&store), i64::try_from(PRUNE_EVERY - 1).unwrap());
    store.commit("LAST", None, &[]).unwrap();
    assert_eq!(count(&store), 5);
    drop(store);
    let (_, restored) = Store::open(&path, NOW, 5).unwrap();
    let newest: Vec<String> = (PRUNE_EVERY - 4..PRUNE_EVERY)
        .map(|i| format!("R{i}"))
        .chain(["LAST".to_owned()])
        .collect();
    assert_eq!(restored.request_ids, newest);
}
