//! Checking: merge the decoded files, resolve every name and validate every rule, giving
//! the checked [`model::Api`] or every problem found, each located and with help.

mod collect;
mod decimal;
mod decisions;
pub(crate) mod names;
mod ops;
mod sets;
#[cfg(test)]
mod testing;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::diagnostics::{self, Diagnostic};
use crate::model::{
    self, DecimalWire, EnumWireType, Field, Location, Requirement, Rule, RuleKind, TypeRef,
};
use crate::rules::{Arg, RuleKey, BOUND_PAIRS};
use crate::spec_file::{
    DecimalWireSpec, EnumWireTypeSpec, FieldSpec, RawArg, RequiredSpec, RuleSpec, Spanned, SpecFile,
};
use decimal::Dec;

/// Built-in type names of the spec format.
const BUILTIN_TYPES: &[&str] = &["string", "int", "long", "decimal", "bool", "json"];

/// Characters that would make a wire name ambiguous in the flattened signing string.
const SIGNING_SEPARATORS: &[char] = &['=', '&', '.', '[', ']'];

/// The outcome of a successful check.
pub(crate) struct Outcome {
    pub api: model::Api,
    pub warnings: Vec<Diagnostic>,
}

/// Who owns a list of fields, for messages.
#[derive(Debug, Clone)]
pub(crate) enum Owner {
    Operation(String),
    Response(String),
    Record(String),
    EnvelopeRequest,
    EnvelopeResponse,
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owner::Operation(n) => write!(f, "operation `{n}`"),
            Owner::Response(n) => write!(f, "the response of operation `{n}`"),
            Owner::Record(n) => write!(f, "record `{n}`"),
            Owner::EnvelopeRequest => f.write_str("the request envelope"),
            Owner::EnvelopeResponse => f.write_str("the response envelope"),
        }
    }
}

/// What is known about a declared enum while checking.
pub(crate) struct EnumInfo {
    wire_type: EnumWireType,
    wires: Vec<String>,
}

/// The checker's state: findings so far and the declared names.
pub(crate) struct Checker {
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    enums: BTreeMap<String, EnumInfo>,
    records: BTreeSet<String>,
    /// Wire name and type of each record field, for `sum` conditions.
    record_fields: BTreeMap<String, Vec<Field>>,
    /// Decision ids referenced somewhere, checked once all decisions are known.
    decision_refs: Vec<(Spanned<String>, String)>,
    /// Where the spec root is, for problems that have no better place.
    root: Location,
}

impl Checker {
    /// A checker with no findings, for the spec whose display root is `root`.
    fn new(root: &str) -> Self {
        Checker {
            errors: Vec::new(),
            warnings: Vec::new(),
            enums: BTreeMap::new(),
            records: BTreeSet::new(),
            record_fields: BTreeMap::new(),
            decision_refs: Vec::new(),
            root: Location {
                file: format!("{root}/"),
                line: 0,
                column: 0,
            },
        }
    }

    fn error(&mut self, loc: &Location, message: impl Into<String>, help: Option<String>) {
        let d = Diagnostic::error(loc.clone(), message);
        self.errors.push(match help {
            Some(h) => d.with_help(h),
            None => d,
        });
    }

    fn warn(&mut self, loc: &Location, message: impl Into<String>, help: impl Into<String>) {
        self.warnings
            .push(Diagnostic::warning(loc.clone(), message).with_help(help));
    }

    fn decisions_of(&mut self, list: &Option<Vec<Spanned<String>>>, what: &str) -> Vec<String> {
        let mut out = Vec::new();
        for d in list.iter().flatten() {
            if out.contains(&d.value) {
                self.error(
                    &d.loc,
                    format!("decision `{}` is listed twice for {what}", d.value),
                    Some("list each decision once".into()),
                );
                continue;
            }
            out.push(d.value.clone());
            self.decision_refs.push((d.clone(), what.to_owned()));
        }
        out
    }

