//! One operation's command: the params decoded as the Rust client's request type and
//! validated by it, then (unless `--dry-run`) signed, sent and verified by the Rust
//! client's runtime, and the answer printed; `--all` pages, `--otp` confirms the
//! application, `--wait` polls to a final state.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use baas_runtime::transport::{BoxFuture, HttpRequest, HttpResponse, Transport};
use baas_runtime::{CallOptions, Error, ErrorKind, Outcome};

use crate::exit::Failure;
use crate::output::{self, Format};
use crate::settle::{self, Settled};
use crate::table::{self, Operation, Visitor};
use crate::target::Target;

/// What the command line asked of the call beside its params.
#[derive(Debug, Clone)]
pub struct Asked {
    /// How to print the answer.
    pub format: Format,
    /// Follow every page, one JSON line per item.
    pub all: bool,
    /// Poll until the state is final.
    pub wait: bool,
    /// Send and confirm the application's OTP.
    pub otp: bool,
    /// The OTP channel (`sms`, `email`).
    pub otp_channel: String,
    /// Print what would be sent, send nothing.
    pub dry_run: bool,
    /// A requestId of the caller's.
    pub request_id: Option<String>,
    /// `--wait`'s deadline.
    pub wait_deadline: Duration,
}

/// One run of an operation's command.
pub struct Run<'a> {
    /// The operation.
    pub op: &'static Operation,
    /// Its params as JSON text.
    pub params: String,
    /// The flags beside the params.
    pub asked: &'a Asked,
    /// Where it goes.
    pub target: &'a Target,
}

type Done<'a> = Pin<Box<dyn Future<Output = Result<(), Failure>> + 'a>>;

/// Runs the command.
pub async fn run(run: Run<'_>) -> Result<(), Failure> {
    match table::visit(run.op.wire, run) {
        Some(done) => done.await,
        None => Err(Failure::Local("no such operation".to_owned())),
    }
}

