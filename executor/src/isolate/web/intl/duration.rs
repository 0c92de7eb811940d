//! `Intl.DurationFormat`'s formatting: ECMA-402's PartitionDurationFormatPattern over ICU4X's
//! parts. `intl.js` reads and validates the options, resolves every unit's style and display
//! and turns the argument into a valid duration (the Temporal checks and their texts); this
//! module formats the ten signed fields.
//!
//! Why not `icu_experimental::duration::DurationFormatter` whole: its words are the ones
//! V8 prints (measured: 51 of 52 locale × style outputs identical on the reference), so its
//! parts are used here, its unit formatter (CLDR's duration unit names, per width, plural
//! and numbering system) and its list patterns (`unit` lists); but its digital numbers are
//! grouped (`100,000` where V8 writes `0:00:100000`), it drops the carry of fractional units
//! into seconds (`1 s + 123456789 ms`) and it decides whether a unit shows on the unit's own
//! value rather than with its fraction added. So the algorithm is written here, step for
//! step as the specification gives it, with exact integer arithmetic in nanoseconds.

use fixed_decimal::{Decimal, FloatPrecision, Sign};
use icu::decimal::DecimalFormatter;
use icu::decimal::options::{DecimalFormatterOptions, GroupingStrategy};
use icu::list::ListFormatter;
use icu::list::options::{ListFormatterOptions, ListLength};
use icu::locale::Locale;
use icu_experimental::dimension::units::categorized_formatter::CategorizedFormatter;
use icu_experimental::dimension::units::options::{UnitsFormatterOptions, Width};
use icu_experimental::duration::provider::UnitsDurationDigitalV1;
use icu_experimental::measure::category::{CategorizedMeasureUnit, Duration};
use icu_provider::prelude::*;
use rquickjs::class::Trace;
use rquickjs::{Array, Ctx, JsLifetime, Object};

use super::parts::{Nesting, Parts, put};

/// The units in ECMA-402's Table 2 order, with the singular names parts carry.
const UNITS: [&str; 10] = [
    "year",
    "month",
    "week",
    "day",
    "hour",
    "minute",
    "second",
    "millisecond",
    "microsecond",
    "nanosecond",
];
const HOUR: usize = 4;
const MINUTE: usize = 5;
const SECOND: usize = 6;

fn failure(what: impl std::fmt::Display) -> rquickjs::Error {
    rquickjs::Error::new_from_js_message("Intl", "ICU4X", what.to_string())
}

fn unit_of(i: usize) -> CategorizedMeasureUnit<Duration> {
    match i {
        0 => Duration::year(),
        1 => Duration::month(),
        2 => Duration::week(),
        3 => Duration::day(),
        4 => Duration::hour(),
        5 => Duration::minute(),
        6 => Duration::second(),
        7 => Duration::millisecond(),
        8 => Duration::microsecond(),
        _ => Duration::nanosecond(),
    }
}

/// A unit's style as `intl.js` resolved it.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    Long,
    Short,
    Narrow,
    Numeric,
    TwoDigit,
    Fractional,
}

impl Style {
    fn parse(s: &str) -> Style {
        match s {
            "long" => Style::Long,
            "narrow" => Style::Narrow,
            "numeric" => Style::Numeric,
            "2-digit" => Style::TwoDigit,
            "fractional" => Style::Fractional,
            _ => Style::Short,
        }
    }
    fn width(self) -> Option<Width> {
        match self {
            Style::Long => Some(Width::Long),
            Style::Short => Some(Width::Short),
            Style::Narrow => Some(Width::Narrow),
            _ => None,
        }
    }
}

/// A field's magnitude as the integer its shortest decimal form writes (V8 formats
/// 9007199254740991000 so, not as the double's binary value 9007199254740990976). The
/// fields are integers that `intl.js` checked (IsValidDuration), well inside an i128.
fn exact(v: f64) -> i128 {
    Decimal::try_from_f64(v.abs(), FloatPrecision::RoundTrip)
        .ok()
        .and_then(|d| d.to_string().parse().ok())
        .unwrap_or(v.abs() as i128)
}

