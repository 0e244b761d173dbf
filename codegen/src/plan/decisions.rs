//! Recorded decisions as every SDK cites them: each written once in full, and whether it
//! applies throughout (listed once at the top) or to a few items (linked from each).

use crate::model::{Api, Field, Params, Response};
use crate::text::partner_text;

/// A decision the spec records where the source document is ambiguous or silent.
#[derive(Debug, Clone)]
pub struct DecisionPlan {
    /// Its id (`amount-as-string`).
    pub id: String,
    /// What it is about, in partner text.
    pub about: String,
    /// What was decided.
    pub decision: String,
    /// Why.
    pub reason: String,
    /// The source document's words it rests on (`""` when none).
    pub source_text: String,
    /// Whether it marks more than [`BLANKET_USES`] items: it applies throughout, so it is
    /// listed once instead of on every item.
    pub blanket: bool,
}

/// See [`DecisionPlan::blanket`].
const BLANKET_USES: usize = 3;

/// How many items the spec marks with decision `id`: operations, their parameters,
/// constraints and response fields, records and their fields, enums.
fn uses(api: &Api, id: &str) -> usize {
    let fields = |fs: &[Field]| {
        fs.iter()
            .filter(|f| f.decisions.iter().any(|d| d == id))
            .count()
    };
    let mut n = 0;
    for op in api.operations() {
        n += usize::from(op.decisions.iter().any(|d| d == id));
        if let Params::Fields { fields: fs } = &op.params {
            n += fields(fs);
        }
        if let Response::Fields { fields: fs, .. } = &op.response {
            n += fields(fs);
        }
        n += op
            .constraints
            .iter()
            .filter(|c| c.decisions.iter().any(|d| d == id))
            .count();
    }
    for r in &api.records {
        n += usize::from(r.decisions.iter().any(|d| d == id)) + fields(&r.fields);
    }
    n + api
        .enums
        .iter()
        .filter(|e| e.decisions.iter().any(|d| d == id))
        .count()
}

/// The plan of every recorded decision, in spec order.
pub fn decisions(api: &Api) -> Vec<DecisionPlan> {
    api.decisions
        .iter()
        .map(|d| DecisionPlan {
            id: d.id.clone(),
            about: partner_text(&d.about),
            decision: partner_text(&d.decision),
            reason: partner_text(&d.reason),
            source_text: partner_text(&d.source_text),
            blanket: uses(api, &d.id) > BLANKET_USES,
        })
        .collect()
}
