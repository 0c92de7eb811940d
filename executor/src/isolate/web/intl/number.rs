//! `Intl.NumberFormat`'s formatting on ICU4X: decimal, percent and currency styles, the
//! standard, scientific, engineering and compact notations, sign display, the digit and
//! rounding options of ECMA-402 (applied to an exact decimal, as ICU4C does), grouping and
//! the locale's numbering system. The options arrive resolved (validated, defaults filled)
//! by `intl.js`; the formatter answers the text as parts.

use fixed_decimal::{
    Decimal, FloatPrecision, RoundingIncrement, Sign, SignDisplay, SignedRoundingMode,
    UnsignedRoundingMode,
};
use icu::decimal::options::{
    CompactDecimalFormatterOptions, DecimalFormatterOptions, GroupingStrategy,
};
use icu::decimal::{CompactDecimalFormatter, DecimalFormatter};
use icu::locale::Locale;
use rquickjs::class::Trace;
use rquickjs::{Array, Ctx, JsLifetime, Object, Value};
use writeable::Part;

use super::parts::{Nesting, Parts};
use super::pattern::{Pattern, Shown, SignText, Symbol};
use super::plurals::{Operands, Plurals};
use super::text::{category_name, plural_locale};
use super::units;

/// How a number is rounded: which of the digit options rule (ECMA-402's rounding type).
#[derive(Clone, Copy)]
enum Rounding {
    Fraction,
    Significant,
    MorePrecision,
    LessPrecision,
}

/// The digit options, resolved.
#[derive(Clone, Copy)]
struct Digits {
    rounding: Rounding,
    min_int: i16,
    min_frac: i16,
    max_frac: i16,
    min_sig: i16,
    max_sig: i16,
    mode: SignedRoundingMode,
    increment: u32,
    strip_if_integer: bool,
}

enum Style {
    Decimal(DecimalFormatter),
    /// The percent or currency pattern of the reference's CLDR around the number.
    Affixed(Box<Affixed>),
}

/// A percent or currency style: the locale's pattern and the symbol in its placeholder.
struct Affixed {
    pattern: Pattern,
    /// `%` or `¤`.
    placeholder: char,
    /// The percent sign, or the currency's symbol, narrow symbol or code.
    symbol: String,
    /// The symbol's part type (`percentSign`, `currency`).
    kind: &'static str,
    /// For `currencyDisplay: "name"`, the currency's names by plural.
    names: Option<Names>,
    /// A currency amount's own group and decimal separators where the locale has them
    /// (`de-AT`'s `.`), and whether the pattern's grouping applies (currency patterns).
    money: Option<(Option<&'static str>, Option<&'static str>)>,
}

/// What a currency's name takes: the plural of the number, and the locale's names
/// and `{0} {1}` patterns by plural.
struct Names {
    rules: Plurals,
    tag: String,
    /// `$<CODE>`, the table's key for the currency.
    unit: String,
    system: &'static str,
    /// Turkish writes the amount as its currency pattern writes it, symbol and all, before
    /// the name (`AU$11,00 Avustralya doları`, `-$7,00 ABD doları`, measured on the
    /// reference); other locales write the bare number.
    symbol: Option<String>,
}

/// The numbering system a formatter's digits are in, by its zero (the table's patterns are
/// by numbering system; a system it lacks takes the Latin one's).
fn numbering_system(zero: &str) -> &'static str {
    match zero.chars().next() {
        Some('\u{660}') => "arab",
        Some('\u{6f0}') => "arabext",
        Some('\u{966}') => "deva",
        Some('\u{9e6}') => "beng",
        Some('\u{1040}') => "mymr",
        Some('\u{f20}') => "tibt",
        Some('\u{17e0}') => "khmr",
        _ => "latn",
    }
}

enum Notation {
    Standard,
    Scientific,
    Engineering,
    Compact(Box<CompactDecimalFormatter>),
}

