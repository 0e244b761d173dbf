//! Each generated Java file's imports, decided in one place from the names its body uses.
//!
//! The renderers write a file's `package` line and body and no imports; [`add`] then reads
//! each body (outside comments and literals, but with the types Javadoc tags name), and
//! imports every type it names by its simple name: a generated class of another package,
//! or one of [`LIBRARY`]. So a file imports exactly what it uses, one type a line (no
//! wildcards), sorted as Google Java style sorts them (ASCII), and no renderer keeps a list
//! of what its files need. A name the file declares itself (a nested record of
//! `Notifications`), a class of its own package, and `java.lang` need no import.

use super::SRC;
use crate::artifact::{Content, EmittedFile};
use std::collections::{BTreeMap, BTreeSet};

/// The types outside the generated packages that generated code names by their simple
/// name, with the package each comes from. A generated type never takes one of these
/// names ([`super::names::type_name`]).
pub const LIBRARY: [(&str, &str); 32] = [
    ("BaasException", "com.baas.runtime"),
    ("CallOptions", "com.baas.runtime"),
    ("Config", "com.baas.runtime"),
    ("Document", "com.baas.runtime"),
    ("FieldPath", "com.baas.runtime"),
    ("JdkTransport", "com.baas.runtime"),
    ("JsonWriter", "com.baas.runtime"),
    ("Operation", "com.baas.runtime"),
    ("PagedOperation", "com.baas.runtime"),
    ("Pages", "com.baas.runtime"),
    ("PendingApplication", "com.baas.runtime"),
    ("RuntimeClient", "com.baas.runtime"),
    ("Settlement", "com.baas.runtime"),
    ("Success", "com.baas.runtime"),
    ("Transport", "com.baas.runtime"),
    ("Validator", "com.baas.runtime"),
    ("ValueSet", "com.baas.runtime"),
    ("WaitPolicy", "com.baas.runtime"),
    ("Wire", "com.baas.runtime"),
    ("JsonValue", "com.baas.signing"),
    ("Notification", "com.baas.signing"),
    ("BigDecimal", "java.math"),
    ("LocalDate", "java.time"),
    ("List", "java.util"),
    ("Map", "java.util"),
    ("Objects", "java.util"),
    ("Optional", "java.util"),
    ("OptionalInt", "java.util"),
    ("OptionalLong", "java.util"),
    ("Set", "java.util"),
    ("CompletableFuture", "java.util.concurrent"),
    ("Function", "java.util.function"),
];

/// The package of a library type named `name`, if generated code may name it.
pub fn library(name: &str) -> Option<&'static str> {
    LIBRARY
        .iter()
        .find(|(simple, _)| *simple == name)
        .map(|(_, package)| *package)
}

/// What a Java source names: the simple names it uses as types (or as the qualifier of a
/// member), and the types it declares.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Names {
    pub used: BTreeSet<String>,
    pub declared: BTreeSet<String>,
}

/// The Javadoc tags whose first word is a type reference.
const REFERENCE_TAGS: [&str; 5] = ["@link", "@linkplain", "@see", "@throws", "@exception"];

/// The names a Java source uses and declares. Identifiers after a `.` are members or the
/// tail of a qualified name (`com.baas.client.model.Account`), so only the first name of
/// a chain counts; comments and string and character literals name nothing, except the
/// references of Javadoc tags (`{@link Pending}`, `@throws BaasException`).
pub fn scan(source: &str) -> Names {
    let b = source.as_bytes();
    let mut names = Names::default();
    let mut i = 0;
    // The last significant character before the current token, and the last identifier.
    let mut prev = b' ';
    let mut last_word = String::new();
    let mut last_word_after_dot = false;
    while i < b.len() {
        let c = b[i];
        let at = &b[i..];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if at.starts_with(b"//") {
            i = past(b, i, b"\n");
        } else if at.starts_with(b"/*") {
            let end = past(b, i + 2, b"*/");
            if at.starts_with(b"/**") {
                javadoc_references(&source[i..end], &mut names.used);
            }
            i = end;
        } else if at.starts_with(b"\"\"\"") {
            i = past(b, i + 3, b"\"\"\"");
            prev = b'"';
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            prev = c;
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                i += 1;
            }
            let word = &source[start..i];
            let after_dot = prev == b'.';
            if !after_dot {
                let declares = matches!(
                    last_word.as_str(),
                    "class" | "interface" | "enum" | "record"
                ) && !last_word_after_dot;
                if declares {
                    names.declared.insert(word.to_owned());
                } else if word.starts_with(|c: char| c.is_ascii_uppercase()) {
                    names.used.insert(word.to_owned());
                }
            }
            last_word = word.to_owned();
            last_word_after_dot = after_dot;
            prev = b'a';
        } else if c.is_ascii_digit() {
            // A number literal (`1L`, `0x1F`, `1e3`): no name.
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            prev = b'0';
        } else {
            prev = c;
            i += 1;
        }
    }
    names
}

/// The index just past the first `pattern` at or after `from` (the end when there is none).
fn past(b: &[u8], from: usize, pattern: &[u8]) -> usize {
    b[from.min(b.len())..]
        .windows(pattern.len())
        .position(|w| w == pattern)
        .map_or(b.len(), |n| from + n + pattern.len())
}

