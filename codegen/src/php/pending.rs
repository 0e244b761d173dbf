//! The OTP side of the `Client`: each `…Pending` method (the application, its OTP steps as
//! closures, and the status query that settles an unknown confirmation) and the group's
//! pending method.

use super::client::{method_head, Args};
use super::names;
use super::operations::{request_class, response_fields, response_type};
use super::types;
use super::PhpFile;
use crate::model::TypeRef;
use crate::plan::{BusinessIdPlan, Direction, Doc, OperationPlan, OtpStepPlan, SdkPlan};

#[allow(clippy::too_many_arguments)]
pub(super) fn pending_method(
    f: &mut PhpFile,
    plan: &SdkPlan,
    op: &OperationPlan,
    a: &Args,
    method: &str,
    response: &str,
    doc: &Doc,
    business_id: &BusinessIdPlan,
    otp: &crate::plan::OtpPlan,
) {
    f.runtime("Pending");
    f.runtime("Read");
    let (send_ret, _) = step_types(plan, &otp.send);
    let (confirm_ret, _) = step_types(plan, &otp.confirm);
    let settle = op
        .calls
        .settle
        .as_ref()
        .and_then(|s| settle_lookup(f, plan, s));
    let (class, made) = match &settle {
        Some(_) => {
            f.runtime("SettlingPending");
            f.runtime("Settlement");
            ("SettlingPending", "SettlingPending::settling(")
        }
        None => ("Pending", "Pending::of("),
    };
    let mut doc = doc.clone();
    if let (Some(s), Some(_)) = (&op.calls.settle, &settle) {
        for p in &s.doc.paragraphs {
            doc.push(p.clone());
        }
    }
    let doc = &doc;
    let mut tags = a.short_tags.clone();
    tags.push("@param CallOptions|null $options per-call options of this call".to_owned());
    let state = settle
        .as_ref()
        .map_or(String::new(), |(ty, _)| format!(", {ty}"));
    tags.push(format!("@return {class}<{response}, {send_ret}, {confirm_ret}{state}> the application waiting for its OTP"));
    tags.push(
        "@throws \\Baas\\Runtime\\Exception\\BaasException every failure, saying its outcome"
            .to_owned(),
    );
    f.body.blank();
    f.doc(doc, &tags);
    method_head(
        f,
        &format!("{method}Pending"),
        &a.params,
        "?CallOptions $options = null",
        class,
    );
    f.body.indent();
    f.body.line(&format!(
        "$success = $this->runtime()->executeWith({}, $options);",
        a.build
    ));
    let (id, field) = match business_id {
        BusinessIdPlan::ResponseField(wire) => {
            let name = response_fields(plan, op)
                .iter()
                .find(|x| &x.wire_name == wire)
                .map_or_else(
                    || names::prop(wire, &crate::plan::Words::of(wire)),
                    |x| names::prop(&x.wire_name, &x.words),
                );
            (format!("Read::text($success->data->{name})"), wire.clone())
        }
        BusinessIdPlan::RequestId => ("$success->requestId".to_owned(), "requestId".to_owned()),
    };
    f.body.line(&format!("$id = {id};"));
    f.body.line(&format!("return {made}"));
    f.body.indent();
    f.body.line("$success,");
    f.body.line("$id,");
    f.body.line(&format!("{},", names::string(&field)));
    f.body.line(&format!("{},", names::string(&op.wire_name)));
    step_closures(f, plan, otp);
    if let Some((_, lookup)) = &settle {
        f.body.line(&format!("{lookup},"));
    }
    f.body.dedent();
    f.body.line(");");
    f.body.dedent();
    f.body.line("}");
}

/// The two steps of a `Pending`, as closures over `$id` calling the client's OTP methods.
fn step_closures(f: &mut PhpFile, plan: &SdkPlan, otp: &crate::plan::OtpPlan) {
    let channel_arg = channel(f, &otp.send.other_ty);
    f.body.line(&format!(
        "fn (\\BackedEnum|string $channel, ?CallOptions $o = null): mixed => $this->{}({}: (string) $id, {}: {channel_arg}, options: $o),",
        step_method(plan, &otp.send),
        step_param(plan, &otp.send, &otp.send.business_id),
        step_param(plan, &otp.send, &otp.send.other),
    ));
    f.body.line(&format!(
        "fn (string $code, ?CallOptions $o = null): mixed => $this->{}({}: (string) $id, {}: $code, options: $o),",
        step_method(plan, &otp.confirm),
        step_param(plan, &otp.confirm, &otp.confirm.business_id),
        step_param(plan, &otp.confirm, &otp.confirm.other),
    ));
}