/// One `Intl.NumberFormat`'s formatter.
#[derive(Trace, JsLifetime)]
#[rquickjs::class(rename = "NumberFormatter")]
pub(crate) struct NumberFormatter {
    #[qjs(skip_trace)]
    style: Style,
    #[qjs(skip_trace)]
    notation: Notation,
    #[qjs(skip_trace)]
    plain: DecimalFormatter,
    #[qjs(skip_trace)]
    digits: Digits,
    #[qjs(skip_trace)]
    sign: SignDisplay,
    /// The locale's text for NaN.
    #[qjs(skip_trace)]
    nan: &'static str,
    /// The locale's exponent separator (`E`, `×10^`…).
    #[qjs(skip_trace)]
    exponent: &'static str,
    /// The locale's minus sign, with the direction marks before it (`\u{200e}−`).
    #[qjs(skip_trace)]
    minus: SignText,
    /// The locale's plus sign, likewise.
    #[qjs(skip_trace)]
    plus: SignText,
    /// The digits of a numbering system ICU4X's data lacks (`-u-nu-ahom`), from CLDR's
    /// numbering systems: ICU4X's digits (from its zero) are written in these instead.
    #[qjs(skip_trace)]
    digits_of: Option<(char, Vec<char>)>,
    /// Whether a percent is the number times 100 (style `percent`) or the number itself
    /// (the unit `percent` in a short or narrow width, which V8 formats with the locale's
    /// percent pattern).
    #[qjs(skip_trace)]
    scaled: bool,
}

/// The locale's exponent separator, measured on the reference over its 60 languages
/// (`formatToParts` of 0.01 in scientific notation): ICU4X's decimal data has no
/// exponential symbol, so this small table stands in for CLDR's `exponential`.
/// `arabic_digits`: the locale writes Arabic-Indic digits (Arabic's `أس`; in Latin digits `E`).
fn exponent_symbol(locale: &Locale, arabic_digits: bool) -> &'static str {
    match locale.id.language.as_str() {
        "ar" if arabic_digits => "أس",
        "el" | "sk" | "sl" => "e",
        "et" | "lt" | "sv" => "×10^",
        "fa" if arabic_digits => "×۱۰^",
        "uk" => "Е",
        _ => "E",
    }
}

/// The locales whose NaN is not `NaN` in V8's ICU data, with their text, measured on the
/// reference over its 60 languages (`new Intl.NumberFormat(l).format(NaN)`). ICU4X's decimal
/// data has no NaN symbol, so this small table stands in for CLDR's `nan`.
fn nan_symbol(locale: &Locale) -> &'static str {
    let id = &locale.id;
    match id.language.as_str() {
        "am" => "በቁጥር\u{a0}ሊገለጽ\u{a0}የማይችል",
        "ar" => "ليس\u{a0}رقمًا",
        "fa" => "ناعدد",
        "fi" => "epäluku",
        "lv" => "NS",
        "ru" => "не\u{a0}число",
        "zh" if id.script.is_some_and(|s| s.as_str() == "Hant")
            || id
                .region
                .is_some_and(|r| matches!(r.as_str(), "TW" | "HK" | "MO")) =>
        {
            "非數值"
        }
        _ => "NaN",
    }
}

fn text(o: &Object, key: &str) -> rquickjs::Result<String> {
    Ok(o.get::<_, Option<String>>(key)?.unwrap_or_default())
}

fn int(o: &Object, key: &str, fallback: i16) -> rquickjs::Result<i16> {
    Ok(o.get::<_, Option<f64>>(key)?.map_or(fallback, |n| n as i16))
}

fn data_error(e: impl std::fmt::Display) -> rquickjs::Error {
    rquickjs::Error::new_from_js_message("ICU4X", "data", e.to_string())
}

pub(crate) fn rounding_mode(name: &str) -> SignedRoundingMode {
    use {SignedRoundingMode as S, UnsignedRoundingMode as U};
    match name {
        "ceil" => S::Ceil,
        "floor" => S::Floor,
        "expand" => S::Unsigned(U::Expand),
        "trunc" => S::Unsigned(U::Trunc),
        "halfCeil" => S::HalfCeil,
        "halfFloor" => S::HalfFloor,
        "halfTrunc" => S::Unsigned(U::HalfTrunc),
        "halfEven" => S::Unsigned(U::HalfEven),
        _ => S::Unsigned(U::HalfExpand),
    }
}