/// Appends a number's piece; a sign's direction mark (`\u{200e}-` in Urdu, `\u{61c}-` in
/// Arabic) is a literal of its own before the sign, as ICU cuts it.
fn push_piece(kind: &'static str, text: String, unit: Option<&'static str>, out: &mut Vec<Piece>) {
    let marks = |c: char| matches!(c, '\u{200e}' | '\u{200f}' | '\u{61c}');
    let sign = text.trim_start_matches(marks);
    if matches!(kind, "minusSign" | "plusSign") && sign.len() < text.len() && !sign.is_empty() {
        out.push(Piece {
            kind: "literal",
            value: text[..text.len() - sign.len()].to_string(),
            unit,
        });
        out.push(Piece {
            kind,
            value: sign.to_string(),
            unit,
        });
        return;
    }
    out.push(Piece {
        kind,
        value: text,
        unit,
    });
}

/// The digital numbers' formatter. A numbering system foreign to the locale
/// (`en-u-nu-arab`) takes that numbering system's own symbols, as ICU does from CLDR's root
/// (`٫` and `؜-` for `arab`); ICU4X's data keeps them only under the locales that use the
/// system (`ar` has root's `arab` symbols, `ur` root's `arabext` ones), so where the locale's
/// own symbols come out Latin, the formatter is built for that locale instead. Only `arab`
/// and `arabext` have symbols of their own in CLDR's root; every other system uses the
/// locale's Latin ones there too.
fn digit_formatter(
    locale: &Locale,
    options: DecimalFormatterOptions,
) -> rquickjs::Result<DecimalFormatter> {
    let own = DecimalFormatter::try_new(locale.into(), options).map_err(failure)?;
    let nu = icu::locale::extensions::unicode::key!("nu");
    let system = locale
        .extensions
        .unicode
        .keywords
        .get(&nu)
        .map(|v| v.to_string());
    let host = match system.as_deref() {
        Some("arab") => "ar-u-nu-arab",
        Some("arabext") => "ur-u-nu-arabext",
        _ => return Ok(own),
    };
    let probe: Decimal = "-1.5".parse().map_err(failure)?;
    let latin = own.format(&probe).to_string();
    if !latin.contains(['.', ',']) {
        return Ok(own);
    }
    let host: Locale = host.parse().map_err(failure)?;
    DecimalFormatter::try_new((&host).into(), options).map_err(failure)
}

/// One piece of the result: ECMA-402's `{type, value, unit}`.
struct Piece {
    kind: &'static str,
    value: String,
    unit: Option<&'static str>,
}

/// An `Intl.DurationFormat`'s formatters: one unit formatter per unit shown in words, the
/// digital numbers' formatter (no grouping, as V8), the locale's digital separator and its
/// `unit` list pattern.
#[derive(Trace, JsLifetime)]
#[rquickjs::class(rename = "DurationFormatter")]
pub(crate) struct DurationFormatter {
    #[qjs(skip_trace)]
    styles: [Style; 10],
    #[qjs(skip_trace)]
    always: [bool; 10],
    /// `fractionalDigits`, or None (up to nine, trailing zeros dropped).
    #[qjs(skip_trace)]
    fractional: Option<u8>,
    #[qjs(skip_trace)]
    units: Vec<Option<CategorizedFormatter<Duration>>>,
    #[qjs(skip_trace)]
    digits: DecimalFormatter,
    /// The number of a unit in words, grouped as the locale groups.
    #[qjs(skip_trace)]
    grouped: DecimalFormatter,
    /// The tag whose CLDR 48 unit patterns name the units.
    #[qjs(skip_trace)]
    names: String,
    #[qjs(skip_trace)]
    separator: String,
    #[qjs(skip_trace)]
    list: ListFormatter,
}

