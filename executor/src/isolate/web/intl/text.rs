//! The text services of `Intl` on ICU4X: plural rules, lists, relative time, collation,
//! segmentation, case mapping and display names. Each takes a resolved BCP 47 tag (with the
//! Unicode extension keywords that matter to it) and the options `intl.js` validated.

use std::cmp::Ordering;

use fixed_decimal::CompactDecimal;
use icu::collator::options::{AlternateHandling, CaseLevel, CollatorOptions, Strength};
use icu::collator::{Collator, CollatorBorrowed};
use icu::decimal::options::{CompactDecimalFormatterOptions, DecimalFormatterOptions};
use icu::decimal::{CompactDecimalFormatter, DecimalFormatter};
use icu::locale::{LanguageIdentifier, Locale};
use icu::plurals::PluralCategory;
use icu::segmenter::options::{SentenceBreakInvariantOptions, WordBreakInvariantOptions};
use icu::segmenter::{GraphemeClusterSegmenter, SentenceSegmenter, WordSegmenter};
use rquickjs::class::Trace;
use rquickjs::{Array, Ctx, JsLifetime, Object};

use super::number;
use super::parts::{Nesting, Parts, put};
use super::plurals::{Operands, Plurals};
use crate::isolate::text::Utf16;

fn locale(tag: &str) -> Locale {
    tag.parse().unwrap_or(Locale::UNKNOWN)
}

fn failure(what: impl std::fmt::Display) -> rquickjs::Error {
    rquickjs::Error::new_from_js_message("Intl", "ICU4X", what.to_string())
}

/// The locale whose plural rules a tag takes: its language and region, the script left out.
/// CLDR's plural rules are per language (a few per region, `pt-PT`), and ICU4X's data has
/// none under a script whose parent is the root (`sr-Latn`), where ICU reads `sr`'s.
pub(crate) fn plural_locale(tag: &str) -> Locale {
    let mut locale = locale(tag);
    locale.id.script = None;
    locale.extensions = Default::default();
    locale
}

/// An `Intl.PluralRules`' rules.
#[derive(Trace, JsLifetime)]
#[rquickjs::class(rename = "PluralSelector")]
pub(crate) struct PluralSelector {
    #[qjs(skip_trace)]
    rules: Plurals,
    /// The tag, for compact notation's exponent (the locale's compact patterns decide it).
    #[qjs(skip_trace)]
    tag: String,
}

pub(crate) fn category_name(c: PluralCategory) -> &'static str {
    match c {
        PluralCategory::Zero => "zero",
        PluralCategory::One => "one",
        PluralCategory::Two => "two",
        PluralCategory::Few => "few",
        PluralCategory::Many => "many",
        PluralCategory::Other => "other",
    }
}

impl PluralSelector {
    pub fn new(tag: &str, ordinal: bool) -> rquickjs::Result<Self> {
        let rules = Plurals::new(&plural_locale(tag), ordinal);
        Ok(PluralSelector {
            rules,
            tag: tag.to_string(),
        })
    }
}