    /// Warns when the doc of a field typed by an enum lists that enum's values again: the
    /// enum documents them, and two copies drift apart.
    fn value_list_in_doc(&mut self, spec: &FieldSpec, ty: &TypeRef, what: &str, loc: &Location) {
        let name = match ty {
            TypeRef::Enum { name } => name,
            TypeRef::Array { item } => match item.as_ref() {
                TypeRef::Enum { name } => name,
                _ => return,
            },
            _ => return,
        };
        let (Some(doc), Some(info)) = (spec.doc.as_deref(), self.enums.get(name)) else {
            return;
        };
        let words: Vec<&str> = doc
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .filter(|w| !w.is_empty())
            .collect();
        if info.wires.len() >= 2 && info.wires.iter().all(|w| words.contains(&w.as_str())) {
            self.warn(
                loc,
                format!("the doc of {what} lists the values of enum `{name}` again"),
                "the enum documents its values; keep the field's doc to what is particular to the field",
            );
        }
    }

    /// A `deprecated:` note: its text, refused when empty (a deprecation says what to
    /// use instead).
    pub(crate) fn deprecation(
        &mut self,
        note: Option<&Spanned<String>>,
        what: &str,
    ) -> Option<String> {
        let note = note?;
        if note.value.trim().is_empty() {
            self.error(
                &note.loc,
                format!("`deprecated:` of {what} has no note"),
                Some("say what to use instead, e.g. `deprecated: \"use applyForTransfer\"`".into()),
            );
            return None;
        }
        Some(note.value.trim().to_owned())
    }

    fn non_empty(&mut self, s: &Spanned<String>, what: &str) {
        if s.value.trim().is_empty() {
            self.error(
                &s.loc,
                format!("{what} is empty"),
                Some(format!("write the {what}")),
            );
        }
    }
}

/// Checks the decoded files (in path order) of the spec whose display root is `root`.
pub(crate) fn check(files: &[SpecFile], root: &str) -> Result<Outcome, Vec<Diagnostic>> {
    let mut ck = Checker::new(root);
    let collected = collect::collect(&mut ck, files);
    let decisions = decisions::decisions(&mut ck, &collected.decisions);
    let api = ops::build(&mut ck, &collected, decisions);
    diagnostics::sort(&mut ck.warnings);
    if ck.errors.is_empty() {
        if let Some(api) = api {
            return Ok(Outcome {
                api,
                warnings: ck.warnings,
            });
        }
    }
    let mut errors = ck.errors;
    diagnostics::sort(&mut errors);
    if errors.is_empty() {
        errors.push(Diagnostic::error(ck.root, "the spec could not be checked"));
    }
    Err(errors)
}

/// `file:line:column` of a place, for help texts pointing at another definition.
pub(crate) fn at(loc: &Location) -> String {
    format!("{}:{}:{}", loc.file, loc.line, loc.column)
}

/// `` `a`, `b`, `c` `` for help texts.
pub(crate) fn code_list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn type_text(t: &TypeRef) -> String {
    match t {
        TypeRef::String => "string".into(),
        TypeRef::Int => "int".into(),
        TypeRef::Long => "long".into(),
        TypeRef::Decimal { .. } => "decimal".into(),
        TypeRef::Bool => "bool".into(),
        TypeRef::Json => "json".into(),
        TypeRef::Enum { name } | TypeRef::Record { name, .. } => name.clone(),
        TypeRef::Array { item } => format!("array<{}>", type_text(item)),
    }
}

