//! Generates `src/isolate/web/intl/units.data.z`, the CLDR unit patterns behind
//! `Intl.NumberFormat`'s unit style and the number range patterns behind `formatRange`, from
//! CLDR's JSON release (the npm packages `cldr-units-full`, `cldr-numbers-full`,
//! `cldr-core`, `cldr-dates-full`, `cldr-localenames-full` and, optionally, `cldr-misc-full`, the release the reference's ICU carries; the command and versions are in
//! `docs/intl.md`):
//!
//! ```text
//! cargo run -p codemode-executor --example unit_data -- UNITS_DIR NUMBERS_DIR CORE_DIR DATES_DIR NAMES_DIR [MISC_DIR [CALENDAR_DIR...]] OUT
//! ```
//!
//! The optional calendar directories are the unpacked `cldr-cal-buddhist-full` and
//! `cldr-cal-persian-full` (48.0.0, from the cldr-json repository's tag), written as
//! `<unit>@<calendar>` lines (see [`other_calendar`]).
//!
//! The directories are the unpacked packages (`npm pack cldr-units-full@48.0.0`, and so on,
//! each `tar xzf`'d). ICU4X's compiled data holds the names of
//! five unit categories only (length, mass, volume, area, duration), so the rest of
//! ECMA-402's units (digital, speed, temperature, percent, angle…) come from here.
//!
//! The output is zlib-compressed text: a header line `cldr <version>`, then one block per
//! CLDR locale, `=<locale>\t<parent>`, holding the entries that differ from its parent's
//! (CLDR's JSON is resolved, so each locale's entries are complete before this dedup):
//! `<unit>\t<width: l s n>\t<field>\t<pattern>`, where the field is a plural category
//! (`zero` … `other`), `per` (the unit's own per-unit pattern, `{0}/h`) or, for the unit
//! `per`, `pattern` (the locale's compound per pattern, `{0}/{1}`); the pseudo-unit `range`
//! holds the locale's range pattern (`{0}–{1}`) under its numbering system's name; `¤`
//! the currency patterns (`latn:standard`, `latn:accounting`, `latn:one`… for a name's
//! `{0} {1}`; `latn:group` and `latn:decimal` for the separators of a currency amount where
//! they differ from a number's), `%` the percent pattern and sign (`latn:standard`, `latn:sign`), `ns` the
//! default numbering system, and `$<CODE>` a currency's symbol (`s`), narrow symbol (`n`)
//! and names (`l`: `name`, and by plural); `dp` the day periods' names (`l` wide, `s`
//! abbreviated, `n` narrow, by period) and rules (`r`: `from-before` in minutes, `@at`);
//! `dt` the date interval fallback (`l`, `fallback`: `{0} – {1}`); `di` the date interval
//! formats (see [`interval_formats`]); `af`, `afa` the date-time pattern generator's data (see
//! [`available_formats`]);
//! `tz`, `mz`, `zn` the time zone formats and names, `rg` the territory names (see
//! [`zone_names`]; `∅∅∅` where a locale drops its parent's, as CLDR marks it); `mzi`, `mzg`, `pz` (in the root) the zones' metazones (see [`metazones`]);
//! `rt:<unit>` the relative
//! time patterns by width (`future:one`, `past:other`…) and the unit's words by offset
//! (`-1`, `0`, `1`);
//! `dn` the Gregorian calendar's names (`l`: months, weekdays, eras, see [`date_names`]) and
//! style patterns (`p`: see [`date_patterns`]);
//! `nu` (in the root) the ten digits of each numeric numbering system; `ca` the calendars'
//! display names; `ls:<type>`, `scr`, `ldp` and `dtf` the list patterns, script names,
//! locale display patterns and date field names (see [`text_names`]).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// ECMA-402's sanctioned simple units, and the `X-per-Y` units CLDR names as units of
/// their own (ICU formats these with their own patterns, not the compound per pattern).
const UNITS: &[&str] = &[
    "acre",
    "bit",
    "byte",
    "celsius",
    "centimeter",
    "day",
    "degree",
    "fahrenheit",
    "fluid-ounce",
    "foot",
    "gallon",
    "gigabit",
    "gigabyte",
    "gram",
    "hectare",
    "hour",
    "inch",
    "kilobit",
    "kilobyte",
    "kilogram",
    "kilometer",
    "liter",
    "megabit",
    "megabyte",
    "meter",
    "microsecond",
    "mile",
    "mile-scandinavian",
    "milliliter",
    "millimeter",
    "millisecond",
    "minute",
    "month",
    "nanosecond",
    "ounce",
    "percent",
    "petabyte",
    "pound",
    "second",
    "stone",
    "terabit",
    "terabyte",
    "week",
    "yard",
    "year",
    "kilometer-per-hour",
    "meter-per-second",
    "mile-per-hour",
    "liter-per-kilometer",
    "mile-per-gallon",
];

/// The languages workerd's ICU data has (the executor's `WORKERD_LANGUAGES`, measured on the
/// reference): a locale of any other language falls back to en-US there, so only these
/// languages' locales (and the root) go into the table.
const LANGUAGES: &[&str] = &[
    "af", "ak", "am", "ar", "az", "bg", "bn", "bs", "ca", "cs", "da", "de", "el", "en", "es", "et",
    "fa", "fi", "fil", "fr", "gu", "he", "hi", "hr", "hu", "id", "it", "ja", "kk", "kn", "ko",
    "kok", "lt", "lv", "ml", "mr", "ms", "nb", "nl", "no", "pa", "pl", "pt", "ro", "ru", "sd",
    "sk", "sl", "sr", "sv", "sw", "ta", "te", "th", "tr", "uk", "ur", "uz", "vi", "zh", "und",
];

const PLURALS: &[&str] = &["zero", "one", "two", "few", "many", "other"];

type Entries = BTreeMap<(String, char, String), String>;

fn read(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))
}