#[rquickjs::methods]
impl PluralSelector {
    /// The category of `n` once rounded under the digit options `o`.
    pub fn select(&self, n: f64, o: Object<'_>) -> rquickjs::Result<&'static str> {
        if !n.is_finite() {
            return Ok("other");
        }
        let mut d = number::rounded(n, &o)?;
        // ICU4C's integer operand keeps the lowest 18 digits (DecimalQuantity::toLong): V8
        // selects 1e21 as an integer part of 0 (`fr`: "one", `it`: "other"), while `n` stays
        // the whole number (`ar`: "other", not "zero").
        let whole = d
            .absolute
            .to_string()
            .split('.')
            .next()
            .and_then(|i| i.parse::<u128>().ok());
        if !d.absolute.is_zero() && d.absolute.nonzero_magnitude_start() >= 18 {
            d.absolute.set_max_position(18);
        }
        // Compact notation selects on the number as shown, its compact exponent an operand
        // of its own (`fr`: 1.5 M is `many`, as 1.5c6).
        if o.get::<_, Option<String>>("notation")?.as_deref() == Some("compact")
            && !d.absolute.is_zero()
        {
            let prefs = (&locale(&self.tag)).into();
            let options = CompactDecimalFormatterOptions::default();
            let long = o.get::<_, Option<String>>("compactDisplay")?.as_deref() == Some("long");
            let f = if long {
                CompactDecimalFormatter::try_new_long(prefs, options)
            } else {
                CompactDecimalFormatter::try_new_short(prefs, options)
            }
            .map_err(failure)?;
            let exponent = f.compact_exponent_for_magnitude(d.absolute.nonzero_magnitude_start());
            if exponent > 0 {
                d.multiply_pow10(-i16::from(exponent));
                let compact = CompactDecimal::from_significand_and_exponent(d, exponent);
                let operands = Operands::new(&compact, None);
                return Ok(category_name(self.rules.category_for(&operands)));
            }
        }
        Ok(category_name(
            self.rules.category_for(&Operands::new(&d, whole)),
        ))
    }

    /// The category of a range.
    #[qjs(rename = "selectRange")]
    pub fn select_range(&self, a: f64, b: f64, o: Object<'_>) -> rquickjs::Result<&'static str> {
        // CLDR's range rules mostly answer the end's category.
        let _ = a;
        self.select(b, o)
    }

    /// The categories of the locale, in CLDR order (zero, one, two, few, many, other),
    /// separated by spaces (`intl.js` splits them: a string crosses into JavaScript without
    /// storing into an array a program may have tainted).
    pub fn categories(&self) -> String {
        self.rules
            .categories()
            .into_iter()
            .map(category_name)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// An `Intl.Collator`'s collator.
#[derive(Trace, JsLifetime)]
#[rquickjs::class(rename = "Comparer")]
pub(crate) struct Comparer {
    #[qjs(skip_trace)]
    collator: CollatorBorrowed<'static>,
}

impl Comparer {
    /// `tag` carries `-u-kn-` and `-u-kf-` (and `-u-co-`); `sensitivity` is ECMA-402's.
    pub fn new(tag: &str, sensitivity: &str, ignore_punctuation: bool) -> rquickjs::Result<Self> {
        let mut options = CollatorOptions::default();
        let (strength, case_level) = match sensitivity {
            "base" => (Strength::Primary, None),
            "accent" => (Strength::Secondary, None),
            "case" => (Strength::Primary, Some(CaseLevel::On)),
            _ => (Strength::Tertiary, None),
        };
        options.strength = Some(strength);
        options.case_level = case_level;
        // Set either way: a locale's own default (`th` shifts) yields to the option.
        options.alternate_handling = Some(if ignore_punctuation {
            AlternateHandling::Shifted
        } else {
            AlternateHandling::NonIgnorable
        });
        let collator = Collator::try_new((&locale(tag)).into(), options).map_err(failure)?;
        Ok(Comparer { collator })
    }
}

#[rquickjs::methods]
impl Comparer {
    /// -1, 0 or 1 as `a` sorts before, with or after `b`.
    pub fn compare(&self, Utf16(a): Utf16, Utf16(b): Utf16) -> i32 {
        match self.collator.compare_utf16(&a, &b) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }
    }
}

/// A list joined by the locale's pattern: `kind` conjunction, disjunction or unit; `style`
/// long, short or narrow; answered as parts (`element`s and `literal`s).
///
/// The patterns are CLDR 48's (the table's `ls:<type>`; ICU4X's compiled data is a newer
/// CLDR's), applied as ICU applies them: two items take the `2` pattern, more take `start`
/// for the first two, `middle` for each next and `end` for the last. Where a pattern is one
/// of the conjunctions ICU adapts to the next item's first sound, it is adapted:
/// [`contextual`].
pub(crate) fn list<'js>(
    ctx: &Ctx<'js>,
    tag: &str,
    kind: &str,
    style: &str,
    items: Vec<String>,
) -> rquickjs::Result<Array<'js>> {
    let parts = list_parts(tag, kind, style, &items)?;
    parts.to_js(ctx, Nesting::Inner)
}

/// The parts of [`list`].
fn list_parts(tag: &str, kind: &str, style: &str, items: &[String]) -> rquickjs::Result<Parts> {
    let width = match style {
        "short" => 's',
        "narrow" => 'n',
        _ => 'l',
    };
    let key = match kind {
        "disjunction" => "ls:or",
        "unit" => "ls:unit",
        _ => "ls:and",
    };
    let locale = super::naming_locale(tag);
    let table_tag = locale.to_string();
    let language = locale.id.language.as_str();
    let pattern = |field: &str| {
        // CLDR's short and narrow lists fall back to the long ones (`alias` in the XML).
        let widths: &[char] = match width {
            'n' => &['n', 's', 'l'],
            's' => &['s', 'l'],
            _ => &['l'],
        };
        widths
            .iter()
            .find_map(|w| super::units::entry(&table_tag, key, *w, field))
            .ok_or_else(|| failure(format!("no list pattern {key} {field} for {tag}")))
    };
    let element = icu::list::parts::ELEMENT;
    let mut parts = Parts::default();
    let Some(first) = items.first() else {
        return Ok(parts);
    };
    parts.push_part(first, element);
    for (i, item) in items.iter().enumerate().skip(1) {
        let field = match (items.len(), i) {
            (2, _) => "2",
            (_, 1) => "start",
            (n, i) if i == n - 1 => "end",
            _ => "middle",
        };
        let p = contextual(language, pattern(field)?, item);
        let (Some((before, rest)), true) = (p.split_once("{0}"), p.contains("{1}")) else {
            return Err(failure(format!("list pattern without places: {p}")));
        };
        let (between, after) = rest.split_once("{1}").unwrap_or((rest, ""));
        // The pattern's text before `{0}` goes before what is already joined.
        if !before.is_empty() {
            let mut joined = Parts::default();
            joined.text.push_str(before);
            joined.push_parts(&parts);
            parts = joined;
        }
        parts.text.push_str(between);
        parts.push_part(item, element);
        parts.text.push_str(after);
    }
    Ok(parts)
}

/// The pattern that joins `next` with what comes before it, adapted as ICU adapts three
/// conjunctions to the sound `next` begins with: Spanish `y` is `e` before an `i` sound
/// (`i…`, `hi…` but not `hia…`/`hie…`, which begin with a glide), Spanish `o` is `u` before
/// an `o` sound (`o…`, `ho…`, `8…`, `11` alone or before a space), and Hebrew's prefixed
/// `ו` takes a hyphen-minus before an item that does not begin in the Hebrew script.
fn contextual<'a>(language: &str, pattern: &'a str, next: &str) -> std::borrow::Cow<'a, str> {
    use std::borrow::Cow;
    let lower: Vec<char> = next.chars().take(3).flat_map(char::to_lowercase).collect();
    let at = |i: usize| lower.get(i).copied();
    match (language, pattern) {
        ("es", "{0} y {1}") => {
            let i_sound = at(0) == Some('i')
                || at(0) == Some('h') && at(1) == Some('i') && !matches!(at(2), Some('a' | 'e'));
            if i_sound {
                return Cow::Borrowed("{0} e {1}");
            }
        }
        ("es", "{0} o {1}") => {
            let eleven = next.starts_with("11") && matches!(next.chars().nth(2), None | Some(' '));
            let o_sound = matches!(at(0), Some('o' | '8'))
                || at(0) == Some('h') && at(1) == Some('o')
                || eleven;
            if o_sound {
                return Cow::Borrowed("{0} u {1}");
            }
        }
        ("he", "{0} ו{1}") => {
            let hebrew = |c: char| matches!(c, '\u{0591}'..='\u{05FF}' | '\u{FB1D}'..='\u{FB4F}');
            if next.chars().next().is_some_and(|c| !hebrew(c)) {
                return Cow::Borrowed("{0} ו-{1}");
            }
        }
        _ => {}
    }
    Cow::Borrowed(pattern)
}