impl Checker {
    /// Resolves a `type:` (and its `wire:`) for `what` (e.g. "field `x` of operation `y`").
    fn resolve_type(
        &mut self,
        ty: &Spanned<String>,
        wire: Option<&Spanned<DecimalWireSpec>>,
        what: &str,
    ) -> Option<TypeRef> {
        let text = ty.value.trim();
        let (inner, is_array) = match text
            .strip_prefix("array<")
            .and_then(|r| r.strip_suffix('>'))
        {
            Some(inner) => (inner.trim(), true),
            None => (text, false),
        };
        if is_array && inner.starts_with("array<") {
            self.error(
                &ty.loc,
                format!("nested array type `{text}` for {what}"),
                Some("an array holds a non-array type; wrap the inner list in a record".into()),
            );
            return None;
        }
        let base = match inner {
            "string" => TypeRef::String,
            "int" => TypeRef::Int,
            "long" => TypeRef::Long,
            "bool" => TypeRef::Bool,
            "json" => TypeRef::Json,
            "decimal" => match wire {
                Some(w) => TypeRef::Decimal {
                    wire: match w.value {
                        DecimalWireSpec::String => DecimalWire::String,
                        DecimalWireSpec::Number => DecimalWire::Number,
                    },
                },
                None => {
                    self.error(
                        &ty.loc,
                        format!("decimal {what} has no `wire:`"),
                        Some(
                            "add `wire: string` (sent as \"100.50\") or `wire: number` (sent as 100.50), and record the reason as a decision"
                                .into(),
                        ),
                    );
                    TypeRef::Decimal {
                        wire: DecimalWire::String,
                    }
                }
            },
            name if self.enums.contains_key(name) => TypeRef::Enum {
                name: name.to_owned(),
            },
            // `received_name` is settled once the uses of every record are known
            // (`ops::usage`).
            name if self.records.contains(name) => TypeRef::Record {
                name: name.to_owned(),
                received_name: name.to_owned(),
            },
            name => {
                let candidates: Vec<&str> = BUILTIN_TYPES
                    .iter()
                    .copied()
                    .chain(self.enums.keys().map(String::as_str))
                    .chain(self.records.iter().map(String::as_str))
                    .collect();
                let mut help = "use one of string, int, long, decimal, bool, json, array<T>, or a declared enum/record".to_owned();
                if let Some(s) = names::did_you_mean(name, candidates) {
                    help.push_str(&format!(" (did you mean `{s}`?)"));
                } else if name.starts_with("array") || name.starts_with("Array") {
                    help.push_str(" (an array is written `array<T>`)");
                }
                self.error(
                    &ty.loc,
                    format!("unknown type `{name}` for {what}"),
                    Some(help),
                );
                return None;
            }
        };
        if !matches!(base, TypeRef::Decimal { .. }) {
            if let Some(w) = wire {
                self.error(
                    &w.loc,
                    format!("`wire:` on {what} of type `{text}`"),
                    Some("`wire:` applies to decimals only; remove it".into()),
                );
            }
        }
        Some(if is_array {
            TypeRef::Array {
                item: Box::new(base),
            }
        } else {
            base
        })
    }

    /// Rust field name from the wire name or the `rust_name:` override.
    fn field_rust_name(&mut self, f: &FieldSpec, what: &str) -> String {
        if let Some(over) = &f.rust_name {
            let n = over.value.as_str();
            if !names::is_snake(n) {
                self.error(
                    &over.loc,
                    format!("`rust_name: {n}` of {what} is not a snake_case Rust identifier"),
                    Some(format!(
                        "write a snake_case identifier such as `{}`",
                        names::snake(n)
                    )),
                );
            } else if names::is_keyword(n) {
                self.error(
                    &over.loc,
                    format!("`rust_name: {n}` of {what} is a Rust keyword"),
                    Some(format!("choose another name, e.g. `{n}_value`")),
                );
            }
            return n.to_owned();
        }
        let snake = names::snake(&f.name.value);
        if !names::is_identifier(&snake) {
            self.error(
                &f.name.loc,
                format!("{what} becomes `{snake}` in Rust, which is not an identifier"),
                Some("set `rust_name:` to a snake_case identifier".into()),
            );
            snake
        } else if names::is_unraw_keyword(&snake) {
            self.error(
                &f.name.loc,
                format!(
                    "{what} becomes the Rust keyword `{snake}`, which cannot be a field name even as a raw identifier"
                ),
                Some(format!("set `rust_name:` to another name, e.g. `{snake}_value`")),
            );
            snake
        } else if names::is_keyword(&snake) {
            format!("r#{snake}")
        } else {
            snake
        }
    }

