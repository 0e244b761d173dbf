//! A frozen record class written out: `__slots__`, its annotated fields and an explicit
//! keyword-only `__init__`, on `baas_runtime.record.Record` (equality, hashing, `repr`,
//! refusing assignment, pickling, `dataclasses.fields`). `@dataclass` compiled and ran
//! source for each class when the package was imported (issue 36 item 3); this is the same
//! class, and importing it only creates it.

use super::super::docstring;
use super::super::names::string;
use crate::text::Out;

/// One field of a slotted class: its Python name, its type, its default (`None`, or
/// nothing when required), its one-line docstring, and what `__init__` stores when it is
/// not the argument itself.
pub struct Slot {
    pub ident: String,
    pub ty: String,
    pub default: Option<String>,
    pub doc: String,
    pub stored: Option<String>,
}

impl Slot {
    /// A field stored as given.
    pub fn new(ident: String, ty: String, default: Option<&str>, doc: String) -> Slot {
        let default = default.map(str::to_owned);
        Slot {
            ident,
            ty,
            default,
            doc,
            stored: None,
        }
    }
}

/// The module-level name of `object.__setattr__` that each `__init__` sets slots with.
pub const SET: &str = "_set = object.__setattr__";

/// The class's `__slots__`, its annotated fields (each with its docstring) and its
/// `__init__`, at the current indentation (inside the class, after its docstring and
/// class variables).
pub fn slots_and_init(out: &mut Out, slots: &[Slot]) {
    let names: Vec<String> = slots.iter().map(|s| string(&s.ident)).collect();
    match names.len() {
        0 => out.line("__slots__ = ()"),
        1 => out.line(&format!("__slots__ = ({},)", names[0])),
        _ => out.line(&format!("__slots__ = ({})", names.join(", "))),
    }
    for s in slots {
        out.line(&format!("{}: {}", s.ident, s.ty));
        docstring(out, &s.doc);
    }
    out.blank();
    if slots.is_empty() {
        // Written all the same: a class with its own `__init__` is a data class to
        // `dataclasses` (see `baas_runtime.record`).
        out.line("def __init__(self) -> None:");
        out.line("    pass");
        return;
    }
    out.line("def __init__(");
    out.indent();
    out.line("self,");
    out.line("*,");
    for s in slots {
        match &s.default {
            Some(d) => out.line(&format!("{}: {} = {d},", s.ident, s.ty)),
            None => out.line(&format!("{}: {},", s.ident, s.ty)),
        }
    }
    out.dedent();
    out.line(") -> None:");
    out.indent();
    for s in slots {
        let value = s.stored.as_deref().unwrap_or(&s.ident);
        out.line(&format!("_set(self, {}, {value})", string(&s.ident)));
    }
    out.dedent();
}
