//! The release gate: is the crate's version bumped at least as much as the spec's changes
//! need, and does the changelog have an entry for it?

use super::{Bump, Report};
use crate::model::Semver;

/// What a version step allows under Cargo's rules, where `^0.y.z` only accepts `0.y.*`
/// and `^0.0.z` only `0.0.z`: in `0.y.z` a `y` step may break (major) and a `z` step may
/// add (minor); in `0.0.z` every step may break.
pub fn allowed(old: Semver, new: Semver) -> Option<Bump> {
    if new < old {
        return None;
    }
    Some(if new == old {
        Bump::None
    } else if new.major != old.major {
        Bump::Major
    } else if old.major > 0 {
        if new.minor != old.minor {
            Bump::Minor
        } else {
            Bump::Patch
        }
    } else if old.minor == 0 || new.minor != old.minor {
        Bump::Major
    } else {
        Bump::Minor
    })
}

/// Whether `changelog` has an entry (`## <version>` heading) for `version`.
pub fn has_entry(changelog: &str, version: &str) -> bool {
    changelog.lines().any(|l| {
        l.strip_prefix("## ")
            .and_then(|rest| rest.trim_start().strip_prefix(version))
            .is_some_and(|after| after.is_empty() || after.starts_with([' ', '\t']))
    })
}

/// The gate's findings: empty when it passes.
pub fn check(report: &Report, changelog: Option<&str>) -> Vec<String> {
    let mut problems = Vec::new();
    let (o, n) = (&report.old.client_version, &report.new.client_version);
    match (Semver::parse(o), Semver::parse(n)) {
        (Some(old), Some(new)) => match allowed(old, new) {
            None => problems.push(format!("client_version went backwards: {o} → {n}")),
            Some(a) if a < report.bump => problems.push(format!(
                "the changes need a {} bump but client_version {o} → {n} is {}: set `api.client_version` in spec/api.yaml to {} (or more), regenerate, and add its changelog entry",
                report.bump,
                if a == Bump::None { "unchanged".to_owned() } else { format!("a {a} step") },
                suggest(old, report.bump),
            )),
            Some(_) => {}
        },
        _ => problems.push(format!("client_version is not MAJOR.MINOR.PATCH: {o} → {n}")),
    }
    match changelog {
        None => problems.push("generated/CHANGELOG.md is missing".to_owned()),
        Some(text) if !has_entry(text, n) => problems.push(format!(
            "generated/CHANGELOG.md has no `## {n}` entry: draft it with `cargo run -p baas-codegen -- diff <previous> spec/ --write-changelog` and edit it"
        )),
        Some(_) => {}
    }
    problems
}

/// The smallest version after `old` that allows `bump`.
pub fn suggest(old: Semver, bump: Bump) -> Semver {
    let zero = old.major == 0;
    match bump {
        Bump::None => old,
        Bump::Major if !zero => Semver {
            major: old.major + 1,
            minor: 0,
            patch: 0,
        },
        Bump::Major if old.minor == 0 => Semver {
            patch: old.patch + 1,
            ..old
        },
        Bump::Major => Semver {
            minor: old.minor + 1,
            patch: 0,
            ..old
        },
        Bump::Minor if !zero => Semver {
            minor: old.minor + 1,
            patch: 0,
            ..old
        },
        Bump::Minor | Bump::Patch => Semver {
            patch: old.patch + 1,
            ..old
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Semver {
        Semver::parse(s).expect("version")
    }

    #[test]
    fn cargo_rules_for_steps() {
        assert_eq!(allowed(v("1.2.3"), v("2.0.0")), Some(Bump::Major));
        assert_eq!(allowed(v("1.2.3"), v("1.3.0")), Some(Bump::Minor));
        assert_eq!(allowed(v("1.2.3"), v("1.2.4")), Some(Bump::Patch));
        assert_eq!(allowed(v("1.2.3"), v("1.2.3")), Some(Bump::None));
        assert_eq!(allowed(v("1.2.3"), v("1.2.2")), None);
        assert_eq!(allowed(v("0.2.3"), v("0.3.0")), Some(Bump::Major));
        assert_eq!(allowed(v("0.2.3"), v("0.2.4")), Some(Bump::Minor));
        assert_eq!(allowed(v("0.0.3"), v("0.0.4")), Some(Bump::Major));
        assert_eq!(allowed(v("0.9.0"), v("1.0.0")), Some(Bump::Major));
    }

    #[test]
    fn suggestions_are_allowed() {
        for old in ["0.0.1", "0.2.3", "1.2.3"] {
            for bump in [Bump::Patch, Bump::Minor, Bump::Major] {
                let s = suggest(v(old), bump);
                assert!(allowed(v(old), s) >= Some(bump), "{old} {bump} → {s}");
            }
        }
    }

    #[test]
    fn changelog_entries_by_heading() {
        let log = "# Changelog\n\n## 1.2.0 (API 3)\n\n- x\n\n## 1.1.0\n";
        assert!(has_entry(log, "1.2.0"));
        assert!(has_entry(log, "1.1.0"));
        assert!(!has_entry(log, "1.2"));
        assert!(!has_entry(log, "1.0.0"));
        assert!(!has_entry("### 1.1.0", "1.1.0"));
    }
}
