//! The words around a number in `Intl.NumberFormat`'s unit style, from CLDR's unit patterns:
//! every ECMA-402 sanctioned unit and every `X-per-Y` of two of them, in every width
//! (long, short, narrow) and plural category, as ICU composes them.
//!
//! ICU4X's compiled data names five unit categories only (length, mass, volume, area,
//! duration), so the patterns come from CLDR's own JSON release, the one the reference's
//! ICU carries: `units.data.z`, made by the `unit_data` example (its doc and `docs/intl.md`
//! give the command and the input versions). The table is inflated the first time a unit is
//! formatted; preparing a sandbox never touches it. Plural categories come from ICU4X.
//!
//! The same table holds CLDR's currency and percent patterns and the currencies' symbols and
//! names, read through [`entry`] by the number formatter.
//!
//! An `X-per-Y` unit is composed as ICU's long-name handler does: a unit CLDR names on its
//! own (`kilometer-per-hour`) keeps its own patterns; otherwise the numerator's pattern for
//! the number's plural goes into the denominator's per-unit pattern (`{0}/h`), or, lacking
//! one, into the locale's compound per pattern (`{0}/{1}`) with the denominator's singular
//! name (its `one` pattern less the placeholder).

use std::collections::HashMap;
use std::io::Read;
use std::sync::OnceLock;

use fixed_decimal::{Decimal, Sign};
use icu::locale::{LanguageIdentifier, Locale, LocaleExpander};
use icu::plurals::{PluralRules, PluralRulesWithRanges};

use super::text::{category_name, plural_locale};

/// CLDR's unit patterns, compressed (see the module doc).
const DATA: &[u8] = include_bytes!("units.data.z");

/// One CLDR locale's patterns that differ from its parent's.
struct Block {
    parent: &'static str,
    entries: HashMap<(&'static str, char, &'static str), &'static str>,
}

struct Table {
    blocks: HashMap<&'static str, Block>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut text = String::new();
        // The table is part of the binary; a failure here is a build defect, answered as
        // no data (every unit then formats as its bare identifier).
        let _ = flate2::read::ZlibDecoder::new(DATA).read_to_string(&mut text);
        // The inflated table lives as long as the process, like the compressed one.
        let text: &'static str = Box::leak(text.into_boxed_str());
        parse(text)
    })
}

fn parse(text: &'static str) -> Table {
    let mut blocks = HashMap::new();
    let mut current: Option<(&'static str, Block)> = None;
    for line in text.lines().skip(1) {
        if let Some(head) = line.strip_prefix('=') {
            if let Some((name, block)) = current.take() {
                blocks.insert(name, block);
            }
            let (name, parent) = head.split_once('\t').unwrap_or((head, ""));
            let block = Block {
                parent,
                entries: HashMap::new(),
            };
            current = Some((name, block));
            continue;
        }
        let mut fields = line.splitn(4, '\t');
        let (Some(unit), Some(width), Some(field), Some(pattern)) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let width = width.chars().next().unwrap_or('l');
        if let Some((_, block)) = current.as_mut() {
            block.entries.insert((unit, width, field), pattern);
        }
    }
    if let Some((name, block)) = current.take() {
        blocks.insert(name, block);
    }
    Table { blocks }
}

/// The CLDR release the table was made from (its header line).
#[cfg(test)]
fn release() -> String {
    let mut text = String::new();
    let _ = flate2::read::ZlibDecoder::new(DATA).read_to_string(&mut text);
    text.lines().next().unwrap_or_default().to_string()
}

/// The CLDR locale whose patterns a tag takes: the tag itself, its likely
/// language-script-region, then its language-script, language-region and language.
fn cldr_locale(id: &LanguageIdentifier) -> &'static str {
    let blocks = &table().blocks;
    let mut max = id.clone();
    LocaleExpander::new_extended().maximize(&mut max);
    let language = id.language.as_str();
    let mut candidates = vec![
        LanguageIdentifier::from((id.language, id.script, id.region)).to_string(),
        max.to_string(),
    ];
    if let Some(script) = max.script {
        candidates.push(format!("{language}-{script}"));
    }
    if let Some(region) = id.region {
        candidates.push(format!("{language}-{region}"));
    }
    candidates.push(language.to_string());
    for c in candidates {
        if let Some((name, _)) = blocks.get_key_value(c.as_str()) {
            return name;
        }
    }
    "und"
}

