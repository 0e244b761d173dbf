//! A name as words, so that each language cases it by its own rule: `applyForCnyExpress`
//! is `apply_for_cny_express` in Python, `applyForCnyExpress` in Java and TypeScript,
//! `ApplyForCnyExpress` as a type, `apply-for-cny-express` as a command.

use std::fmt;

/// A name split into lower-case words (digits stay with the word before them).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Words(Vec<String>);

impl Words {
    /// Splits a camelCase, PascalCase, snake_case or kebab-case name (a Rust raw
    /// identifier's `r#` is dropped); an acronym is one word (`getCNYRate` → get, cny,
    /// rate).
    pub fn of(name: &str) -> Words {
        let name = name.strip_prefix("r#").unwrap_or(name);
        let chars: Vec<char> = name.chars().collect();
        let mut words = Vec::new();
        let mut word = String::new();
        for (i, &c) in chars.iter().enumerate() {
            if !c.is_alphanumeric() {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                continue;
            }
            let prev = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1).copied();
            let boundary = c.is_uppercase()
                && !word.is_empty()
                && (prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit())
                    || (prev.is_some_and(char::is_uppercase)
                        && next.is_some_and(char::is_lowercase)));
            if boundary {
                words.push(std::mem::take(&mut word));
            }
            word.extend(c.to_lowercase());
        }
        if !word.is_empty() {
            words.push(word);
        }
        Words(words)
    }

    /// The words.
    pub fn as_slice(&self) -> &[String] {
        &self.0
    }

    /// `apply_for_transfer`
    pub fn snake(&self) -> String {
        self.0.join("_")
    }

    /// `APPLY_FOR_TRANSFER`
    pub fn screaming(&self) -> String {
        self.snake().to_uppercase()
    }

    /// `apply-for-transfer`
    pub fn kebab(&self) -> String {
        self.0.join("-")
    }

    /// `applyForTransfer`
    pub fn camel(&self) -> String {
        let mut out = String::new();
        for (i, w) in self.0.iter().enumerate() {
            if i == 0 {
                out.push_str(w);
            } else {
                out.push_str(&capitalised(w));
            }
        }
        out
    }

    /// `ApplyForTransfer`
    pub fn pascal(&self) -> String {
        self.0.iter().map(|w| capitalised(w)).collect()
    }
}

impl fmt::Display for Words {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(" "))
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::Words;

    #[test]
    fn every_casing_of_a_name_reads_back_as_the_same_words() {
        for (name, snake) in [
            ("applyForCnyExpress", "apply_for_cny_express"),
            ("ApplyForCnyExpress", "apply_for_cny_express"),
            ("apply_for_cny_express", "apply_for_cny_express"),
            ("getCNYRate", "get_cny_rate"),
            ("txId", "tx_id"),
            ("address1Line", "address1_line"),
            ("r#type", "type"),
            ("oderArray", "oder_array"),
            ("TTID0004", "ttid0004"),
        ] {
            let words = Words::of(name);
            assert_eq!(words.snake(), snake, "{name}");
            assert_eq!(Words::of(&words.camel()), words, "{name}");
            assert_eq!(Words::of(&words.pascal()), words, "{name}");
            assert_eq!(Words::of(&words.kebab()), words, "{name}");
        }
        assert_eq!(Words::of("applyForTransfer").kebab(), "apply-for-transfer");
        assert_eq!(Words::of("tx_id").camel(), "txId");
        assert_eq!(Words::of("tx_id").pascal(), "TxId");
        assert_eq!(Words::of("tx_id").screaming(), "TX_ID");
    }
}
