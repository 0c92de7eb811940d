//! Time zone names as the reference's ICU writes them, from CLDR 48's zone data in the
//! executor's CLDR table (`units.data.z`: the formats, metazone and zone names and territory
//! names of each locale; the zones' metazones, golden zones and primary
//! zones in the root). ICU4X's compiled data is CLDR 49's, whose names differ (a metazone
//! CLDR 48 has no name for in `pl` is `GMT+03:00` on the reference, `Turcja (czas
//! standardowy)` in CLDR 49; `GMT+1` against `+1 GMT` in `pt`).
//!
//! The choice of a name is ICU's `TimeZoneFormat` and `TimeZoneGenericNames`:
//!
//! - specific (`z`, `zzzz`): the zone's own name for standard or daylight time, else its
//!   metazone's at the instant, else the localized GMT offset (short or long);
//! - generic (`v`, `vvvv`): the zone's own generic name, else its metazone's, the standard
//!   name standing in when the zone keeps standard time for 184 days either side, and a
//!   partial location (`{1} ({0})`) when the metazone's golden zone has another offset; else
//!   the location format (`{0} Time`) with the territory's name for the primary or only zone
//!   of its territory and the city of the zone's id for the others (`Sydney समय`: workerd's
//!   ICU data holds no exemplar cities); else the localized GMT offset;
//! - localized GMT (`O`, `OOOO`): `gmtFormat` around `hourFormat`'s positive or negative
//!   pattern, the short form with the hour unpadded and the minutes only when they are not
//!   zero (`GMT+0`, `GMT+5:30`), in the locale's digits.
//!
//! A zone takes a metazone from 1970 on only (ICU's mappings start there), so a date before
//! 1970 is named by its location or offset (`1900年1月1日 대한민국 시간`).

use icu::datetime::fieldsets::builder::ZoneStyle;

/// An entry of the CLDR table for `tag`, None where the locale drops its parent's (`∅∅∅`,
/// `en-001` dropping `en`'s `MST`); the root locale (`pa`, formatted as the root on the
/// reference) takes English's names, as workerd's data does.
fn entry(tag: &str, unit: &str, width: char, field: &str) -> Option<&'static str> {
    super::units::entry(names_of(tag), unit, width, field).filter(|e| *e != "∅∅∅")
}

/// The locale whose names `tag` takes: English for the root locale.
fn names_of(tag: &str) -> &str {
    if tag == "und" || tag.starts_with("und-") {
        "en"
    } else {
        tag
    }
}

/// A metazone's golden zone for a territory: CLDR's for the territory, else the world's.
fn golden_zone(mz: &str, territory: &str) -> Option<&'static str> {
    entry("und", "mzg", 'l', &format!("{mz}:{territory}"))
        .or_else(|| entry("und", "mzg", 'l', &format!("{mz}:001")))
}

/// ICU's window either side of an instant for a zone's daylight saving time (184 days).
const DST_CHECK_MS: i64 = 184 * 86_400_000;

/// The name of `id`'s zone (CLDR's id, `Asia/Calcutta`; None for a fixed offset ICU holds no
/// names for) at `ms` in `style`, for the locale `tag` (with its `-u-nu-` keyword); None
/// where the zone's rules are unknown at `ms` (then ICU4X's name stays).
pub(crate) fn zone_name(
    tag: &str,
    id: Option<&str>,
    zone: &jiff::tz::TimeZone,
    ms: i64,
    style: ZoneStyle,
) -> Option<String> {
    let ts = jiff::Timestamp::from_millisecond(ms).ok()?;
    let info = zone.to_offset_info(ts);
    let offset = info.offset().seconds();
    let dst = info.dst().is_dst();
    let short = matches!(
        style,
        ZoneStyle::SpecificShort | ZoneStyle::GenericShort | ZoneStyle::LocalizedOffsetShort
    );
    let width = if short { 's' } else { 'l' };
    let named = match (style, id) {
        (ZoneStyle::SpecificLong | ZoneStyle::SpecificShort, Some(id)) => {
            specific(tag, id, ms, dst, width)
        }
        (ZoneStyle::GenericLong | ZoneStyle::GenericShort, Some(id)) => {
            generic(tag, id, zone, ts, dst, width).or_else(|| location(tag, id))
        }
        _ => None,
    };
    Some(named.unwrap_or_else(|| gmt(tag, offset, short)))
}