/// A pattern of `locale` (or the nearest ancestor that has it).
fn lookup(locale: &'static str, unit: &str, width: char, field: &str) -> Option<&'static str> {
    let blocks = &table().blocks;
    let mut name = locale;
    while let Some(block) = blocks.get(name) {
        if let Some(p) = block.entries.get(&(unit, width, field)) {
            return Some(p);
        }
        if block.parent.is_empty() {
            break;
        }
        name = block.parent;
    }
    None
}

/// A unit's pattern for a plural category, CLDR's `other` standing in for a missing one.
fn plural_pattern(
    locale: &'static str,
    unit: &str,
    width: char,
    plural: &str,
) -> Option<&'static str> {
    lookup(locale, unit, width, plural).or_else(|| lookup(locale, unit, width, "other"))
}

/// The pattern with `{0}` for the number: a unit of the table, or `X-per-Y` composed.
fn pattern(locale: &'static str, unit: &str, width: char, plural: &str) -> Option<String> {
    if let Some(p) = plural_pattern(locale, unit, width, plural) {
        return Some(p.to_string());
    }
    let (numerator, denominator) = unit.split_once("-per-")?;
    let top = plural_pattern(locale, numerator, width, plural)?;
    if let Some(per) = lookup(locale, denominator, width, "per") {
        return Some(per.replace("{0}", top));
    }
    let compound = lookup(locale, "per", width, "pattern")?;
    let name = plural_pattern(locale, denominator, width, "one")?
        .replace("{0}", "")
        .trim()
        .to_string();
    Some(compound.replace("{1}", &name).replace("{0}", top))
}

/// The words around a number of `unit` for `Intl.NumberFormat`'s unit style: `[before,
/// after]` the number in `tag`'s pattern for `display` (long, short, narrow) and the plural
/// of `digits` (the formatted number's value in ASCII digits, as rounded: `1.00` is plural
/// where `1` is not), or the words alone for a pattern without the number (Arabic's one
/// year, `سنة`); None for a unit the table lacks. With `end` (a range's end, in the same
/// form), the plural is the range's, as CLDR's plural ranges resolve the two.
pub(crate) fn unit_affixes(
    tag: &str,
    unit: &str,
    display: &str,
    digits: &str,
    end: Option<&str>,
) -> Option<Vec<String>> {
    let width = match display {
        "long" => 'l',
        "narrow" => 'n',
        _ => 's',
    };
    let locale: Locale = tag.parse().unwrap_or(Locale::UNKNOWN);
    let decimal = |digits: &str| -> Option<Decimal> {
        let mut value: Decimal = digits.trim_start_matches('-').parse().ok()?;
        value.sign = Sign::None;
        Some(value)
    };
    let start = decimal(digits)?;
    let prefs = (&plural_locale(tag)).into();
    let plural = match end.and_then(decimal) {
        Some(end) => PluralRulesWithRanges::try_new_cardinal(prefs)
            .map(|rules| category_name(rules.category_for_range(&start, &end)))
            .unwrap_or("other"),
        None => PluralRules::try_new_cardinal(prefs)
            .map(|rules| category_name(rules.category_for(&start)))
            .unwrap_or("other"),
    };
    let pattern = pattern(cldr_locale(&locale.id), unit, width, plural)?;
    Some(match pattern.split_once("{0}") {
        Some((before, after)) => vec![before.to_string(), after.to_string()],
        None => vec![pattern],
    })
}

/// The locale's number range pattern (`{0}–{1}`, `{0} - {1}` in pt-PT, `{0}~{1}` in
/// Korean) for a numbering system, the Latin one's standing in, as ICU reads it.
pub(crate) fn range_pattern(tag: &str, system: &str) -> String {
    let locale: Locale = tag.parse().unwrap_or(Locale::UNKNOWN);
    let cldr = cldr_locale(&locale.id);
    lookup(cldr, "range", 'l', system)
        .or_else(|| lookup(cldr, "range", 'l', "latn"))
        .unwrap_or("{0}–{1}")
        .to_string()
}

/// An entry of the table for `tag`'s CLDR locale or its nearest ancestor that has it: the
/// number patterns (`¤`, `%`, `ns`) and currency names (`$<CODE>`) the generator's doc lists.
/// For a tag naming a calendar the table holds for its locale (`th-u-ca-buddhist`,
/// `fa-u-ca-persian`), a date entry (names, patterns, the pattern generator's and interval
/// data) is that calendar's, the Gregorian one where the calendar has the same (see
/// [`calendar_of`]).
pub(crate) fn entry(tag: &str, unit: &str, width: char, field: &str) -> Option<&'static str> {
    let locale: Locale = tag.parse().unwrap_or(Locale::UNKNOWN);
    let cldr = cldr_locale(&locale.id);
    if let Some(calendar) = calendar_of(&locale, cldr, unit) {
        let unit = format!("{unit}@{calendar}");
        if let Some(found) = lookup(cldr, &unit, width, field) {
            return (found != "∅∅∅").then_some(found);
        }
    }
    lookup(cldr, unit, width, field)
}