/// One locale's entries, from its `units.json`.
fn entries(units: &serde_json::Value) -> Entries {
    let mut out = Entries::new();
    for (width, key) in [('l', "long"), ('s', "short"), ('n', "narrow")] {
        let Some(table) = units.get(key).and_then(|t| t.as_object()) else {
            continue;
        };
        if let Some(p) = table
            .get("per")
            .and_then(|p| p.get("compoundUnitPattern"))
            .and_then(|p| p.as_str())
        {
            out.insert(("per".into(), width, "pattern".into()), p.into());
        }
        for (name, value) in table {
            let Some((_, unit)) = name.split_once('-') else {
                continue;
            };
            if !UNITS.contains(&unit) {
                continue;
            }
            for plural in PLURALS {
                let field = format!("unitPattern-count-{plural}");
                if let Some(p) = value.get(&field).and_then(|p| p.as_str()) {
                    out.insert((unit.into(), width, (*plural).into()), p.into());
                }
            }
            if let Some(p) = value.get("perUnitPattern").and_then(|p| p.as_str()) {
                out.insert((unit.into(), width, "per".into()), p.into());
            }
        }
    }
    out
}

/// One locale's number patterns, from its `numbers.json`, by numbering system: the range
/// pattern, the currency patterns (standard, accounting, and the `{0} {1}` of a currency's
/// name by plural), the percent pattern and sign, and the default numbering system.
fn ranges(numbers: &serde_json::Value, out: &mut Entries) {
    let Some(table) = numbers.as_object() else {
        return;
    };
    let mut put = |unit: &str, width: char, field: String, p: Option<&serde_json::Value>| {
        if let Some(p) = p.and_then(|p| p.as_str()) {
            out.insert((unit.into(), width, field), p.into());
        }
    };
    put(
        "ns",
        'l',
        "default".into(),
        table.get("defaultNumberingSystem"),
    );
    for (key, value) in table {
        if let Some(system) = key.strip_prefix("miscPatterns-numberSystem-") {
            put("range", 'l', system.into(), value.get("range"));
        } else if let Some(system) = key.strip_prefix("currencyFormats-numberSystem-") {
            for field in ["standard", "accounting"] {
                put("¤", 'l', format!("{system}:{field}"), value.get(field));
            }
            for plural in PLURALS {
                let field = format!("unitPattern-count-{plural}");
                put("¤", 'l', format!("{system}:{plural}"), value.get(&field));
            }
        } else if let Some(system) = key.strip_prefix("percentFormats-numberSystem-") {
            put(
                "%",
                'l',
                format!("{system}:standard"),
                value.get("standard"),
            );
        } else if let Some(system) = key.strip_prefix("symbols-numberSystem-") {
            put("%", 'l', format!("{system}:sign"), value.get("percentSign"));
            put(
                "¤",
                'l',
                format!("{system}:group"),
                value.get("currencyGroup"),
            );
            put(
                "¤",
                'l',
                format!("{system}:decimal"),
                value.get("currencyDecimal"),
            );
        }
    }
}

/// One locale's currency symbols and names, from its `currencies.json`: under `$<CODE>`, the
/// symbol (width `s`), the narrow symbol (`n`), the display name (`l`, `name`) and the name
/// by plural (`l`, `one`…).
fn currencies(currencies: &serde_json::Value, out: &mut Entries) {
    let Some(table) = currencies.as_object() else {
        return;
    };
    for (code, value) in table {
        let unit = format!("${code}");
        let mut put = |width: char, field: &str, key: &str| {
            if let Some(p) = value.get(key).and_then(|p| p.as_str()) {
                out.insert((unit.clone(), width, field.into()), p.into());
            }
        };
        put('s', "symbol", "symbol");
        put('n', "symbol", "symbol-alt-narrow");
        put('l', "name", "displayName");
        for plural in PLURALS {
            put('l', plural, &format!("displayName-count-{plural}"));
        }
    }
}

/// One locale's day period names (format context), from its `ca-gregorian.json`, under `dp`:
/// width `l` (wide), `s` (abbreviated) or `n` (narrow), field the period (`morning1`…).
fn day_periods(gregorian: &serde_json::Value, out: &mut Entries) {
    let format = &gregorian["dayPeriods"]["format"];
    for (width, key) in [('l', "wide"), ('s', "abbreviated"), ('n', "narrow")] {
        let Some(table) = format.get(key).and_then(|t| t.as_object()) else {
            continue;
        };
        for (period, name) in table {
            if let Some(name) = name.as_str() {
                out.insert(("dp".into(), width, period.clone()), name.into());
            }
        }
    }
}

/// One locale's date interval fallback (`{0} – {1}`), from its `ca-gregorian.json`, under `dt`
/// width `l`, field `fallback`: how a date range joins its two ends when it shares none of
/// their fields.
fn interval_fallback(gregorian: &serde_json::Value, out: &mut Entries) {
    if let Some(pattern) =
        gregorian["dateTimeFormats"]["intervalFormats"]["intervalFormatFallback"].as_str()
    {
        out.insert(("dt".into(), 'l', "fallback".into()), pattern.into());
    }
}

/// One locale's date interval formats, from its `ca-gregorian.json`
/// (`dateTimeFormats.intervalFormats`), under `di` width `l`: field `<skeleton>/<letter>` the
/// pattern for a range whose greatest differing field is the letter (`yMMMd/M`:
/// `d MMM – d MMM y`), field `*` the locale's skeletons, space-separated (ICU matches a
/// format's skeleton against these). The date beside a time range takes the available formats
/// (`af`), the style patterns and the medium glue (`dn` `p`) that the other functions write.
fn interval_formats(gregorian: &serde_json::Value, out: &mut Entries) {
    let formats = &gregorian["dateTimeFormats"];
    if let Some(serde_json::Value::Object(skeletons)) = formats.get("intervalFormats") {
        let mut names = Vec::new();
        for (skeleton, patterns) in skeletons {
            let serde_json::Value::Object(patterns) = patterns else {
                continue;
            };
            names.push(skeleton.clone());
            for (letter, pattern) in patterns {
                if let Some(pattern) = pattern.as_str() {
                    out.insert(
                        ("di".into(), 'l', format!("{skeleton}/{letter}")),
                        pattern.into(),
                    );
                }
            }
        }
        out.insert(("di".into(), 'l', "*".into()), names.join(" "));
    }
}

