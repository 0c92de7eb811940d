//! Formatted text with its parts: a [`writeable::PartsWrite`] sink that records which span of
//! the output each ICU4X part covers, then answers the text cut into ECMA-402 parts
//! (`{type, value}`), the innermost part naming each piece and unmarked text a `literal`.

use std::fmt;

use rquickjs::{Array, Ctx, IntoAtom, IntoJs, Object, object::Property};
use writeable::{Part, PartsWrite, Writeable};

/// The output and the spans of its parts, in the order they closed (inner before outer).
#[derive(Default)]
pub(crate) struct Parts {
    pub text: String,
    spans: Vec<(usize, usize, Part)>,
}

impl fmt::Write for Parts {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.text.push_str(s);
        Ok(())
    }
}

impl PartsWrite for Parts {
    type SubPartsWrite = Self;
    fn with_part(
        &mut self,
        part: Part,
        mut f: impl FnMut(&mut Self::SubPartsWrite) -> fmt::Result,
    ) -> fmt::Result {
        let start = self.text.len();
        f(self)?;
        self.spans.push((start, self.text.len(), part));
        Ok(())
    }
}

/// Which part names a piece of text when parts nest.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Nesting {
    /// The innermost part (numbers: `integer` inside a currency pattern).
    Inner,
    /// The outermost part that is not a number's own (dates: `year`, not `integer`).
    Outer,
}

impl Parts {
    /// Writes `w` and records its parts.
    pub fn of(w: &impl Writeable) -> Self {
        let mut parts = Parts::default();
        // Writing to a String cannot fail.
        let _ = w.write_to_parts(&mut parts);
        parts
    }

    /// A styled number's parts, completed: where the styled formatter did not mark the
    /// number's own parts, they are taken from `digits` (the same number formatted alone),
    /// and the text around the number is cut into signs, percent signs, spacing and `affix`
    /// (the currency, or the compact suffix).
    pub fn annotated(styled: Parts, digits: &Parts, affix: &'static str) -> Parts {
        let has_digits = styled.spans.iter().any(|(_, _, p)| p.value == "integer");
        let mut out = Parts::default();
        if !has_digits && let Some(at) = styled.text.find(&digits.text) {
            out.push_affix(&styled.text[..at], affix);
            let base = out.text.len();
            out.text.push_str(&digits.text);
            out.spans.extend(
                digits
                    .spans
                    .iter()
                    .map(|(s, e, p)| (s + base, e + base, *p)),
            );
            out.push_affix(&styled.text[at + digits.text.len()..], affix);
            return out;
        }
        // Keep the marked parts; cut the unmarked text. The number's own digits are the
        // ones rounded under the options (a currency pattern pads to the currency's digits).
        let is_number = |k: &str| matches!(k, "integer" | "group" | "decimal" | "fraction");
        let mut placed = false;
        for (kind, text) in styled.pieces(Nesting::Inner) {
            if is_number(kind) {
                if !placed {
                    placed = true;
                    let base = out.text.len();
                    out.text.push_str(&digits.text);
                    out.spans.extend(
                        digits
                            .spans
                            .iter()
                            .map(|(s, e, p)| (s + base, e + base, *p)),
                    );
                }
                continue;
            }
            if kind == "literal" {
                out.push_affix(&text, affix);
            } else {
                // V8 gives the direction marks of a locale's sign (`\u{200e}-`) as a literal
                // of their own before the sign.
                let text = if matches!(kind, "minusSign" | "plusSign") {
                    let sign = text.trim_start_matches(is_bidi);
                    out.text.push_str(&text[..text.len() - sign.len()]);
                    sign.to_string()
                } else {
                    text
                };
                let start = out.text.len();
                out.text.push_str(&text);
                out.spans.push((start, out.text.len(), number_part(kind)));
            }
        }
        out
    }

