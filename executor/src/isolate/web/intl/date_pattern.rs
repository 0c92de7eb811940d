//! CLDR date patterns (UTS #35's `y MMM d, h:mm a`) applied to an instant, as ICU's
//! `SimpleDateFormat` writes them for V8: each pattern field becomes an ECMA-402 part
//! (`era`, `year`, `month`, `day`, `weekday`, `dayPeriod`, `hour`, `minute`, `second`,
//! `fractionalSecond`, `timeZoneName`), the text between them one `literal`, numbers in the
//! locale's numbering system, and names from CLDR 48's Gregorian calendar in the executor's
//! CLDR table (`units.data.z`, lines `dn` and `dp`; zone names from [`super::zones`]).
//!
//! The fields, by letter and count:
//!
//! - `G`…`GGG` the abbreviated era, `GGGG` its name, `GGGGG` its narrow form;
//! - `y` the year of the era, `yy` its last two digits, `yyy…` padded to the count; `u` the
//!   extended year (0 is 1 BC);
//! - `M`/`L` the month: one or two digits, `MMM` abbreviated, `MMMM` wide, `MMMMM` narrow,
//!   `M` in the format context, `L` stand-alone;
//! - `d` the day of the month; `E`…`EEE` the abbreviated weekday, `EEEE` wide, `EEEEE`
//!   narrow, `EEEEEE` short (`c` and `e` alike, `c` stand-alone; one or two `c`/`e` the
//!   weekday's number);
//! - `a` AM/PM; `b` AM/PM or noon; `B` the flexible day period (`in the morning`), by the
//!   locale's CLDR rules, noon holding for its whole hour where the pattern has no minutes;
//!   one to three letters abbreviated, four wide, five narrow;
//! - `h` (1–12), `H` (0–23), `K` (0–11), `k` (1–24); `m`, `s`; `S…` the fraction of the
//!   second, truncated to the count;
//! - `z`…`zzz` the short specific zone name, `zzzz` the long; `v` and `vvvv` the generic
//!   ones; `O` and `OOOO` the localized GMT offset; `Z`, `ZZZZ`, `ZZZZZ`, `X…` and `x…` the
//!   ISO and GMT offsets;
//! - `'text'` literal text, `''` an apostrophe; any other character itself.
//!
//! A narrow no-break space (in the pattern or a name) is written as a plain space, as V8
//! writes it.

use icu::datetime::fieldsets::builder::ZoneStyle;
use icu::locale::Locale;

/// A local date and time in the proleptic Gregorian calendar, with its zone offset and the
/// instant it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Moment {
    /// The proleptic Gregorian year: 0 is 1 BC.
    pub year: i32,
    /// 1–12.
    pub month: u8,
    /// 1–31.
    pub day: u8,
    /// 1 is Monday, 7 Sunday.
    pub weekday: u8,
    /// 0–23.
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub millisecond: u16,
    /// The zone's offset from UTC at the instant.
    pub offset_seconds: i32,
    /// The instant, in milliseconds since the epoch.
    pub epoch_ms: i64,
}

impl Moment {
    /// The instant `epoch_ms` at the fixed offset `offset_seconds` (the zone's offset then).
    pub(crate) fn at(epoch_ms: i64, offset_seconds: i32) -> Self {
        let local = epoch_ms + i64::from(offset_seconds) * 1000;
        let (days, in_day) = (local.div_euclid(86_400_000), local.rem_euclid(86_400_000));
        let (year, month, day) = civil_from_days(days);
        Moment {
            year,
            month,
            day,
            // 1970-01-01 was a Thursday.
            weekday: ((days + 3).rem_euclid(7) + 1) as u8,
            hour: (in_day / 3_600_000) as u8,
            minute: (in_day / 60_000 % 60) as u8,
            second: (in_day / 1000 % 60) as u8,
            millisecond: (in_day % 1000) as u16,
            offset_seconds,
            epoch_ms,
        }
    }
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's civil algorithm).
fn civil_from_days(days: i64) -> (i32, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year as i32, month, day)
}

/// The zone a formatter names: its rules, and its CLDR id (`Asia/Calcutta`, `Etc/UTC`;
/// None for a fixed offset, named by its offset only).
#[derive(Clone)]
pub(crate) struct ZoneInfo {
    pub zone: jiff::tz::TimeZone,
    pub id: Option<String>,
}