/// One locale's time zone names, from its `timeZoneNames.json`: under `tz` (width `l`) the
/// formats (`gmt`, `hour`, `region`, `region-s`, `region-d`, `fallback`); under `mz` a
/// metazone's names, width `l` (long) or `s` (short), field `<metazone>:<g s d>` (generic,
/// standard, daylight); under `zn` a zone's own names, likewise by zone (`Europe/London:d`).
fn zone_names(names: &serde_json::Value, out: &mut Entries) {
    for (field, key) in [
        ("gmt", "gmtFormat"),
        ("hour", "hourFormat"),
        ("region", "regionFormat"),
        ("region-s", "regionFormat-type-standard"),
        ("region-d", "regionFormat-type-daylight"),
        ("fallback", "fallbackFormat"),
    ] {
        if let Some(p) = names[key].as_str() {
            out.insert(("tz".into(), 'l', field.into()), p.into());
        }
    }
    let widths = |value: &serde_json::Value, unit: &str, id: &str, out: &mut Entries| {
        for (width, key) in [('l', "long"), ('s', "short")] {
            for (kind, name) in [('g', "generic"), ('s', "standard"), ('d', "daylight")] {
                if let Some(p) = value[key][name].as_str() {
                    out.insert((unit.into(), width, format!("{id}:{kind}")), p.into());
                }
            }
        }
    };
    if let Some(table) = names["metazone"].as_object() {
        for (id, value) in table {
            widths(value, "mz", id, out);
        }
    }
    // Zones nest by their path (`America` → `Argentina` → `Buenos_Aires`); a zone is the
    // object with `_type: zone` or with names or an exemplar city.
    fn walk(path: &str, value: &serde_json::Value, found: &mut Vec<(String, serde_json::Value)>) {
        let Some(table) = value.as_object() else {
            return;
        };
        let is_zone = table.contains_key("_type")
            || table.contains_key("exemplarCity")
            || table.contains_key("long")
            || table.contains_key("short");
        if is_zone && !path.is_empty() {
            found.push((path.to_string(), value.clone()));
            return;
        }
        for (key, child) in table {
            let path = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}/{key}")
            };
            walk(&path, child, found);
        }
    }
    let mut zones = Vec::new();
    walk("", &names["zone"], &mut zones);
    // Exemplar cities are left out: the reference's ICU data names a zone's city by its id
    // (`Sydney समय` in `hi`, `St Johns Time` in `ha`), whatever the locale's CLDR city.
    for (id, value) in zones {
        widths(&value, "zn", &id, out);
    }
}

/// One locale's territory names, from its `territories.json`, under `rg`: width `l` the
/// plain name, `s` CLDR's `alt-short`, `v` its `alt-variant`; for `Intl.DisplayNames` and the
/// location format of a zone (`heure : France`).
fn territory_names(names: &serde_json::Value, out: &mut Entries) {
    // Of the numeric areas, the reference's data names Latin America (`419`) alone.
    let keep = |code: &str| !code.chars().any(|c| c.is_ascii_digit()) || code == "419";
    names_by_width(names, "rg", &[("short", 's'), ("variant", 'v')], keep, out);
}

/// The names of a CLDR display-name table (`{"US": "United States", "US-alt-short": "US"}`)
/// under `unit`: a plain name by width `l`, an `-alt-` one by the width `alts` gives it (the
/// other alternatives left out), each code `keep` keeps.
fn names_by_width(
    names: &serde_json::Value,
    unit: &str,
    alts: &[(&str, char)],
    keep: impl Fn(&str) -> bool,
    out: &mut Entries,
) {
    let Some(table) = names.as_object() else {
        return;
    };
    for (code, name) in table {
        let (Some(name), true) = (name.as_str(), keep(code)) else {
            continue;
        };
        let (code, width) = match code.split_once("-alt-") {
            None => (code.as_str(), 'l'),
            Some((code, alt)) => match alts.iter().find(|(a, _)| *a == alt) {
                Some((_, width)) => (code, *width),
                None => continue,
            },
        };
        out.insert((unit.into(), width, code.into()), name.into());
    }
}

