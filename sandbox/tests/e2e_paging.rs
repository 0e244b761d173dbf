//! Paginators against the sandbox: every page and every item of a paged operation,
//! stopping at the total, with no page asked twice and none left out.

mod common;

use baas_client::enums::{Currency, OrderByDesc, TxStatus};
use baas_client::transfers::{ApplyForTransferRequired, GetTransListRequest, GetTransListRequired};
use common::{amount, confirm, start};
use futures_util::StreamExt;

const T0: i64 = 0;
const T1: i64 = 4_102_444_800_000; // 2100-01-01

fn list(page_size: i32) -> GetTransListRequest {
    GetTransListRequest::new(GetTransListRequired {
        account_id: "1000000001".into(),
        tx_type: Vec::new(),
        tx_status: vec![TxStatus::Succeeded],
        start_time: T0,
        end_time: T1,
        page_no: 1,
        page_size,
        order_by_desc: OrderByDesc::OldestFirst,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_item_of_every_page_once() {
    let (sandbox, client) = start().await;
    // Five confirmed transfers next to what the seed holds.
    for i in 1..=5 {
        let applied = client
            .apply_for_transfer(ApplyForTransferRequired {
                payer_account_id: "1000000001".into(),
                payee_bank_code: "46".into(),
                payee_account_id: "1000000004".into(),
                currency: Currency::Kes,
                amount: amount(&format!("{i}.00")),
            })
            .send()
            .await
            .expect("applied");
        confirm(&client, &sandbox, applied.tx_id.as_deref().expect("txId")).await;
    }
    let whole = client
        .get_trans_list(list(50))
        .send()
        .await
        .expect("one page");
    let total = whole.total_rows.expect("total");
    let all: Vec<String> = whole
        .result
        .unwrap_or_default()
        .into_iter()
        .filter_map(|t| t.tx_id)
        .collect();
    assert!(total >= 5 && all.len() == usize::try_from(total).unwrap());

    // Pages of 2: ceil(total / 2) pages, numbered from 1, the last one short.
    let before = sandbox.requests_seen();
    let mut pages = client.get_trans_list(list(2)).pages();
    let mut numbers = Vec::new();
    let mut ids = Vec::new();
    while let Some(page) = pages.next_page().await {
        let page = page.expect("page");
        assert_eq!(page.total, Some(i64::from(total)));
        assert!(page.items.len() <= 2);
        numbers.push(page.number);
        ids.extend(page.items.into_iter().filter_map(|t| t.tx_id));
    }
    let expected_pages = (total + 1) / 2;
    assert_eq!(numbers, (1..=i64::from(expected_pages)).collect::<Vec<_>>());
    assert_eq!(ids, all, "every item once, in order");
    assert_eq!(
        sandbox.requests_seen() - before,
        u64::try_from(expected_pages).unwrap(),
        "no page is asked for twice, none after the last"
    );

    // The same as a Stream of items.
    let items: Vec<String> = client
        .get_trans_list(list(3))
        .pages()
        .items()
        .map(|item| item.expect("item").tx_id.expect("txId"))
        .collect()
        .await;
    assert_eq!(items, all);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_error_ends_the_stream_and_bad_pages_are_not_sent() {
    let (sandbox, client) = start().await;
    // Page 0 is refused before sending: pages count from 1.
    let mut zero = list(2);
    zero.page_no = 0;
    let mut pages = client.get_trans_list(zero).pages();
    let first = pages.next_page().await.expect("an item");
    assert!(
        matches!(
            first.as_ref().map_err(baas_client::Error::kind),
            Err(baas_client::ErrorKind::InvalidRequest(_))
        ),
        "{first:?}"
    );
    assert!(
        pages.next_page().await.is_none(),
        "the stream ends at the error"
    );
    // Over the page-size limit: refused before sending too.
    let mut pages = client.get_trans_list(list(51)).pages();
    assert!(matches!(
        pages
            .next_page()
            .await
            .map(|r| r.map_err(baas_client::Error::into_kind)),
        Some(Err(baas_client::ErrorKind::InvalidRequest(_)))
    ));
    assert_eq!(sandbox.requests_seen(), 0);
}
