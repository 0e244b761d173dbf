//! Plain scalars under the YAML 1.2 core schema: null, booleans, integers, floats, or
//! else a string.

/// What a plain scalar means under the YAML 1.2 core schema.
pub(super) enum Plain {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str,
}

/// The meaning of a plain scalar's text.
pub(super) fn resolve(text: &str) -> Plain {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Plain::Null,
        "true" | "True" | "TRUE" => return Plain::Bool(true),
        "false" | "False" | "FALSE" => return Plain::Bool(false),
        _ => {}
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(i) = text.parse::<i64>() {
            return Plain::Int(i);
        }
        if let Ok(u) = text.strip_prefix('+').unwrap_or(text).parse::<u64>() {
            return Plain::UInt(u);
        }
        return Plain::Str;
    }
    if let Some(hex) = text.strip_prefix("0x") {
        if let Ok(u) = u64::from_str_radix(hex, 16) {
            return Plain::UInt(u);
        }
    }
    if let Some(oct) = text.strip_prefix("0o") {
        if let Ok(u) = u64::from_str_radix(oct, 8) {
            return Plain::UInt(u);
        }
    }
    if looks_float(digits) {
        if let Ok(f) = text.parse::<f64>() {
            return Plain::Float(f);
        }
    }
    match digits {
        ".inf" | ".Inf" | ".INF" => Plain::Float(if text.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }),
        _ if matches!(text, ".nan" | ".NaN" | ".NAN") => Plain::Float(f64::NAN),
        _ => Plain::Str,
    }
}

/// Whether `digits` (the text without its sign) is written as a float: digits with a
/// fraction, an exponent or both.
fn looks_float(digits: &str) -> bool {
    let (mantissa, exp) = match digits.find(['e', 'E']) {
        Some(i) => (digits.get(..i).unwrap_or(""), digits.get(i + 1..)),
        None => (digits, None),
    };
    let exp_ok = exp.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    });
    let mut parts = mantissa.splitn(2, '.');
    let int = parts.next().unwrap_or("");
    let frac = parts.next();
    let int_ok = int.bytes().all(|b| b.is_ascii_digit());
    let frac_ok = frac.is_none_or(|f| f.bytes().all(|b| b.is_ascii_digit()));
    let some_digit = !int.is_empty() || frac.is_some_and(|f| !f.is_empty());
    exp_ok && int_ok && frac_ok && some_digit && (frac.is_some() || exp.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_schema_resolution() {
        assert!(matches!(resolve("~"), Plain::Null));
        assert!(matches!(resolve("-12"), Plain::Int(-12)));
        assert!(matches!(resolve("18446744073709551615"), Plain::UInt(_)));
        assert!(matches!(resolve("1.5e3"), Plain::Float(_)));
        assert!(matches!(resolve(".5"), Plain::Float(_)));
        assert!(matches!(resolve("1.2.3"), Plain::Str));
        assert!(matches!(resolve("e3"), Plain::Str));
        assert!(matches!(resolve("-"), Plain::Str));
        assert!(matches!(resolve("99999999999999999999999"), Plain::Str));
    }
}