/// The root's zone data, from `metaZones.json` and `primaryZones.json`: under `mzi` (width
/// `l`) each zone's metazones, `;`-separated `<metazone>,<from>,<to>` (UTC, `YYYY-MM-DD
/// HH:MM`, empty for open ends); under `mzg` the golden zone of a metazone for a territory
/// (`Europe_Central:001`); under `pz` the primary zone of a territory; from `windowsZones.json`,
/// under `ztr` the territory of a zone (`Europe/Mariehamn` is `AX`, which its BCP 47 id
/// `fimhq` does not say) and under `tzs` a territory's zones, space-separated.
fn metazones(
    metazones: &serde_json::Value,
    primary: &serde_json::Value,
    windows: &serde_json::Value,
    out: &mut Entries,
) {
    let mut zones_of: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
    for m in windows.as_array().into_iter().flatten() {
        let m = &m["mapZone"];
        let (Some(zones), Some(territory)) = (m["_type"].as_str(), m["_territory"].as_str()) else {
            continue;
        };
        if territory == "001" || territory == "ZZ" {
            continue;
        }
        for zone in zones.split_whitespace() {
            out.insert(("ztr".into(), 'l', zone.into()), territory.into());
            zones_of
                .entry(territory.into())
                .or_default()
                .insert(zone.into());
        }
    }
    for (territory, zones) in zones_of {
        let zones: Vec<String> = zones.into_iter().collect();
        out.insert(("tzs".into(), 'l', territory), zones.join(" "));
    }
    fn walk(path: &str, value: &serde_json::Value, out: &mut Entries) {
        if let Some(list) = value.as_array() {
            let spans: Vec<String> = list
                .iter()
                .filter_map(|u| {
                    let u = &u["usesMetazone"];
                    Some(format!(
                        "{},{},{}",
                        u["_mzone"].as_str()?,
                        u["_from"].as_str().unwrap_or(""),
                        u["_to"].as_str().unwrap_or("")
                    ))
                })
                .collect();
            out.insert(("mzi".into(), 'l', path.to_string()), spans.join(";"));
            return;
        }
        if let Some(table) = value.as_object() {
            for (key, child) in table {
                let path = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}/{key}")
                };
                walk(&path, child, out);
            }
        }
    }
    walk("", &metazones["metazoneInfo"]["timezone"], out);
    if let Some(list) = metazones["metazones"].as_array() {
        for m in list {
            let m = &m["mapZone"];
            if let (Some(mz), Some(zone), Some(territory)) = (
                m["_other"].as_str(),
                m["_type"].as_str(),
                m["_territory"].as_str(),
            ) {
                out.insert(
                    ("mzg".into(), 'l', format!("{mz}:{territory}")),
                    zone.into(),
                );
            }
        }
    }
    if let Some(table) = primary.as_object() {
        for (territory, zone) in table {
            if let Some(zone) = zone.as_str() {
                out.insert(("pz".into(), 'l', territory.clone()), zone.into());
            }
        }
    }
}

/// One locale's relative time words, from its `dateFields.json`, under `rt:<unit>` (`second`
/// … `year`) by width (`l` long, `s` short, `n` narrow): the patterns by tense and plural
/// (`future:one`, `past:other`: `in {0} day`, `{0} days ago`) and the unit's own words by
/// offset (`-1` yesterday, `0` today, `1` tomorrow; `-2` and `2` where the locale has them).
fn relative_times(fields: &serde_json::Value, out: &mut Entries) {
    const UNITS: &[&str] = &[
        "second", "minute", "hour", "day", "week", "month", "quarter", "year",
    ];
    for unit in UNITS {
        for (width, suffix) in [('l', ""), ('s', "-short"), ('n', "-narrow")] {
            let Some(field) = fields.get(format!("{unit}{suffix}")) else {
                continue;
            };
            let key = format!("rt:{unit}");
            for tense in ["future", "past"] {
                let patterns = &field[format!("relativeTime-type-{tense}")];
                for plural in PLURALS {
                    let name = format!("relativeTimePattern-count-{plural}");
                    if let Some(p) = patterns[name].as_str() {
                        out.insert((key.clone(), width, format!("{tense}:{plural}")), p.into());
                    }
                }
            }
            for (name, word) in field.as_object().into_iter().flatten() {
                if let (Some(offset), Some(word)) =
                    (name.strip_prefix("relative-type-"), word.as_str())
                {
                    out.insert((key.clone(), width, offset.into()), word.into());
                }
            }
        }
    }
}

/// A language's day period rules, from `dayPeriods.json`, under `dp` width `r`: the period's
/// span in minutes, `from-before`, or `@at` for a period at one instant (`noon`).
fn day_period_rules(rules: &serde_json::Value, out: &mut Entries) {
    let minutes = |t: &serde_json::Value| -> Option<u32> {
        let (h, m) = t.as_str()?.split_once(':')?;
        Some(h.parse::<u32>().ok()? * 60 + m.parse::<u32>().ok()?)
    };
    let Some(table) = rules.as_object() else {
        return;
    };
    for (period, rule) in table {
        let span = if let Some(at) = rule.get("_at").and_then(minutes) {
            format!("@{at}")
        } else if let (Some(from), Some(before)) = (
            rule.get("_from").and_then(minutes),
            rule.get("_before").and_then(minutes),
        ) {
            format!("{from}-{before}")
        } else {
            continue;
        };
        out.insert(("dp".into(), 'r', period.clone()), span);
    }
}

/// One locale's calendar names, from its `localeDisplayNames.json`, under `ca` width `l`,
/// by the calendar's BCP 47 name (CLDR's `gregorian` is `gregory`, `ethiopic-amete-alem`
/// `ethioaa`).
fn calendar_names(names: &serde_json::Value, out: &mut Entries) {
    let Some(table) = names["types"]["calendar"].as_object() else {
        return;
    };
    for (key, name) in table {
        let key = match key.as_str() {
            "gregorian" => "gregory",
            "ethiopic-amete-alem" => "ethioaa",
            k if k.contains("-alt-") => continue,
            k => k,
        };
        if let Some(name) = name.as_str() {
            out.insert(("ca".into(), 'l', key.into()), name.into());
        }
    }
}

/// One locale's DateTimePatternGenerator data, from its `ca-gregorian.json`, for
/// `Intl.DateTimeFormat`'s component options (see the executor's `intl/skeleton.rs`): under
/// `af` (width `l`) each availableFormats pattern by its skeleton (the plural `-count-` and
/// `-alt-` variants are left out: no component option asks for weeks, and ICU takes the plain
/// key); under `afa` the appendItems (`Era`, `Timezone`…). The generator's other data are
/// written once for every reader: the style patterns and their glue by [`date_patterns`], the
/// fields' display names (an appendItem's `{2}`) by [`text_names`] under `dtf`.
fn available_formats(gregorian: &serde_json::Value, out: &mut Entries) {
    let formats = &gregorian["dateTimeFormats"];
    if let Some(table) = formats["availableFormats"].as_object() {
        for (skeleton, pattern) in table {
            if skeleton.contains("-count-") || skeleton.contains("-alt-") {
                continue;
            }
            if let Some(pattern) = pattern.as_str() {
                out.insert(("af".into(), 'l', skeleton.clone()), pattern.into());
            }
        }
    }
    if let Some(table) = formats["appendItems"].as_object() {
        for (field, pattern) in table {
            if let Some(pattern) = pattern.as_str() {
                out.insert(("afa".into(), 'l', field.clone()), pattern.into());
            }
        }
    }
}