impl Digits {
    /// The digit options of a resolved options object.
    fn from_object(o: &Object) -> rquickjs::Result<Self> {
        let rounding = match text(o, "roundingType")?.as_str() {
            "significantDigits" => Rounding::Significant,
            "morePrecision" => Rounding::MorePrecision,
            "lessPrecision" => Rounding::LessPrecision,
            _ => Rounding::Fraction,
        };
        Ok(Digits {
            rounding,
            min_int: int(o, "minimumIntegerDigits", 1)?,
            min_frac: int(o, "minimumFractionDigits", 0)?,
            max_frac: int(o, "maximumFractionDigits", 3)?,
            min_sig: int(o, "minimumSignificantDigits", 1)?,
            max_sig: int(o, "maximumSignificantDigits", 21)?,
            mode: rounding_mode(&text(o, "roundingMode")?),
            increment: o.get::<_, Option<f64>>("roundingIncrement")?.unwrap_or(1.0) as u32,
            strip_if_integer: text(o, "trailingZeroDisplay")? == "stripIfInteger",
        })
    }
}

/// A number as an exact decimal, through its shortest round-trip digits (NaN and the
/// infinities as zero).
pub(crate) fn exact(n: f64) -> Decimal {
    Decimal::try_from_f64(n, FloatPrecision::RoundTrip).unwrap_or_default()
}

/// `n` rounded under the digit options of `o` (PluralRules selects on this).
pub(crate) fn rounded(n: f64, o: &Object) -> rquickjs::Result<Decimal> {
    let mut d = exact(n);
    round(&mut d, &Digits::from_object(o)?);
    Ok(d)
}

