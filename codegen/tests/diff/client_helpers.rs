//! The client methods the spec's keys make (paging, final states, business id): what a
//! change to them breaks.

use super::*;

const GET_OP: &str = "  - name: getTransfer\n    path: /trans/getTransfer\n    params:\n      - { name: applicationId, type: string, required: true }\n    response:\n      fields:\n        - { name: status, type: TransferStatus }\n";

/// `getTransfer` made paged (and given final states), with the given extra keys.
fn paged(keys: &'static str) -> Vec<Edit> {
    let text: &'static str = Box::leak(
        format!(
            "  - name: getTransfer\n    path: /trans/getTransfer\n{keys}    params:\n      - {{ name: applicationId, type: string, required: true }}\n      - {{ name: pageNo, type: int, required: true }}\n      - {{ name: pageSize, type: int, required: true }}\n    response:\n      fields:\n        - {{ name: status, type: TransferStatus }}\n        - {{ name: items, type: \"array<string>\" }}\n        - {{ name: total, type: int }}\n"
        )
        .into_boxed_str(),
    );
    vec![("transfers", GET_OP, text)]
}

/// The client methods the spec's `paging`, `final_states` (and `business_id`) keys make:
/// adding one is minor, removing or changing one major, and none changes the wire.
#[test]
fn client_helpers() {
    let paging = "    paging: { page: pageNo, size: pageSize, items: items, total: total }\n";
    let paging_other_total = "    paging: { page: pageNo, size: pageSize, items: items }\n";
    let until = "    final_states: { field: status, values: [1] }\n";
    let until_other = "    final_states: { field: status, values: [-1, 1] }\n";
    let cases: Vec<Case> = vec![
        (
            "paginator added",
            paged(""),
            paged(paging),
            vec![(
                "getTransfer",
                "",
                "paginator `get_transfer_pages` added",
                "minor",
                "compatible",
                false,
                false,
            )],
            Bump::Minor,
        ),
        (
            "paginator removed",
            paged(paging),
            paged(""),
            vec![(
                "getTransfer",
                "",
                "paginator `get_transfer_pages` removed",
                "major",
                "compatible",
                false,
                false,
            )],
            Bump::Major,
        ),
        (
            "paginator changed",
            paged(paging),
            paged(paging_other_total),
            vec![(
                "getTransfer",
                "",
                "paginator `get_transfer_pages` changed",
                "major",
                "compatible",
                false,
                false,
            )],
            Bump::Major,
        ),
        (
            "waiter added",
            paged(""),
            paged(until),
            vec![(
                "getTransfer",
                "",
                "waiter `get_transfer_until_final` added",
                "minor",
                "compatible",
                false,
                false,
            )],
            Bump::Minor,
        ),
        (
            "waiter's final states changed",
            paged(until),
            paged(until_other),
            vec![(
                "getTransfer",
                "",
                "waiter `get_transfer_until_final` changed",
                "major",
                "compatible",
                false,
                false,
            )],
            Bump::Major,
        ),
    ];
    for (name, old, new, want, bump) in cases {
        expect(name, &report(&old, &new), &want, bump);
    }
}