/// One locale's Gregorian names, from its `ca-gregorian.json`, under `dn` width `l`: the
/// months (`months:<context>:<width>`, twelve names), the weekdays (`days:<context>:<width>`,
/// seven names from Sunday) and the eras (`eras:<width>`, before and after Christ), each list
/// tab-separated; the contexts are `format` and `stand-alone`, the widths CLDR's
/// (`abbreviated`, `wide`, `narrow`, `short`; the eras' `abbr`, `names`, `narrow`). The
/// AM/PM and flexible day period names are the `dp` lines.
fn date_names(gregorian: &serde_json::Value, out: &mut Entries) {
    const DAYS: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
    for context in ["format", "stand-alone"] {
        for width in ["abbreviated", "wide", "narrow", "short"] {
            let months = &gregorian["months"][context][width];
            let names: Option<Vec<&str>> =
                (1..=12).map(|m| months[m.to_string()].as_str()).collect();
            if let Some(names) = names {
                let field = format!("months:{context}:{width}");
                out.insert(("dn".into(), 'l', field), names.join("\t"));
            }
            let days = &gregorian["days"][context][width];
            let names: Option<Vec<&str>> = DAYS.iter().map(|d| days[*d].as_str()).collect();
            if let Some(names) = names {
                let field = format!("days:{context}:{width}");
                out.insert(("dn".into(), 'l', field), names.join("\t"));
            }
        }
    }
    for (width, key) in [
        ("abbr", "eraAbbr"),
        ("names", "eraNames"),
        ("narrow", "eraNarrow"),
    ] {
        let eras = &gregorian["eras"][key];
        if let (Some(bc), Some(ad)) = (eras["0"].as_str(), eras["1"].as_str()) {
            out.insert(
                ("dn".into(), 'l', format!("eras:{width}")),
                format!("{bc}\t{ad}"),
            );
        }
    }
}

/// The languages the reference's data names (its ICU data keeps the names of these 150 of
/// CLDR's languages only: `aa` is `aa` there, `aa-DJ` `aa (Djibouti)`), measured on
/// `reference@0.5.6` by naming every language of CLDR 48's `en/languages.json` in `en`, `fr`
/// and `ja` (the same 150 in each, and `fat`, which it canonicalizes to `ak` first); only
/// their names and their dialects' are written.
const NAMED_LANGUAGES: [&str; 150] = [
    "af", "ak", "am", "an", "ar", "as", "ast", "ay", "az", "be", "bg", "bho", "bm", "bn", "br",
    "bs", "ca", "ceb", "chr", "ckb", "co", "cs", "cy", "da", "de", "doi", "dv", "ee", "el", "en",
    "eo", "es", "et", "eu", "fa", "fi", "fil", "fo", "fr", "fy", "ga", "gd", "gl", "gn", "gu",
    "ha", "haw", "he", "hi", "hmn", "hr", "ht", "hu", "hy", "ia", "id", "ig", "ilo", "is", "it",
    "ja", "jv", "ka", "kk", "km", "kn", "ko", "kok", "kri", "ku", "ky", "la", "lb", "lg", "ln",
    "lo", "lt", "lus", "lv", "mai", "mg", "mi", "mk", "ml", "mn", "mni", "mr", "ms", "mt", "my",
    "nb", "ne", "nl", "nn", "no", "nso", "ny", "oc", "om", "or", "pa", "pl", "ps", "pt", "qu",
    "rm", "ro", "ru", "rw", "sa", "sd", "sh", "si", "sk", "sl", "sm", "sn", "so", "sq", "sr", "st",
    "su", "sv", "sw", "ta", "te", "tg", "th", "ti", "tk", "tl", "tn", "to", "tr", "ts", "tt", "tw",
    "ug", "uk", "ur", "uz", "vi", "wa", "wo", "xh", "yi", "yo", "yue", "zh", "zu",
];