/// Formats instants through CLDR patterns for one locale (see the module doc).
pub(crate) struct PatternFormatter {
    /// The locale as the table and zone names read it (with its `-u-nu-` keyword).
    tag: String,
    /// The ten digits of the locale's numbering system.
    digits: [char; 10],
    zone: ZoneInfo,
    calendar: Calendar,
}

/// The calendar a formatter counts dates in: the tag's `-u-ca-` where the table holds that
/// calendar's names and patterns for the locale (`units::entry` reads them), else the
/// Gregorian one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Calendar {
    Gregorian,
    /// The Gregorian year plus 543, in one era (`พ.ศ.`), as ICU's Buddhist calendar counts.
    Buddhist,
    /// The Solar Hijri calendar (ICU4X's arithmetic Persian calendar), in one era.
    Persian,
}

impl Calendar {
    /// The calendar a tag names and the table holds (see the type's doc).
    pub(crate) fn of(tag: &str) -> Self {
        let locale: Locale = tag.parse().unwrap_or(Locale::UNKNOWN);
        let ca = icu::locale::extensions::unicode::key!("ca");
        let named = locale
            .extensions
            .unicode
            .keywords
            .get(&ca)
            .map(|v| v.to_string());
        match named.as_deref() {
            Some(c @ "buddhist") if super::units::has_calendar(tag, c) => Calendar::Buddhist,
            Some(c @ "persian") if super::units::has_calendar(tag, c) => Calendar::Persian,
            _ => Calendar::Gregorian,
        }
    }

    /// The proleptic Gregorian date `(year, month, day)` (year 0 is 1 BC) in this calendar:
    /// its era's index in the locale's era names, the year of the era, the extended year
    /// (`u`), the month (1-based) and the day.
    pub(crate) fn date(self, year: i32, month: u8, day: u8) -> CalendarDate {
        match self {
            Calendar::Gregorian => {
                let (era, year_of_era) = if year > 0 { (1, year) } else { (0, 1 - year) };
                CalendarDate {
                    era,
                    year_of_era,
                    year,
                    month,
                    day,
                }
            }
            Calendar::Buddhist => CalendarDate {
                era: 0,
                year_of_era: year + 543,
                year: year + 543,
                month,
                day,
            },
            Calendar::Persian => {
                let converted = icu::calendar::Date::try_new_iso(year, month, day)
                    .map(|d| d.to_calendar(icu::calendar::cal::Persian));
                match converted {
                    Ok(d) => {
                        let year = d.year().extended_year();
                        CalendarDate {
                            era: 0,
                            year_of_era: year,
                            year,
                            month: d.month().ordinal,
                            day: d.day_of_month().0,
                        }
                    }
                    Err(_) => Calendar::Gregorian.date(year, month, day),
                }
            }
        }
    }
}

/// A date's fields in a [`Calendar`] (see [`Calendar::date`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CalendarDate {
    pub era: usize,
    pub year_of_era: i32,
    pub year: i32,
    pub month: u8,
    pub day: u8,
}

impl PatternFormatter {
    /// The formatter for `locale` (its `-u-nu-` keyword, else its CLDR default numbering
    /// system, gives the digits) naming `zone`.
    pub(crate) fn new(locale: &Locale, zone: ZoneInfo) -> Self {
        let tag = locale.to_string();
        let nu = icu::locale::extensions::unicode::key!("nu");
        let system = locale
            .extensions
            .unicode
            .keywords
            .get(&nu)
            .map(|v| v.to_string())
            .or_else(|| super::units::entry(&tag, "ns", 'l', "default").map(str::to_string))
            .unwrap_or_else(|| "latn".to_string());
        let mut digits = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
        if let Some(found) = super::units::entry("und", "nu", 'l', &system) {
            let found: Vec<char> = found.chars().collect();
            if let Ok(found) = <[char; 10]>::try_from(found) {
                digits = found;
            }
        }
        let calendar = Calendar::of(&tag);
        PatternFormatter {
            tag,
            digits,
            zone,
            calendar,
        }
    }

