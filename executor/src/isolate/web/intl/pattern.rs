//! A CLDR number pattern's affixes around a formatted number, as ICU writes them: the
//! currency and percent patterns of the reference's CLDR (`¤#,##0.00`, `#,##0.00 ¤`,
//! `¤#,##0.00;(¤#,##0.00)`, `#,##0 %`), with the sign placed as ICU places it and CLDR's
//! currency spacing (a no-break space between a currency symbol ending in a letter and a
//! digit: `CHF 1.00`, `1,00 USD`, but `$1.00`).
//!
//! The number itself (digits, grouping, decimal separator) is the locale's decimal
//! formatter's; only the text around it comes from here.

use icu::properties::CodePointMapData;
use icu::properties::props::{GeneralCategory, GeneralCategoryGroup};
use writeable::Part;

use super::parts::Parts;

/// Which sign a number shows.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Shown {
    Nothing,
    Minus,
    Plus,
}

/// A pattern's affixes: the positive prefix and suffix, and the negative subpattern's when
/// the pattern has one (after `;`).
pub(crate) struct Pattern {
    positive: (String, String),
    negative: Option<(String, String)>,
    /// The grouping sizes (primary, secondary) when the pattern groups twice or more.
    grouping: Option<(usize, usize)>,
}

/// A number part by its ECMA-402 type.
fn part(kind: &str) -> Part {
    let value = match kind {
        "integer" => "integer",
        "group" => "group",
        "decimal" => "decimal",
        "fraction" => "fraction",
        "minusSign" => "minusSign",
        "plusSign" => "plusSign",
        "exponentSeparator" => "exponentSeparator",
        "exponentInteger" => "exponentInteger",
        "exponentMinusSign" => "exponentMinusSign",
        "compact" => "compact",
        "nan" => "nan",
        "infinity" => "infinity",
        _ => "literal",
    };
    Part {
        category: "number",
        value,
    }
}

/// A sign's text: the direction marks before it (a literal of their own in V8's parts) and
/// the sign itself.
pub(crate) type SignText = (String, String);

/// The symbol a pattern's placeholder stands for (`¤` or `%`) and its part's type.
pub(crate) struct Symbol<'a> {
    pub placeholder: char,
    pub text: &'a str,
    pub kind: &'static str,
}

/// Whether `c` is a direction mark (LRM, RLM, ALM).
fn is_bidi(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{61c}')
}

fn is_number_char(c: char) -> bool {
    matches!(c, '#' | '0'..='9' | ',' | '.' | '@')
}

/// A subpattern's prefix and suffix (quotes dropped).
fn affixes(subpattern: &str) -> (String, String) {
    let plain: String = subpattern.chars().filter(|c| *c != '\'').collect();
    let start = plain.find(is_number_char).unwrap_or(plain.len());
    let end = plain
        .rfind(is_number_char)
        .map(|i| i + plain[i..].chars().next().map_or(1, char::len_utf8))
        .unwrap_or(start)
        .max(start);
    (plain[..start].to_string(), plain[end..].to_string())
}

/// Whether CLDR's currency spacing separates `c` (the symbol's letter next to the number)
/// from a digit: `[[:^S:]&[:^Z:]]`, the same in every locale of CLDR 48.
fn spaced(c: Option<char>) -> bool {
    c.is_some_and(|c| {
        let gc = CodePointMapData::<GeneralCategory>::new().get(c);
        !GeneralCategoryGroup::Symbol.contains(gc) && !GeneralCategoryGroup::Separator.contains(gc)
    })
}

/// A subpattern's grouping sizes (primary, secondary): `#,##,##0.00` is (3, 2).
fn grouping(subpattern: &str) -> Option<(usize, usize)> {
    let integer = subpattern
        .split('.')
        .next()?
        .trim_matches(|c: char| !is_number_char(c));
    let mut groups = integer.rsplit(',');
    let primary = groups.next()?.len();
    let secondary = groups.next().map(str::len);
    secondary.map(|s| (primary, if groups.next().is_some() { s } else { primary }))
}

impl Pattern {
    pub fn parse(pattern: &str) -> Pattern {
        let mut halves = pattern.splitn(2, ';');
        let positive = affixes(halves.next().unwrap_or_default());
        let negative = halves.next().map(affixes);
        let grouping = grouping(pattern.split(';').next().unwrap_or_default());
        Pattern {
            positive,
            negative,
            grouping,
        }
    }

    /// The number's parts regrouped by the pattern's grouping sizes where the number was
    /// grouped (a currency pattern's `#,##0.00` in `mr`, whose numbers group as
    /// `#,##,##0`), with the separators given (a currency's own, `de-AT`'s `.`).
    pub fn regroup(&self, digits: &Parts, group: Option<&str>, decimal: Option<&str>) -> Parts {
        let pieces = digits.pieces(super::parts::Nesting::Inner);
        let grouped = pieces.iter().any(|(k, _)| *k == "group");
        let separator = group
            .map(str::to_string)
            .or_else(|| {
                pieces
                    .iter()
                    .find(|(k, _)| *k == "group")
                    .map(|(_, v)| v.clone())
            })
            .unwrap_or_default();
        let mut out = Parts::default();
        let mut integer = String::new();
        let flush = |out: &mut Parts, integer: &mut String| {
            if integer.is_empty() {
                return;
            }
            let chars: Vec<char> = integer.chars().collect();
            let mut runs = Vec::new();
            let mut end = chars.len();
            // A pattern without grouping keeps the number's own (three by three).
            let (primary, secondary) = self.grouping.unwrap_or((3, 3));
            let mut size = primary;
            while grouped && end > size && primary > 0 {
                runs.push(chars[end - size..end].iter().collect::<String>());
                end -= size;
                size = secondary.max(1);
            }
            runs.push(chars[..end].iter().collect::<String>());
            for (i, run) in runs.iter().rev().enumerate() {
                if i > 0 {
                    out.push_part(&separator, part("group"));
                }
                out.push_part(run, part("integer"));
            }
            integer.clear();
        };
        for (kind, text) in &pieces {
            match *kind {
                "integer" => integer.push_str(text),
                "group" => {}
                "decimal" => {
                    flush(&mut out, &mut integer);
                    out.push_part(decimal.unwrap_or(text), part("decimal"));
                }
                other => {
                    flush(&mut out, &mut integer);
                    if other == "literal" {
                        out.text.push_str(text);
                    } else {
                        out.push_part(text, part(other));
                    }
                }
            }
        }
        flush(&mut out, &mut integer);
        out
    }