/// The text services' words (lists and display names), kept apart from the number and date
/// entries above: from `listPatterns.json` (cldr-misc-full), under `ls:<type>` (`and`, `or`,
/// `unit`) by width (`l` long, `s` short, `n` narrow), the list patterns `2`, `start`,
/// `middle` and `end`; from `languages.json` (cldr-localenames-full), under `lg` the language
/// and dialect names (`en`, `en-GB`, `zh-Hant`; `l` the plain name, `s` CLDR's `alt-short`);
/// from `scripts.json`, under `scr` the script names (`l` the plain name, `s` CLDR's
/// `alt-short`); from `localeDisplayNames.json`, under
/// `ldp` (width `l`) the locale display `pattern` (`{0} ({1})`) and `separator` (`{0}, {1}`);
/// from `dateFields.json` (cldr-dates-full), under `dtf` by width the date fields' display
/// names, by CLDR's field (`year`, `week`, `dayperiod`, `zone`…).
fn text_names(
    misc_dir: Option<&Path>,
    names_dir: &Path,
    dates_dir: &Path,
    name: &str,
    out: &mut Entries,
) {
    if let Some(misc) = misc_dir {
        let path = misc.join("main").join(name).join("listPatterns.json");
        if let Ok(json) = read(&path)
            && let Some(table) = json["main"][name]["listPatterns"].as_object()
        {
            for (key, value) in table {
                let Some(rest) = key.strip_prefix("listPattern-type-") else {
                    continue;
                };
                let (kind, width) = match rest.split_once('-') {
                    Some((kind, "short")) => (kind, 's'),
                    Some((kind, "narrow")) => (kind, 'n'),
                    Some(_) => continue,
                    None => (rest, 'l'),
                };
                let kind = match kind {
                    "standard" => "and",
                    "or" => "or",
                    "unit" => "unit",
                    _ => continue,
                };
                for field in ["2", "start", "middle", "end"] {
                    if let Some(p) = value[field].as_str() {
                        out.insert((format!("ls:{kind}"), width, field.into()), p.into());
                    }
                }
            }
        }
    }
    // The reference names no `hi-Latn` dialect (`Hindi (Lateinisch)` in `de`, where CLDR's is
    // `Hindi (lateinisch)`: measured).
    let named_language = |code: &str| {
        let language = code.split('-').next().unwrap_or(code);
        NAMED_LANGUAGES.contains(&language) && !code.starts_with("hi-Latn")
    };
    for (file, key, unit) in [
        ("languages", "languages", "lg"),
        ("scripts", "scripts", "scr"),
    ] {
        let path = names_dir
            .join("main")
            .join(name)
            .join(format!("{file}.json"));
        if let Ok(json) = read(&path) {
            let keep = |code: &str| unit != "lg" || named_language(code);
            names_by_width(
                &json["main"][name]["localeDisplayNames"][key],
                unit,
                &[("short", 's')],
                keep,
                out,
            );
        }
    }
    let display = names_dir
        .join("main")
        .join(name)
        .join("localeDisplayNames.json");
    if let Ok(json) = read(&display) {
        let p = &json["main"][name]["localeDisplayNames"]["localeDisplayPattern"];
        for (field, key) in [
            ("pattern", "localePattern"),
            ("separator", "localeSeparator"),
        ] {
            if let Some(p) = p[key].as_str() {
                out.insert(("ldp".into(), 'l', field.into()), p.into());
            }
        }
    }
    let fields = dates_dir.join("main").join(name).join("dateFields.json");
    if let Ok(json) = read(&fields) {
        const FIELDS: &[&str] = &[
            "era",
            "year",
            "quarter",
            "month",
            "week",
            "weekday",
            "day",
            "dayperiod",
            "hour",
            "minute",
            "second",
            "zone",
        ];
        for field in FIELDS {
            for (width, suffix) in [('l', ""), ('s', "-short"), ('n', "-narrow")] {
                let value = &json["main"][name]["dates"]["fields"][format!("{field}{suffix}")];
                if let Some(p) = value["displayName"].as_str() {
                    out.insert(("dtf".into(), width, (*field).into()), p.into());
                }
            }
        }
    }
}

/// One locale's Gregorian style patterns, from its `ca-gregorian.json`, under `dn` width
/// `p`: `date-<style>` and `time-<style>` (`full`, `long`, `medium`, `short`), and the
/// date-time glue `glue-<style>` (`{1}, {0}`) and its `atTime` variant `glue-at-<style>`
/// (`{1} 'at' {0}`).
fn date_patterns(gregorian: &serde_json::Value, out: &mut Entries) {
    for style in ["full", "long", "medium", "short"] {
        let mut put = |field: String, value: &serde_json::Value| {
            if let Some(p) = value.as_str() {
                out.insert(("dn".into(), 'p', field), p.into());
            }
        };
        put(format!("date-{style}"), &gregorian["dateFormats"][style]);
        put(format!("time-{style}"), &gregorian["timeFormats"][style]);
        put(
            format!("glue-{style}"),
            &gregorian["dateTimeFormats"][style],
        );
        put(
            format!("glue-at-{style}"),
            &gregorian["dateTimeFormats-atTime"]["standard"][style],
        );
    }
}

/// The calendars other than the Gregorian whose CLDR data the table holds, each for the
/// languages whose default calendar it is (CLDR's `calendarPreferenceData`: Thailand's
/// Buddhist calendar, Iran's and Afghanistan's Persian one); other locales asking for them
/// (`en-u-ca-persian`) format as ICU4X does.
const OTHER_CALENDARS: &[(&str, &[&str])] = &[("buddhist", &["th"]), ("persian", &["fa"])];

/// The units a calendar's data replaces: names and style patterns, day periods, the date-time
/// pattern generator's data, the interval formats and their fallback.
const CALENDAR_UNITS: &[&str] = &["dn", "dp", "af", "afa", "di", "dt"];