/// `value` `unit`s from now in the locale's words: `style` long, short or narrow; `numeric`
/// always or auto. Answered as parts (the number's parts carry the unit in `intl.js`).
///
/// The words are CLDR 48's (the table's `rt:<unit>`; ICU4X's compiled data is a newer CLDR's:
/// `bn` `৩ সেকেন্ড আগে` where V8 says `পূর্বে`), chosen as ICU's `RelativeDateTimeFormatter`
/// chooses them: with `numeric: "auto"`, an offset within 1% of -2 … 2 takes the unit's own
/// word where the locale has one (`yesterday`, `now`; -0 as 0); otherwise the number, rounded
/// as ICU's default number format rounds (three fraction digits, half to even), goes into the
/// pattern of its tense (the sign, -0 past) and its plural.
pub(crate) fn relative<'js>(
    ctx: &Ctx<'js>,
    tag: &str,
    style: &str,
    numeric: &str,
    unit: &str,
    value: f64,
) -> rquickjs::Result<Array<'js>> {
    let locale = super::formatting_locale(tag);
    let table_tag = locale.to_string();
    let width = match style {
        "short" => 's',
        "narrow" => 'n',
        _ => 'l',
    };
    let key = format!("rt:{unit}");
    let entry = |field: &str| super::units::entry(&table_tag, &key, width, field);
    if numeric == "auto" && value > -2.1 && value < 2.1 {
        let hundredths = (value * 100.0).round() as i32;
        if hundredths % 100 == 0
            && let Some(word) = entry(&(hundredths / 100).to_string())
        {
            let mut parts = Parts::default();
            parts.text.push_str(word);
            return parts.to_js(ctx, Nesting::Inner);
        }
    }
    let past = value.is_sign_negative();
    let mut d = number::exact(value.abs());
    d.round(-3);
    d.absolute.trim_end();
    let plural = Plurals::new(&plural_locale(tag), false).category_for(&Operands::new(&d, None));
    let tense = if past { "past" } else { "future" };
    let pattern = entry(&format!("{tense}:{}", category_name(plural)))
        .or_else(|| entry(&format!("{tense}:other")))
        .ok_or_else(|| failure(format!("no relative time pattern for {unit} in {tag}")))?;
    let digits = DecimalFormatter::try_new((&locale).into(), DecimalFormatterOptions::default())
        .map_err(failure)?;
    let mut parts = Parts::default();
    // A plural's pattern without the number (`ar` `خلال شهرين`, in two months) is all literal.
    let Some((before, after)) = pattern.split_once("{0}") else {
        parts.text.push_str(pattern);
        return parts.to_js(ctx, Nesting::Inner);
    };
    parts.text.push_str(before);
    parts.push_parts(&Parts::of(&digits.format(&d)));
    parts.text.push_str(after);
    parts.to_js(ctx, Nesting::Inner)
}

