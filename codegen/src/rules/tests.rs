use super::*;

#[test]
fn every_key_round_trips_and_is_listed_once() {
    for key in RuleKey::ALL {
        assert_eq!(RuleKey::from_spec_key(key.spec_key()), Some(key));
    }
    let mut keys = SPEC_KEYS.to_vec();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), RULE_COUNT);
    assert_eq!(RuleKey::from_spec_key("max_char"), None);
}

#[test]
fn a_rule_is_built_only_from_an_argument_of_its_shape() {
    for key in RuleKey::ALL {
        let rule = key.sample().expect("an argument of the key's shape");
        assert_eq!(rule.key(), key);
        assert!(rule.spec_text().starts_with(key.spec_key()));
        assert!(!rule.words().is_empty());
        let other = if key.arg() == ArgShape::Text {
            Arg::Flag
        } else {
            Arg::Text("t".into())
        };
        assert_eq!(key.with(other), None, "{key:?}");
    }
}

#[test]
fn tighter_and_looser() {
    let n = |m: i64, s: u32| {
        Some(Number {
            mantissa: m,
            scale: s,
        })
    };
    let max = |m| RuleKind::MaxChars { max: m };
    assert_eq!(max(10).tighter(&max(5)), Some(true));
    assert_eq!(max(5).tighter(&max(10)), Some(false));
    assert_eq!(max(5).tighter(&max(5)), None);
    let min = |m| RuleKind::MinItems { min: m };
    assert_eq!(min(1).tighter(&min(2)), Some(true));
    let range = |lo, hi| RuleKind::Range { min: lo, max: hi };
    // The same bound written otherwise: not tighter (the text changed).
    assert_eq!(
        range(n(1, 0), None).tighter(&range(n(100, 2), None)),
        Some(false)
    );
    assert_eq!(
        range(n(1, 0), None).tighter(&range(n(101, 2), None)),
        Some(true)
    );
    assert_eq!(
        range(None, n(5, 0)).tighter(&range(None, None)),
        Some(false)
    );
    // Bounds far apart in scale compare exactly (no overflow).
    assert_eq!(
        range(n(i64::MAX, 0), None).tighter(&range(n(i64::MAX, 28), None)),
        Some(false)
    );
    assert_eq!(max(1).tighter(&min(1)), None, "different kinds");
}

#[test]
fn which_types_take_which_rules() {
    let array = |t: TypeRef| TypeRef::Array { item: Box::new(t) };
    assert!(RuleKey::MaxChars.applies_to().fits(&array(TypeRef::String)));
    assert!(!RuleKey::MaxChars.applies_to().fits(&TypeRef::Int));
    assert!(RuleKey::MaxItems.applies_to().fits(&array(TypeRef::Int)));
    assert!(!RuleKey::MaxItems.applies_to().fits(&TypeRef::Int));
    assert!(RuleKey::ServerSide.applies_to().fits(&TypeRef::Bool));
    assert!(RuleKey::MaxItems.on_the_array() && !RuleKey::MaxChars.on_the_array());
}
