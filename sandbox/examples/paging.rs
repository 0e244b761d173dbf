//! Every transaction of an account, page by page, with the generated paginator: no page
//! counting, no total bookkeeping.
//!
//! ```sh
//! cargo run -p baas-sandbox --example paging
//! ```

use baas_client::enums::{Currency, OrderByDesc, OtpType};
use baas_client::transfers::{ApplyForTransferRequired, GetTransListRequest, GetTransListRequired};
use baas_client::Client;
use baas_sandbox::Sandbox;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sandbox = Sandbox::start().await?;
    let client = Client::new(sandbox.client_config())?;
    // A few transfers, so there is more than one page.
    for amount in ["10.00", "20.00", "30.00", "40.00"] {
        let pending = client
            .apply_for_transfer(ApplyForTransferRequired {
                payer_account_id: "1000000001".into(),
                payee_bank_code: "46".into(),
                payee_account_id: "1000000004".into(),
                currency: Currency::Kes,
                amount: amount.parse()?,
            })
            .pending()
            .await?;
        pending.send_otp(OtpType::Sms).await?;
        pending
            .confirm(sandbox.otp_for(pending.business_id()))
            .await?;
    }
    let request = GetTransListRequest::new(GetTransListRequired {
        account_id: "1000000001".into(),
        tx_type: Vec::new(),
        tx_status: Vec::new(),
        start_time: 0,
        end_time: 4_102_444_800_000,
        page_no: 1,
        page_size: 2,
        order_by_desc: OrderByDesc::NewestFirst,
    });
    // Pages: each one call, until the total is reached.
    let mut pages = client.get_trans_list(request.clone()).pages();
    while let Some(page) = pages.next_page().await {
        let page = page?;
        println!(
            "page {} ({} items, total {:?})",
            page.number,
            page.items.len(),
            page.total
        );
    }
    // Or the items themselves.
    let mut items = client.get_trans_list(request).pages().items();
    let mut count = 0;
    while let Some(item) = items.next_item().await {
        let item = item?;
        count += 1;
        println!("{:?} {:?} {:?}", item.tx_id, item.tx_type, item.amount);
    }
    println!("{count} transactions");
    Ok(())
}