/// A zone's own name or its metazone's, for standard (`s`) or daylight time.
fn specific(tag: &str, id: &str, ms: i64, dst: bool, width: char) -> Option<String> {
    let kind = if dst { 'd' } else { 's' };
    if let Some(name) = entry(tag, "zn", width, &format!("{id}:{kind}")) {
        return Some(name.to_string());
    }
    let mz = metazone(id, ms)?;
    entry(tag, "mz", width, &format!("{mz}:{kind}")).map(str::to_string)
}

/// ICU's generic non-location name (see the module doc).
fn generic(
    tag: &str,
    id: &str,
    zone: &jiff::tz::TimeZone,
    ts: jiff::Timestamp,
    dst: bool,
    width: char,
) -> Option<String> {
    if let Some(name) = entry(tag, "zn", width, &format!("{id}:g")) {
        return Some(name.to_string());
    }
    let ms = ts.as_millisecond();
    let mz = metazone(id, ms)?;
    let mz_generic = entry(tag, "mz", width, &format!("{mz}:g"));
    if !dst && !dst_near(zone, ts) {
        let standard = entry(tag, "zn", width, &format!("{id}:s"))
            .or_else(|| entry(tag, "mz", width, &format!("{mz}:s")));
        if let Some(standard) = standard
            && mz_generic.is_none_or(|g| !g.eq_ignore_ascii_case(standard))
        {
            return Some(standard.to_string());
        }
    }
    let name = mz_generic?;
    let region = region_of(tag);
    let golden = golden_zone(mz, &region);
    if let Some(golden) = golden.filter(|g| *g != id)
        && let Ok(golden) = jiff::tz::db().get(golden)
    {
        // ICU reads the golden zone's offset at the same wall time, taking the offset
        // before a gap and after a fold.
        let ours = zone.to_offset(ts);
        let wall = ts.to_zoned(jiff::tz::TimeZone::fixed(ours)).datetime();
        let theirs = match golden.to_ambiguous_timestamp(wall).offset() {
            jiff::tz::AmbiguousOffset::Unambiguous { offset } => offset,
            jiff::tz::AmbiguousOffset::Gap { before, .. } => before,
            jiff::tz::AmbiguousOffset::Fold { after, .. } => after,
        };
        if theirs != ours {
            let fallback = entry(tag, "tz", 'l', "fallback").unwrap_or("{1} ({0})");
            return Some(
                fallback
                    .replace("{1}", name)
                    .replace("{0}", &partial_location(tag, id, mz)),
            );
        }
    }
    Some(name.to_string())
}

/// Whether the zone keeps daylight saving time within 184 days before or after `ts`.
fn dst_near(zone: &jiff::tz::TimeZone, ts: jiff::Timestamp) -> bool {
    let ms = ts.as_millisecond();
    let mut before = zone.preceding(ts);
    if let Some(t) = before.next()
        && ms - t.timestamp().as_millisecond() < DST_CHECK_MS
    {
        // The state before that transition: the one before it, or the zone's first.
        let prior = jiff::Timestamp::from_millisecond(t.timestamp().as_millisecond() - 1)
            .map(|p| zone.to_offset_info(p).dst().is_dst())
            .unwrap_or(false);
        if prior {
            return true;
        }
    }
    if let Some(t) = zone.following(ts).next()
        && t.timestamp().as_millisecond() - ms < DST_CHECK_MS
        && t.dst().is_dst()
    {
        return true;
    }
    false
}

/// The generic location format: `regionFormat` with the territory's name (the primary or
/// only zone of its territory) or the zone's exemplar city.
fn location(tag: &str, id: &str) -> Option<String> {
    let territory = territory_of(id)?;
    let format = entry(tag, "tz", 'l', "region")?;
    let primary = entry("und", "pz", 'l', &territory) == Some(id) || only_zone(&territory);
    let place = if primary {
        territory_name(tag, &territory).unwrap_or_else(|| exemplar_city(tag, id))
    } else {
        exemplar_city(tag, id)
    };
    Some(format.replace("{0}", &place))
}