impl NumberFormatter {
    /// The formatter for `locale` (a BCP 47 tag, with its `-u-nu-` keyword if any) and the
    /// resolved options.
    pub fn new(locale: &str, o: &Object) -> rquickjs::Result<Self> {
        let locale = super::formatting_locale(locale);
        let grouping = match text(o, "useGrouping")?.as_str() {
            "always" => GroupingStrategy::Always,
            "min2" => GroupingStrategy::Min2,
            "false" | "" => GroupingStrategy::Never,
            _ => GroupingStrategy::Auto,
        };
        let mut options = DecimalFormatterOptions::default();
        options.grouping_strategy = Some(grouping);
        let decimal = || DecimalFormatter::try_new((&locale).into(), options).map_err(data_error);
        let plain = decimal()?;
        let zero = Parts::of(&plain.format(&Decimal::from(0))).text;
        let system = numbering_system(&zero);
        let tag = locale.to_string();
        let style = match text(o, "style")?.as_str() {
            "percent" => {
                let data = |field: &str| {
                    units::entry(&tag, "%", 'l', &format!("{system}:{field}"))
                        .or_else(|| units::entry(&tag, "%", 'l', &format!("latn:{field}")))
                };
                Style::Affixed(Box::new(Affixed {
                    pattern: Pattern::parse(data("standard").unwrap_or("#,##0%")),
                    placeholder: '%',
                    symbol: data("sign").unwrap_or("%").to_string(),
                    kind: "percentSign",
                    names: None,
                    money: None,
                }))
            }
            "currency" => {
                let code = text(o, "currency")?.to_ascii_uppercase();
                let unit = format!("${code}");
                let field = if text(o, "currencySign")? == "accounting" {
                    "accounting"
                } else {
                    "standard"
                };
                let pattern = units::entry(&tag, "¤", 'l', &format!("{system}:{field}"))
                    .or_else(|| units::entry(&tag, "¤", 'l', &format!("latn:{field}")))
                    .unwrap_or("¤#,##0.00");
                let symbol = units::entry(&tag, &unit, 's', "symbol");
                let (symbol, names) = match text(o, "currencyDisplay")?.as_str() {
                    "narrowSymbol" => (units::entry(&tag, &unit, 'n', "symbol").or(symbol), None),
                    "code" => (None, None),
                    "name" => {
                        let rules = Plurals::new(&plural_locale(&tag), false);
                        (
                            None,
                            Some(Names {
                                rules,
                                tag: tag.clone(),
                                unit,
                                system,
                                symbol: if locale.id.language.as_str() == "tr" {
                                    Some(symbol.unwrap_or(&code).to_string())
                                } else {
                                    None
                                },
                            }),
                        )
                    }
                    _ => (symbol, None),
                };
                Style::Affixed(Box::new(Affixed {
                    pattern: Pattern::parse(pattern),
                    placeholder: '¤',
                    symbol: symbol.unwrap_or(&code).to_string(),
                    kind: "currency",
                    names,
                    money: Some((
                        units::entry(&tag, "¤", 'l', &format!("{system}:group")),
                        units::entry(&tag, "¤", 'l', &format!("{system}:decimal")),
                    )),
                }))
            }
            _ => Style::Decimal(decimal()?),
        };
        let notation = match text(o, "notation")?.as_str() {
            "scientific" => Notation::Scientific,
            "engineering" => Notation::Engineering,
            "compact" => {
                let prefs = (&locale).into();
                let mut compact = CompactDecimalFormatterOptions::default();
                compact.grouping_strategy = Some(grouping);
                let f = if text(o, "compactDisplay")? == "long" {
                    CompactDecimalFormatter::try_new_long(prefs, compact)
                } else {
                    CompactDecimalFormatter::try_new_short(prefs, compact)
                }
                .map_err(data_error)?;
                Notation::Compact(Box::new(f))
            }
            _ => Notation::Standard,
        };
        let digits = Digits::from_object(o)?;
        let sign = match text(o, "signDisplay")?.as_str() {
            "never" => SignDisplay::Never,
            "always" => SignDisplay::Always,
            "exceptZero" => SignDisplay::ExceptZero,
            "negative" => SignDisplay::Negative,
            _ => SignDisplay::Auto,
        };
        let arabic_digits = zero.chars().any(|c| matches!(c, '\u{660}' | '\u{6f0}'));
        let minus_one = Parts::of(&plain.format(&Decimal::from(-1)));
        let minus = minus_one
            .pieces(Nesting::Inner)
            .into_iter()
            .find(|(k, _)| *k == "minusSign")
            .map(|(_, m)| {
                let sign = m.trim_start_matches(['\u{200e}', '\u{200f}', '\u{61c}']);
                (m[..m.len() - sign.len()].to_string(), sign.to_string())
            })
            .unwrap_or_else(|| (String::new(), "-".to_string()));
        let mut one = Decimal::from(1);
        one.apply_sign_display(SignDisplay::Always);
        let plus = Parts::of(&plain.format(&one))
            .pieces(Nesting::Inner)
            .into_iter()
            .find(|(k, _)| *k == "plusSign")
            .map(|(_, m)| {
                let sign = m.trim_start_matches(['\u{200e}', '\u{200f}', '\u{61c}']);
                (m[..m.len() - sign.len()].to_string(), sign.to_string())
            })
            .unwrap_or_else(|| (String::new(), "+".to_string()));
        let nu = icu::locale::extensions::unicode::key!("nu");
        let digits_of = locale
            .extensions
            .unicode
            .keywords
            .get(&nu)
            .and_then(|system| units::entry("und", "nu", 'l', &system.to_string()))
            .map(|digits| digits.chars().collect::<Vec<char>>())
            .filter(|digits| digits.len() == 10)
            .and_then(|digits| {
                let own = zero.chars().next()?;
                (own != digits[0]).then_some((own, digits))
            });
        Ok(NumberFormatter {
            digits_of,
            style,
            notation,
            plain,
            digits,
            sign,
            nan: nan_symbol(&locale),
            exponent: exponent_symbol(&locale, arabic_digits),
            minus,
            plus,
            scaled: o.get::<_, Option<bool>>("scaled")?.unwrap_or(true),
        })
    }