    /// Checks one list of fields (one struct): each field, then unique wire and Rust names,
    /// then the signing-order warning among siblings.
    fn fields<'a>(
        &mut self,
        list: impl IntoIterator<Item = &'a Spanned<FieldSpec>>,
        owner: &Owner,
    ) -> Vec<Field> {
        let mut out: Vec<Field> = Vec::new();
        for f in list {
            let field = self.field(f, owner);
            if let Some(prev) = out.iter().find(|p| p.wire_name == field.wire_name) {
                let first = prev.location.clone();
                self.error(
                    &f.value.name.loc,
                    format!("field `{}` of {owner} is defined twice", field.wire_name),
                    Some(format!(
                        "first defined at {}:{}:{}; remove one",
                        first.file, first.line, first.column
                    )),
                );
            } else if let Some(prev) = out.iter().find(|p| p.rust_name == field.rust_name) {
                let (pw, first) = (prev.wire_name.clone(), prev.location.clone());
                self.error(
                    &f.value.name.loc,
                    format!(
                        "fields `{pw}` and `{}` of {owner} both become the Rust field `{}`",
                        field.wire_name, field.rust_name
                    ),
                    Some(format!(
                        "set `rust_name:` on one of them (the other is at {}:{}:{})",
                        first.file, first.line, first.column
                    )),
                );
            }
            out.push(field);
        }
        let sibling: Vec<(String, Location)> = out
            .iter()
            .map(|f| (f.wire_name.clone(), f.location.clone()))
            .collect();
        self.signing_order(&sibling, owner);
        out
    }

    /// Warns about sibling wire names whose order differs between sorting whole
    /// `path=value` strings and sorting keys.
    pub(crate) fn signing_order(&mut self, names: &[(String, Location)], owner: &Owner) {
        for (a, _) in names {
            for (b, loc) in names {
                if b.len() > a.len() && b.starts_with(a.as_str()) {
                    if let Some(&next) = b.as_bytes().get(a.len()) {
                        if next < b'=' {
                            self.warn(
                                loc,
                                format!(
                                    "fragile signing order in {owner}: `{a}` is a prefix of `{b}` and the next byte `{}` sorts before `=`",
                                    char::from(next)
                                ),
                                format!(
                                    "sorting whole `path=value` strings puts `{b}=` before `{a}=`, sorting keys puts `{a}` first; the runtime follows the specification (whole strings): confirm the service agrees for these fields, and record it as a decision"
                                ),
                            );
                        }
                    }
                }
            }
        }
    }

    fn field(&mut self, f: &Spanned<FieldSpec>, owner: &Owner) -> Field {
        let spec = &f.value;
        let wire = spec.name.value.as_str();
        let what = format!("field `{wire}` of {owner}");
        if wire.trim().is_empty() {
            self.error(
                &spec.name.loc,
                format!("a field of {owner} has an empty name"),
                Some("write the exact wire name".into()),
            );
        } else if wire.contains(SIGNING_SEPARATORS) || wire.chars().any(char::is_whitespace) {
            self.error(
                &spec.name.loc,
                format!("wire name `{wire}` of {owner} contains a space or one of `= & . [ ]`"),
                Some("these characters make the flattened signing string ambiguous; check the wire name".into()),
            );
        }
        let rust_name = self.field_rust_name(spec, &what);
        if matches!(owner, Owner::Operation(_) | Owner::Record(_))
            && crate::reserved::STRUCT_METHODS.contains(&rust_name.as_str())
        {
            let loc = spec.rust_name.as_ref().map_or(&spec.name.loc, |r| &r.loc);
            self.error(
                loc,
                format!(
                    "{what} becomes the Rust field `{rust_name}`, whose setter would collide with the generated method `{rust_name}`"
                ),
                Some(format!(
                    "set `rust_name:` to another snake_case name, e.g. `{rust_name}_value`; the generated structs reserve {}",
                    code_list(crate::reserved::STRUCT_METHODS)
                )),
            );
        }
        // An unknown type is reported once; its rules are then not checked against a
        // stand-in type, which would only add errors that are not the author's.
        let resolved = self.resolve_type(&spec.ty, spec.wire.as_ref(), &what);
        let known = resolved.is_some();
        let ty = resolved.unwrap_or(TypeRef::Json);
        let required = match spec.required.as_ref().map(|r| r.value) {
            Some(RequiredSpec::Yes) => Requirement::Required,
            Some(RequiredSpec::Conditional) => Requirement::Conditional,
            Some(RequiredSpec::No) | None => Requirement::Optional,
        };
        let rules = if known {
            self.rules(spec.rules.as_deref().unwrap_or(&[]), &ty, &what)
        } else {
            Vec::new()
        };
        self.value_list_in_doc(spec, &ty, &what, &f.loc);
        let decisions = self.decisions_of(&spec.decisions, &what);
        let deprecated = self.deprecation(spec.deprecated.as_ref(), &what);
        Field {
            deprecated,
            wire_name: wire.to_owned(),
            rust_name,
            ty,
            required,
            doc: spec.doc.clone().unwrap_or_default(),
            rules,
            source: spec.source.map_or(model::Source::Seed, Into::into),
            decisions,
            location: f.loc.clone(),
        }
    }

    fn rules(&mut self, list: &[Spanned<RuleSpec>], ty: &TypeRef, what: &str) -> Vec<Rule> {
        let mut out: Vec<Rule> = Vec::new();
        for r in list {
            let spec = &r.value;
            let items = match &spec.rule {
                Some(body) => {
                    if !spec.inline.rules.is_empty() {
                        self.error(
                            &r.loc,
                            format!("rule of {what} mixes `rule:` with a rule key"),
                            Some("in the long form, put the rule under `rule:` only".into()),
                        );
                        continue;
                    }
                    &body.value.rules
                }
                None => {
                    if spec.source.is_some() || spec.doc.is_some() {
                        let example = format!("{}: 100", RuleKey::MaxChars.spec_key());
                        self.error(
                            &r.loc,
                            format!("rule of {what} has `source:`/`doc:` without `rule:`"),
                            Some(format!(
                                "write the long form: `- rule: {{ {example} }}` then `source:`/`doc:`"
                            )),
                        );
                        continue;
                    }
                    &spec.inline.rules
                }
            };
            let [(key, raw)] = items.as_slice() else {
                let keys: Vec<String> = items
                    .iter()
                    .map(|(k, _)| format!("`{}`", k.spec_key()))
                    .collect();
                self.error(
                    &r.loc,
                    if keys.is_empty() {
                        format!("empty rule for {what}")
                    } else {
                        format!(
                            "one rule item of {what} holds several rules: {}",
                            keys.join(", ")
                        )
                    },
                    Some(format!(
                        "write each rule as its own list item, e.g. `- {}: 100`",
                        RuleKey::MaxChars.spec_key()
                    )),
                );
                continue;
            };
            let Some(kind) = self.rule_kind(*key, &raw.loc, &raw.value, ty, what) else {
                continue;
            };
            if let Some(prev) = out
                .iter()
                .find(|p| p.kind.key() == *key && !key.repeatable())
            {
                let first = prev.location.clone();
                self.error(
                    &raw.loc,
                    format!("rule `{}` appears twice on {what}", key.spec_key()),
                    Some(format!(
                        "keep one (the other is at {}:{}:{})",
                        first.file, first.line, first.column
                    )),
                );
                continue;
            }
            out.push(Rule {
                kind,
                source: spec.source.map_or(model::Source::Seed, Into::into),
                doc: spec.doc.clone().unwrap_or_default(),
                location: r.loc.clone(),
            });
        }
        self.rule_bounds(&out, what);
        out
    }

    /// Contradictory pairs ([`BOUND_PAIRS`]): `min_chars` above `max_chars`, ...
    fn rule_bounds(&mut self, rules: &[Rule], what: &str) {
        let find = |key: RuleKey| {
            rules
                .iter()
                .filter(|r| r.kind.key() == key)
                .find_map(|r| r.kind.count().map(|v| (v, r.location.clone())))
        };
        for (lo, hi) in BOUND_PAIRS {
            if let (Some((min, loc)), Some((max, _))) = (find(lo), find(hi)) {
                if min > max {
                    let (lo, hi) = (lo.spec_key(), hi.spec_key());
                    self.error(
                        &loc,
                        format!("`{lo}: {min}` is above `{hi}: {max}` on {what}"),
                        Some(format!("no value can satisfy both; fix `{lo}` or `{hi}`")),
                    );
                }
            }
        }
    }

    fn rule_kind(
        &mut self,
        key: RuleKey,
        loc: &Location,
        raw: &RawArg,
        ty: &TypeRef,
        what: &str,
    ) -> Option<RuleKind> {
        let elem = match ty {
            TypeRef::Array { item } => item.as_ref(),
            other => other,
        };
        let name = key.spec_key();
        let applies_to = key.applies_to();
        if !applies_to.fits(ty) {
            self.error(
                loc,
                format!(
                    "rule `{name}` does not apply to {what}, of type `{}`",
                    type_text(ty)
                ),
                Some(format!(
                    "`{name}` applies to {}; remove it or fix the type",
                    applies_to.words()
                )),
            );
            return None;
        }
        let arg = match raw {
            RawArg::Count(n) => Arg::Count(*n),
            RawArg::Places(n) => Arg::Places(*n),
            RawArg::Flag(true) => Arg::Flag,
            RawArg::Flag(false) => {
                self.error(
                    loc,
                    format!("`{name}: false` on {what} states no rule"),
                    Some(format!("remove the rule, or write `{name}: true`")),
                );
                return None;
            }
            RawArg::Text(text) => {
                if text.trim().is_empty() {
                    self.error(
                        loc,
                        format!("`{name}:` rule of {what} has no text"),
                        Some("say what the service checks".into()),
                    );
                    return None;
                }
                Arg::Text(text.clone())
            }
            RawArg::Range(range) => self.range_arg(range, loc, elem, what)?,
        };
        // The argument was decoded in the key's own shape, so this always builds.
        key.with(arg)
    }

    /// The bounds of a `range:` rule, exact, with min not above max.
    fn range_arg(
        &mut self,
        range: &crate::spec_file::RangeSpec,
        loc: &Location,
        elem: &TypeRef,
        what: &str,
    ) -> Option<Arg> {
        let min = self.bound(range.min.as_ref(), elem, what);
        let max = self.bound(range.max.as_ref(), elem, what);
        if let (Some(Some((lo, lo_dec, _))), Some(Some((hi, hi_dec, _)))) = (&min, &max) {
            if lo_dec > hi_dec {
                self.error(
                    loc,
                    format!("range of {what} has min `{lo}` above max `{hi}`"),
                    Some("swap or fix the bounds".into()),
                );
                return None;
            }
        }
        let (min, max) = (min?, max?);
        if min.is_none() && max.is_none() {
            self.error(
                loc,
                format!("range of {what} has neither `min` nor `max`"),
                Some("give at least one bound, or remove the rule".into()),
            );
            return None;
        }
        Some(Arg::Range {
            min: min.map(|m| m.2),
            max: max.map(|m| m.2),
        })
    }

    /// A range bound: `Some(None)` when absent, `None` when invalid (already reported).
    fn bound(
        &mut self,
        b: Option<&Spanned<String>>,
        elem: &TypeRef,
        what: &str,
    ) -> Option<Option<(String, Dec, model::Number)>> {
        let Some(b) = b else { return Some(None) };
        let text = b.value.as_str();
        let Some(dec) = Dec::parse(text) else {
            self.error(
                &b.loc,
                format!("range bound `{text}` of {what} is not a decimal number"),
                Some(
                    "write digits with an optional `-` and `.`, e.g. \"0.01\" or \"99999999\""
                        .into(),
                ),
            );
            return None;
        };
        let fits = match elem {
            TypeRef::Int => text.parse::<i32>().is_ok(),
            TypeRef::Long => text.parse::<i64>().is_ok(),
            _ => true,
        };
        if !fits {
            self.error(
                &b.loc,
                format!(
                    "range bound `{text}` of {what} is not a whole number that fits `{}`",
                    type_text(elem)
                ),
                Some("integer bounds are written as digits within the type's range".into()),
            );
            return None;
        }
        let Some(number) = dec.number() else {
            self.error(
                &b.loc,
                format!("range bound `{text}` of {what} has more digits than the client can represent"),
                Some("a bound is at most 18 significant digits and 28 decimal places (it becomes an `Amount` of an `i64` mantissa)".into()),
            );
            return None;
        };
        Some(Some((text.to_owned(), dec, number)))
    }
}