/// The segments of `text` (UTF-16 code units) by `granularity`: an array of
/// `[start, isWordLike]` pairs, one per segment, in order (starts in code units).
pub(crate) fn segments<'js>(
    ctx: &Ctx<'js>,
    granularity: &str,
    text: Vec<u16>,
) -> rquickjs::Result<Array<'js>> {
    let out = Array::new(ctx.clone())?;
    let push = |i: usize, start: usize, word: Option<bool>| -> rquickjs::Result<()> {
        let pair = Array::new(ctx.clone())?;
        put(&pair, 0u32, start)?;
        match word {
            Some(w) => put(&pair, 1u32, w)?,
            None => put(&pair, 1u32, rquickjs::Undefined)?,
        }
        put(&out, i as u32, pair)
    };
    let mut n = 0;
    match granularity {
        "word" => {
            let seg = WordSegmenter::new_auto(WordBreakInvariantOptions::default());
            let mut it = seg.segment_utf16(&text);
            let mut prev = it.next().unwrap_or(0);
            while let Some(b) = it.next() {
                push(n, prev, Some(it.is_word_like()))?;
                n += 1;
                prev = b;
            }
        }
        "sentence" => {
            let seg = SentenceSegmenter::new(SentenceBreakInvariantOptions::default());
            let breaks: Vec<usize> = seg.segment_utf16(&text).collect();
            for w in breaks.windows(2) {
                push(n, w[0], None)?;
                n += 1;
            }
        }
        _ => {
            let seg = GraphemeClusterSegmenter::new();
            let breaks: Vec<usize> = seg.segment_utf16(&text).collect();
            for w in breaks.windows(2) {
                push(n, w[0], None)?;
                n += 1;
            }
        }
    }
    Ok(out)
}

/// `text` (UTF-16 code units) in upper (or lower) case by the rules of `tag`'s language
/// (Turkish dotted i…); a lone surrogate stays as it is, as on V8.
pub(crate) fn case(text: &[u16], tag: &str, upper: bool) -> Vec<u16> {
    let id: LanguageIdentifier = tag.parse().unwrap_or(LanguageIdentifier::UNKNOWN);
    let mapper = icu::casemap::CaseMapper::new();
    let map = |run: &str, out: &mut Vec<u16>| {
        let mapped = if upper {
            mapper.uppercase_to_string(run, &id)
        } else {
            mapper.lowercase_to_string(run, &id)
        };
        out.extend(mapped.encode_utf16());
    };
    let mut out = Vec::with_capacity(text.len());
    let mut run = String::new();
    for unit in char::decode_utf16(text.iter().copied()) {
        match unit {
            Ok(c) => run.push(c),
            Err(lone) => {
                map(&run, &mut out);
                run.clear();
                out.push(lone.unpaired_surrogate());
            }
        }
    }
    map(&run, &mut out);
    out
}

/// A name of the CLDR table under `unit` for `key`: CLDR's `alt-short` first for a short or
/// narrow style, else the plain one; None where the locale has none (or drops its parent's).
fn table_name(tag: &str, unit: &str, key: &str, short: bool) -> Option<&'static str> {
    let entry = |w: char| super::units::entry(tag, unit, w, key).filter(|n| *n != "∅∅∅");
    if short {
        entry('s').or_else(|| entry('l'))
    } else {
        entry('l')
    }
}

/// A territory's name in CLDR 48 as the reference's ICU data gives it: the short form
/// (`alt-short`: `UK`, `US`) for a short or narrow name, the plain one otherwise; whatever the
/// width, Hong Kong, Macao and Palestine by their short forms (`Hong Kong`, not `Hong Kong SAR
/// China`) and the Falklands by their variant (`Falkland Islands (Islas Malvinas)`), as
/// Chromium's ICU data names them; of the numeric areas only Latin America (`419`) has a
/// name there (`001` is `001`). None where the locale has no name for `code`.
pub(crate) fn region_name(tag: &str, code: &str, short: bool) -> Option<&'static str> {
    if code.is_empty() || (code.chars().any(|c| c.is_ascii_digit()) && code != "419") {
        return None;
    }
    let code = code.to_ascii_uppercase();
    let entry = |w: char| super::units::entry(tag, "rg", w, &code).filter(|n| *n != "∅∅∅");
    let chosen = match code.as_str() {
        "HK" | "MO" | "PS" => entry('s'),
        "FK" => entry('v'),
        _ if short => entry('s'),
        _ => None,
    };
    chosen.or_else(|| entry('l'))
}

