//! What a region prefers, for `Intl.Locale`'s `getWeekInfo`, `getTimeZones` and
//! `getHourCycles`: CLDR's week data through ICU4X (`icu::calendar::week`), the zones of a
//! region from ICU4X's time zone data, and CLDR's time data (the reference's release, in
//! `supplemental.data`). `intl.js` picks the region (the `-u-rg-` override, the tag's own, or the
//! likely one) and reads the `fw` keyword; these functions answer for the region.

use icu::calendar::week::WeekInformation;
use icu::locale::Locale;

use super::datetime::location_zones;

/// The region's first day of the week and its weekend, as ISO weekday numbers (Monday 1 …
/// Sunday 7), answered as "first weekend…" (`"7 6 7"`: Sunday first, Saturday and Sunday
/// off), so that no array a program may have tainted is built here.
pub(crate) fn week_info(region: &str) -> String {
    let locale: Locale = format!("und-{region}").parse().unwrap_or(Locale::UNKNOWN);
    let Ok(week) = WeekInformation::try_new((&locale).into()) else {
        return "1 6 7".to_string();
    };
    let mut weekend: Vec<u8> = week.weekend().map(|d| d as u8).collect();
    weekend.sort_unstable();
    let mut out = (week.first_weekday as u8).to_string();
    for d in weekend {
        out.push(' ');
        out.push_str(&d.to_string());
    }
    out
}

/// The hour cycle a language in a region prefers, as ICU's pattern generator reads CLDR's
/// time data: the language and region's own entry (`ca-ES`), else the region's, else the
/// world's (`001`: 23 hours).
pub(crate) fn hour_cycle(language: &str, region: &str) -> &'static str {
    let mut own = None;
    let mut regional = None;
    let mut world = None;
    let pair = format!("{language}-{region}");
    for line in super::plurals::DATA.lines() {
        let mut fields = line.split('\t');
        if fields.next() != Some("h") {
            continue;
        }
        let (Some(key), Some(symbol)) = (fields.next(), fields.next()) else {
            continue;
        };
        if key == pair {
            own = Some(symbol);
        } else if key == region {
            regional = Some(symbol);
        } else if key == "001" {
            world = Some(symbol);
        }
    }
    match own.or(regional).or(world) {
        Some("h") => "h12",
        Some("K") => "h11",
        Some("k") => "h24",
        _ => "h23",
    }
}

/// The canonical location zones of a region (`US` → `America/Adak` … `Pacific/Honolulu`),
/// as [`location_zones`] lists them; empty for a region with none or a numeric region.
///
/// The region of a zone is the one its CLDR identifier names: CLDR's short time zone ids
/// (`usnyc`, `gblon`, `cnsha`) begin with the ISO 3166 code of the zone's region (UTS #35,
/// "Time Zone Identifiers"), except the three ids CLDR gave before that convention,
/// [`OLDER_IDS`]; the non-geographic ones (`utc`, `utcw05`, `est5edt`) have no `/` in
/// their names and are left out, as ICU leaves them out of a region's list.
///
/// The world, `001`, has the zones of no country: the reference answers the canonical zones
/// ICU's zone table (`zoneinfo64`) files under `001`, [`WORLD_ZONES`].
pub(crate) fn time_zones(region: &str) -> String {
    if region == "001" {
        return WORLD_ZONES.join(" ");
    }
    let code = region.to_ascii_lowercase();
    if code.len() != 2 || !code.bytes().all(|b| b.is_ascii_lowercase()) {
        return String::new();
    }
    let region_of = |id: &str| -> String {
        OLDER_IDS.iter().find(|(old, _)| *old == id).map_or_else(
            || id.get(..2).unwrap_or("").to_string(),
            |(_, r)| r.to_string(),
        )
    };
    location_zones(|id| region_of(id) == code)
}