/// The place a partial location name gives (`EET (Egypt)`), as ICU's generic names choose
/// it: the zone's territory where the zone is its metazone's golden zone for that territory
/// (`Europe_Eastern` in `EG` is `Africa/Cairo`; a territory CLDR lists no golden zone for
/// takes the world's, so `America_Central` in `US` is `America/Chicago`), else the zone's
/// city.
fn partial_location(tag: &str, id: &str, mz: &str) -> String {
    if let Some(territory) = territory_of(id)
        && golden_zone(mz, &territory) == Some(id)
        && let Some(name) = territory_name(tag, &territory)
    {
        return name;
    }
    exemplar_city(tag, id)
}

/// A territory's name as the reference's location formats write it: its display name
/// (`Hong Kong Time`, `Falkland Islands (Islas Malvinas) Time`).
fn territory_name(tag: &str, territory: &str) -> Option<String> {
    super::text::region_name(names_of(tag), territory, false).map(str::to_string)
}

/// The zone's city as the reference names it: its id's last segment (`St Johns`, `Sydney`),
/// whatever the locale's CLDR exemplar city (workerd's ICU data has none).
fn exemplar_city(_tag: &str, id: &str) -> String {
    id.rsplit('/').next().unwrap_or(id).replace('_', " ")
}

/// The territory of a location zone: CLDR's (from its Windows zone mapping, which names the
/// territory of every location zone but `Antarctica/Troll`), else the first two letters of a
/// five-letter BCP 47 id (`aqtrl`); ids of other lengths (`jeruslm`, `gazastrp`) say none.
fn territory_of(id: &str) -> Option<String> {
    if let Some(territory) = entry("und", "ztr", 'l', id) {
        return Some(territory.to_string());
    }
    let parsed = icu::time::zone::iana::IanaParserExtended::new().parse(id);
    let bcp = parsed.time_zone.as_str();
    if bcp.len() != 5 || !id.contains('/') || id.starts_with("Etc/") {
        return None;
    }
    Some(bcp[..2].to_ascii_uppercase())
}

/// Whether the territory has one location zone only (CLDR's zones of the territory, else the
/// five-letter BCP 47 ids it begins).
fn only_zone(territory: &str) -> bool {
    if let Some(zones) = entry("und", "tzs", 'l', territory) {
        return !zones.contains(' ');
    }
    let lower = territory.to_ascii_lowercase();
    let mut ids: Vec<String> = icu::time::zone::iana::IanaParserExtended::new()
        .iter()
        .filter(|z| z.canonical.contains('/') && !z.canonical.starts_with("Etc/"))
        .map(|z| z.time_zone.as_str().to_string())
        .filter(|b| b.len() == 5 && b.starts_with(&lower))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids.len() == 1
}

/// The locale's region, or its likely one (`ko` → `KR`), for a metazone's golden zone.
fn region_of(tag: &str) -> String {
    let locale: icu::locale::Locale = tag.parse().unwrap_or(icu::locale::Locale::UNKNOWN);
    let mut id = locale.id;
    if id.region.is_none() {
        icu::locale::LocaleExpander::new_extended().maximize(&mut id);
    }
    id.region
        .map_or("001".to_string(), |r| r.as_str().to_string())
}

/// The zone's metazone at `ms`, from 1970 on (ICU's mappings start there).
fn metazone(id: &str, ms: i64) -> Option<&'static str> {
    const EPOCH_1970: i64 = 0;
    if ms < EPOCH_1970 {
        return None;
    }
    let spans = entry("und", "mzi", 'l', id)?;
    spans.split(';').find_map(|span| {
        let mut fields = span.split(',');
        let (mz, from, to) = (fields.next()?, fields.next()?, fields.next()?);
        let at = |t: &str| -> Option<i64> {
            let civil: jiff::civil::DateTime = t.replace(' ', "T").parse().ok()?;
            civil
                .to_zoned(jiff::tz::TimeZone::UTC)
                .ok()
                .map(|z| z.timestamp().as_millisecond())
        };
        let after_from = from.is_empty() || at(from).is_some_and(|f| ms >= f);
        let before_to = to.is_empty() || at(to).is_some_and(|t| ms < t);
        (after_from && before_to).then_some(mz)
    })
}