/// A locale's name as the reference's ICU composes it from CLDR 48's names: the language's
/// name (its code where the reference's data has none: `aa (Djibouti)`; `root` for `und`),
/// or with `dialect` naming the name of the language with its one script or region where CLDR
/// has one (`British English`, `Traditional Chinese`; none for a tag with both, so
/// `zh-Hant-HK` is `Chinese (Traditional, Hong Kong)`); then its script, region and variants
/// in the locale's pattern and separator (`{0} ({1})`, `{0}, {1}`), a region by its display
/// name or, numeric, its code (`English (001)`), a variant by its code in capitals
/// (`Catalan (Spain, VALENCIA)`), parentheses inside a qualifier as brackets (`English (Cocos
/// [Keeling] Islands)`). None where nothing is named but the language, and it has no name, or,
/// without `substitute`, where any part has none.
/// `nameless` names no language but Punjabi and no script (Punjabi in Gurmukhi, which names
/// regions in English).
fn language_name(
    tag: &str,
    code: &str,
    short: bool,
    standard: bool,
    nameless: bool,
    substitute: bool,
) -> Option<String> {
    // A language subtag of five to eight letters is read through a stand-in (ICU4X parses
    // none) and has no name (`zzzzzzzz (Latin, United States)`).
    let long = super::long_language(code);
    let loc: Locale = match long {
        Some(l) => format!("{}{}", super::STAND_IN, &code[l.len()..])
            .parse()
            .ok()?,
        None => code.parse().ok()?,
    };
    let id = &loc.id;
    let names = |unit: &str, key: &str| {
        (!nameless)
            .then(|| table_name(tag, unit, key, short))
            .flatten()
    };
    let language = long.unwrap_or(id.language.as_str());
    let mut script = id.script.map(|s| s.as_str().to_string());
    let mut region = id.region.map(|r| r.as_str().to_string());
    // The dialect: the language with its one qualifier, which it then stands for.
    let mut name = None;
    let lone = match (&script, &region) {
        (Some(only), None) | (None, Some(only)) => Some(only),
        _ => None,
    };
    if !standard && let Some(only) = lone {
        name = names("lg", &format!("{language}-{only}"));
        if name.is_some() {
            script = None;
            region = None;
        }
    }
    let own = if language == "und" {
        Some("root")
    } else if nameless {
        // Its one name is its own language's, in Punjabi (`ਪੰਜਾਬੀ`).
        (language == "pa")
            .then(|| super::units::entry("pa", "lg", 'l', "pa"))
            .flatten()
    } else {
        names("lg", language)
    };
    // Whether a part is written as its code for want of a name; without `substitute`
    // (`fallback: "none"`) such a name is none at all, as ICU gives none.
    let mut substituted = language == "und";
    let mut qualifiers: Vec<String> = Vec::new();
    if let Some(s) = script {
        let named = names("scr", &s);
        substituted |= named.is_none();
        qualifiers.push(named.map_or(s.clone(), str::to_string));
    }
    if let Some(r) = region {
        let named = region_name(tag, &r, short);
        substituted |= named.is_none();
        qualifiers.push(named.map_or(r.clone(), str::to_string));
    }
    for variant in id.variants.iter() {
        substituted = true;
        qualifiers.push(variant.as_str().to_ascii_uppercase());
    }
    let name = match name.or(own) {
        Some(name) => name.to_string(),
        None if qualifiers.is_empty() => return None,
        None => {
            substituted = true;
            language.to_string()
        }
    };
    if substituted && !substitute {
        return None;
    }
    if qualifiers.is_empty() {
        return Some(name);
    }
    let field = |f: &str| super::units::entry(tag, "ldp", 'l', f);
    let pattern = field("pattern").unwrap_or("{0} ({1})");
    let separator = field("separator").unwrap_or("{0}, {1}");
    // The parentheses the pattern uses (ASCII, or full-width in `ja` and `zh`) become
    // brackets inside a qualifier; the other kind stays.
    let full_width = pattern.contains('（');
    let bracketed = qualifiers.iter().map(|q| {
        if full_width {
            q.replace('（', "［").replace('）', "］")
        } else {
            q.replace('(', "[").replace(')', "]")
        }
    });
    let joined = bracketed
        .reduce(|all, next| separator.replace("{0}", &all).replace("{1}", &next))
        .unwrap_or_default();
    Some(pattern.replace("{0}", &name).replace("{1}", &joined))
}