    /// Formats a decimal (already scaled for percent) into parts.
    fn format_decimal(&self, value: Decimal) -> Parts {
        let mut value = value;
        match &self.notation {
            Notation::Standard => {
                round(&mut value, &self.digits);
                self.styled(value)
            }
            Notation::Scientific | Notation::Engineering => {
                let step = if matches!(self.notation, Notation::Engineering) {
                    3
                } else {
                    1
                };
                let exponent_of = |v: &Decimal| -> i16 {
                    if v.absolute.is_zero() {
                        0
                    } else {
                        v.absolute.nonzero_magnitude_start().div_euclid(step) * step
                    }
                };
                let mut exponent = exponent_of(&value);
                let mut significand = value.clone();
                significand.multiply_pow10(-exponent);
                round(&mut significand, &self.digits);
                let bumped = exponent_of(&significand);
                if bumped != 0 {
                    exponent += bumped;
                    significand = value;
                    significand.multiply_pow10(-exponent);
                    round(&mut significand, &self.digits);
                }
                let mut parts = self.styled(significand);
                parts.push_part(self.exponent, part("exponentSeparator"));
                if exponent < 0 {
                    // The direction marks of the locale's minus sign are a literal of their own.
                    parts.text.push_str(&self.minus.0);
                    parts.push_part(&self.minus.1, part("exponentMinusSign"));
                }
                let magnitude = Decimal::from(exponent.unsigned_abs() as u32);
                let digits = Parts::of(&self.plain.format(&magnitude));
                parts.push_part(&digits.text, part("exponentInteger"));
                parts
            }
            Notation::Compact(f) => {
                let magnitude = if value.absolute.is_zero() {
                    0
                } else {
                    value.absolute.nonzero_magnitude_start()
                };
                let mut exponent = f.compact_exponent_for_magnitude(magnitude);
                let mut significand = value.clone();
                significand.multiply_pow10(-i16::from(exponent));
                round(&mut significand, &self.digits);
                if !significand.absolute.is_zero() {
                    let rounded =
                        significand.absolute.nonzero_magnitude_start() + i16::from(exponent);
                    let again = f.compact_exponent_for_magnitude(rounded);
                    if again != exponent {
                        exponent = again;
                        significand = value;
                        significand.multiply_pow10(-i16::from(exponent));
                        round(&mut significand, &self.digits);
                    }
                }
                significand.apply_sign_display(self.sign);
                let parts = match f.format_with_exponent(&significand, exponent) {
                    Ok(w) => Parts::of(&w),
                    Err(_) => Parts::of(&self.plain.format(&significand)),
                };
                let mut magnitude = significand;
                magnitude.sign = Sign::None;
                let digits = Parts::of(&self.plain.format(&magnitude));
                Parts::annotated(parts, &digits, "compact")
            }
        }
    }

    /// The rounded decimal in the style's pattern, with the sign display applied.
    fn styled(&self, value: Decimal) -> Parts {
        self.styled_as(value, None)
    }