/// The localized GMT offset (see the module doc).
pub(crate) fn gmt(tag: &str, offset: i32, short: bool) -> String {
    let format = entry(tag, "tz", 'l', "gmt").unwrap_or("GMT{0}");
    let hour = entry(tag, "tz", 'l', "hour").unwrap_or("+HH:mm;-HH:mm");
    let (positive, negative) = hour.split_once(';').unwrap_or((hour, hour));
    let pattern = if offset < 0 { negative } else { positive };
    let abs = offset.unsigned_abs();
    let (h, m, s) = (abs / 3600, abs / 60 % 60, abs % 60);
    // The short form of a whole hour is the pattern cut after its hour, as ICU derives its
    // hour-only pattern: what follows the minutes goes too (`he`'s `-HH:mm\u{200e}` is
    // `-HH`, so `GMT-8\u{200e}` keeps the one mark of `gmtFormat`).
    let pattern = if short && m == 0 && s == 0 {
        hour_only(pattern)
    } else {
        pattern
    };
    // The pattern's minutes and the separator before them.
    let minutes_at = pattern.find("mm");
    let separator = minutes_at
        .and_then(|i| pattern[..i].chars().last())
        .filter(|c| !matches!(c, 'H'))
        .map(String::from)
        .unwrap_or_default();
    let mut text = String::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            'H' => {
                // ICU writes the long form's hour in two digits and the short form's in
                // one, whatever the pattern's count.
                if chars.peek() == Some(&'H') {
                    chars.next();
                }
                if !short {
                    text.push_str(&format!("{h:02}"));
                } else {
                    text.push_str(&h.to_string());
                }
            }
            'm' => {
                if chars.peek() == Some(&'m') {
                    chars.next();
                }
                if short && m == 0 && s == 0 {
                    // The separator before the minutes goes with them.
                    if !separator.is_empty() && text.ends_with(separator.as_str()) {
                        text.truncate(text.len() - separator.len());
                    }
                } else {
                    text.push_str(&format!("{m:02}"));
                    if s != 0 {
                        text.push_str(&format!("{separator}{s:02}"));
                    }
                }
            }
            c => text.push(c),
        }
    }
    let text = localize_digits(tag, &text);
    format.replace("{0}", &text)
}

/// An offset pattern up to the end of its hour (`+HH:mm` → `+HH`); a pattern without
/// minutes stays whole.
fn hour_only(pattern: &str) -> &str {
    let Some(minutes) = pattern.find("mm") else {
        return pattern;
    };
    match pattern[..minutes].rfind('H') {
        Some(hour) => &pattern[..hour + 1],
        None => pattern,
    }
}