/// The params as the request type, validated as the client validates before sending.
fn decode<O>(run: &Run<'_>) -> Result<O, Failure>
where
    O: baas_runtime::Operation + serde::de::DeserializeOwned,
{
    let request: O = serde_json::from_str(&run.params).map_err(|e| {
        Failure::NotSent(format!(
            "the params are not a request of {}: {e}",
            run.op.wire
        ))
    })?;
    request.validate().map_err(|errors| {
        let lines: Vec<String> = errors
            .iter()
            .map(|v| format!("  {}: {}", v.field, v.message))
            .collect();
        Failure::NotSent(format!(
            "invalid request of {}, nothing sent:\n{}",
            run.op.wire,
            lines.join("\n")
        ))
    })?;
    Ok(request)
}

/// The failure of a call, by what is known of its effect.
pub fn failure(op: &Operation, error: &Error) -> Failure {
    let text = error.to_string();
    if let ErrorKind::WaitDeadline { .. } = error.kind() {
        return Failure::NotFinal(text);
    }
    match error.outcome() {
        Outcome::NotSent => Failure::NotSent(text),
        Outcome::Refused => Failure::Refused(text),
        _ => {
            let mut text = text;
            if op.moves_money {
                text.push_str(
                    "\n  it may have taken effect: do not send it again before looking it up",
                );
            }
            if let Some(id) = error.request_id() {
                text.push_str(&format!("\n  its requestId: {id}"));
            }
            let queries = crate::target::status_queries(op);
            if !queries.is_empty() {
                text.push_str(&format!("\n  which query tells: {}", queries.join(", ")));
            }
            Failure::Unknown(text)
        }
    }
}

/// A transport that keeps the bytes it is given and sends nothing (`--dry-run`).
#[derive(Default)]
struct Capture(Mutex<Option<HttpRequest>>);

impl Transport for Capture {
    fn post_json(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, Error>> {
        if let Ok(mut kept) = self.0.lock() {
            *kept = Some(request);
        }
        Box::pin(async { Err(Error::transport("dry run: not sent", false, None)) })
    }
}

fn options(asked: &Asked) -> CallOptions {
    match &asked.request_id {
        Some(id) => CallOptions::new().request_id(id.clone()),
        None => CallOptions::new(),
    }
}

/// `--dry-run`: the request signed by the client as it would be sent, through a
/// transport that keeps it; printed with the canonical string, the key redacted.
async fn dry_run<O: baas_runtime::Operation>(run: &Run<'_>, request: &O) -> Result<(), Failure> {
    let mut config = run.target.config();
    config.max_retries = 0;
    let key = config.private_key.clone();
    let capture = Arc::new(Capture::default());
    let client = baas_runtime::Client::with_transport(config, capture.clone())
        .map_err(|e| Failure::NotSent(e.to_string()))?;
    let _ = client.execute_with(request, &options(run.asked)).await;
    let kept = capture.0.lock().ok().and_then(|mut k| k.take());
    let Some(sent) = kept else {
        return Err(Failure::NotSent("nothing was signed".to_owned()));
    };
    let canonical = baas_runtime::canonical::Flattened::parse(&sent.body)
        .map(|flat| flat.canonical_string_redacted(&key))
        .map_err(|e| Failure::Local(e.to_string()))?;
    eprintln!(
        "dry run: {} is POST {} to {} (nothing sent)",
        run.op.wire, run.op.path, sent.url
    );
    eprintln!("canonical string (key redacted):\n{canonical}");
    eprintln!("body (the exact bytes, on stdout):");
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(&sent.body)
        .and_then(|()| writeln!(out))
        .map_err(|e| Failure::Local(e.to_string()))
}

/// Sends `request` and prints its verified answer.
async fn send_and_print<O>(
    run: &Run<'_>,
    request: &O,
) -> Result<baas_runtime::Success<O::Response>, Failure>
where
    O: baas_runtime::Operation,
    O::Response: serde::Serialize,
{
    let client = run.target.client()?;
    let success = client
        .runtime()
        .execute_with(request, &options(run.asked))
        .await
        .map_err(|e| failure(run.op, &e))?;
    eprintln!(
        "{}: verified answer, requestId {} ({} attempt{})",
        run.op.wire,
        success.request_id,
        success.attempts,
        if success.attempts == 1 { "" } else { "s" }
    );
    output::print(&success.data, run.asked.format).map_err(Failure::Local)?;
    Ok(success)
}

/// Confirms the application with `code`. When the confirmation's outcome is unknown and
/// the operation names the status query that settles it, looks the application up once:
/// confirmed is success; still waiting for its OTP means the confirmation never arrived,
/// so it is confirmed again with the same code (once, as the spec's OTP rule allows).
async fn confirm<R>(
    run: &Run<'_>,
    pending: &baas_client::pending::PendingApplication<R>,
    code: &str,
) -> Result<(), Failure> {
    let id = pending.business_id();
    let wire = run.op.wire;
    let mut first = true;
    loop {
        let error = match pending.confirm(code).await {
            Ok(()) => {
                eprintln!("{wire}: application {id} confirmed");
                return Ok(());
            }
            Err(error) => error,
        };
        let known = matches!(error.outcome(), Outcome::NotSent | Outcome::Refused);
        let Some(settle) = run.op.settle.as_ref().filter(|_| !known) else {
            return Err(failure(run.op, &error));
        };
        eprintln!(
            "{wire}: the confirmation of {id} has an unknown outcome ({error}); looking it up with {}",
            settle.query
        );
        let field = settle.field;
        match settle::settle(run.target, settle, id).await {
            Settled::Confirmed { state, is_final } => {
                let done = if is_final { "final" } else { "not final yet" };
                eprintln!("{wire}: application {id} confirmed ({field} {state}, {done})");
                return Ok(());
            }
            Settled::NotConfirmed { state } if first => {
                first = false;
                eprintln!(
                    "{wire}: the confirmation never arrived ({field} {state}: still waiting for its OTP); confirming again with the same OTP"
                );
            }
            Settled::NotConfirmed { state } => {
                return Err(Failure::NotSent(format!(
                    "application {id} is not confirmed: it still waits for its OTP ({field} {state}) after two confirmations that never arrived, so nothing took effect. Confirm it with `baas otp confirm-operation --business-id {id} --otp-code CODE`. {}",
                    settle.otp_rule
                )))
            }
            Settled::StillUnknown(why) => {
                let mut unknown = failure(run.op, &error);
                if let Failure::Unknown(text) = &mut unknown {
                    text.push_str(&format!(
                        "\n  looking it up did not tell ({why}): look again with {}; do not confirm again unless {field} says it still waits for its OTP ({})",
                        crate::target::command_of(settle.query, settle.param, id),
                        settle.awaiting_otp.join(", ")
                    ));
                }
                return Err(unknown);
            }
        }
    }
}

/// The flag a kind of call serves beyond sending once: `--all` for a paged operation,
/// `--otp` for one confirmed with an OTP, `--wait` for a status query.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Serves {
    Nothing,
    All,
    Otp,
    Wait,
}

/// Refuses, before anything is sent, a flag the operation has no call for.
fn unsupported(run: &Run<'_>, serves: Serves) -> Result<(), Failure> {
    let what = [
        (
            run.asked.all && serves != Serves::All,
            "--all (the operation does not page)",
        ),
        (
            run.asked.otp && serves != Serves::Otp,
            "--otp (the operation needs no OTP)",
        ),
        (
            run.asked.wait && serves != Serves::Wait,
            "--wait (the operation reports no state with final values)",
        ),
    ];
    match what.iter().find(|(asked, _)| *asked) {
        Some((_, flag)) => Err(Failure::NotSent(format!("{}: {flag}", run.op.wire))),
        None => Ok(()),
    }
}

impl<'a> Visitor for Run<'a> {
    type Out = Done<'a>;

    fn send<O>(self) -> Done<'a>
    where
        O: baas_runtime::Operation + serde::de::DeserializeOwned + 'static,
        O::Response: serde::Serialize,
    {
        Box::pin(async move {
            unsupported(&self, Serves::Nothing)?;
            let request: O = decode(&self)?;
            if self.asked.dry_run {
                return dry_run(&self, &request).await;
            }
            send_and_print(&self, &request).await.map(|_| ())
        })
    }

    fn paged<O>(self) -> Done<'a>
    where
        O: baas_runtime::Paged + serde::de::DeserializeOwned,
        O::Response: serde::Serialize,
        O::Item: serde::Serialize,
    {
        Box::pin(async move {
            let all = self.asked.all;
            let one = self;
            unsupported(&one, Serves::All)?;
            let request: O = decode(&one)?;
            if one.asked.dry_run {
                return dry_run(&one, &request).await;
            }
            if !all {
                return send_and_print(&one, &request).await.map(|_| ());
            }
            let client = one.target.client()?;
            let mut items = client.runtime().pages(request).items();
            let mut count = 0u64;
            while let Some(item) = items.next_item().await {
                let item = item.map_err(|e| failure(one.op, &e))?;
                output::print_line(&item).map_err(Failure::Local)?;
                count += 1;
            }
            eprintln!("{}: {count} item(s), every page verified", one.op.wire);
            Ok(())
        })
    }

    fn pending<O>(self) -> Done<'a>
    where
        O: baas_client::pending::OtpApplication + serde::de::DeserializeOwned + 'static,
        O::Response: serde::Serialize + Clone,
    {
        Box::pin(async move {
            let otp = self.asked.otp;
            let one = self;
            unsupported(&one, Serves::Otp)?;
            let request: O = decode(&one)?;
            if one.asked.dry_run {
                return dry_run(&one, &request).await;
            }
            let success = send_and_print(&one, &request).await?;
            let client = one.target.client()?;
            let pending =
                baas_client::pending::PendingApplication::from_success::<O>(client, success)
                    .map_err(|e| failure(one.op, &e))?;
            let id = pending.business_id().to_owned();
            let from = match one.op.pending {
                Some(table::BusinessId::ResponseField(field)) => format!("the answer's `{field}`"),
                _ => "the requestId sent".to_owned(),
            };
            eprintln!("{}: application {id} ({from})", one.op.wire);
            if !otp {
                eprintln!(
                    "{}: application {id} waits for its OTP: send and confirm it with the `baas otp` commands (do not apply again; next time --otp does both)",
                    one.op.wire
                );
                return Ok(());
            }
            let channel: baas_client::enums::OtpType =
                one.asked.otp_channel.parse().map_err(|_| {
                    Failure::NotSent(format!(
                        "--otp-channel {}: not a channel",
                        one.asked.otp_channel
                    ))
                })?;
            pending
                .send_otp(channel)
                .await
                .map_err(|e| failure(one.op, &e))?;
            eprintln!("{}: OTP sent for {id}", one.op.wire);
            let code = one.target.otp(&id).await?;
            confirm(&one, &pending, &code).await
        })
    }

    fn until_final<O>(self) -> Done<'a>
    where
        O: baas_client::FinalState + serde::de::DeserializeOwned + 'static,
        O::Response: serde::Serialize,
    {
        Box::pin(async move {
            let wait = self.asked.wait;
            let one = self;
            unsupported(&one, Serves::Wait)?;
            let request: O = decode(&one)?;
            if one.asked.dry_run {
                return dry_run(&one, &request).await;
            }
            if !wait {
                return send_and_print(&one, &request).await.map(|_| ());
            }
            let client = one.target.client()?;
            let policy = baas_runtime::WaitPolicy::new(
                Duration::from_millis(200),
                Duration::from_secs(5),
                one.asked.wait_deadline,
            );
            let finals = one
                .op
                .until_final
                .map(|f| f.values.join(", "))
                .unwrap_or_default();
            let progress = |response: &O::Response| {
                let state = O::final_state(response);
                match &state {
                    Some((s, true)) => eprintln!("{}: state {s} (final)", one.op.wire),
                    Some((s, false)) => {
                        eprintln!("{}: state {s}, waiting for one of {finals}", one.op.wire);
                    }
                    None => eprintln!("{}: no state yet", one.op.wire),
                }
                state
            };
            let answer = client
                .runtime()
                .wait_for(&request, progress, &policy)
                .await
                .map_err(|e| failure(one.op, &e))?;
            output::print(&answer, one.asked.format).map_err(Failure::Local)
        })
    }
}