    /// The locale as the table reads it (`zh-TW-u-nu-latn`).
    pub(crate) fn tag(&self) -> &str {
        &self.tag
    }

    /// The locale's style pattern from CLDR 48's Gregorian calendar: `kind` is `date`,
    /// `time`, `glue` or `glue-at`, `style` `full`, `long`, `medium` or `short`.
    pub(crate) fn style_pattern(&self, kind: &str, style: &str) -> Option<&'static str> {
        super::units::entry(&self.tag, "dn", 'p', &format!("{kind}-{style}"))
    }

    /// The instant `m` through `pattern`, as ECMA-402 parts (adjacent literal text joined).
    pub(crate) fn format(&self, pattern: &str, m: &Moment) -> Vec<(&'static str, String)> {
        let fields = parse(pattern);
        let has_minute = fields.iter().any(|f| matches!(f, Piece::Field('m', _)));
        let has_second = fields.iter().any(|f| matches!(f, Piece::Field('s', _)));
        let mut out: Vec<(&'static str, String)> = Vec::new();
        for piece in fields {
            let (kind, text) = match piece {
                Piece::Literal(text) => ("literal", text),
                Piece::Field(letter, count) => {
                    match self.field(letter, count, m, has_minute, has_second) {
                        Some(found) => found,
                        None => continue,
                    }
                }
            };
            // V8 writes CLDR's narrow no-break spaces (`a.\u{202f}m.`, `h:mm\u{202f}a`) as
            // plain ones.
            let text = text.replace('\u{202f}', " ");
            if kind == "literal"
                && let Some(last) = out.last_mut().filter(|p| p.0 == "literal")
            {
                last.1.push_str(&text);
                continue;
            }
            if kind == "literal" && text.is_empty() {
                continue;
            }
            out.push((kind, text));
        }
        out
    }

    /// The number `n` in at least `width` digits of the locale's numbering system.
    fn number(&self, n: u64, width: usize) -> String {
        let ascii = format!("{n:0width$}");
        ascii
            .chars()
            .map(|c| c.to_digit(10).map_or(c, |d| self.digits[d as usize]))
            .collect()
    }

    /// The `index`th (0-based) of the tab-separated names under `field`.
    fn name(&self, field: &str, index: usize) -> Option<String> {
        super::units::entry(&self.tag, "dn", 'l', field)?
            .split('\t')
            .nth(index)
            .map(str::to_string)
    }

    /// The month's or weekday's name: `what` is `months` or `days`, `index` 0-based.
    fn calendar_name(&self, what: &str, standalone: bool, count: usize, index: usize) -> String {
        let width = match count {
            4 => "wide",
            5 => "narrow",
            6 if what == "days" => "short",
            _ => "abbreviated",
        };
        let context = if standalone { "stand-alone" } else { "format" };
        self.name(&format!("{what}:{context}:{width}"), index)
            .or_else(|| self.name(&format!("{what}:format:{width}"), index))
            .unwrap_or_default()
    }

    fn field(
        &self,
        letter: char,
        count: usize,
        m: &Moment,
        has_minute: bool,
        has_second: bool,
    ) -> Option<(&'static str, String)> {
        let date = self.calendar.date(m.year, m.month, m.day);
        let (era, year_of_era) = (date.era, u64::from(date.year_of_era.unsigned_abs()));
        Some(match letter {
            'G' => {
                let width = match count {
                    4 => "names",
                    5 => "narrow",
                    _ => "abbr",
                };
                let name = self
                    .name(&format!("eras:{width}"), era)
                    .unwrap_or_else(|| ["BC", "AD"][era].to_string());
                ("era", name)
            }
            'y' | 'Y' => {
                let text = if count == 2 {
                    self.number(year_of_era % 100, 2)
                } else {
                    self.number(year_of_era, count)
                };
                ("year", text)
            }
            'u' => {
                let text = self.number(u64::from(date.year.unsigned_abs()), count);
                let sign = if date.year < 0 { "-" } else { "" };
                ("year", format!("{sign}{text}"))
            }
            'M' | 'L' => {
                let text = if count <= 2 {
                    self.number(u64::from(date.month), count)
                } else {
                    let index = usize::from(date.month) - 1;
                    self.calendar_name("months", letter == 'L', count, index)
                };
                ("month", text)
            }
            'd' => ("day", self.number(u64::from(date.day), count)),
            'E' | 'c' | 'e' => {
                // CLDR lists the names from Sunday; the moment counts from Monday.
                let index = usize::from(m.weekday % 7);
                if letter != 'E' && count <= 2 {
                    ("weekday", self.number(u64::from(m.weekday), count))
                } else {
                    let count = if letter == 'E' { count } else { count.max(3) };
                    let name = self.calendar_name("days", letter == 'c', count, index);
                    ("weekday", name)
                }
            }
            'a' | 'b' | 'B' => (
                "dayPeriod",
                self.day_period(letter, count, m, has_minute, has_second),
            ),
            'h' => (
                "hour",
                self.number(u64::from((m.hour + 11) % 12 + 1), count),
            ),
            'H' => ("hour", self.number(u64::from(m.hour), count)),
            'K' => ("hour", self.number(u64::from(m.hour % 12), count)),
            'k' => {
                let hour = if m.hour == 0 { 24 } else { m.hour };
                ("hour", self.number(u64::from(hour), count))
            }
            'm' => ("minute", self.number(u64::from(m.minute), count)),
            's' => ("second", self.number(u64::from(m.second), count)),
            'S' => {
                let mut digits = format!("{:03}", m.millisecond);
                while digits.len() < count {
                    digits.push('0');
                }
                digits.truncate(count);
                let n: u64 = digits.parse().unwrap_or(0);
                ("fractionalSecond", self.number(n, count))
            }
            'z' | 'v' | 'O' | 'Z' | 'X' | 'x' | 'V' => {
                ("timeZoneName", self.zone_name(letter, count, m))
            }
            _ => return None,
        })
    }

    /// The day period (`a`, `b` or `B`, see the module doc).
    fn day_period(
        &self,
        letter: char,
        count: usize,
        m: &Moment,
        has_minute: bool,
        has_second: bool,
    ) -> String {
        let widths: &[char] = match count {
            4 => &['l', 's'],
            5 => &['n', 's'],
            _ => &['s', 'l'],
        };
        let named = |period: &str| -> Option<String> {
            widths
                .iter()
                .find_map(|w| super::units::entry(&self.tag, "dp", *w, period))
                .map(str::to_string)
        };
        let am_pm = if m.hour < 12 { "am" } else { "pm" };
        // ICU's abbreviated AM/PM names are an alias of the locale's wide ones where the
        // locale has none of its own: CLDR's resolved JSON shows the root's `AM`/`PM` there
        // (`ko`: `오후` on the reference, `PM` in the JSON's abbreviated width). Thai has
        // its own `AM`/`PM`, which the resolved JSON cannot tell apart (`5 PM` on the
        // reference, against the wide `หลังเที่ยง`).
        let own_am_pm = self.tag.split('-').next() == Some("th");
        let named_am_pm = || -> Option<String> {
            let name = named(am_pm)?;
            if widths[0] == 's' && !own_am_pm && matches!(name.as_str(), "AM" | "PM") {
                let wide = super::units::entry(&self.tag, "dp", 'l', am_pm);
                return Some(wide.map_or(name, str::to_string));
            }
            Some(name)
        };
        let minute = if has_minute { m.minute } else { 0 };
        let second = if has_second { m.second } else { 0 };
        let at_noon = m.hour == 12 && minute == 0 && second == 0;
        let rule = |period: &str| self.rule(period);
        let flexible = match letter {
            'b' if at_noon && rule("noon").is_some() => named("noon"),
            'B' => {
                if at_noon && rule("noon").is_some() {
                    named("noon")
                } else {
                    self.flexible_period(m).and_then(named)
                }
            }
            _ => None,
        };
        flexible
            .or_else(named_am_pm)
            .unwrap_or_else(|| am_pm.to_uppercase())
    }

    /// A day period's rule (`300-480`, `@720`): CLDR gives them by language (`zh` for
    /// `zh-Hant`, whose CLDR parent is the root).
    fn rule(&self, period: &str) -> Option<&'static str> {
        super::units::entry(&self.tag, "dp", 'r', period).or_else(|| {
            let language = self.tag.split('-').next().unwrap_or_default();
            super::units::entry(language, "dp", 'r', period)
        })
    }

    /// The locale's CLDR flexible period (`morning1`…) holding at the moment's minute.
    fn flexible_period(&self, m: &Moment) -> Option<&'static str> {
        const PERIODS: [&str; 8] = [
            "morning1",
            "morning2",
            "afternoon1",
            "afternoon2",
            "evening1",
            "evening2",
            "night1",
            "night2",
        ];
        let minute = u32::from(m.hour) * 60 + u32::from(m.minute);
        PERIODS.into_iter().find(|period| {
            let Some(rule) = self.rule(period) else {
                return false;
            };
            let Some((from, before)) = rule.split_once('-') else {
                return false;
            };
            let (Ok(from), Ok(before)) = (from.parse::<u32>(), before.parse::<u32>()) else {
                return false;
            };
            if from < before {
                (from..before).contains(&minute)
            } else {
                minute >= from || minute < before
            }
        })
    }

    /// The zone's name for `letter` and `count` (see the module doc).
    fn zone_name(&self, letter: char, count: usize, m: &Moment) -> String {
        let offset = m.offset_seconds;
        let style = match (letter, count) {
            ('z', 4) => Some(ZoneStyle::SpecificLong),
            ('z', _) => Some(ZoneStyle::SpecificShort),
            ('v', 4) => Some(ZoneStyle::GenericLong),
            ('v', _) => Some(ZoneStyle::GenericShort),
            ('O', 4) | ('Z', 4) => Some(ZoneStyle::LocalizedOffsetLong),
            ('O', _) => Some(ZoneStyle::LocalizedOffsetShort),
            _ => None,
        };
        if let Some(style) = style {
            let short = matches!(
                style,
                ZoneStyle::SpecificShort
                    | ZoneStyle::GenericShort
                    | ZoneStyle::LocalizedOffsetShort
            );
            return super::zones::zone_name(
                &self.tag,
                self.zone.id.as_deref(),
                &self.zone.zone,
                m.epoch_ms,
                style,
            )
            .unwrap_or_else(|| super::zones::gmt(&self.tag, offset, short));
        }
        iso_offset(letter, count, offset)
    }
}

