//! Validation of a request that breaks no rule allocates nothing: field paths are
//! `FieldPath` chains on the stack and become text only when a violation is recorded.
//!
//! A counting global allocator counts the allocations of the current thread while a
//! request shaped like the generated ones (an array of records, each with string, integer
//! and amount rules, and an array of scalars) is validated.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use baas_runtime::{Amount, FieldPath, RuleKind, ValidationErrors, Validator};

struct Counting;

thread_local! {
    /// Allocations made by this thread while `COUNTING` is on.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn note_allocation() {
    // `try_with`: the allocator may run while this thread's locals are torn down.
    let on = COUNTING.try_with(Cell::get).unwrap_or(false);
    if on {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches
// only `const`-initialised thread locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The number of allocations `f` makes on this thread, and its result.
fn allocations_of<T>(f: impl FnOnce() -> T) -> (usize, T) {
    ALLOCATIONS.with(|n| n.set(0));
    COUNTING.with(|c| c.set(true));
    let out = f();
    COUNTING.with(|c| c.set(false));
    (ALLOCATIONS.with(Cell::get), out)
}

struct OrderItem {
    product_name: Option<String>,
    quantity: Option<i32>,
    amount: Option<Amount>,
}

impl OrderItem {
    // As `baas-codegen` emits `validate_at` for a record used in requests.
    fn validate_at(&self, v: &mut Validator, at: FieldPath<'_>) {
        v.required(
            at.field("productName"),
            self.product_name.as_deref().is_some_and(|s| !s.is_empty()),
        );
        if let Some(value) = &self.product_name {
            v.max_chars(at.field("productName"), value, 100);
        }
        v.required(at.field("quantity"), self.quantity.is_some());
        if let Some(value) = &self.quantity {
            v.positive_int(at.field("quantity"), i64::from(*value));
            v.range_int(
                at.field("quantity"),
                i64::from(*value),
                None,
                Some(99999999),
            );
        }
        v.required(at.field("amount"), self.amount.is_some());
        if let Some(value) = &self.amount {
            v.range_amount(
                at.field("amount"),
                value,
                None,
                Some(Amount::new(500000, 0)),
            );
            v.decimal_places(at.field("amount"), value, 2);
        }
    }
}

struct Request {
    reference: String,
    order_array: Vec<OrderItem>,
    tags: Vec<String>,
}

impl Request {
    // As `baas-codegen` emits an operation's `validate`.
    fn validate(&self) -> Result<(), ValidationErrors> {
        let mut v = Validator::new();
        let at = FieldPath::ROOT;
        v.min_chars(at.field("reference"), &self.reference, 3);
        v.alphanumeric(at.field("reference"), &self.reference);
        v.min_items(at.field("oderArray"), self.order_array.len(), 1);
        v.max_items(at.field("oderArray"), self.order_array.len(), 1000);
        for (i, item) in self.order_array.iter().enumerate() {
            item.validate_at(&mut v, at.field("oderArray").index(i));
        }
        for (i, item) in self.tags.iter().enumerate() {
            v.max_chars(at.field("tags").index(i), item, 4);
        }
        v.at_least_one_of(
            at,
            &[
                ("reference", !self.reference.is_empty()),
                ("tags", !self.tags.is_empty()),
            ],
        );
        v.finish()
    }
}

fn request(items: usize) -> Request {
    Request {
        reference: "REF123".to_owned(),
        order_array: (0..items)
            .map(|i| OrderItem {
                product_name: Some(format!("product {i}")),
                quantity: Some(1 + i as i32),
                amount: Some(Amount::new(10050, 2)),
            })
            .collect(),
        tags: (0..items).map(|i| format!("t{}", i % 100)).collect(),
    }
}

#[test]
fn a_valid_request_is_validated_without_allocating() {
    let valid = request(500);
    let (allocations, result) = allocations_of(|| valid.validate());
    assert!(result.is_ok());
    assert_eq!(allocations, 0, "validating a valid request allocated");

    // The counter does see allocations: violations render their paths, unchanged.
    let mut invalid = request(500);
    invalid.order_array[2].amount = Some(Amount::new(50000001, 2));
    invalid.order_array[7].product_name = None;
    invalid.tags[499] = "too long".to_owned();
    let (allocations, result) = allocations_of(|| invalid.validate());
    assert!(allocations > 0);
    let errors = result.unwrap_err();
    let found: Vec<_> = errors
        .violations()
        .iter()
        .map(|v| (v.field.as_str(), v.rule))
        .collect();
    assert_eq!(
        found,
        [
            ("oderArray[2].amount", RuleKind::Range),
            ("oderArray[7].productName", RuleKind::Required),
            ("tags[499]", RuleKind::MaxChars),
        ]
    );
}