impl Checker {
    /// Checks enums: names, variants, wire values.
    fn enum_def(&mut self, e: &Spanned<crate::spec_file::EnumSpec>) -> model::EnumDef {
        let spec = &e.value;
        let name = spec.name.value.clone();
        let what = format!("enum `{name}`");
        let wire_type = match spec.wire_type {
            EnumWireTypeSpec::String => EnumWireType::String,
            EnumWireTypeSpec::Integer => EnumWireType::Integer,
        };
        let mut values: Vec<model::EnumValue> = Vec::new();
        let mut seen_ints: Vec<(i64, String)> = Vec::new();
        if spec.values.value.is_empty() {
            self.error(
                &spec.values.loc,
                format!("{what} has no values"),
                Some("list its values, each `{ wire: ..., name: ... }`".into()),
            );
        }
        for v in &spec.values.value {
            let vs = &v.value;
            let vname = vs.name.value.as_str();
            if vname == "Unknown" {
                self.error(
                    &vs.name.loc,
                    format!("variant name `Unknown` in {what} is reserved"),
                    Some("the generator adds `Unknown` to keep unseen values; name this value otherwise".into()),
                );
            } else if !names::is_upper_camel(vname) || names::is_keyword(vname) {
                let hint = names::camel(vname);
                self.error(
                    &vs.name.loc,
                    format!(
                        "variant name `{vname}` of {what} is not an UpperCamelCase Rust identifier"
                    ),
                    Some(
                        if names::is_identifier(&hint)
                            && !names::is_keyword(&hint)
                            && hint != "Unknown"
                        {
                            format!("rename it, e.g. `{hint}`")
                        } else {
                            "rename it to an UpperCamelCase identifier".into()
                        },
                    ),
                );
            } else if values.iter().any(|p| p.name == vname) {
                self.error(
                    &vs.name.loc,
                    format!("variant `{vname}` of {what} is defined twice"),
                    Some("variant names are unique within an enum".into()),
                );
            }
            let wire = vs.wire.value.clone();
            if wire.is_empty() {
                self.error(
                    &vs.wire.loc,
                    format!("empty wire value for `{vname}` of {what}"),
                    Some("write the exact value sent on the wire".into()),
                );
            }
            let mut integer = None;
            match wire_type {
                EnumWireType::Integer => match wire.parse::<i64>() {
                    Ok(i) => {
                        integer = Some(i);
                        if let Some((_, prev)) = seen_ints.iter().find(|(p, _)| *p == i) {
                            self.error(
                                &vs.wire.loc,
                                format!("wire value `{wire}` of {what} is used twice (also by `{prev}`)"),
                                Some("wire values are unique within an enum".into()),
                            );
                        }
                        seen_ints.push((i, vname.to_owned()));
                    }
                    Err(_) => self.error(
                        &vs.wire.loc,
                        format!("wire value `{wire}` of integer {what} is not an integer"),
                        Some("write an integer such as `wire: 2` or `wire: -1`, or make the enum `wire_type: string`".into()),
                    ),
                },
                EnumWireType::String => {
                    if let Some(prev) = values.iter().find(|p| p.wire == wire) {
                        let prev = prev.name.clone();
                        self.error(
                            &vs.wire.loc,
                            format!("wire value `{wire}` of {what} is used twice (also by `{prev}`)"),
                            Some("wire values are unique within an enum".into()),
                        );
                    }
                }
            }
            values.push(model::EnumValue {
                wire,
                name: vname.to_owned(),
                doc: vs.doc.clone().unwrap_or_default(),
                source: vs.source.map_or(model::Source::Seed, Into::into),
                integer,
                deprecated: self.deprecation(
                    vs.deprecated.as_ref(),
                    &format!("value `{vname}` of {what}"),
                ),
            });
        }
        let decisions = self.decisions_of(&spec.decisions, &what);
        model::EnumDef {
            name,
            wire_type,
            doc: spec.doc.clone().unwrap_or_default(),
            source: spec.source.map_or(model::Source::Seed, Into::into),
            values,
            decisions,
            location: e.loc.clone(),
        }
    }