/// The units whose entries a calendar other than the Gregorian replaces.
const CALENDAR_UNITS: [&str; 6] = ["dn", "dp", "af", "afa", "di", "dt"];

/// The calendar whose entries `unit` takes for `locale` (CLDR locale `cldr`): the tag's
/// `-u-ca-` calendar where the table holds it for the locale (the generator's `cal` entry;
/// its lines are `<unit>@<calendar>`, `∅∅∅` where the calendar lacks a Gregorian entry);
/// None for the Gregorian calendar's entries.
fn calendar_of(locale: &Locale, cldr: &'static str, unit: &str) -> Option<String> {
    if !CALENDAR_UNITS.contains(&unit) {
        return None;
    }
    let ca = icu::locale::extensions::unicode::key!("ca");
    let calendar = locale.extensions.unicode.keywords.get(&ca)?.to_string();
    lookup(cldr, "cal", 'l', &calendar)?;
    Some(calendar)
}

/// Whether the table holds `calendar`'s data (`buddhist`, `persian`) for `tag`'s locale.
pub(crate) fn has_calendar(tag: &str, calendar: &str) -> bool {
    let locale: Locale = tag.parse().unwrap_or(Locale::UNKNOWN);
    lookup(cldr_locale(&locale.id), "cal", 'l', calendar).is_some()
}

/// Whether the table has a CLDR locale of `tag`'s language (not only the root's entries).
pub(crate) fn has_locale(tag: &str) -> bool {
    let locale: Locale = tag.parse().unwrap_or(Locale::UNKNOWN);
    cldr_locale(&locale.id) != "und"
}

/// Every entry of one `unit` and `width` for `tag`'s CLDR locale, its own and the ones it
/// inherits from its ancestors (its own first in priority: a field appears once, with the
/// nearest locale's pattern), sorted by field in byte order, as ICU's resource tables are;
/// in the tag's calendar as [`entry`] reads it.
pub(crate) fn entries(tag: &str, unit: &str, width: char) -> Vec<(&'static str, &'static str)> {
    let locale: Locale = tag.parse().unwrap_or(Locale::UNKNOWN);
    let cldr = cldr_locale(&locale.id);
    let mut found = chain_entries(cldr, unit, width);
    if let Some(calendar) = calendar_of(&locale, cldr, unit) {
        for (field, pattern) in chain_entries(cldr, &format!("{unit}@{calendar}"), width) {
            found.insert(field, pattern);
        }
        found.retain(|_, pattern| *pattern != "∅∅∅");
    }
    found.into_iter().collect()
}