/// One calendar's data from its package (`cldr-cal-buddhist-full`, named by its
/// `package.json`), for the languages [`OTHER_CALENDARS`] gives it: the same entries as the
/// Gregorian calendar's (see [`date_names`], [`date_patterns`], [`available_formats`],
/// [`interval_formats`], [`interval_fallback`], [`day_periods`]; the eras as many as the
/// calendar has, Buddhist and Persian one each) under the unit `<unit>@<calendar>`
/// (`dn@buddhist`), written only where the reader would otherwise find another answer, so that
/// a datum the calendar shares with the Gregorian one is stored once. The reader (the
/// executor's `units::entry` for a tag with `-u-ca-<calendar>`) takes the nearest locale's
/// `<unit>@<calendar>` entry, `∅∅∅` meaning none (a Gregorian skeleton the calendar lacks),
/// else the Gregorian entry. The `atTime` glue is the Gregorian one for every calendar, as
/// measured on the reference (`fa`: `۲۶ بهمن ۱۳۸۷ ساعت ۰:۳۱:۳۰`, the Gregorian `{1} ساعت {0}`,
/// not the Persian `{1}، ساعت {0}`). Each locale with the calendar has the entry `cal` (width
/// `l`, field the calendar) in its language's block.
fn other_calendar(
    dir: &Path,
    parents: &BTreeMap<String, String>,
    locales: &mut BTreeMap<String, Entries>,
) -> Result<(), String> {
    let package = read(&dir.join("package.json"))?;
    let package = package["name"].as_str().unwrap_or_default();
    let Some(&(calendar, languages)) = OTHER_CALENDARS
        .iter()
        .find(|(c, _)| package == format!("cldr-cal-{c}-full"))
    else {
        return Err(format!(
            "{}: not a calendar this table holds",
            dir.display()
        ));
    };
    // Parents before children, so that a locale's reader sees its ancestors' lines.
    let mut names: Vec<String> = locales
        .keys()
        .filter(|n| languages.contains(&n.split('-').next().unwrap_or_default()))
        .cloned()
        .collect();
    let depth = |n: &str| {
        let mut d = 0;
        let mut at = n.to_string();
        while let Some(p) = parents.get(&at).filter(|p| !p.is_empty()) {
            at = p.clone();
            d += 1;
        }
        d
    };
    names.sort_by_key(|n| depth(n));
    let mut written: BTreeMap<String, Entries> = BTreeMap::new();
    for name in names {
        let path = dir
            .join("main")
            .join(&name)
            .join(format!("ca-{calendar}.json"));
        if !path.exists() {
            continue;
        }
        let json = read(&path)?;
        let data = &json["main"][&name]["dates"]["calendars"][calendar];
        let mut own = Entries::new();
        day_periods(data, &mut own);
        interval_fallback(data, &mut own);
        available_formats(data, &mut own);
        date_names(data, &mut own);
        date_patterns(data, &mut own);
        interval_formats(data, &mut own);
        for (width, key) in [
            ("abbr", "eraAbbr"),
            ("names", "eraNames"),
            ("narrow", "eraNarrow"),
        ] {
            let eras: Vec<&str> = (0..)
                .map_while(|i: usize| data["eras"][key][i.to_string()].as_str())
                .collect();
            if !eras.is_empty() {
                own.insert(("dn".into(), 'l', format!("eras:{width}")), eras.join("\t"));
            }
        }
        let gregorian = &locales[&name];
        // The atTime glue stays the Gregorian one (see the doc).
        let at_time = |(unit, width, field): &(String, char, String)| {
            unit == "dn" && *width == 'p' && field.starts_with("glue-at-")
        };
        own.retain(|key, _| !at_time(key));
        for (key, value) in gregorian.iter().filter(|(key, _)| at_time(key)) {
            own.insert(key.clone(), value.clone());
        }
        let mut keys: std::collections::BTreeSet<(String, char, String)> =
            own.keys().cloned().collect();
        keys.extend(
            gregorian
                .keys()
                // The day periods' rules are the language's, in every calendar.
                .filter(|(unit, width, _)| {
                    CALENDAR_UNITS.contains(&unit.as_str()) && !(unit == "dp" && *width == 'r')
                })
                .cloned(),
        );
        let mut lines = Entries::new();
        for key in keys {
            let want = own.get(&key);
            // What the reader finds without this locale's line: the nearest ancestor's line,
            // else the locale's Gregorian entry.
            let mut inherited = None;
            let mut at = parents.get(&name).cloned().unwrap_or_default();
            while !at.is_empty() {
                if let Some(line) = written.get(&at).and_then(|w| w.get(&key)) {
                    inherited = Some(line.clone());
                    break;
                }
                at = parents.get(&at).cloned().unwrap_or_default();
            }
            let have = match inherited {
                Some(line) => (line != "∅∅∅").then_some(line),
                None => gregorian.get(&key).cloned(),
            };
            if want != have.as_ref() {
                let value = want.cloned().unwrap_or_else(|| "∅∅∅".to_string());
                lines.insert(key, value);
            }
        }
        let target = locales.get_mut(&name).ok_or("a locale vanished")?;
        for ((unit, width, field), value) in &lines {
            target.insert(
                (format!("{unit}@{calendar}"), *width, field.clone()),
                value.clone(),
            );
        }
        target.insert(("cal".into(), 'l', calendar.into()), "1".into());
        written.insert(name, lines);
    }
    Ok(())
}