impl DurationFormatter {
    /// `tag` carries the numbering system (`-u-nu-`); `base` is the style (long, short,
    /// narrow, digital); `styles` and `displays` the ten units' resolved styles (with
    /// `fractional`) and displays; `fractional` is fractionalDigits or -1.
    pub fn new(
        tag: &str,
        base: &str,
        styles: Vec<String>,
        displays: Vec<String>,
        fractional: i32,
    ) -> rquickjs::Result<Self> {
        let locale: Locale = tag.parse().unwrap_or(Locale::UNKNOWN);
        // Where workerd's data has no formatting data of the language's own (`pa`), the unit
        // names are English and the list root's (`1y, 2m, 4d`), measured on the reference.
        let mut names = super::naming_locale(tag);
        names.extensions = locale.extensions.clone();
        let joining = super::formatting_locale(tag);
        let mut s = [Style::Short; 10];
        let mut always = [false; 10];
        for i in 0..10 {
            s[i] = Style::parse(styles.get(i).map(String::as_str).unwrap_or("short"));
            always[i] = displays.get(i).is_some_and(|d| d == "always");
        }
        let mut units = Vec::with_capacity(10);
        for (i, style) in s.iter().enumerate() {
            units.push(match style.width() {
                Some(width) => Some(
                    CategorizedFormatter::<Duration>::try_new_outlier(
                        (&names).into(),
                        unit_of(i),
                        UnitsFormatterOptions::from(width),
                    )
                    .map_err(failure)?,
                ),
                None => None,
            });
        }
        let mut options = DecimalFormatterOptions::default();
        options.grouping_strategy = Some(GroupingStrategy::Never);
        let digits = digit_formatter(&locale, options)?;
        let grouped = digit_formatter(&locale, DecimalFormatterOptions::default())?;
        let data_locale = DataLocale::from(&locale.id);
        let separator = icu_experimental::provider::Baked
            .load(DataRequest {
                id: DataIdentifierBorrowed::for_locale(&data_locale),
                ..Default::default()
            })
            .map(|r: DataResponse<UnitsDurationDigitalV1>| r.payload.get().separator.to_string())
            .unwrap_or_else(|_| ":".to_string());
        // The list's style is the base style, digital listed as short.
        let length = match base {
            "long" => ListLength::Wide,
            "narrow" => ListLength::Narrow,
            _ => ListLength::Short,
        };
        let list = ListFormatter::try_new_unit(
            (&joining).into(),
            ListFormatterOptions::default().with_length(length),
        )
        .map_err(failure)?;
        Ok(DurationFormatter {
            styles: s,
            always,
            fractional: u8::try_from(fractional).ok(),
            units,
            digits,
            grouped,
            names: names.to_string(),
            separator,
            list,
        })
    }

    /// AddFractionalDigits, exactly: the fractional units after `unit` in units of 10^-9 of
    /// `unit`.
    fn fraction(&self, unit: usize, fields: &[i128; 10]) -> i128 {
        let mut total = 0i128;
        let mut scale = 1_000_000i128;
        for (k, field) in fields.iter().enumerate().skip(unit + 1) {
            if self.styles[k] != Style::Fractional {
                break;
            }
            total += field * scale;
            scale /= 1000;
        }
        total
    }

    /// A value in units of 10^-9, as a decimal truncated to the fraction digits asked
    /// (`fractionalDigits`, else at most nine with no trailing zeros).
    fn decimal(&self, nanos: i128) -> Decimal {
        let mut d = Decimal::from(nanos);
        d.multiply_pow10(-9);
        match self.fractional {
            Some(n) => {
                d.trunc(-(n as i16));
                d.absolute.pad_end(-(n as i16));
            }
            None => d.absolute.trim_end(),
        }
        d
    }

    /// The number parts of a digital field (hours, minutes or seconds).
    fn numeric(&self, unit: usize, mut value: Decimal, show_sign: bool, out: &mut Vec<Piece>) {
        if self.styles[unit] == Style::TwoDigit {
            value.absolute.pad_start(2);
        }
        if !show_sign {
            value.sign = Sign::None;
        }
        let parts = Parts::of(&self.digits.format(&value));
        for (kind, text) in parts.pieces(Nesting::Inner) {
            push_piece(kind, text, Some(UNITS[unit]), out);
        }
    }