/// The entries of one `unit` and `width` along the chain from `cldr`, the nearest first.
fn chain_entries(
    cldr: &'static str,
    unit: &str,
    width: char,
) -> std::collections::BTreeMap<&'static str, &'static str> {
    let blocks = &table().blocks;
    let mut found: std::collections::BTreeMap<&'static str, &'static str> = Default::default();
    let mut name = cldr;
    while let Some(block) = blocks.get(name) {
        for (&(u, w, field), &pattern) in &block.entries {
            if u == unit && w == width {
                found.entry(field).or_insert(pattern);
            }
        }
        if block.parent.is_empty() {
            break;
        }
        name = block.parent;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(tag: &str, unit: &str, display: &str, digits: &str) -> Vec<String> {
        unit_affixes(tag, unit, display, digits, None).expect("a unit of the table")
    }

    #[test]
    fn calendar_entries_fall_back_to_the_gregorian_ones() {
        // The Buddhist calendar's own interval fallback and availableFormats.
        assert_eq!(
            entry("th-u-ca-buddhist", "dt", 'l', "fallback"),
            Some("{0} - {1}")
        );
        assert_eq!(entry("th", "dt", 'l', "fallback"), Some("{0} – {1}"));
        assert_eq!(
            entry("th-TH-u-ca-buddhist", "dn", 'p', "date-long"),
            Some("d MMMM y")
        );
        assert_eq!(entry("th-TH", "dn", 'p', "date-long"), Some("d MMMM G y"));
        // A Gregorian skeleton the calendar lacks is none; a shared datum is the Gregorian.
        assert_eq!(entry("th-u-ca-buddhist", "af", 'l', "yMd"), None);
        assert!(entry("th", "af", 'l', "yMd").is_some());
        assert_eq!(
            entry("th-u-ca-buddhist", "dn", 'p', "time-short"),
            Some("HH:mm")
        );
        let skeletons: Vec<_> = entries("th-u-ca-buddhist", "af", 'l')
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert!(skeletons.contains(&"yyyyMd") && !skeletons.contains(&"yMd"));
        // The atTime glue stays the Gregorian one; other locales keep the Gregorian data.
        assert_eq!(
            entry("fa-u-ca-persian", "dn", 'p', "glue-at-long"),
            Some("{1} ساعت {0}")
        );
        assert_eq!(
            entry("fa-AF-u-ca-persian", "dn", 'p', "date-full"),
            Some("y MMMM d, EEEE")
        );
        assert_eq!(
            entry("en-u-ca-buddhist", "dt", 'l', "fallback"),
            entry("en", "dt", 'l', "fallback")
        );
        assert!(has_calendar("fa-IR", "persian") && !has_calendar("en", "persian"));
    }

    #[test]
    fn the_table_is_cldr_48() {
        assert_eq!(release(), "cldr 48.0.0");
    }

    #[test]
    fn simple_units_take_the_locale_and_plural() {
        assert_eq!(words("fr-FR", "liter", "long", "3"), ["", "\u{a0}litres"]);
        assert_eq!(words("en-US", "liter", "long", "1"), ["", " liter"]);
        assert_eq!(words("en-US", "liter", "long", "1.00"), ["", " liters"]);
        assert_eq!(words("ko-KR", "kilogram", "long", "10"), ["", "킬로그램"]);
        // Serbian in Latin script takes Serbian's plural rules.
        assert_eq!(words("sr-Latn-RS", "minute", "long", "1"), ["", " minut"]);
    }

    #[test]
    fn currencies_percent_and_day_periods_are_cldr_48s() {
        assert_eq!(entry("it-IT", "$USD", 's', "symbol"), Some("USD"));
        assert_eq!(entry("en-US", "$AUD", 's', "symbol"), Some("A$"));
        assert_eq!(
            entry("en-IN", "¤", 'l', "latn:standard"),
            Some("¤#,##,##0.00")
        );
        assert_eq!(entry("de-AT", "¤", 'l', "latn:group"), Some("."));
        assert_eq!(entry("fa", "%", 'l', "arabext:sign"), Some("٪"));
        assert_eq!(entry("en-GB", "dp", 'r', "noon"), Some("@720"));
        assert_eq!(entry("en", "dp", 'l', "night1"), Some("at night"));
        assert_eq!(entry("ja", "nu", 'l', "ahom"), Some("𑜰𑜱𑜲𑜳𑜴𑜵𑜶𑜷𑜸𑜹"));
        assert_eq!(
            entry("en", "ca", 'l', "gregory"),
            Some("Gregorian Calendar")
        );
    }

    #[test]
    fn per_units_are_composed_as_icu_does() {
        // A unit of its own in CLDR.
        assert_eq!(
            words("de-DE", "kilometer-per-hour", "short", "50"),
            ["", " km/h"]
        );
        // The denominator's per-unit pattern.
        assert_eq!(
            words("en-US", "megabyte-per-second", "short", "5"),
            ["", " MB/s"]
        );
        // The compound pattern with the denominator's singular name.
        assert_eq!(
            words("en-US", "gigabyte-per-day", "long", "2"),
            ["", " gigabytes per day"]
        );
    }

    #[test]
    fn ranges_take_the_plural_range_and_the_locale_pattern() {
        // Arabic: 3 (few) to 26 (many) is many.
        assert_eq!(
            unit_affixes("ar", "fluid-ounce", "short", "3", Some("26")).unwrap(),
            ["", " أونصة س"]
        );
        assert_eq!(range_pattern("pt-PT", "latn"), "{0} - {1}");
        assert_eq!(range_pattern("ko-KR", "latn"), "{0}~{1}");
        assert_eq!(range_pattern("ar-EG", "arab"), "{0}–{1}");
    }

    #[test]
    fn regional_locales_inherit_their_parents_patterns() {
        assert_eq!(
            words("de-AT", "kilometer", "long", "2"),
            words("de", "kilometer", "long", "2")
        );
        assert_eq!(
            words("zh-TW", "kilogram", "long", "2"),
            words("zh-Hant", "kilogram", "long", "2")
        );
    }
}