    /// The rounded decimal in the style's pattern; with `special` (NaN or an infinity: its
    /// part type and text), that text stands for the digits inside a percent or currency
    /// pattern, so CLDR's currency spacing sees no digit next to the symbol (`USDNaN`).
    fn styled_as(&self, mut value: Decimal, special: Option<(&'static str, &str)>) -> Parts {
        value.apply_sign_display(self.sign);
        let shown = match value.sign {
            Sign::Negative => Shown::Minus,
            Sign::Positive => Shown::Plus,
            Sign::None => Shown::Nothing,
        };
        let mut magnitude = value.clone();
        magnitude.sign = Sign::None;
        let mut digits = Parts::of(&self.plain.format(&magnitude));
        if let (Some((kind, text)), Style::Affixed(_)) = (special, &self.style) {
            digits = Parts::default();
            digits.push_part(text, part(kind));
        }
        let parts = match &self.style {
            Style::Decimal(f) => Parts::of(&f.format(&value)),
            Style::Affixed(a) => {
                return self.affixed(a, shown, &magnitude, &digits, special.is_some());
            }
        };
        Parts::annotated(parts, &digits, self.affix_kind())
    }

    /// A number in a percent or currency pattern; a currency's name in the locale's
    /// `{0} {1}` for the number's plural, the number signed as a plain decimal.
    /// `special` (NaN or an infinity) takes the name's `other`, as ICU selects for them.
    fn affixed(
        &self,
        a: &Affixed,
        shown: Shown,
        magnitude: &Decimal,
        digits: &Parts,
        special: bool,
    ) -> Parts {
        let Some(names) = &a.names else {
            let regrouped;
            let digits = match a.money {
                Some((group, decimal)) => {
                    regrouped = a.pattern.regroup(digits, group, decimal);
                    &regrouped
                }
                None => digits,
            };
            let symbol = Symbol {
                placeholder: a.placeholder,
                text: &a.symbol,
                kind: a.kind,
            };
            return a
                .pattern
                .write(shown, digits, &symbol, &self.minus, &self.plus);
        };
        let plural = if special {
            "other"
        } else {
            category_name(names.rules.category_for(&Operands::new(magnitude, None)))
        };
        let entry = |unit: &str, field: &str| units::entry(&names.tag, unit, 'l', field);
        let name = entry(&names.unit, plural)
            .or_else(|| entry(&names.unit, "other"))
            .or_else(|| entry(&names.unit, "name"))
            .unwrap_or(&a.symbol);
        let pattern = [names.system, "latn"]
            .iter()
            .find_map(|s| {
                entry("¤", &format!("{s}:{plural}")).or_else(|| entry("¤", &format!("{s}:other")))
            })
            .unwrap_or("{0} {1}");
        let mut out = Parts::default();
        let mut rest = pattern;
        while let Some(at) = rest.find('{') {
            out.text.push_str(&rest[..at]);
            let (token, after) = rest[at..].split_at(3.min(rest.len() - at));
            match token {
                "{0}" if names.symbol.is_some() => {
                    let regrouped;
                    let digits = match a.money {
                        Some((group, decimal)) => {
                            regrouped = a.pattern.regroup(digits, group, decimal);
                            &regrouped
                        }
                        None => digits,
                    };
                    let symbol = Symbol {
                        placeholder: a.placeholder,
                        text: names.symbol.as_deref().unwrap_or_default(),
                        kind: a.kind,
                    };
                    let amount = a
                        .pattern
                        .write(shown, digits, &symbol, &self.minus, &self.plus);
                    out.push_parts(&amount);
                }
                "{0}" => {
                    let sign = match shown {
                        Shown::Minus => Some((&self.minus, "minusSign")),
                        Shown::Plus => Some((&self.plus, "plusSign")),
                        Shown::Nothing => None,
                    };
                    if let Some(((marks, sign), kind)) = sign {
                        out.text.push_str(marks);
                        out.push_part(sign, part(kind));
                    }
                    out.push_parts(digits);
                }
                "{1}" => out.push_part(name, part("currency")),
                other => out.text.push_str(other),
            }
            rest = after;
        }
        out.text.push_str(rest);
        out
    }

    /// What the letters around the number are: the currency's symbol or name, or literal.
    fn affix_kind(&self) -> &'static str {
        match (&self.style, &self.notation) {
            (_, Notation::Compact(_)) => "compact",
            (Style::Affixed(a), _) if a.placeholder == '¤' => "currency",
            _ => "literal",
        }
    }

    /// Formats NaN or an infinity: the pattern of zero, its digits replaced by the symbol.
    fn format_special(
        &self,
        negative: bool,
        symbol: &str,
        kind: &'static str,
    ) -> Vec<(&'static str, String)> {
        // Infinity signs as a non-zero value (exceptZero and negative show its sign); NaN as
        // zero.
        let mut stand_in = Decimal::from(if kind == "infinity" { 1 } else { 0 });
        if negative {
            stand_in.sign = Sign::Negative;
        }
        if matches!(self.style, Style::Affixed(_)) && matches!(self.notation, Notation::Standard) {
            return self
                .styled_as(stand_in, Some((kind, symbol)))
                .pieces(Nesting::Inner);
        }
        let parts = self.styled(stand_in);
        let mut out = Vec::new();
        let mut placed = false;
        for (k, v) in parts.pieces(Nesting::Inner) {
            match k {
                "integer" if !placed => {
                    out.push((kind, symbol.to_string()));
                    placed = true;
                }
                "integer" | "decimal" | "fraction" | "group" | "exponentSeparator"
                | "exponentMinusSign" | "exponentInteger"
                    if kind == "infinity" => {}
                "integer" | "decimal" | "fraction" | "group" => {}
                _ => out.push((k, v)),
            }
        }
        out
    }

