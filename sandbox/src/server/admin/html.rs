//! The admin page as plain server-rendered HTML: one table per section, every value
//! escaped ([`escape`]), no script.

use std::fmt::Write;

use super::Snapshot;

/// `text` safe inside HTML text and attribute values.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A section: its title (with an id for links), then a table of `rows` under
/// `headers`, every cell escaped; `empty` when there is no row.
fn section(
    out: &mut String,
    id: &str,
    title: &str,
    headers: &[&str],
    rows: Vec<Vec<String>>,
    empty: &str,
) {
    let _ = write!(out, "<section id=\"{id}\"><h2>{}</h2>", escape(title));
    if rows.is_empty() {
        let _ = write!(out, "<p class=\"empty\">{}</p></section>", escape(empty));
        return;
    }
    out.push_str("<table><thead><tr>");
    for h in headers {
        let _ = write!(out, "<th>{}</th>", escape(h));
    }
    out.push_str("</tr></thead><tbody>");
    for row in rows {
        out.push_str("<tr>");
        for cell in row {
            let _ = write!(out, "<td>{}</td>", escape(&cell));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></section>");
}

fn yes(b: bool) -> String {
    if b { "yes" } else { "" }.to_owned()
}

fn opt(v: &Option<String>) -> String {
    v.clone().unwrap_or_default()
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\
table{border-collapse:collapse;margin-bottom:1em;font-size:0.9em}\
th,td{border:1px solid #ccc;padding:0.2em 0.5em;text-align:left;vertical-align:top}\
th{background:#f0f0f0}td{font-family:ui-monospace,monospace;max-width:50em;overflow-wrap:anywhere}\
nav a{margin-right:1em}.empty{color:#777}";

/// The whole page.
pub(super) fn page(s: &Snapshot) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>baas-sandbox</title><style>{STYLE}</style></head><body>\
         <h1>baas-sandbox</h1><p>Clock: <span id=\"clock\">{}</span> (epoch ms). \
         State: <span id=\"state\">{}</span>. \
         JSON of this page: <a href=\"/_sandbox/api/state\">/_sandbox/api/state</a>.</p>\
         <nav><a href=\"#faults\">faults</a><a href=\"#applications\">pending applications</a>\
         <a href=\"#accounts\">accounts</a><a href=\"#transactions\">ledger</a>\
         <a href=\"#requests\">requests</a><a href=\"#deliveries\">notifications</a></nav>",
        s.clock_ms,
        escape(&s.state)
    );
    if let Some(failure) = &s.state_failure {
        let _ = write!(
            out,
            "<p id=\"state-failure\"><strong>The state file cannot be written:</strong> {}</p>",
            escape(failure)
        );
    }
    section(
        &mut out,
        "faults",
        "Faults in force",
        &["fault", "hits", "left"],
        s.faults
            .iter()
            .map(|f| {
                let left = f
                    .remaining
                    .map_or("until removed".to_owned(), |n| n.to_string());
                vec![f.fault.clone(), f.hits.to_string(), left]
            })
            .collect(),
        "none",
    );
    let _ = write!(
        out,
        "<form method=\"post\" action=\"/_sandbox/faults\"><p>Add faults (scenario YAML, \
         as in a <code>--scenario</code> file):<br><textarea name=\"scenario\" rows=\"5\" \
         cols=\"70\">{}</textarea><br><button>Add</button></p></form>\
         <form method=\"post\" action=\"/_sandbox/faults/clear\"><button>Remove every \
         fault</button></form>\
         <form method=\"post\" action=\"/_sandbox/clock\"><p>Advance the clock by \
         <input name=\"advance_ms\" value=\"86400000\" size=\"12\"> ms (a day: \
         86400000; dormancy after 6 months) <button>Advance</button></p></form>",
        escape("faults:\n  - operation: confirmOperation\n    fault: drop_answer\n")
    );
    section(
        &mut out,
        "applications",
        "Pending applications (confirm with sendOtp, then confirmOperation with this OTP)",
        &["businessId", "operation", "OTP sent", "wrong OTPs", "OTP"],
        s.pending_applications
            .iter()
            .map(|a| {
                vec![
                    a.business_id.clone(),
                    a.operation.to_owned(),
                    yes(a.otp_sent),
                    a.wrong_attempts.to_string(),
                    a.otp.clone(),
                ]
            })
            .collect(),
        "none",
    );
    section(
        &mut out,
        "accounts",
        "Accounts and balances",
        &[
            "account",
            "name",
            "user",
            "currency",
            "balance",
            "short code",
            "dormant",
            "frozen",
            "system",
        ],
        s.accounts
            .iter()
            .map(|a| {
                vec![
                    a.id.clone(),
                    a.name.clone(),
                    a.user_id.clone(),
                    a.currency.clone(),
                    a.balance.clone(),
                    opt(&a.short_code),
                    yes(a.dormant),
                    yes(a.frozen),
                    yes(a.system),
                ]
            })
            .collect(),
        "none",
    );
    section(
        &mut out,
        "transactions",
        "Ledger (newest first; txStatus 1 submitted, 8 succeeded, 4 failed)",
        &[
            "txId",
            "account",
            "type",
            "direction",
            "amount",
            "fee",
            "currency",
            "status",
            "created",
            "counterparty",
            "remark",
        ],
        s.transactions
            .iter()
            .map(|t| {
                vec![
                    t.id.clone(),
                    t.account_id.clone(),
                    t.tx_type.to_owned(),
                    if t.credit { "in" } else { "out" }.to_owned(),
                    t.amount.clone(),
                    t.fee.clone(),
                    t.currency.clone(),
                    t.status.to_string(),
                    t.create_time.to_string(),
                    t.counterparty.clone(),
                    t.remark.clone(),
                ]
            })
            .collect(),
        "none",
    );
    section(
        &mut out,
        "requests",
        "Recent requests and their answers (newest first)",
        &[
            "method",
            "path",
            "requestId",
            "operation",
            "code",
            "sent",
            "answer",
        ],
        s.requests
            .iter()
            .map(|r| {
                vec![
                    r.method.clone(),
                    r.path.clone(),
                    opt(&r.request_id),
                    opt(&r.operation),
                    r.code.clone(),
                    yes(r.signature_verified),
                    r.sent.clone(),
                    r.answer.clone(),
                    opt(&r.expected),
                ]
            })
            .collect(),
        "none yet",
    );
    section(
        &mut out,
        "deliveries",
        "Notification deliveries (newest first)",
        &["type", "requestId", "attempt", "acknowledged", "outcome"],
        s.deliveries
            .iter()
            .map(|d| {
                vec![
                    d.notification_type.clone(),
                    d.request_id.clone(),
                    d.attempt.to_string(),
                    yes(d.acknowledged),
                    d.outcome.clone(),
                ]
            })
            .collect(),
        "none yet",
    );
    if !s.redeliverable.is_empty() {
        out.push_str(
            "<form method=\"post\" action=\"/_sandbox/redeliver\"><p>Deliver again \
             (same body and requestId, to the callback URL set now): \
             <select name=\"request_id\">",
        );
        for id in &s.redeliverable {
            let id = escape(id);
            let _ = write!(out, "<option value=\"{id}\">{id}</option>");
        }
        out.push_str("</select> <button>Redeliver</button></p></form>");
    }
    out.push_str("</body></html>");
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_what_html_reads() {
        assert_eq!(
            escape(r#"<script>alert('x' & "y")</script>"#),
            "&lt;script&gt;alert(&#39;x&#39; &amp; &quot;y&quot;)&lt;/script&gt;"
        );
        assert_eq!(
            escape("Jambo Traders Ltd_Payroll"),
            "Jambo Traders Ltd_Payroll"
        );
    }
}