    /// FormatNumericUnits: which of hours, minutes and seconds the digital run from `first`
    /// shows, each with its number's parts (the separators are placed by `partition`).
    fn numeric_units(
        &self,
        first: usize,
        fields: &[i128; 10],
        negative: bool,
        mut sign_shown: bool,
    ) -> Vec<(usize, Vec<Piece>)> {
        let mut out = Vec::new();
        let seconds = fields[SECOND] * 1_000_000_000 + self.fraction(SECOND, fields);
        let hours_formatted = first == HOUR && (fields[HOUR] != 0 || self.always[HOUR]);
        let seconds_formatted = seconds != 0 || self.always[SECOND];
        let minutes_formatted = (first == HOUR || first == MINUTE)
            && ((hours_formatted && seconds_formatted)
                || fields[MINUTE] != 0
                || self.always[MINUTE]);
        let signed = |v: i128| {
            let mut d = Decimal::from(v);
            if negative {
                d.sign = Sign::Negative;
            }
            d
        };
        if hours_formatted {
            let mut pieces = Vec::new();
            self.numeric(HOUR, signed(fields[HOUR]), sign_shown, &mut pieces);
            out.push((HOUR, pieces));
            sign_shown = false;
        }
        if minutes_formatted {
            let mut pieces = Vec::new();
            self.numeric(MINUTE, signed(fields[MINUTE]), sign_shown, &mut pieces);
            out.push((MINUTE, pieces));
            sign_shown = false;
        }
        if seconds_formatted {
            let mut d = self.decimal(seconds);
            if negative {
                d.sign = Sign::Negative;
            }
            let mut pieces = Vec::new();
            self.numeric(SECOND, d, sign_shown, &mut pieces);
            out.push((SECOND, pieces));
        }
        out
    }

    /// The digital run placed as V8 places it (measured on the reference): hours open a list
    /// element of their own; minutes join the element before with the separator when the
    /// hours are numeric (shown or not: `1 day:03:00`), else open one; seconds join whatever
    /// element comes before (`3 min:4`), and open one only when none does.
    fn place_numeric(&self, run: Vec<(usize, Vec<Piece>)>, elements: &mut Vec<Vec<Piece>>) {
        let clock = |s: Style| matches!(s, Style::Numeric | Style::TwoDigit);
        for (unit, pieces) in run {
            let join = match unit {
                HOUR => false,
                MINUTE => clock(self.styles[HOUR]) && !elements.is_empty(),
                _ => !elements.is_empty(),
            };
            match elements.last_mut() {
                Some(last) if join => {
                    last.push(Piece {
                        kind: "literal",
                        value: self.separator.clone(),
                        unit: None,
                    });
                    last.extend(pieces);
                }
                _ => elements.push(pieces),
            }
        }
    }