/// The canonical zones of region `001` in ICU's zone table, as the reference lists them
/// (`new Intl.Locale("en-001").getTimeZones()`, recorded): the fixed-offset `Etc` zones, the
/// POSIX-rule zones tzdata keeps (`EST5EDT`; `EST`, `MST` and `HST` are links to countries'
/// zones since tzdata 2024b), and ICU's own `Factory` and `SystemV/*` zones, which CLDR does
/// not carry (hence a list, not a rule over CLDR's ids).
const WORLD_ZONES: [&str; 46] = [
    "CST6CDT",
    "EST5EDT",
    "Etc/GMT",
    "Etc/GMT+1",
    "Etc/GMT+10",
    "Etc/GMT+11",
    "Etc/GMT+12",
    "Etc/GMT+2",
    "Etc/GMT+3",
    "Etc/GMT+4",
    "Etc/GMT+5",
    "Etc/GMT+6",
    "Etc/GMT+7",
    "Etc/GMT+8",
    "Etc/GMT+9",
    "Etc/GMT-1",
    "Etc/GMT-10",
    "Etc/GMT-11",
    "Etc/GMT-12",
    "Etc/GMT-13",
    "Etc/GMT-14",
    "Etc/GMT-2",
    "Etc/GMT-3",
    "Etc/GMT-4",
    "Etc/GMT-5",
    "Etc/GMT-6",
    "Etc/GMT-7",
    "Etc/GMT-8",
    "Etc/GMT-9",
    "Etc/UTC",
    "Factory",
    "MST7MDT",
    "PST8PDT",
    "SystemV/AST4",
    "SystemV/AST4ADT",
    "SystemV/CST6",
    "SystemV/CST6CDT",
    "SystemV/EST5",
    "SystemV/EST5EDT",
    "SystemV/HST10",
    "SystemV/MST7",
    "SystemV/MST7MDT",
    "SystemV/PST8",
    "SystemV/PST8PDT",
    "SystemV/YST9",
    "SystemV/YST9YDT",
];

/// CLDR's short time zone ids that do not begin with their region's code (Gaza, Hebron and
/// Jerusalem: `jeruslm` would read as Jersey), with the region CLDR's `timezone.xml` gives
/// their zones.
const OLDER_IDS: [(&str, &str); 3] = [("gazastrp", "ps"), ("hebron", "ps"), ("jeruslm", "il")];

#[cfg(test)]
mod tests {
    use super::{hour_cycle, time_zones};

    #[test]
    fn the_world_has_icus_region_free_zones() {
        // duration seeds 59 and 83: `new Intl.Locale("en-001").getTimeZones()`.
        let zones = time_zones("001");
        let zones: Vec<&str> = zones.split(' ').collect();
        assert_eq!(zones.len(), 46);
        assert_eq!(zones[..3], ["CST6CDT", "EST5EDT", "Etc/GMT"]);
        assert!(zones.contains(&"Factory") && zones.contains(&"SystemV/YST9YDT"));
        assert_eq!(time_zones("419"), "");
        assert!(time_zones("NZ").contains("Pacific/Auckland"));
    }

    #[test]
    fn hour_cycles_follow_the_region_and_the_language_region_pairs() {
        assert_eq!(hour_cycle("en", "US"), "h12");
        assert_eq!(hour_cycle("en", "GB"), "h23");
        assert_eq!(hour_cycle("am", "ET"), "h12");
        assert_eq!(hour_cycle("am", "001"), "h23");
        assert_eq!(hour_cycle("eo", "001"), "h23");
        // `fr-CA` and `en-001` have entries of their own, other pairs take the region's.
        assert_eq!(hour_cycle("fr", "CA"), "h23");
        assert_eq!(hour_cycle("en", "CA"), "h12");
        assert_eq!(hour_cycle("en", "001"), "h12");
        assert_eq!(hour_cycle("de", "001"), "h23");
        assert_eq!(hour_cycle("xx", "ZZ"), "h23");
    }
}