    /// The value as an exact decimal: a number through its shortest round-trip digits, a
    /// string (a BigInt's digits, or a numeric string) as written.
    fn pieces(&self, value: &Value) -> Vec<(&'static str, String)> {
        let decimal = if let Some(n) = value.as_number() {
            if n.is_nan() {
                return self.format_special(false, self.nan, "nan");
            }
            if n.is_infinite() {
                return self.format_special(n < 0.0, "∞", "infinity");
            }
            Decimal::try_from_f64(n, FloatPrecision::RoundTrip).unwrap_or_default()
        } else if let Some(s) = value.as_string().and_then(|s| s.to_string().ok()) {
            Decimal::try_from_str(s.trim()).unwrap_or_default()
        } else {
            Decimal::default()
        };
        let mut decimal = decimal;
        if matches!(&self.style, Style::Affixed(a) if a.placeholder == '%') && self.scaled {
            decimal.multiply_pow10(2);
        }
        let mut pieces = self.format_decimal(decimal).pieces(Nesting::Inner);
        if let Some((zero, digits)) = &self.digits_of {
            for (kind, text) in pieces.iter_mut() {
                if matches!(*kind, "integer" | "fraction" | "exponentInteger") {
                    *text = text
                        .chars()
                        .map(|c| {
                            let d = (c as u32).wrapping_sub(*zero as u32);
                            digits.get(d as usize).copied().unwrap_or(c)
                        })
                        .collect();
                }
            }
        }
        pieces
    }
}

fn part(value: &'static str) -> Part {
    Part {
        category: "number",
        value,
    }
}

/// Rounds `d` under the digit options, as ECMA-402's FormatNumericToString does.
fn round(d: &mut Decimal, o: &Digits) {
    let by_fraction = |d: &Decimal| {
        let mut d = d.clone();
        let increment = match o.increment {
            2 | 20 | 200 | 2000 => RoundingIncrement::MultiplesOf2,
            5 | 50 | 500 | 5000 => RoundingIncrement::MultiplesOf5,
            25 | 250 | 2500 => RoundingIncrement::MultiplesOf25,
            _ => RoundingIncrement::MultiplesOf1,
        };
        let shift: i16 = match o.increment {
            10 | 20 | 50 | 250 => 1,
            100 | 200 | 500 | 2500 => 2,
            1000 | 2000 | 5000 => 3,
            _ => 0,
        };
        d.round_with_mode_and_increment(-o.max_frac + shift, o.mode, increment);
        d.absolute.pad_end(-o.min_frac);
        (d, -o.max_frac)
    };
    let by_significance = |d: &Decimal| {
        let mut d = d.clone();
        let magnitude = if d.absolute.is_zero() {
            0
        } else {
            d.absolute.nonzero_magnitude_start()
        };
        let at = magnitude - o.max_sig + 1;
        d.round_with_mode(at, o.mode);
        d.absolute.trim_end();
        let magnitude = if d.absolute.is_zero() {
            0
        } else {
            d.absolute.nonzero_magnitude_start()
        };
        d.absolute.pad_end(magnitude - o.min_sig + 1);
        (d, at)
    };
    let (mut rounded, _) = match o.rounding {
        Rounding::Fraction => by_fraction(d),
        Rounding::Significant => by_significance(d),
        Rounding::MorePrecision | Rounding::LessPrecision => {
            let (f, fat) = by_fraction(d);
            let (s, sat) = by_significance(d);
            let more = matches!(o.rounding, Rounding::MorePrecision);
            if (sat <= fat) == more {
                (s, sat)
            } else {
                (f, fat)
            }
        }
    };
    if o.strip_if_integer {
        rounded.absolute.trim_end_if_integer();
    }
    rounded.absolute.pad_start(o.min_int);
    *d = rounded;
}

#[rquickjs::methods]
impl NumberFormatter {
    /// The parts of a value's formatted text, as `{type, value}` objects.
    #[qjs(rename = "parts")]
    pub fn js_parts<'js>(&self, ctx: Ctx<'js>, value: Value<'js>) -> rquickjs::Result<Array<'js>> {
        super::parts::pieces_to_js(&ctx, self.pieces(&value))
    }

    /// A value's formatted text.
    pub fn format(&self, value: Value<'_>) -> String {
        self.pieces(&value).into_iter().map(|(_, s)| s).collect()
    }
}