/// `groupPending()`: applications grouped under one, confirmed with one OTP.
pub(super) fn group_pending_method(
    f: &mut PhpFile,
    plan: &SdkPlan,
    otp: &crate::plan::OtpPlan,
    group: &OtpStepPlan,
) {
    let Some(op) = step_op(plan, group) else {
        return;
    };
    f.runtime("Pending");
    f.runtime("Read");
    let request = request_class(op);
    f.uses(&format!("{}\\{request}", names::group_namespace(&op.group)));
    let (response, fqn) = response_type(op);
    if let Some(fqn) = &fqn {
        f.uses(fqn);
    }
    let (send_ret, _) = step_types(plan, &otp.send);
    let (confirm_ret, _) = step_types(plan, &otp.confirm);
    let ids = step_param(plan, group, &group.business_id);
    let new_id = response_fields(plan, op)
        .iter()
        .find(|x| x.wire_name == group.other)
        .map_or_else(
            || names::prop(&group.other, &crate::plan::Words::of(&group.other)),
            |x| names::prop(&x.wire_name, &x.words),
        );
    f.body.blank();
    f.doc(
        &group.doc,
        &[
            "@param list<string> $businessIds the business ids of the applications to group".to_owned(),
            "@param CallOptions|null $options per-call options of this call".to_owned(),
            format!("@return Pending<{response}, {send_ret}, {confirm_ret}> the group waiting for one OTP"),
            "@throws \\Baas\\Runtime\\Exception\\BaasException every failure, saying its outcome".to_owned(),
        ],
    );
    f.body.line(
        "public function groupPending(array $businessIds, ?CallOptions $options = null): Pending",
    );
    f.body.line("{");
    f.body.indent();
    f.body.line(&format!(
        "$success = $this->runtime->executeWith(new {request}({ids}: $businessIds), $options);"
    ));
    f.body
        .line(&format!("$id = Read::text($success->data->{new_id});"));
    f.body.line("return Pending::of(");
    f.body.indent();
    f.body.line("$success,");
    f.body.line("$id,");
    f.body.line(&format!("{},", names::string(&group.other)));
    f.body
        .line(&format!("{},", names::string(&group.operation)));
    step_closures(f, plan, otp);
    f.body.dedent();
    f.body.line(");");
    f.body.dedent();
    f.body.line("}");
}

/// The channel argument as the send step's parameter type wants it.
fn channel(f: &mut PhpFile, ty: &TypeRef) -> String {
    match ty {
        TypeRef::Enum { name } => {
            let class = names::class_named(name);
            f.uses(&format!("{}\\{class}", types::enums_namespace()));
            format!("$channel instanceof {class} ? $channel : {class}::from($channel instanceof \\BackedEnum ? $channel->value : $channel)")
        }
        _ => "(string) ($channel instanceof \\BackedEnum ? $channel->value : $channel)".to_owned(),
    }
}

fn step_op<'a>(plan: &'a SdkPlan, step: &OtpStepPlan) -> Option<&'a OperationPlan> {
    plan.operation(&step.operation)
}

fn step_method(plan: &SdkPlan, step: &OtpStepPlan) -> String {
    step_op(plan, step).map_or_else(
        || names::method(&crate::plan::Words::of(&step.operation)),
        |o| names::method(&o.words),
    )
}

fn step_param(plan: &SdkPlan, step: &OtpStepPlan, wire: &str) -> String {
    step_op(plan, step).and_then(|o| o.param(wire)).map_or_else(
        || names::prop(wire, &crate::plan::Words::of(wire)),
        |x| names::prop(&x.wire_name, &x.words),
    )
}

fn step_types(plan: &SdkPlan, step: &OtpStepPlan) -> (String, Option<String>) {
    step_op(plan, step).map_or(("mixed".to_owned(), None), response_type)
}

/// `(the state's type, the closure looking an application up by its business id)` of an
/// application settled by its status query, or `None` when its answer is not typed.
fn settle_lookup(
    f: &mut PhpFile,
    plan: &SdkPlan,
    s: &crate::plan::SettleCall,
) -> Option<(String, String)> {
    let query = plan.operation(&s.query)?;
    let (response, fqn) = response_type(query);
    let field = response_fields(plan, query)
        .iter()
        .find(|x| x.wire_name == s.field)?;
    if response == "mixed" || response == "null" || s.field_rust.is_none() {
        return None;
    }
    if let Some(fqn) = &fqn {
        f.uses(fqn);
    }
    let request = request_class(query);
    f.uses(&format!(
        "{}\\{request}",
        names::group_namespace(&query.group)
    ));
    let param = query.param(&s.param)?;
    let param = names::prop(&param.wire_name, &param.words);
    let state_ty = match &s.enum_name {
        Some(_) => {
            f.type_uses(&field.ty, Direction::Received);
            names::php_type(&field.ty, Direction::Received)
                .trim_start_matches('?')
                .to_owned()
        }
        None => "string|int".to_owned(),
    };
    let list = |values: &[String]| {
        values
            .iter()
            .map(|v| names::string(v))
            .collect::<Vec<_>>()
            .join(", ")
    };
    Some((
        state_ty,
        format!(
            "fn (string $id): Settlement => $this->runtime()->settle(new {request}({param}: $id), static fn ({response} $r): mixed => $r->{}, [{}], [{}], \\Baas\\Client\\Client::OTP_RULE)",
            names::prop(&field.wire_name, &field.words),
            list(&s.awaiting_otp),
            list(&s.finals),
        ),
    ))
}