/// An ISO 8601 offset (`Z…`, `X…`, `x…`): `-0800`, `-08:00`; `X` writes `Z` for UTC.
fn iso_offset(letter: char, count: usize, offset: i32) -> String {
    if letter == 'X' && offset == 0 {
        return "Z".to_string();
    }
    if letter == 'Z' && count == 5 && offset == 0 {
        return "Z".to_string();
    }
    let sign = if offset < 0 { '-' } else { '+' };
    let abs = offset.unsigned_abs();
    let (h, mi) = (abs / 3600, abs / 60 % 60);
    let extended = match letter {
        'Z' => count == 5,
        _ => count == 3 || count == 5,
    };
    if matches!(letter, 'X' | 'x') && count == 1 {
        return if mi == 0 {
            format!("{sign}{h:02}")
        } else {
            format!("{sign}{h:02}{mi:02}")
        };
    }
    if extended {
        format!("{sign}{h:02}:{mi:02}")
    } else {
        format!("{sign}{h:02}{mi:02}")
    }
}

/// A piece of a parsed pattern.
#[derive(Debug, PartialEq, Eq)]
enum Piece {
    Literal(String),
    Field(char, usize),
}

/// The pattern's fields (a run of one ASCII letter) and literal text.
fn parse(pattern: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut literal = String::new();
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    let mut quoted = false;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            if chars.get(i + 1) == Some(&'\'') {
                literal.push('\'');
                i += 2;
                continue;
            }
            quoted = !quoted;
            i += 1;
            continue;
        }
        if !quoted && c.is_ascii_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i] == c {
                i += 1;
            }
            if !literal.is_empty() {
                out.push(Piece::Literal(std::mem::take(&mut literal)));
            }
            out.push(Piece::Field(c, i - start));
            continue;
        }
        literal.push(c);
        i += 1;
    }
    if !literal.is_empty() {
        out.push(Piece::Literal(literal));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formatter(tag: &str, zone: &str) -> PatternFormatter {
        let locale: Locale = tag.parse().expect("a locale");
        let info = ZoneInfo {
            zone: jiff::tz::db().get(zone).expect("a zone"),
            id: Some(zone.to_string()),
        };
        PatternFormatter::new(&locale, info)
    }

    fn text(parts: &[(&'static str, String)]) -> String {
        parts.iter().map(|p| p.1.as_str()).collect()
    }

    /// 2024-03-05 14:07:09.045 UTC, a Tuesday.
    const MS: i64 = 1_709_647_629_045;

    #[test]
    fn moments_are_proleptic_gregorian() {
        let m = Moment::at(MS, 0);
        assert_eq!(
            (
                m.year,
                m.month,
                m.day,
                m.weekday,
                m.hour,
                m.minute,
                m.second,
                m.millisecond
            ),
            (2024, 3, 5, 2, 14, 7, 9, 45)
        );
        // 0001-01-01 was a Monday; the day before it is 1 BC (year 0), a Sunday.
        let m = Moment::at(-62_135_596_800_000 - 86_400_000, 0);
        assert_eq!((m.year, m.month, m.day, m.weekday), (0, 12, 31, 7));
        // An offset moves the local date.
        let m = Moment::at(0, -3600);
        assert_eq!((m.year, m.month, m.day, m.hour), (1969, 12, 31, 23));
    }

    #[test]
    fn fields_become_ecma_402_parts() {
        let f = formatter("en-US", "UTC");
        let parts = f.format("EEEE, MMMM d, y 'at' h:mm:ss\u{202f}a", &Moment::at(MS, 0));
        assert_eq!(
            parts,
            vec![
                ("weekday", "Tuesday".to_string()),
                ("literal", ", ".to_string()),
                ("month", "March".to_string()),
                ("literal", " ".to_string()),
                ("day", "5".to_string()),
                ("literal", ", ".to_string()),
                ("year", "2024".to_string()),
                ("literal", " at ".to_string()),
                ("hour", "2".to_string()),
                ("literal", ":".to_string()),
                ("minute", "07".to_string()),
                ("literal", ":".to_string()),
                ("second", "09".to_string()),
                ("literal", " ".to_string()),
                ("dayPeriod", "PM".to_string()),
            ]
        );
        let m = Moment::at(MS, 0);
        assert_eq!(text(&f.format("M/d/yy, HH:mm.SS", &m)), "3/5/24, 14:07.04");
        assert_eq!(
            text(&f.format("MMMMM LLL ccc EEEEE EEEEEE", &m)),
            "M Mar Tue T Tu"
        );
        assert_eq!(
            text(&f.format("GGGG G GGGGG yyyy", &m)),
            "Anno Domini AD A 2024"
        );
        assert_eq!(
            text(&f.format("K k 'o''clock' ''", &Moment::at(0, 0))),
            "0 24 o'clock '"
        );
        let bc = Moment::at(-62_198_755_200_000, 0);
        assert_eq!(text(&f.format("y G", &bc)), "2 BC");
    }

    #[test]
    fn names_and_digits_are_the_locales() {
        let m = Moment::at(MS, 0);
        assert_eq!(
            text(&formatter("de", "UTC").format("EEEE, d. MMMM y", &m)),
            "Dienstag, 5. März 2024"
        );
        assert_eq!(
            text(&formatter("ar-EG", "UTC").format("d/M/y", &m)),
            "٥/٣/٢٠٢٤"
        );
        assert_eq!(
            text(&formatter("ru", "UTC").format("LLLL MMMM", &m)),
            "март марта"
        );
        assert_eq!(
            text(&formatter("en-US-u-nu-deva", "UTC").format("H:mm", &m)),
            "१४:०७"
        );
    }

    #[test]
    fn day_periods_follow_cldr_48s_rules() {
        let f = formatter("en", "UTC");
        let at = |h: i64, mi: i64| Moment::at(h * 3_600_000 + mi * 60_000, 0);
        assert_eq!(text(&f.format("h B", &at(9, 0))), "9 in the morning");
        assert_eq!(text(&f.format("h B", &at(12, 30))), "12 noon");
        assert_eq!(
            text(&f.format("h:mm B", &at(12, 30))),
            "12:30 in the afternoon"
        );
        assert_eq!(text(&f.format("h:mm BBBBB", &at(23, 0))), "11:00 at night");
        assert_eq!(text(&f.format("h b", &at(12, 0))), "12 noon");
        assert_eq!(text(&f.format("h aaaaa", &at(1, 0))), "1 a");
        // ICU's abbreviated AM/PM is the wide name where the locale has no abbreviated one.
        assert_eq!(
            text(&formatter("ko-KR", "UTC").format("a h", &at(19, 0))),
            "오후 7"
        );
        // Rules by language: `zh-Hant`'s CLDR parent is the root.
        let hant = formatter("zh-TW", "UTC");
        assert_eq!(text(&hant.format("Bh:mm", &at(5, 45))), "清晨5:45");
        assert_eq!(text(&hant.format("Bh:mm", &at(12, 0))), "中午12:00");
        // V8 writes CLDR's narrow no-break spaces as plain ones.
        assert_eq!(
            text(&formatter("es-AR", "UTC").format("h a", &at(2, 0))),
            "2 a. m."
        );
    }

    #[test]
    fn zones_are_named_from_cldr_48() {
        let f = formatter("en-US", "America/Los_Angeles");
        let m = Moment::at(MS, -8 * 3600);
        assert_eq!(text(&f.format("h:mm a z", &m)), "6:07 AM PST");
        assert_eq!(text(&f.format("zzzz", &m)), "Pacific Standard Time");
        assert_eq!(
            text(&f.format("O|OOOO|vvvv", &m)),
            "GMT-8|GMT-08:00|Pacific Time"
        );
        assert_eq!(
            text(&f.format("Z|ZZZZZ|X|XXX", &m)),
            "-0800|-08:00|-08|-08:00"
        );
        assert_eq!(f.format("z", &m)[0].0, "timeZoneName");
    }

    #[test]
    fn buddhist_and_persian_dates_are_counted_in_their_calendars() {
        assert_eq!(
            Calendar::Buddhist.date(2024, 3, 5),
            CalendarDate {
                era: 0,
                year_of_era: 2567,
                year: 2567,
                month: 3,
                day: 5
            }
        );
        // Nowruz 1403 fell on 2024-03-20; 2021-01-01 was 12 Dey 1399.
        let persian = |y, m, d| {
            let c = Calendar::Persian.date(y, m, d);
            (c.era, c.year_of_era, c.month, c.day)
        };
        assert_eq!(persian(2024, 3, 20), (0, 1403, 1, 1));
        assert_eq!(persian(2024, 3, 19), (0, 1402, 12, 29));
        assert_eq!(persian(2021, 1, 1), (0, 1399, 10, 12));
        assert_eq!(Calendar::Gregorian.date(0, 1, 1).year_of_era, 1);
        // The calendar is the tag's where the table holds it for the locale.
        assert_eq!(Calendar::of("th-TH-u-ca-buddhist"), Calendar::Buddhist);
        assert_eq!(Calendar::of("fa-u-ca-persian"), Calendar::Persian);
        assert_eq!(Calendar::of("th-TH"), Calendar::Gregorian);
        assert_eq!(Calendar::of("en-u-ca-persian"), Calendar::Gregorian);
    }

    #[test]
    fn calendar_fields_take_the_calendars_names() {
        let m = Moment::at(MS, 0);
        let th = formatter("th-TH-u-ca-buddhist", "UTC");
        assert_eq!(text(&th.format("d/M/yy G y", &m)), "5/3/67 พ.ศ. 2567");
        let fa = formatter("fa-IR-u-ca-persian", "UTC");
        assert_eq!(
            text(&fa.format("y MMMM d, EEEE", &m)),
            "۱۴۰۲ اسفند ۱۵, سه‌شنبه"
        );
        assert_eq!(text(&fa.format("MMMMM G", &m)), "ا ه\u{200d}.ش.");
    }

    #[test]
    fn style_patterns_are_cldr_48s() {
        let f = formatter("de", "UTC");
        assert_eq!(f.style_pattern("date", "medium"), Some("dd.MM.y"));
        assert_eq!(f.style_pattern("glue-at", "full"), Some("{1} 'um' {0}"));
        assert_eq!(
            formatter("en", "UTC").style_pattern("time", "short"),
            Some("h:mm\u{202f}a")
        );
    }
}