    /// The number's parts (`digits`, unsigned) inside the pattern, with the sign shown and
    /// the placeholder replaced by the symbol.
    pub fn write(
        &self,
        shown: Shown,
        digits: &Parts,
        symbol: &Symbol,
        minus: &SignText,
        plus: &SignText,
    ) -> Parts {
        let has_minus = |a: &(String, String)| a.0.contains('-') || a.1.contains('-');
        let (prefix, suffix) = match (shown, &self.negative) {
            (Shown::Minus, Some(negative)) => negative.clone(),
            (Shown::Plus, Some(negative)) if has_minus(negative) => {
                (negative.0.replace('-', "+"), negative.1.replace('-', "+"))
            }
            (Shown::Minus, None) => (format!("-{}", self.positive.0), self.positive.1.clone()),
            (Shown::Plus, _) => (format!("+{}", self.positive.0), self.positive.1.clone()),
            _ => self.positive.clone(),
        };
        let mut out = Parts::default();
        let first_digit = digits.text.chars().next().is_some_and(|c| c.is_numeric());
        let last_digit = digits.text.chars().last().is_some_and(|c| c.is_numeric());
        self.push_affix(&mut out, &prefix, symbol, minus, plus);
        if prefix.ends_with(symbol.placeholder)
            && symbol.placeholder == '¤'
            && first_digit
            && spaced(symbol.text.chars().last())
        {
            out.text.push('\u{a0}');
        }
        out.push_parts(digits);
        if suffix.starts_with(symbol.placeholder)
            && symbol.placeholder == '¤'
            && last_digit
            && spaced(symbol.text.chars().next())
        {
            out.text.push('\u{a0}');
        }
        self.push_affix(&mut out, &suffix, symbol, minus, plus);
        out
    }

    fn push_affix(
        &self,
        out: &mut Parts,
        affix: &str,
        symbol: &Symbol,
        minus: &SignText,
        plus: &SignText,
    ) {
        for c in affix.chars() {
            let (marks, text, kind) = match c {
                '-' => (minus.0.as_str(), minus.1.as_str(), "minusSign"),
                '+' => (plus.0.as_str(), plus.1.as_str(), "plusSign"),
                c if c == symbol.placeholder => ("", symbol.text, symbol.kind),
                c => {
                    out.text.push(c);
                    continue;
                }
            };
            out.text.push_str(marks);
            // A symbol's direction marks (`\u{200e}%\u{200e}` in `ar`, `ر.س.\u{200f}`) are
            // literals around it in V8's parts.
            let (before, text, after) = if c == symbol.placeholder {
                let core = text.trim_matches(is_bidi);
                let start = text.len() - text.trim_start_matches(is_bidi).len();
                (&text[..start], core, &text[start + core.len()..])
            } else {
                ("", text, "")
            };
            out.text.push_str(before);
            out.push_part(
                text,
                Part {
                    category: "number",
                    value: kind,
                },
            );
            out.text.push_str(after);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digits(text: &str) -> Parts {
        let mut p = Parts::default();
        p.push_part(
            text,
            Part {
                category: "number",
                value: "integer",
            },
        );
        p
    }

    fn write(pattern: &str, shown: Shown, number: &str, symbol: &str) -> String {
        let symbol = Symbol {
            placeholder: '¤',
            text: symbol,
            kind: "currency",
        };
        let sign = |s: &str| (String::new(), s.to_string());
        Pattern::parse(pattern)
            .write(shown, &digits(number), &symbol, &sign("-"), &sign("+"))
            .text
    }

    #[test]
    fn the_sign_goes_where_icu_puts_it() {
        assert_eq!(write("¤#,##0.00", Shown::Minus, "1.00", "$"), "-$1.00");
        assert_eq!(
            write("¤#,##0.00;(¤#,##0.00)", Shown::Minus, "1.00", "$"),
            "($1.00)"
        );
        assert_eq!(
            write("¤#,##0.00;(¤#,##0.00)", Shown::Plus, "1.00", "$"),
            "+$1.00"
        );
        assert_eq!(
            write("¤\u{a0}#,##0.00;¤-#,##0.00", Shown::Minus, "1.00", "CHF"),
            "CHF-1.00"
        );
    }

    #[test]
    fn a_letter_next_to_the_number_is_spaced() {
        assert_eq!(
            write("¤#,##0.00", Shown::Nothing, "1.00", "CHF"),
            "CHF\u{a0}1.00"
        );
        assert_eq!(write("¤#,##0.00", Shown::Nothing, "1.00", "A$"), "A$1.00");
        assert_eq!(
            write("#,##0.00¤", Shown::Nothing, "1,00", "USD"),
            "1,00\u{a0}USD"
        );
    }
}
