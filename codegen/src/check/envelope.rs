//! Pass 5, envelope: the request and response envelopes' fields, those the runtime
//! relies on, and the signing order with `senderKey`, which joins the flattened string
//! when signing.

use super::declare::Declared;
use super::fields::{fields, signing_order};
use super::{Checker, Owner};
use crate::model::{self, Field, Location};
use crate::spec_file::{EnvelopeSpec, TopLevel};

/// Envelope fields the runtime relies on.
const REQUEST_ENVELOPE: &[&str] = &[
    "requestId",
    "sender",
    "locale",
    "timestamp",
    "salt",
    "signature",
    "params",
];
const RESPONSE_ENVELOPE: &[&str] = &[
    "requestId",
    "sender",
    "locale",
    "timestamp",
    "salt",
    "signature",
    "code",
    "msg",
    "data",
];

/// The checked envelope; `None` when no file defines one (reported). Later passes may
/// rely on: both sides hold every field the runtime reads.
pub(super) fn envelope(
    ck: &mut Checker,
    declared: &Declared,
    spec: Option<&TopLevel<EnvelopeSpec>>,
) -> Option<model::Envelope> {
    let Some(env) = spec else {
        let root = ck.root.clone();
        ck.error(
            &root,
            "no file defines `envelope:`",
            Some(
                "add `envelope:` with its `request:` and `response:` fields (see spec/SCHEMA.md)"
                    .into(),
            ),
        );
        return None;
    };
    let request = fields(
        ck,
        declared,
        &env.value.request.value,
        &Owner::EnvelopeRequest,
    );
    let response = fields(
        ck,
        declared,
        &env.value.response.value,
        &Owner::EnvelopeResponse,
    );
    side(
        ck,
        &request,
        REQUEST_ENVELOPE,
        Owner::EnvelopeRequest,
        &env.value.request.loc,
    );
    side(
        ck,
        &response,
        RESPONSE_ENVELOPE,
        Owner::EnvelopeResponse,
        &env.value.response.loc,
    );
    Some(model::Envelope { request, response })
}

/// One side of the envelope: the fields it needs, and the signing order with `senderKey`.
fn side(ck: &mut Checker, list: &[Field], needed: &[&str], owner: Owner, loc: &Location) {
    for n in needed {
        if !list.iter().any(|f| f.wire_name == *n) {
            ck.error(
                loc,
                format!("{owner} has no field `{n}`"),
                Some(format!(
                    "the envelope carries {}; add `{n}`",
                    needed.join(", ")
                )),
            );
        }
    }
    // `senderKey` joins the flattened string when signing.
    if !list.iter().any(|f| f.wire_name == "senderKey") {
        let mut sib: Vec<(String, Location)> = list
            .iter()
            .map(|f| (f.wire_name.clone(), f.location.clone()))
            .collect();
        sib.push(("senderKey".to_owned(), loc.clone()));
        signing_order(ck, &sib, &owner);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::collect::collect;
    use crate::check::declare::declare;
    use crate::check::testing::{checker, errors, file, warnings};

    #[test]
    fn each_side_holds_what_the_runtime_reads() {
        let f = file(
            "envelope:\n  request:\n    - { name: requestId, type: string }\n    - { name: sender, type: string }\n    - { name: senderKey-x, type: string }\n  response: []\n",
        );
        let mut ck = checker();
        let c = collect(&mut ck, std::slice::from_ref(&f));
        let d = declare(&mut ck, &c);
        let env = envelope(&mut ck, &d.declared, c.envelope).expect("an envelope");
        assert_eq!(env.request.len(), 3);
        let errors = errors(&ck);
        assert_eq!(errors.len(), 5 + 9, "{errors:?}");
        assert_eq!(
            errors[0],
            "s/t.yaml:3:5: the request envelope has no field `locale`"
        );
        assert_eq!(
            errors[5],
            "s/t.yaml:6:13: the response envelope has no field `requestId`"
        );
        assert_eq!(
            warnings(&ck),
            ["s/t.yaml:5:7: fragile signing order in the request envelope: `senderKey` is a prefix of `senderKey-x` and the next byte `-` sorts before `=`"]
        );
    }

    #[test]
    fn a_missing_envelope_is_reported_at_the_root() {
        let mut ck = checker();
        let c = collect(&mut ck, &[]);
        let d = declare(&mut ck, &c);
        assert!(envelope(&mut ck, &d.declared, c.envelope).is_none());
        assert_eq!(errors(&ck), ["s/:0:0: no file defines `envelope:`"]);
    }
}