/// ASCII digits written in the locale's numbering system (its `-u-nu-` keyword, else its
/// CLDR default).
fn localize_digits(tag: &str, text: &str) -> String {
    let locale: icu::locale::Locale = tag.parse().unwrap_or(icu::locale::Locale::UNKNOWN);
    let nu = icu::locale::extensions::unicode::key!("nu");
    let system = locale
        .extensions
        .unicode
        .keywords
        .get(&nu)
        .map(|v| v.to_string())
        .or_else(|| entry(tag, "ns", 'l', "default").map(str::to_string))
        .unwrap_or_else(|| "latn".to_string());
    let Some(digits) = entry("und", "nu", 'l', &system) else {
        return text.to_string();
    };
    let digits: Vec<char> = digits.chars().collect();
    if digits.len() != 10 {
        return text.to_string();
    }
    text.chars()
        .map(|c| c.to_digit(10).map_or(c, |d| digits[d as usize]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(tag: &str, iana: &str, id: &str, ms: i64, style: ZoneStyle) -> String {
        let zone = jiff::tz::db().get(iana).expect("a zone");
        zone_name(tag, Some(id), &zone, ms, style).expect("a name")
    }

    #[test]
    fn names_are_cldr_48s() {
        // CLDR 48's Polish has no name for Türkiye's metazone: the long GMT offset.
        assert_eq!(
            name(
                "pl-PL",
                "Europe/Istanbul",
                "Europe/Istanbul",
                1656633599000,
                ZoneStyle::SpecificLong
            ),
            "GMT+03:00"
        );
        assert_eq!(gmt("pt-BR", 3600, true), "GMT+1");
        assert_eq!(gmt("fr-CH", -7 * 3600, true), "UTC−7");
        assert_eq!(gmt("pt-BR", 5 * 3600 + 45 * 60, true), "GMT+5:45");
        assert_eq!(gmt("pl-PL", 9 * 3600, false), "GMT+09:00");
        // A zone without summer time around the date: the standard name for the generic.
        assert_eq!(
            name(
                "vi-VN",
                "Asia/Dhaka",
                "Asia/Dhaka",
                1656633599000,
                ZoneStyle::GenericLong
            ),
            "Giờ Chuẩn Bangladesh"
        );
        // Before 1970, no metazone: the location format with the territory's name.
        assert_eq!(
            name(
                "ko-KR",
                "Asia/Seoul",
                "Asia/Seoul",
                -2208988800000,
                ZoneStyle::GenericShort
            ),
            "대한민국 시간"
        );
        // A whole hour cuts the offset pattern after its hour: one mark, gmtFormat's
        // (seed 43, #228).
        assert_eq!(gmt("he-IL", -8 * 3600, true), "GMT-8\u{200e}");
        // The partial location of a metazone's golden zone in its territory names the
        // territory (seed 8484, #822).
        assert_eq!(
            name(
                "en-GB",
                "Africa/Cairo",
                "Africa/Cairo",
                1656633599000,
                ZoneStyle::GenericShort
            ),
            "EET (Egypt)"
        );
        // The city of the zone id, not CLDR's exemplar city (`St. John’s` in `en`).
        assert_eq!(
            name(
                "en-US",
                "America/St_Johns",
                "America/St_Johns",
                1735689599999,
                ZoneStyle::GenericShort
            ),
            "St Johns Time"
        );
    }

    #[test]
    fn territories_are_cldrs_not_the_bcp_47_ids_letters() {
        // fimhq, jeruslm and ancur say FI, JE and AN; CLDR says AX, IL and CW.
        assert_eq!(territory_of("Europe/Mariehamn").as_deref(), Some("AX"));
        assert_eq!(territory_of("Asia/Jerusalem").as_deref(), Some("IL"));
        assert_eq!(territory_of("America/Curacao").as_deref(), Some("CW"));
        // Troll, absent from CLDR's Windows mapping, by its five-letter id.
        assert_eq!(territory_of("Antarctica/Troll").as_deref(), Some("AQ"));
        // Gabon and Finland have one zone each (gazastrp and fimhq are not theirs).
        assert!(only_zone("GA"));
        assert!(only_zone("FI"));
        assert!(!only_zone("US"));
        let january = 1_705_320_000_000;
        assert_eq!(
            name(
                "en-US",
                "Africa/Libreville",
                "Africa/Libreville",
                january,
                ZoneStyle::GenericShort
            ),
            "Gabon Time"
        );
        assert_eq!(
            name(
                "en-US",
                "Asia/Hong_Kong",
                "Asia/Hong_Kong",
                january,
                ZoneStyle::GenericShort
            ),
            "Hong Kong Time"
        );
    }

    #[test]
    fn a_partial_location_takes_the_worlds_golden_zone_where_the_territory_has_none() {
        let july = 1_721_044_800_000;
        assert_eq!(
            name(
                "es-MX",
                "America/Chicago",
                "America/Chicago",
                july,
                ZoneStyle::GenericLong
            ),
            "hora central (Estados Unidos)"
        );
    }
}