    /// Checks a type name (record, enum, notification): UpperCamelCase, not a keyword.
    fn type_name(&mut self, name: &Spanned<String>, kind: &str) -> bool {
        let n = name.value.as_str();
        if n.is_empty() {
            self.error(
                &name.loc,
                format!("{kind} with an empty name"),
                Some(format!("name the {kind} in UpperCamelCase")),
            );
            return false;
        }
        if !names::is_upper_camel(n) || names::is_keyword(n) {
            let hint = names::camel(n);
            self.error(
                &name.loc,
                format!("{kind} name `{n}` is not an UpperCamelCase Rust type name"),
                Some(
                    if names::is_identifier(&hint) && !names::is_keyword(&hint) {
                        format!("rename it, e.g. `{hint}`")
                    } else {
                        "rename it to an UpperCamelCase identifier".into()
                    },
                ),
            );
            return false;
        }
        if kind != "notification" && crate::reserved::GENERATED_TYPES.contains(&n) {
            self.error(
                &name.loc,
                format!("{kind} name `{n}` is taken by the generated crate"),
                Some(format!(
                    "rename the {kind}, e.g. `Api{n}`: the generated crate defines {} itself, from `result_codes:` and `notifications:`",
                    code_list(crate::reserved::GENERATED_TYPES)
                )),
            );
            return false;
        }
        if kind != "notification" && crate::reserved::TYPES.contains(&n) {
            self.error(
                &name.loc,
                format!("{kind} name `{n}` would shadow Rust's `{n}` in the generated module"),
                Some(format!(
                    "rename the {kind}, e.g. `Api{n}`: the generated code uses the names of Rust's prelude (`Option`, `String`, `Vec`, `Result`, `From`, ...) unqualified"
                )),
            );
            return false;
        }
        true
    }

    /// Checks a declared field list against usage rules that need the whole API.
    fn conditional_outside_operation(&mut self, fields: &[Field], owner: &Owner) {
        for f in fields {
            if f.required == Requirement::Conditional {
                self.error(
                    &f.location,
                    format!(
                        "field `{}` of {owner} is `required: conditional`, but only operation parameters have constraints",
                        f.wire_name
                    ),
                    Some("make it `required: false` and describe the condition in `doc:`".into()),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{checker, loc, warnings};
    use super::*;

    #[test]
    fn signing_order_warns_only_below_equals() {
        let mut ck = checker();
        let names = [
            ("amount".to_owned(), loc(1)),
            ("amount2".to_owned(), loc(2)),
            ("amountX".to_owned(), loc(3)),
            ("amount-fee".to_owned(), loc(4)),
        ];
        ck.signing_order(&names, &Owner::Record("R".into()));
        let lines: Vec<usize> = ck.warnings.iter().map(|w| w.location.line).collect();
        assert_eq!(lines, [2, 4]);
        assert_eq!(warnings(&ck).len(), 2);
        assert!(ck.errors.is_empty());
    }
}