fn run(
    units_dir: &Path,
    numbers_dir: &Path,
    core_dir: &Path,
    dates_dir: &Path,
    names_dir: &Path,
    (misc_dir, calendar_dirs): (Option<&Path>, &[&Path]),
    out: &Path,
) -> Result<(), String> {
    let version = read(&units_dir.join("package.json"))?["version"]
        .as_str()
        .unwrap_or("unknown")
        .to_string();
    let parents = read(&core_dir.join("supplemental/parentLocales.json"))?;
    let parents = parents["supplemental"]["parentLocales"]["parentLocale"].clone();
    let rules = read(&core_dir.join("supplemental/dayPeriods.json"))?;
    let rules = &rules["supplemental"]["dayPeriodRuleSet"];
    let main = units_dir.join("main");
    let mut locales = BTreeMap::new();
    for dir in
        std::fs::read_dir(&main).map_err(|e| format!("cannot list {}: {e}", main.display()))?
    {
        let dir = dir.map_err(|e| e.to_string())?;
        let name = dir.file_name().to_string_lossy().to_string();
        let language = name.split('-').next().unwrap_or_default();
        if !LANGUAGES.contains(&language) {
            continue;
        }
        let json = read(&dir.path().join("units.json"))?;
        let mut own = entries(&json["main"][&name]["units"]);
        let numbers = numbers_dir.join("main").join(&name).join("numbers.json");
        if numbers.exists() {
            ranges(&read(&numbers)?["main"][&name]["numbers"], &mut own);
        }
        let money = numbers_dir.join("main").join(&name).join("currencies.json");
        if money.exists() {
            let json = read(&money)?;
            currencies(&json["main"][&name]["numbers"]["currencies"], &mut own);
        }
        let gregorian = dates_dir.join("main").join(&name).join("ca-gregorian.json");
        if gregorian.exists() {
            let json = read(&gregorian)?;
            let gregorian = &json["main"][&name]["dates"]["calendars"]["gregorian"];
            day_periods(gregorian, &mut own);
            interval_fallback(gregorian, &mut own);
            available_formats(gregorian, &mut own);
            date_names(gregorian, &mut own);
            date_patterns(gregorian, &mut own);
            interval_formats(gregorian, &mut own);
        }
        let zones = dates_dir
            .join("main")
            .join(&name)
            .join("timeZoneNames.json");
        if zones.exists() {
            let json = read(&zones)?;
            zone_names(&json["main"][&name]["dates"]["timeZoneNames"], &mut own);
        }
        let territories = names_dir.join("main").join(&name).join("territories.json");
        if territories.exists() {
            let json = read(&territories)?;
            territory_names(
                &json["main"][&name]["localeDisplayNames"]["territories"],
                &mut own,
            );
        }
        let fields = dates_dir.join("main").join(&name).join("dateFields.json");
        if fields.exists() {
            let json = read(&fields)?;
            relative_times(&json["main"][&name]["dates"]["fields"], &mut own);
        }
        let display = names_dir
            .join("main")
            .join(&name)
            .join("localeDisplayNames.json");
        if display.exists() {
            let json = read(&display)?;
            calendar_names(&json["main"][&name]["localeDisplayNames"], &mut own);
        }
        if let Some(r) = rules.get(&name) {
            day_period_rules(r, &mut own);
        }
        text_names(misc_dir, names_dir, dates_dir, &name, &mut own);
        locales.insert(name.clone(), own);
    }
    // The digits of CLDR's numeric numbering systems, in the root locale.
    let systems = read(&core_dir.join("supplemental/numberingSystems.json"))?;
    if let (Some(systems), Some(root)) = (
        systems["supplemental"]["numberingSystems"].as_object(),
        locales.get_mut("und"),
    ) {
        for (name, system) in systems {
            if system["_type"] == "numeric"
                && let Some(digits) = system["_digits"].as_str()
            {
                root.insert(("nu".into(), 'l', name.clone()), digits.into());
            }
        }
    }
    // The zones' metazones, golden zones and primary zones, in the root locale.
    let zones = read(&core_dir.join("supplemental/metaZones.json"))?;
    let primary = read(&core_dir.join("supplemental/primaryZones.json"))?;
    let windows = read(&core_dir.join("supplemental/windowsZones.json"))?;
    if let Some(root) = locales.get_mut("und") {
        metazones(
            &zones["supplemental"]["metaZones"],
            &primary["supplemental"]["primaryZones"],
            &windows["supplemental"]["windowsZones"]["mapTimezones"],
            root,
        );
    }
    // A locale's parent: CLDR's parentLocales, else the tag less its last subtag, else root.
    let parent_of = |name: &str| -> String {
        if name == "und" {
            return String::new();
        }
        if let Some(p) = parents.get(name).and_then(|p| p.as_str()) {
            return if p == "root" { "und".into() } else { p.into() };
        }
        match name.rsplit_once('-') {
            Some((head, _)) if locales.contains_key(head) => head.into(),
            _ => "und".into(),
        }
    };
    let parents: BTreeMap<String, String> =
        locales.keys().map(|n| (n.clone(), parent_of(n))).collect();
    for dir in calendar_dirs {
        other_calendar(dir, &parents, &mut locales)?;
    }
    let mut text = format!("cldr {version}\n");
    for (name, own) in &locales {
        let parent = parents[name].clone();
        let inherited = locales.get(&parent);
        text.push_str(&format!("={name}\t{parent}\n"));
        for ((unit, width, field), pattern) in own {
            let key = (unit.clone(), *width, field.clone());
            if inherited.and_then(|p| p.get(&key)) == Some(pattern) {
                continue;
            }
            text.push_str(&format!("{unit}\t{width}\t{field}\t{pattern}\n"));
        }
        // CLDR's JSON is resolved, so a zone name the parent has and the locale lacks was
        // removed by CLDR's `∅∅∅` (`en-001` drops `en`'s `MST`): written as `∅∅∅` so the
        // lookup stops there instead of taking the parent's.
        for (unit, width, field) in inherited.into_iter().flat_map(|p| p.keys()) {
            let zone_unit = matches!(unit.as_str(), "tz" | "mz" | "zn" | "rg");
            if zone_unit && !own.contains_key(&(unit.clone(), *width, field.clone())) {
                text.push_str(&format!("{unit}\t{width}\t{field}\t∅∅∅\n"));
            }
        }
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    let bytes = z.finish().map_err(|e| e.to_string())?;
    std::fs::write(out, &bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!(
        "{} locales from CLDR {version}: {} bytes of patterns, {} compressed, in {}",
        locales.len(),
        text.len(),
        bytes.len(),
        out.display()
    );
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The misc package (list patterns) is optional: without it the table has no lists. The
    // calendar packages after it (`cldr-cal-buddhist-full`, `cldr-cal-persian-full`) are
    // optional too: without them those calendars format as ICU4X does.
    let (units, numbers, core, dates, names, misc, calendars, out) = match args.as_slice() {
        [u, n, c, d, l, o] => (u, n, c, d, l, None, &[][..], o),
        [u, n, c, d, l, m, cals @ .., o] => (u, n, c, d, l, Some(Path::new(m)), cals, o),
        _ => {
            eprintln!(
                "usage: unit_data UNITS_DIR NUMBERS_DIR CORE_DIR DATES_DIR NAMES_DIR [MISC_DIR [CALENDAR_DIR...]] OUT (the unpacked cldr-units-full, cldr-numbers-full, cldr-core, cldr-dates-full, cldr-localenames-full and, optionally, cldr-misc-full and cldr-cal-<calendar>-full packages, and the file to write)"
            );
            std::process::exit(2);
        }
    };
    let calendars: Vec<&Path> = calendars.iter().map(Path::new).collect();
    let paths = (Path::new(units), Path::new(numbers), Path::new(core));
    let more = (Path::new(dates), Path::new(names));
    if let Err(e) = run(
        paths.0,
        paths.1,
        paths.2,
        more.0,
        more.1,
        (misc, &calendars),
        Path::new(out),
    ) {
        eprintln!("unit_data: {e}");
        std::process::exit(1);
    }
}