/// The first name of each reference a Javadoc comment's tags make.
fn javadoc_references(comment: &str, used: &mut BTreeSet<String>) {
    for tag in REFERENCE_TAGS {
        for (at, _) in comment.match_indices(tag) {
            let rest = &comment[at + tag.len()..];
            if !rest.starts_with(|c: char| c.is_whitespace()) {
                continue; // `@linkplain` when looking for `@link`
            }
            let reference: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
                .collect();
            if reference.starts_with(|c: char| c.is_ascii_uppercase()) {
                used.insert(reference);
            }
        }
    }
}

/// The package and class of a generated class file (none for `package-info.java`).
fn class_of(path: &str) -> Option<(String, String)> {
    let rest = path.strip_prefix(SRC)?.strip_prefix('/')?;
    let (dir, file) = rest.rsplit_once('/')?;
    let class = file.strip_suffix(".java")?;
    (class != "package-info").then(|| (dir.replace('/', "."), class.to_owned()))
}

/// The import lines of a file of `package` that names `names`, given every generated
/// class's packages by simple name.
fn import_lines(
    path: &str,
    package: &str,
    names: &Names,
    generated: &BTreeMap<String, BTreeSet<String>>,
) -> BTreeSet<String> {
    let mut lines = BTreeSet::new();
    for name in names.used.difference(&names.declared) {
        let here = generated.get(name);
        if here.is_some_and(|p| p.contains(package)) {
            continue;
        }
        let mut from: Vec<&str> = here.into_iter().flatten().map(String::as_str).collect();
        from.extend(library(name));
        match from.as_slice() {
            [] => {} // java.lang, a type parameter, a nested type of this file
            [one] => {
                lines.insert(format!("import {one}.{name};"));
            }
            several => panic!(
                "{path}: `{name}` could be any of {} (a generated type took a name another package has)",
                several.join(", ")
            ),
        }
    }
    lines
}

/// Writes each generated Java class file's imports after its `package` line.
pub fn add(files: &mut [EmittedFile]) {
    let mut generated: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files.iter() {
        if let Some((package, class)) = class_of(&f.path) {
            generated.entry(class).or_default().insert(package);
        }
    }
    for f in files.iter_mut() {
        let Some((package, _)) = class_of(&f.path) else {
            continue;
        };
        let Content::Text(text) = &mut f.content else {
            continue;
        };
        let lines = import_lines(&f.path, &package, &scan(text), &generated);
        if lines.is_empty() {
            continue;
        }
        let head = format!("package {package};\n\n");
        let at = text
            .find(&head)
            .unwrap_or_else(|| panic!("{}: no `{}`", f.path, head.trim_end()))
            + head.len();
        let block: String = lines.iter().map(|l| format!("{l}\n")).collect();
        text.insert_str(at, &format!("{block}\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn scan_reads_names_outside_comments_and_literals() {
        let names = scan(
            "package a.b;\n\
             /**\n * A <code>Pending</code> {@link Config} one.\n *\n * @throws com.baas.runtime.DecodeException when\n * @throws BaasException when\n */\n\
             public final class Notes {\n\
             // Set is named here only\n\
             /* Map too */\n\
             String dash = \"— é\"; int x = 1; /* ü */ x ‐ 1;\n\
             public record Balance(Notification n, com.baas.client.model.Balance params) implements Payload {}\n\
             private static final String S = \"List \\\" Optional\";\n\
             private static final char C = '\\'';\n\
             Wire.Reader<Objects> r = x -> Notes.class.getName().Trim(1L, 0x1F);\n\
             }\n",
        );
        // Constants (`S`, `C`) count as names too: they resolve to no type, so import nothing.
        assert_eq!(
            names.used,
            set(&[
                "BaasException",
                "C",
                "Config",
                "Notes",
                "Notification",
                "Objects",
                "Payload",
                "S",
                "String",
                "Wire"
            ])
        );
        assert_eq!(names.declared, set(&["Balance", "Notes"]));
    }

    #[test]
    fn imports_are_the_used_types_of_other_packages_sorted_and_never_ambiguous() {
        let generated: BTreeMap<String, BTreeSet<String>> = [
            ("Account", "com.baas.client.model"),
            ("GetAccountRequest", "com.baas.client.account"),
            ("Pending", "com.baas.client"),
        ]
        .into_iter()
        .map(|(c, p)| (c.to_owned(), set(&[p])))
        .collect();
        let names = Names {
            used: set(&[
                "Account",
                "GetAccountRequest",
                "List",
                "Pending",
                "String",
                "Balance",
                "T",
            ]),
            declared: set(&["Balance"]),
        };
        let lines = import_lines("X.java", "com.baas.client", &names, &generated);
        assert_eq!(
            lines.into_iter().collect::<Vec<_>>(),
            [
                "import com.baas.client.account.GetAccountRequest;",
                "import com.baas.client.model.Account;",
                "import java.util.List;",
            ]
        );
        let mut clash = generated.clone();
        clash.insert("Wire".to_owned(), set(&["com.baas.client.model"]));
        let names = Names {
            used: set(&["Wire"]),
            declared: BTreeSet::new(),
        };
        let caught =
            std::panic::catch_unwind(|| import_lines("X.java", "com.baas.client", &names, &clash));
        assert!(
            caught.is_err(),
            "a name two packages have is not imported silently"
        );
    }
}
