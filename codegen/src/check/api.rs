//! The model pass: the `api:` header checked, and the checked parts put together into
//! the [`model::Api`] every emitter reads.

use super::Checker;
use crate::model;
use crate::spec_file::{ApiSpec, TopLevel};

/// Everything the passes before checked, for the model.
pub(super) struct Parts {
    /// `None` when no file defines an envelope (reported).
    pub envelope: Option<model::Envelope>,
    pub result_codes: Vec<model::ResultCode>,
    pub groups: Vec<model::Group>,
    pub records: Vec<model::Record>,
    pub enums: Vec<model::EnumDef>,
    pub notifications: Vec<model::Notification>,
    pub decisions: Vec<model::Decision>,
    pub otp_flow: Option<model::OtpFlow>,
}

/// Checks the `api:` header and builds the model; `None` when the header or the
/// envelope is missing (reported).
pub(super) fn api(
    ck: &mut Checker,
    api: Option<&TopLevel<ApiSpec>>,
    parts: Parts,
) -> Option<model::Api> {
    let Some(api) = api else {
        let root = ck.root.clone();
        ck.error(
            &root,
            "no file defines `api:`",
            Some(
                "add `api:` with title, source_document and success_code (see spec/SCHEMA.md)"
                    .into(),
            ),
        );
        return None;
    };
    let a = &api.value;
    ck.non_empty(&a.title, "api title");
    ck.non_empty(&a.source_document, "api source_document");
    ck.non_empty(&a.success_code, "api success_code");
    if let Some(v) = &a.version {
        ck.non_empty(v, "api version");
    }
    if let Some(v) = &a.client_version {
        if model::Semver::parse(&v.value).is_none() {
            ck.error(
                &v.loc,
                format!("client_version `{}` is not MAJOR.MINOR.PATCH", v.value),
                Some(
                    "write three numbers, e.g. `client_version: \"1.4.0\"` (see spec/SCHEMA.md)"
                        .into(),
                ),
            );
        }
    }
    if let Some(m) = &a.method {
        if m.value != "POST" {
            ck.error(
                &m.loc,
                format!("method `{}` is not supported", m.value),
                Some("every endpoint is called with POST; write `method: POST`".into()),
            );
        }
    }
    if let Some(c) = &a.content_type {
        if c.value != "application/json" {
            ck.error(
                &c.loc,
                format!("content type `{}` is not supported", c.value),
                Some("the client sends JSON; write `content_type: application/json`".into()),
            );
        }
    }
    Some(model::Api {
        title: a.title.value.clone(),
        source_document: a.source_document.value.clone(),
        success_code: a.success_code.value.clone(),
        version: a
            .version
            .as_ref()
            .map(|v| v.value.clone())
            .unwrap_or_default(),
        client_version: a
            .client_version
            .as_ref()
            .map(|v| v.value.clone())
            .unwrap_or_else(|| model::DEFAULT_CLIENT_VERSION.to_owned()),
        envelope: parts.envelope?,
        result_codes: parts.result_codes,
        groups: parts.groups,
        records: parts.records,
        enums: parts.enums,
        notifications: parts.notifications,
        decisions: parts.decisions,
        otp_flow: parts.otp_flow,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::collect::collect;
    use crate::check::testing::{checker, errors, file};

    fn parts(envelope: Option<model::Envelope>) -> Parts {
        Parts {
            envelope,
            result_codes: Vec::new(),
            groups: Vec::new(),
            records: Vec::new(),
            enums: Vec::new(),
            notifications: Vec::new(),
            decisions: Vec::new(),
            otp_flow: None,
        }
    }

    fn envelope() -> model::Envelope {
        model::Envelope {
            request: Vec::new(),
            response: Vec::new(),
        }
    }

    #[test]
    fn the_header_is_checked_and_defaults_filled_in() {
        let f = file(
            "api: { title: T, source_document: d, success_code: \"0\", method: GET, content_type: text/xml, client_version: \"1.2\" }\n",
        );
        let mut ck = checker();
        let c = collect(&mut ck, std::slice::from_ref(&f));
        let m = api(&mut ck, c.api, parts(Some(envelope()))).expect("a model");
        assert_eq!(
            m.client_version, "1.2",
            "kept as written; the error refuses the spec"
        );
        assert_eq!(m.version, "");
        assert_eq!(
            errors(&ck),
            [
                "s/t.yaml:1:110: client_version `1.2` is not MAJOR.MINOR.PATCH",
                "s/t.yaml:1:65: method `GET` is not supported",
                "s/t.yaml:1:84: content type `text/xml` is not supported",
            ]
        );
        let f = file("api: { title: T, source_document: d, success_code: \"0\" }\n");
        let mut ck = checker();
        let c = collect(&mut ck, std::slice::from_ref(&f));
        let m = api(&mut ck, c.api, parts(Some(envelope()))).expect("a model");
        assert_eq!(m.client_version, model::DEFAULT_CLIENT_VERSION);
    }

    #[test]
    fn no_model_without_a_header_or_an_envelope() {
        let mut ck = checker();
        assert!(api(&mut ck, None, parts(Some(envelope()))).is_none());
        assert_eq!(errors(&ck), ["s/:0:0: no file defines `api:`"]);
        let f = file("api: { title: T, source_document: d, success_code: \"0\" }\n");
        let mut ck = checker();
        let c = collect(&mut ck, std::slice::from_ref(&f));
        assert!(api(&mut ck, c.api, parts(None)).is_none());
        assert!(errors(&ck).is_empty(), "the envelope pass reported it");
    }
}