    /// A unit in words: the number's parts, and the pattern's text cut into the unit's name
    /// and the spacing around it (ICU trims white space off a unit field).
    ///
    /// The patterns are CLDR 48's (the units table: `ta` `{0} ம.நே.` where ICU4X's newer
    /// CLDR has `{0}ம.`), ICU4X's where the table has none.
    fn worded(&self, unit: usize, value: &Decimal) -> Vec<Piece> {
        let Some(Some(f)) = self.units.get(unit) else {
            return Vec::new();
        };
        let display = match self.styles[unit] {
            Style::Long => "long",
            Style::Narrow => "narrow",
            _ => "short",
        };
        let table =
            super::units::unit_affixes(&self.names, UNITS[unit], display, &value.to_string(), None);
        let parts = match table.as_deref() {
            Some([before, after]) => {
                let mut parts = Parts::default();
                parts.text.push_str(before);
                parts.push_parts(&Parts::of(&self.grouped.format(value)));
                parts.text.push_str(after);
                parts
            }
            // A plural's pattern without the number (`ar` `يومان`, two days).
            Some([word]) => {
                let mut parts = Parts::default();
                parts.text.push_str(word);
                parts
            }
            _ => Parts::of(&f.format_fixed_decimal(value)),
        };
        let mut out = Vec::new();
        let u = Some(UNITS[unit]);
        for (kind, text) in parts.pieces(Nesting::Inner) {
            if kind != "literal" {
                push_piece(kind, text, u, &mut out);
                continue;
            }
            let trimmed_start = text.trim_start();
            let lead = &text[..text.len() - trimmed_start.len()];
            let name = trimmed_start.trim_end();
            let trail = &trimmed_start[name.len()..];
            for (kind, piece) in [("literal", lead), ("unit", name), ("literal", trail)] {
                if !piece.is_empty() {
                    out.push(Piece {
                        kind,
                        value: piece.to_string(),
                        unit: u,
                    });
                }
            }
        }
        out
    }

    /// PartitionDurationFormatPattern over the ten signed fields.
    fn partition(&self, values: &[f64]) -> Vec<Piece> {
        let mut fields = [0i128; 10];
        for (i, v) in values.iter().take(10).enumerate() {
            fields[i] = exact(*v);
        }
        let negative = values.iter().any(|v| *v < 0.0);
        let mut elements: Vec<Vec<Piece>> = Vec::new();
        let mut sign_shown = true;
        for i in 0..10 {
            let style = self.styles[i];
            if matches!(style, Style::Numeric | Style::TwoDigit) {
                let run = self.numeric_units(i, &fields, negative, sign_shown);
                self.place_numeric(run, &mut elements);
                break;
            }
            let mut nanos = fields[i] * 1_000_000_000;
            let mut last = false;
            if (SECOND..=SECOND + 2).contains(&i)
                && self.styles.get(i + 1) == Some(&Style::Fractional)
            {
                nanos += self.fraction(i, &fields);
                last = true;
            }
            if nanos != 0 || self.always[i] {
                let mut d = if last {
                    self.decimal(nanos)
                } else {
                    Decimal::from(fields[i])
                };
                if sign_shown {
                    sign_shown = false;
                    if negative {
                        d.sign = Sign::Negative;
                    }
                }
                elements.push(self.worded(i, &d));
            }
            if last {
                break;
            }
        }
        self.list_parts(elements)
    }

    /// ListFormatParts: the elements joined by the locale's `unit` list pattern, each
    /// element's own parts kept.
    fn list_parts(&self, elements: Vec<Vec<Piece>>) -> Vec<Piece> {
        let texts: Vec<String> = elements
            .iter()
            .map(|e| e.iter().map(|p| p.value.as_str()).collect())
            .collect();
        let listed = Parts::of(&self.list.format(texts.iter().map(String::as_str)));
        let mut out = Vec::new();
        let mut next = elements.into_iter();
        for (kind, text) in listed.pieces(Nesting::Inner) {
            if kind == "element" {
                if let Some(e) = next.next() {
                    out.extend(e);
                }
            } else {
                out.push(Piece {
                    kind: "literal",
                    value: text,
                    unit: None,
                });
            }
        }
        out
    }
}

#[rquickjs::methods]
impl DurationFormatter {
    /// The parts of the duration whose ten signed fields are `values` (years first).
    pub fn parts<'js>(&self, ctx: Ctx<'js>, values: Vec<f64>) -> rquickjs::Result<Array<'js>> {
        let array = Array::new(ctx.clone())?;
        for (i, p) in self.partition(&values).into_iter().enumerate() {
            let o = Object::new(ctx.clone())?;
            put(&o, "type", p.kind)?;
            put(&o, "value", p.value)?;
            if let Some(u) = p.unit {
                put(&o, "unit", u)?;
            }
            put(&array, i as u32, o)?;
        }
        Ok(array)
    }
}