    /// Appends text around a number, cut into its kinds of parts.
    fn push_affix(&mut self, text: &str, affix: &'static str) {
        let class = |c: char| -> &'static str {
            match c {
                '-' | '\u{2212}' => "minusSign",
                '+' => "plusSign",
                '%' | '\u{066a}' | '\u{2030}' | '\u{ff05}' => "percentSign",
                ' ' | '\u{a0}' | '\u{202f}' | '(' | ')' => "literal",
                '\u{200e}' | '\u{200f}' | '\u{061c}' => "bidi",
                _ => affix,
            }
        };
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let mut kind = class(chars[i]);
            let mut j = i + 1;
            if kind == "bidi" {
                // A direction mark is literal, before a sign too (measured on V8: `ar`'s
                // `\u{200f}\u{200e}` before `-`, `he`'s `\u{200e}` before `+`).
                kind = "literal";
            } else if kind != "minusSign" && kind != "plusSign" {
                loop {
                    while j < chars.len() && class(chars[j]) == kind {
                        j += 1;
                    }
                    // A name of several words ("US dollars") is one part.
                    let spaced = kind == affix
                        && kind != "literal"
                        && chars.get(j).is_some_and(|c| *c == ' ' || *c == '\u{a0}')
                        && chars.get(j + 1).is_some_and(|c| class(*c) == kind);
                    if !spaced {
                        break;
                    }
                    j += 1;
                }
            }
            let piece: String = chars[i..j].iter().collect();
            let start = self.text.len();
            self.text.push_str(&piece);
            if kind != "literal" {
                self.spans.push((start, self.text.len(), number_part(kind)));
            }
            i = j;
        }
    }

    /// Appends other parts (text and spans) after these.
    pub fn push_parts(&mut self, other: &Parts) {
        let base = self.text.len();
        self.text.push_str(&other.text);
        self.spans
            .extend(other.spans.iter().map(|(s, e, p)| (s + base, e + base, *p)));
    }

    /// Appends text marked as one part.
    pub fn push_part(&mut self, s: &str, part: Part) {
        let start = self.text.len();
        self.text.push_str(s);
        self.spans.push((start, self.text.len(), part));
    }

    /// The text cut into (ECMA-402 type, text) pieces.
    pub fn pieces(&self, nesting: Nesting) -> Vec<(&'static str, String)> {
        let mut cuts: Vec<usize> = vec![0, self.text.len()];
        for (s, e, _) in &self.spans {
            cuts.push(*s);
            cuts.push(*e);
        }
        cuts.sort_unstable();
        cuts.dedup();
        let mut out: Vec<(&'static str, String, Option<usize>)> = Vec::new();
        for w in cuts.windows(2) {
            let (a, b) = (w[0], w[1]);
            if a == b {
                continue;
            }
            let covering = self
                .spans
                .iter()
                .enumerate()
                .filter(|(_, (s, e, _))| *s <= a && b <= *e);
            let chosen = match nesting {
                Nesting::Inner => covering.min_by_key(|(_, (s, e, _))| e - s),
                Nesting::Outer => {
                    let all: Vec<_> = covering.collect();
                    all.iter()
                        .filter(|(_, (_, _, p))| p.category != "decimal")
                        .max_by_key(|(_, (s, e, _))| e - s)
                        .or_else(|| all.iter().min_by_key(|(_, (s, e, _))| e - s))
                        .copied()
                }
            };
            let (kind, id) = match chosen {
                Some((i, (_, _, p))) => (kind_of(p), Some(i)),
                None => ("literal", None),
            };
            let piece = &self.text[a..b];
            match out.last_mut() {
                Some(last) if last.0 == kind && last.2 == id => last.1.push_str(piece),
                _ => out.push((kind, piece.to_string(), id)),
            }
        }
        out.into_iter().map(|(k, s, _)| (k, s)).collect()
    }

    /// The pieces as a JavaScript array of `{type, value}` objects.
    pub fn to_js<'js>(&self, ctx: &Ctx<'js>, nesting: Nesting) -> rquickjs::Result<Array<'js>> {
        pieces_to_js(ctx, self.pieces(nesting))
    }
}

/// Pieces as a JavaScript array of `{type, value}` objects.
pub(crate) fn pieces_to_js<'js>(
    ctx: &Ctx<'js>,
    pieces: Vec<(&'static str, String)>,
) -> rquickjs::Result<Array<'js>> {
    let array = Array::new(ctx.clone())?;
    for (i, (kind, value)) in pieces.into_iter().enumerate() {
        let o = Object::new(ctx.clone())?;
        put(&o, "type", kind)?;
        put(&o, "value", value)?;
        put(&array, i as u32, o)?;
    }
    Ok(array)
}

/// Stores `value` under `key` as a plain data property (ECMA-262's CreateDataProperty), so
/// that a setter a program defined on `Object.prototype` or `Array.prototype` ("0",
/// "type") never runs while Intl builds its results.
pub(crate) fn put<'js, K: IntoAtom<'js>, V: IntoJs<'js>>(
    o: &Object<'js>,
    key: K,
    value: V,
) -> rquickjs::Result<()> {
    o.prop(
        key,
        Property::from(value).writable().enumerable().configurable(),
    )
}

/// Whether `c` is a direction mark (LRM, RLM, ALM).
fn is_bidi(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}')
}

/// A part of a number, by its ECMA-402 type.
fn number_part(kind: &str) -> Part {
    let value = match kind {
        "integer" => "integer",
        "fraction" => "fraction",
        "group" => "group",
        "decimal" => "decimal",
        "minusSign" => "minusSign",
        "plusSign" => "plusSign",
        "percentSign" => "percentSign",
        "currency" => "currency",
        "compact" => "compact",
        "exponentSeparator" => "exponentSeparator",
        "exponentInteger" => "exponentInteger",
        "exponentMinusSign" => "exponentMinusSign",
        _ => "literal",
    };
    Part {
        category: "number",
        value,
    }
}

/// The ECMA-402 part type of an ICU4X part.
fn kind_of(p: &Part) -> &'static str {
    match (p.category, p.value) {
        (_, "integer") => "integer",
        (_, "fraction") => "fraction",
        (_, "group") => "group",
        (_, "decimal") => "decimal",
        (_, "minusSign") => "minusSign",
        (_, "plusSign") => "plusSign",
        (_, "percentSign") => "percentSign",
        (_, "currency") => "currency",
        (_, "compact") => "compact",
        (_, "nan") => "nan",
        (_, "infinity") => "infinity",
        (_, "unit") => "unit",
        (_, "exponentSeparator") => "exponentSeparator",
        (_, "exponentInteger") => "exponentInteger",
        (_, "exponentMinusSign") => "exponentMinusSign",
        (_, "era") => "era",
        (_, "year") | (_, "extendedYear") => "year",
        (_, "relatedYear") => "relatedYear",
        (_, "yearName") => "yearName",
        (_, "month") => "month",
        (_, "day") => "day",
        (_, "weekday") => "weekday",
        (_, "dayPeriod") => "dayPeriod",
        (_, "hour") => "hour",
        (_, "minute") => "minute",
        (_, "second") => "second",
        (_, "fractionalSecond") => "fractionalSecond",
        (_, "timeZoneName") => "timeZoneName",
        ("list", "element") => "element",
        _ => "literal",
    }
}