/// The locale's name for a language, region, script, currency, calendar or date field code
/// (None when it has none); `standard` names a language's qualifiers in parentheses
/// (`English (United Kingdom)`) where the default, dialect names, has a name of its own
/// (`British English`); `substitute` (ECMA-402's `fallback: "code"`) lets a language's name
/// write a part it has no name for as its code (`aa (Djibouti)`, `English (001)`).
pub(crate) fn display_name(
    tag: &str,
    kind: &str,
    style: &str,
    code: &str,
    standard: bool,
    substitute: bool,
) -> Option<String> {
    use icu_experimental::displaynames::multi::{
        LanguageDisplayNames, LocaleDisplayNamesFormatter, RegionDisplayNames, ScriptDisplayNames,
    };
    use icu_experimental::displaynames::{DisplayNamesOptions, LanguageDisplay, Style};
    let prefs = (&super::naming_locale(tag)).into();
    let mut options = DisplayNamesOptions::default();
    // ECMA-402's `long` is CLDR's plain name; ICU4X's `Long` is CLDR's `alt="long"` variant
    // (`zh` → "Mandarin Chinese" where V8 says "Chinese").
    options.style = match style {
        "short" => Some(Style::Short),
        "narrow" => Some(Style::Narrow),
        _ => None,
    };
    if standard {
        options.language_display = LanguageDisplay::Standard;
    }
    let provider = &icu_experimental::provider::Baked;
    match kind {
        "region" => {
            // CLDR 48's names where the table has the locale's language, as the reference
            // chooses among them (see `region_name`).
            let table_tag = super::naming_locale(tag).to_string();
            if super::units::has_locale(&table_tag) {
                let short = matches!(style, "short" | "narrow");
                return region_name(&table_tag, code, short).map(str::to_string);
            }
            let f = RegionDisplayNames::try_new_unstable(provider, prefs, options).ok()?;
            f.of(code.parse().ok()?).map(str::to_string)
        }
        "script" => {
            // Punjabi in Gurmukhi names in English elsewhere, but its scripts have no names
            // at all on the reference (`Latn` in `pa-IN`, measured).
            if super::is_gurmukhi_punjabi(&super::naming_locale(tag).id)
                || super::is_gurmukhi_punjabi(&locale(tag).id)
            {
                return None;
            }
            // CLDR 48's names where the table has the locale's language (ICU4X's compiled
            // data is a newer CLDR's: `bn` `লাতিন` where the reference says `ল্যাটিন`).
            let table_tag = super::naming_locale(tag).to_string();
            if super::units::has_locale(&table_tag) {
                let short = matches!(style, "short" | "narrow");
                return table_name(&table_tag, "scr", code, short).map(str::to_string);
            }
            let f = ScriptDisplayNames::try_new_unstable(provider, prefs, options).ok()?;
            f.of(code.parse().ok()?).map(str::to_string)
        }
        "language" => {
            // CLDR 48's names where the table has the locale's language, composed as the
            // reference composes them (see `language_name`).
            // Punjabi in Gurmukhi names no language and no script on the reference, and its
            // regions in English (`ar (Palestine)`, `az (Arab, Iraq)`, measured).
            let table_tag = super::naming_locale(tag).to_string();
            if super::units::has_locale(&table_tag) {
                let short = matches!(style, "short" | "narrow");
                let nameless = super::is_gurmukhi_punjabi(&locale(tag).id);
                return language_name(&table_tag, code, short, standard, nameless, substitute);
            }
            // A language subtag of five to eight letters (`zzzzzzzz-Latn-US`) has no name: the
            // rest of the tag is named around the subtag itself, as V8 names it
            // (`zzzzzzzz (Latin, United States)`), or there is none at all.
            if let Some(language) = super::long_language(code) {
                let stand_in = format!("{}{}", super::STAND_IN, &code[language.len()..]);
                let loc: Locale = stand_in.parse().ok()?;
                if loc.id.script.is_none() && loc.id.region.is_none() && loc.id.variants.is_empty()
                {
                    return None;
                }
                let f =
                    LocaleDisplayNamesFormatter::try_new_unstable(provider, prefs, options).ok()?;
                let named = f.of(&loc).into_owned();
                let names =
                    LanguageDisplayNames::try_new_unstable(provider, prefs, options).ok()?;
                let own = names.of(loc.id.language).unwrap_or(super::STAND_IN);
                return named
                    .strip_prefix(own)
                    .map(|rest| locale_pattern(tag, &format!("{language}{rest}")));
            }
            let loc: Locale = code.parse().ok()?;
            if loc.id.script.is_none() && loc.id.region.is_none() && loc.id.variants.is_empty() {
                let f = LanguageDisplayNames::try_new_unstable(provider, prefs, options).ok()?;
                return f.of(loc.id.language).map(str::to_string);
            }
            let f = LocaleDisplayNamesFormatter::try_new_unstable(provider, prefs, options).ok()?;
            Some(locale_pattern(tag, &f.of(&loc)))
        }
        "currency" => {
            // CLDR's currency name from the reference's release, in every style (measured on
            // the reference: `short` and `narrow` name the currency as `long` does).
            let tag = super::naming_locale(tag).to_string();
            super::units::entry(&tag, &format!("${code}"), 'l', "name").map(str::to_string)
        }
        "calendar" => {
            let tag = super::naming_locale(tag).to_string();
            super::units::entry(&tag, "ca", 'l', code).map(str::to_string)
        }
        "dateTimeField" => {
            // CLDR 48's field names, by ECMA-402's field (the fields ICU's date pattern
            // generator names: `weekOfYear` is CLDR's `week`, `timeZoneName` its `zone`).
            let field = match code {
                "weekOfYear" => "week",
                "dayPeriod" => "dayperiod",
                "timeZoneName" => "zone",
                other => other,
            };
            let tag = super::naming_locale(tag).to_string();
            let widths: &[char] = match style {
                "narrow" => &['n', 's', 'l'],
                "short" => &['s', 'l'],
                _ => &['l'],
            };
            widths
                .iter()
                .find_map(|w| super::units::entry(&tag, "dtf", *w, field))
                .map(str::to_string)
        }
        _ => None,
    }
}

/// A locale's name as ICU4X composes it (`name (qualifier, qualifier)`, a fixed pattern) put
/// into the locale's own CLDR 48 patterns where they differ (`ko` `{0}({1})`:
/// `중국어(번체)`; `ar` separates qualifiers with `، `), as ICU composes it.
fn locale_pattern(tag: &str, named: &str) -> String {
    let table_tag = super::naming_locale(tag).to_string();
    let field = |f: &str| super::units::entry(&table_tag, "ldp", 'l', f);
    let pattern = field("pattern").unwrap_or("{0} ({1})");
    let separator = field("separator").unwrap_or("{0}, {1}");
    if pattern == "{0} ({1})" && separator == "{0}, {1}" {
        return named.to_string();
    }
    let Some((name, rest)) = named.split_once(" (") else {
        return named.to_string();
    };
    let Some(inner) = rest.strip_suffix(')') else {
        return named.to_string();
    };
    let mut each = inner.split(", ");
    let first = each.next().unwrap_or_default().to_string();
    let qualifiers = each.fold(first, |joined, q| {
        separator.replacen("{0}", &joined, 1).replacen("{1}", q, 1)
    });
    pattern
        .replacen("{0}", name, 1)
        .replacen("{1}", &qualifiers, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(tag: &str, kind: &str, style: &str, items: &[&str]) -> String {
        let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
        list_parts(tag, kind, style, &items).expect("a list").text
    }

    #[test]
    fn language_names_are_composed_as_the_reference_composes_them() {
        let name = |tag: &str, code: &str, substitute: bool| {
            display_name(tag, "language", "long", code, false, substitute)
        };
        assert_eq!(name("en", "aa", true), None);
        assert_eq!(name("en", "aa-DJ", true).as_deref(), Some("aa (Djibouti)"));
        assert_eq!(name("en", "aa-DJ", false), None);
        assert_eq!(
            name("en", "zh-Hant-HK", true).as_deref(),
            Some("Chinese (Traditional, Hong Kong)")
        );
        assert_eq!(
            name("en", "zh-Hant", true).as_deref(),
            Some("Traditional Chinese")
        );
        assert_eq!(
            name("en", "en-CC", true).as_deref(),
            Some("English (Cocos [Keeling] Islands)")
        );
        assert_eq!(name("en", "en-001", true).as_deref(), Some("English (001)"));
        assert_eq!(name("en", "en-001", false), None);
        assert_eq!(
            name("en", "ca-ES-valencia", true).as_deref(),
            Some("Catalan (Spain, VALENCIA)")
        );
        assert_eq!(
            name("pa-IN", "ar-PS", true).as_deref(),
            Some("ar (Palestine)")
        );
    }

    #[test]
    fn region_names_are_the_references_choices_among_cldr_48s() {
        assert_eq!(region_name("en", "GB", false), Some("United Kingdom"));
        assert_eq!(region_name("en", "GB", true), Some("UK"));
        assert_eq!(region_name("en", "HK", false), Some("Hong Kong"));
        assert_eq!(
            region_name("en", "FK", true),
            Some("Falkland Islands (Islas Malvinas)")
        );
        assert_eq!(region_name("en", "419", false), Some("Latin America"));
        assert_eq!(region_name("en", "001", false), None);
        assert_eq!(region_name("de", "us", true), Some("USA"));
    }

    #[test]
    fn lists_take_cldr_48s_patterns_by_type_and_style() {
        assert_eq!(
            joined("en-US", "conjunction", "long", &["a", "b", "c"]),
            "a, b, and c"
        );
        assert_eq!(
            joined("en-US", "disjunction", "long", &["a", "b"]),
            "a or b"
        );
        assert_eq!(
            joined("en-US", "conjunction", "short", &["a", "b", "c"]),
            "a, b, & c"
        );
        assert_eq!(joined("en-US", "unit", "narrow", &["a", "b", "c"]), "a b c");
        assert_eq!(joined("en-US", "unit", "long", &["a"]), "a");
        assert_eq!(joined("en-US", "unit", "long", &[]), "");
        // Punjabi in Gurmukhi lists in English, as it names.
        assert_eq!(
            joined("pa-IN", "conjunction", "long", &["a", "b"]),
            "a and b"
        );
    }

    #[test]
    fn hebrew_and_takes_a_hyphen_minus_before_a_non_hebrew_item() {
        // intl seed 3: `new Intl.ListFormat("he-IL", {style: "short"})` on the reference.
        assert_eq!(
            joined("he-IL", "conjunction", "short", &["a", "b", "c"]),
            "a, b ו-c"
        );
        assert_eq!(joined("he", "conjunction", "long", &["א", "ב"]), "א וב");
        assert_eq!(joined("he", "conjunction", "long", &["א", "1"]), "א ו-1");
    }

    #[test]
    fn spanish_conjunctions_follow_the_next_sound() {
        assert_eq!(
            joined("es", "conjunction", "long", &["a", "Iván"]),
            "a e Iván"
        );
        assert_eq!(
            joined("es", "conjunction", "long", &["a", "hilo"]),
            "a e hilo"
        );
        assert_eq!(
            joined("es", "conjunction", "long", &["a", "hielo"]),
            "a y hielo"
        );
        assert_eq!(
            joined("es", "conjunction", "long", &["a", "b", "isla"]),
            "a, b e isla"
        );
        assert_eq!(
            joined("es", "disjunction", "long", &["a", "ocho"]),
            "a u ocho"
        );
        assert_eq!(
            joined("es", "disjunction", "long", &["a", "Hoy"]),
            "a u Hoy"
        );
        assert_eq!(joined("es", "disjunction", "long", &["7", "8"]), "7 u 8");
        assert_eq!(
            joined("es", "disjunction", "long", &["10", "11"]),
            "10 u 11"
        );
        assert_eq!(
            joined("es", "disjunction", "long", &["10", "11 h"]),
            "10 u 11 h"
        );
        assert_eq!(
            joined("es", "disjunction", "long", &["10", "110"]),
            "10 o 110"
        );
        assert_eq!(joined("es", "disjunction", "long", &["a", "b"]), "a o b");
    }

    #[test]
    fn display_names_take_cldr_48s_scripts_and_locale_patterns() {
        // intl seeds 3 and 41: the reference's answers.
        let name =
            |tag: &str, kind: &str, code: &str| display_name(tag, kind, "long", code, false, true);
        assert_eq!(
            name("ko-KR", "language", "zh-Hant").as_deref(),
            Some("중국어(번체)")
        );
        assert_eq!(name("bn-BD", "script", "Latn").as_deref(), Some("ল্যাটিন"));
        assert_eq!(name("pa-IN", "script", "Latn"), None);
        assert_eq!(name("en-US", "script", "Latn").as_deref(), Some("Latin"));
        assert_eq!(
            display_name("de-DE", "dateTimeField", "short", "month", false, true).as_deref(),
            Some("Mon.")
        );
        assert_eq!(
            display_name("en-US", "dateTimeField", "long", "dayPeriod", false, true).as_deref(),
            Some("AM/PM")
        );
        assert_eq!(
            display_name("en-US", "language", "long", "en-GB", true, true).as_deref(),
            Some("English (United Kingdom)")
        );
        assert_eq!(
            display_name("en-US", "language", "long", "en-GB", false, true).as_deref(),
            Some("British English")
        );
        assert_eq!(locale_pattern("ar", "a (b, c)"), "a (b، c)");
        assert_eq!(locale_pattern("ko", "a (b, c)"), "a(b, c)");
        assert_eq!(locale_pattern("de", "a (b, c)"), "a (b, c)");
    }
}
