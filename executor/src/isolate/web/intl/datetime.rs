//! `Intl.DateTimeFormat`'s formatting on ICU4X: the date and time styles and the component
//! options mapped onto ICU4X's semantic field sets, in the locale's calendar, numbering
//! system and hour cycle; time zones from the IANA database (bundled by `jiff`) for the
//! offset at each instant, and ICU4X's CLDR names for the zone's name.

use icu::calendar::types::RataDie;
use icu::calendar::{Date, Gregorian, Iso};
use icu::datetime::DateTimeFormatter;
use icu::datetime::fieldsets::builder::{DateFields, FieldSetBuilder, ZoneStyle};
use icu::datetime::fieldsets::enums::TimeFieldSet;
use icu::datetime::fieldsets::enums::{CompositeFieldSet, DateFieldSet};
use icu::datetime::options::{Alignment, Length, SubsecondDigits, TimePrecision, YearStyle};
use icu::datetime::pattern::{
    DateTimePattern, DayPeriodNameLength, FixedCalendarDateTimeNames, MonthNameLength,
    WeekdayNameLength,
};
use icu::locale::Locale;
use icu::time::zone::{IanaParser, UtcOffset, ZoneNameTimestamp};
use icu::time::{Time, TimeZone, ZonedDateTime};
use rquickjs::class::Trace;
use rquickjs::{Array, Ctx, JsLifetime, Object};
use writeable::TryWriteable;

use super::date_pattern::{Moment, PatternFormatter, ZoneInfo};
use super::parts::{Nesting, Parts};

/// One `Intl.DateTimeFormat`'s formatter and its time zone.
#[derive(Trace, JsLifetime)]
#[rquickjs::class(rename = "DateFormatter")]
pub(crate) struct DateFormatter {
    #[qjs(skip_trace)]
    formatter: DateTimeFormatter<CompositeFieldSet>,
    #[qjs(skip_trace)]
    zone: jiff::tz::TimeZone,
    #[qjs(skip_trace)]
    icu_zone: TimeZone,
    /// The weekday in its own width, when it differs from the one the date's length gives.
    #[qjs(skip_trace)]
    weekday: Option<DateTimeFormatter<CompositeFieldSet>>,
    /// Fields the field set prints that the options did not ask for (ICU4X prints the hour
    /// and minute with seconds, and the era of years before 1), removed from the output.
    #[qjs(skip_trace)]
    unasked: Vec<&'static str>,
    /// A weekday with a time and no other date field: joined by a space, as V8 does.
    #[qjs(skip_trace)]
    weekday_time: bool,
    /// `dayPeriod` alone (no hour): the flexible day period ("in the morning"), which
    /// ICU4X's field sets cannot ask for, formatted from a `B` pattern instead.
    #[qjs(skip_trace)]
    day_period: Option<DayPeriodOnly>,
    /// V8's numeric date (`yMd`), where it differs from ICU4X's pattern.
    #[qjs(skip_trace)]
    numeric_date: Option<NumericDate>,
    /// The digits of a numeric hour, where V8's pattern differs from ICU4X's (1 or 2).
    #[qjs(skip_trace)]
    hour_digits: Option<usize>,
    /// The AM/PM names, where V8's pattern prints them and ICU4X's the flexible day period.
    #[qjs(skip_trace)]
    am_pm: Option<DayPeriodOnly>,
    /// `am`/`pm` in lower case (`en-IN`).
    #[qjs(skip_trace)]
    lower_am_pm: bool,
    /// Traditional Chinese: V8's date-time glue is a plain space where ICU4X's is a thin one.
    #[qjs(skip_trace)]
    hant: bool,
    /// Korean.
    #[qjs(skip_trace)]
    korean: bool,
    /// Arabic and Urdu zone names: V8's have no direction marks (`غرينتش+١`, `GMT -8`) where
    /// ICU4X's offsets carry them (`غرينتش\u{61c}+١`).
    #[qjs(skip_trace)]
    strip_zone_marks: bool,
    /// The narrow weekday names and the pattern `EEEEE`, for `weekday: "narrow"`: ICU4X's
    /// field sets print the short name there (`Fr` where V8 prints `F`).
    #[qjs(skip_trace)]
    narrow_weekday: Option<NarrowNames>,
    /// The narrow month names and the pattern (`LLLLL` alone, `MMMMM` in a date), for
    /// `month: "narrow"` in the Gregorian calendar: ICU4X's field sets print the long name.
    #[qjs(skip_trace)]
    narrow_month: Option<NarrowNames>,
    /// The year in two digits (`year: "2-digit"`, or a short date style whose pattern has
    /// `yy`): ICU4X writes the whole year outside the century around now (`01.01.1900`
    /// where V8 writes `01.01.00`).
    #[qjs(skip_trace)]
    two_digit_year: bool,
    /// `hourCycle: "h24"`: midnight's hour is 24 (ICU4X formats on `h23`).
    #[qjs(skip_trace)]
    h24: bool,
    /// The time formatted apart from the date, where ICU4X cannot combine the two.
    #[qjs(skip_trace)]
    time_after_date: Option<TimeAfterDate>,
    /// The locale as CLDR's table names it (`en-US`), for its date interval fallback.
    #[qjs(skip_trace)]
    tag: String,
    /// The zone name's style, named from CLDR 48's zone data (`zones.rs`) in place of
    /// ICU4X's CLDR 49 names; None where no zone name shows or the locale formats as the
    /// root (`pa`, whose names on the reference are not CLDR's Punjabi ones).
    #[qjs(skip_trace)]
    zone_style: Option<ZoneStyle>,
    /// The zone's CLDR id (`Asia/Calcutta`, `Etc/UTC`, `Etc/GMT` for `+00:00`); None for
    /// another fixed offset, which ICU names by its offset only.
    #[qjs(skip_trace)]
    cldr_zone: Option<String>,
    /// The CLDR 48 pattern V8 picks for Gregorian component options (`skeleton.rs`, and a
    /// time alone in the Buddhist calendar); None for styles and other calendars.
    #[qjs(skip_trace)]
    pattern: Option<String>,
    /// The CLDR 48 pattern formatter (`date_pattern.rs`) that formats `pattern` in the
    /// Gregorian calendar; None elsewhere (ICU4X formats).
    #[qjs(skip_trace)]
    pattern_formatter: Option<super::date_pattern::PatternFormatter>,
    /// The skeleton of V8's pattern for these options, for `formatRange`'s interval
    /// patterns (`date_range.rs`); None where ranges keep the fallback (another calendar, a
    /// zone name, seconds…).
    #[qjs(skip_trace)]
    range_skeleton: Option<String>,
    /// The CLDR 48 pattern formatter a range's fallback writes its ends with, through the
    /// generator's pattern for the interval format's skeleton; None without a range
    /// skeleton.
    #[qjs(skip_trace)]
    range_formatter: Option<PatternFormatter>,
    /// A date or time style in the Gregorian calendar: CLDR 48's pattern for it (see
    /// [`style_pattern`]) and the formatter that applies it, in place of ICU4X's field sets.
    #[qjs(skip_trace)]
    styled: Option<(PatternFormatter, String)>,
}

/// The pattern V8 formats a date and time style with, from CLDR 48's Gregorian calendar, as
/// ICU's `DateFormat` builds it: the date style's pattern, the time style's, or both joined
/// by the date style's date-time glue: its `atTime` variant where CLDR has one (`{1} 'at'
/// {0}`; `sw-KE`'s medium `{1}, {0}` against the plain `{1} {0}`, measured on the
/// reference), else the plain one. Where the pattern's hour cycle differs from `cycle`, V8's
/// `DateTimeStylePattern` asks ICU's pattern generator for the pattern's skeleton in that
/// cycle (`skeleton::style_skeleton`; the hour's length matched) and puts the cycle's hour
/// letter into the answer: `ko`'s `a h시 m분 s초 zzzz` on h23 is `H시 m분 s초 zzzz`, `tr`'s
/// `HH:mm:ss z` on h12 `a hh:mm:ss z`. None where the table lacks a pattern.
fn style_pattern(
    f: &PatternFormatter,
    locale: &Locale,
    date_style: Option<&str>,
    time_style: Option<&str>,
    cycle: Option<&str>,
    gregorian: bool,
) -> Option<String> {
    let date = match date_style {
        Some(style) => Some(f.style_pattern("date", style)?),
        None => None,
    };
    let time = match time_style {
        Some(style) => Some(f.style_pattern("time", style)?),
        None => None,
    };
    let pattern = glued(f, date, time, date_style)?;
    if let Some(time) = time
        && let Some(cycle) = cycle
    {
        let own = match pattern_hour(time)?.0 {
            'h' => "h12",
            'H' => "h23",
            'K' => "h11",
            _ => "h24",
        };
        if cycle != own {
            // The table holds the Gregorian calendar's patterns and names only: another
            // calendar's generator answers a 12-hour clock differently (`th`'s Buddhist
            // `h:mm:ss a zzzz` prints the root's `PM`, `fa`'s Persian appends `(z)`), left
            // to ICU4X.
            if !gregorian && matches!(cycle, "h11" | "h12") {
                return None;
            }
            let skeleton = super::skeleton::style_skeleton(&pattern, cycle);
            let best = super::skeleton::best_pattern(
                &locale.to_string(),
                &skeleton,
                &decimal_separator(locale),
                default_hour(locale),
            );
            return Some(super::skeleton::with_cycle(&best, Some(cycle)));
        }
    }
    Some(pattern)
}

/// The date style's pattern, the time style's, or both joined by the date style's glue.
fn glued(
    f: &PatternFormatter,
    date: Option<&str>,
    time: Option<&str>,
    date_style: Option<&str>,
) -> Option<String> {
    match (date, time, date_style) {
        (Some(date), Some(time), Some(style)) => {
            let mut glue = f
                .style_pattern("glue-at", style)
                .or_else(|| f.style_pattern("glue", style))?;
            // Traditional Chinese: CLDR 48's JSON joins the two without a space, where the
            // reference writes one (`2024年1月1日 星期一 上午11:00`).
            if glue == "{1}{0}" && f.tag().starts_with("zh") {
                glue = "{1} {0}";
            }
            Some(glue.replace("{1}", date).replace("{0}", time))
        }
        (Some(date), None, _) => Some(date.to_string()),
        (None, Some(time), _) => Some(time.to_string()),
        _ => None,
    }
}

/// How V8 writes a numeric date (`{year, month, day}: "numeric"`): the padding of the day
/// and the month.
#[derive(Clone, Copy)]
struct NumericDate {
    pad_day: bool,
    pad_month: bool,
}

/// The locales whose numeric date (CLDR's `yMd` skeleton, which V8's ICU matches in
/// `availableFormats`) differs from ICU4X's year-month-day pattern, with V8's padding
/// (day, month), measured on the reference (`formatToParts` of 2024-01-05 over the probe's
/// 48 locales). ICU4X's compiled data has no `availableFormats`: its field sets carry the
/// date styles' patterns, which pad where `yMd` does not (`de`: `dd.MM.y` against `d.M.y`).
const NUMERIC_DATES: [(&str, bool, bool); 14] = [
    ("en-IN", false, false),
    ("de", false, false),
    ("es-MX", false, false),
    ("nl", false, false),
    ("pl", false, true),
    ("tr", true, true),
    ("te", false, false),
    ("ja", false, false),
    ("vi", false, false),
    ("id", false, false),
    ("ms", false, false),
    ("sw", false, false),
    ("am", false, false),
    ("cs", false, false),
];

/// V8's numeric date for `locale`, where it differs from ICU4X's.
fn numeric_date(locale: &Locale) -> Option<NumericDate> {
    let language = locale.id.language.as_str();
    let regional = locale
        .id
        .region
        .map(|r| format!("{language}-{}", r.as_str()));
    NUMERIC_DATES
        .iter()
        .find(|(tag, ..)| Some(*tag) == regional.as_deref())
        .or_else(|| NUMERIC_DATES.iter().find(|(tag, ..)| *tag == language))
        .map(|&(_, pad_day, pad_month)| NumericDate { pad_day, pad_month })
}

/// Whether `c` is a zero digit of a decimal digit block (Latin, Arabic-Indic, Devanagari…).
pub(crate) fn is_zero(c: char) -> bool {
    matches!(
        c,
        '0' | '\u{660}'
            | '\u{6f0}'
            | '\u{966}'
            | '\u{9e6}'
            | '\u{a66}'
            | '\u{ae6}'
            | '\u{b66}'
            | '\u{be6}'
            | '\u{c66}'
            | '\u{ce6}'
            | '\u{d66}'
            | '\u{e50}'
            | '\u{ed0}'
            | '\u{f20}'
            | '\u{1040}'
            | '\u{17e0}'
    )
}

/// A numeric field written with `digits` digits (1: a leading zero dropped; 2: the zero of
/// the digit's own script added before a single digit).
fn repad(text: &mut String, digits: usize) {
    let chars: Vec<char> = text.chars().collect();
    if digits == 1 && chars.len() == 2 && is_zero(chars[0]) {
        text.remove(0);
    } else if digits == 2 && chars.len() == 1 {
        // The zero digits of the blocks are more than ten code points apart.
        let zero = (0..10u32)
            .filter_map(|k| (chars[0] as u32).checked_sub(k).and_then(char::from_u32))
            .find(|z| is_zero(*z));
        if let Some(zero) = zero {
            text.insert(0, zero);
        }
    }
}

/// The names and the pattern (`B`, `BBBB` or `BBBBB`) of a day period formatted alone:
/// ICU4X's, or, where its compiled data has no flexible day periods for the locale, the
/// reference's CLDR periods (rules and names from the executor's CLDR table).
enum DayPeriodOnly {
    Icu4x {
        names: FixedCalendarDateTimeNames<(), TimeFieldSet>,
        pattern: DateTimePattern,
    },
    /// The periods, and whether a period at one instant (noon) holds for its whole hour
    /// (no minutes shown: ICU's rule for `B` without minute and second fields).
    Cldr(Vec<(Span, &'static str)>, bool),
}

/// When a CLDR day period applies: a span of minutes of the day `[from, before)` (wrapping
/// past midnight when `before <= from`), or one minute (`noon` at 720).
#[derive(Clone, Copy)]
enum Span {
    Between(u32, u32),
    At(u32),
}

impl DayPeriodOnly {
    /// For `dayPeriod` (`narrow`, `short` or `long`) when it is the only time field.
    fn new(locale: &Locale, width: &str) -> rquickjs::Result<Self> {
        let (length, pattern, am_pm, key) = match width {
            "narrow" => (DayPeriodNameLength::Narrow, "BBBBB", "aaaaa", 'n'),
            "long" => (DayPeriodNameLength::Wide, "BBBB", "aaaa", 'l'),
            _ => (DayPeriodNameLength::Abbreviated, "B", "a", 's'),
        };
        let mut names = FixedCalendarDateTimeNames::<(), TimeFieldSet>::try_new(locale.into())
            .map_err(failure)?;
        names.include_day_period_names(length).map_err(failure)?;
        let pattern: DateTimePattern = pattern.parse().map_err(failure)?;
        let am_pm: DateTimePattern = am_pm.parse().map_err(failure)?;
        // Where ICU4X's compiled data has no flexible day periods for the locale (en, fr,
        // ja… have none there; de and zh-Hant do), `B` falls back to AM/PM: the reference's
        // CLDR periods answer instead, and a language CLDR gives no periods either (ak, sd)
        // prints AM/PM in the width, as ICU's `B` does on the reference (`ANW`, `anw`).
        let flexible = (0..24u8).any(|h| {
            Time::try_new(h, 0, 0, 0)
                .is_ok_and(|t| write(&names, &pattern, &t) != write(&names, &am_pm, &t))
        });
        if flexible {
            return Ok(DayPeriodOnly::Icu4x { names, pattern });
        }
        let periods = Self::cldr(locale, key);
        if periods.is_empty() {
            return Ok(DayPeriodOnly::Icu4x { names, pattern });
        }
        Ok(DayPeriodOnly::Cldr(periods, true))
    }

    /// The locale's CLDR day periods with their names in the width (`l`, `s`, `n`), the
    /// midnight period left out as ICU leaves it out of `B`.
    fn cldr(locale: &Locale, width: char) -> Vec<(Span, &'static str)> {
        let tag = locale.id.to_string();
        let periods = [
            "noon",
            "morning1",
            "morning2",
            "afternoon1",
            "afternoon2",
            "evening1",
            "evening2",
            "night1",
            "night2",
        ];
        let mut out = Vec::new();
        for period in periods {
            let Some(rule) = super::units::entry(&tag, "dp", 'r', period) else {
                continue;
            };
            let span = if let Some(at) = rule.strip_prefix('@') {
                at.parse().ok().map(Span::At)
            } else {
                rule.split_once('-')
                    .and_then(|(a, b)| Some(Span::Between(a.parse().ok()?, b.parse().ok()?)))
            };
            let name = super::units::entry(&tag, "dp", width, period);
            if let (Some(span), Some(name)) = (span, name) {
                out.push((span, name));
            }
        }
        out
    }

    /// The abbreviated AM/PM names (pattern `a`). V8's `zh-Hant` patterns print these where
    /// ICU4X's newer CLDR data prints flexible day periods (`凌晨`, `中午`; measured on the
    /// reference: `上午1:00:00` where ICU4X writes `凌晨1:00:00`).
    fn am_pm(locale: &Locale) -> rquickjs::Result<Self> {
        let mut names = FixedCalendarDateTimeNames::<(), TimeFieldSet>::try_new(locale.into())
            .map_err(failure)?;
        names
            .include_day_period_names(DayPeriodNameLength::Abbreviated)
            .map_err(failure)?;
        let pattern: DateTimePattern = "a".parse().map_err(failure)?;
        Ok(DayPeriodOnly::Icu4x { names, pattern })
    }

    fn format(&self, time: &Time) -> String {
        match self {
            DayPeriodOnly::Icu4x { names, pattern } => write(names, pattern, time),
            DayPeriodOnly::Cldr(periods, whole_hour) => {
                let minute = u32::from(time.hour.number()) * 60 + u32::from(time.minute.number());
                let exact = time.second.number() == 0 && time.subsecond.number() == 0;
                let at = periods.iter().find(|(span, _)| match span {
                    Span::At(m) if *whole_hour => m / 60 == minute / 60,
                    Span::At(m) => *m == minute && exact,
                    _ => false,
                });
                let within = periods.iter().find(|(span, _)| match *span {
                    Span::Between(from, before) if from < before => {
                        (from..before).contains(&minute)
                    }
                    Span::Between(from, before) => minute >= from || minute < before,
                    Span::At(_) => false,
                });
                at.or(within)
                    .map(|(_, name)| name.to_string())
                    .unwrap_or_default()
            }
        }
    }
}

/// The hour field of a CLDR pattern, quoted text left out: its letter and digits (`HH:mm` →
/// (`H`, 2), `h:mm a` → (`h`, 1)).
fn pattern_hour(pattern: &str) -> Option<(char, usize)> {
    let mut quoted = false;
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\'' {
            quoted = !quoted;
        } else if !quoted && matches!(c, 'h' | 'H' | 'k' | 'K') {
            return Some((c, if chars.peek() == Some(&c) { 2 } else { 1 }));
        }
    }
    None
}

/// The locale with the hour cycle of its CLDR 48 short time pattern (ICU's default: `h:mm a`
/// makes `es-AR` h12, where ICU4X's CLDR 49 data has a 24-hour clock; `HH 'h' mm` keeps
/// `fr-CA` on h23), where it names none.
fn preferred_cycle(mut locale: Locale) -> Locale {
    let hc = icu::locale::extensions::unicode::key!("hc");
    if locale.extensions.unicode.keywords.get(&hc).is_some() || locale.id.language.as_str() == "und"
    {
        return locale;
    }
    let short = super::units::entry(&locale.to_string(), "dn", 'p', "time-short");
    let cycle = match short.and_then(pattern_hour) {
        Some(('h', _)) => "h12",
        Some(('H', _)) => "h23",
        Some(('K', _)) => "h11",
        Some(('k', _)) => "h24",
        _ => return locale,
    };
    if let Ok(value) = cycle.parse() {
        locale.extensions.unicode.keywords.set(hc, value);
    }
    locale
}

/// The CLDR 48 pattern for Gregorian component options, as V8 asks ICU's pattern generator
/// for it (`skeleton.rs`): the options' skeleton, the hour cycle the options name
/// (`skeletonCycle`: hour12, hourCycle or the locale's `-u-hc`, else the locale's own `j`),
/// the locale's decimal separator before fractional seconds.
fn component_pattern(locale: &Locale, o: &Object) -> rquickjs::Result<String> {
    let mut options = Vec::new();
    for key in [
        "weekday",
        "era",
        "year",
        "month",
        "day",
        "dayPeriod",
        "hour",
        "minute",
        "second",
        "timeZoneName",
    ] {
        if let Some(v) = text(o, key)? {
            options.push((key, v));
        }
    }
    if let Some(n) = o.get::<_, Option<f64>>("fractionalSecondDigits")? {
        options.push(("fractionalSecondDigits", (n as u32).to_string()));
    }
    let cycle = text(o, "skeletonCycle")?;
    let tag = locale.to_string();
    let default_hour = default_hour(locale);
    let skeleton = super::skeleton::skeleton(
        |k| {
            options
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.clone())
        },
        cycle.as_deref(),
    );
    let pattern =
        super::skeleton::best_pattern(&tag, &skeleton, &decimal_separator(locale), default_hour);
    Ok(super::skeleton::with_cycle(&pattern, cycle.as_deref()))
}

/// The hour letter `j` stands for in the locale's pattern generator: its `-u-hc` (the
/// executor sets it from the short time pattern, and to h12 for the Punjabi that formats as
/// the root), else the short time pattern's hour.
fn default_hour(locale: &Locale) -> char {
    let hc = icu::locale::extensions::unicode::key!("hc");
    let keyword = locale
        .extensions
        .unicode
        .keywords
        .get(&hc)
        .map(|v| v.to_string());
    match keyword.as_deref() {
        Some("h11") => 'K',
        Some("h12") => 'h',
        Some("h23") => 'H',
        Some("h24") => 'k',
        _ => super::units::entry(&locale.to_string(), "dn", 'p', "time-short")
            .and_then(pattern_hour)
            .map(|(c, _)| c)
            .unwrap_or('H'),
    }
}

/// The locale's decimal separator in its numbering system (the `-u-nu-` keyword's, else
/// the locale's default): the text ICU4X writes between the digits of 1.5, Arabic-Indic
/// digits taking the Arabic separator where ICU4X's data has none for the locale (ICU falls
/// back to the root's: `en-u-nu-arab` writes `٠٦٫٧٨٩`).
fn decimal_separator(locale: &Locale) -> String {
    let Ok(f) = icu::decimal::DecimalFormatter::try_new(locale.into(), Default::default()) else {
        return ".".to_string();
    };
    let mut half = fixed_decimal::Decimal::from(15);
    half.multiply_pow10(-1);
    let text: Vec<char> = f.format_to_string(&half).chars().collect();
    if text.len() < 3 {
        return ".".to_string();
    }
    let separator: String = text[1..text.len() - 1].iter().collect();
    if separator == "." && ('\u{660}'..='\u{669}').contains(&text[0]) {
        return "\u{66b}".to_string();
    }
    separator
}

/// Whether the resolved options ask for a date field.
fn fields_have_date(o: &Object) -> rquickjs::Result<bool> {
    for k in ["weekday", "year", "month", "day"] {
        if text(o, k)?.is_some() {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The literal the locale's date-time pattern puts between the date of these options and an
/// hour, when the date comes first: ICU4X's own glue, read off a formatted date and hour.
fn date_time_glue(locale: &Locale, o: &Object) -> rquickjs::Result<Option<String>> {
    glue_of(locale, builder(o)?)
}

/// The glue of [`date_time_glue`] for the field set builder `b`'s date.
fn glue_of(locale: &Locale, mut b: FieldSetBuilder) -> rquickjs::Result<Option<String>> {
    b.zone_style = None;
    b.time_precision = Some(TimePrecision::Hour);
    let Ok(set) = b.build_composite() else {
        return Ok(None);
    };
    let f = DateTimeFormatter::try_new(locale.into(), set).map_err(failure)?;
    let date = Date::try_new_iso(2024, 1, 5).map_err(failure)?;
    let time = Time::try_new(15, 0, 0, 0).map_err(failure)?;
    let zone = TimeZone::UNKNOWN
        .with_offset(UtcOffset::try_from_seconds(0).ok())
        .with_zone_name_timestamp(ZoneNameTimestamp::from_epoch_seconds(0));
    let zoned: ZonedDateTime<Iso, _> = ZonedDateTime { date, time, zone };
    let pieces = Parts::of(&f.format(&zoned)).pieces(Nesting::Outer);
    let is_date = |k: &str| matches!(k, "year" | "month" | "day" | "weekday" | "era");
    let is_time = |k: &str| matches!(k, "hour" | "dayPeriod");
    for w in pieces.windows(3) {
        if is_date(w[0].0) && w[1].0 == "literal" && is_time(w[2].0) {
            return Ok(Some(w[1].1.replace('\u{202f}', " ")));
        }
    }
    Ok(None)
}

/// `time` through `pattern` with `names`.
fn write(
    names: &FixedCalendarDateTimeNames<(), TimeFieldSet>,
    pattern: &DateTimePattern,
    time: &Time,
) -> String {
    let mut out = String::new();
    let _ = names
        .with_pattern_unchecked(pattern)
        .format(time)
        .try_write_to(&mut out);
    out
}

fn text(o: &Object, key: &str) -> rquickjs::Result<Option<String>> {
    o.get::<_, Option<String>>(key)
}

fn failure(what: impl std::fmt::Display) -> rquickjs::Error {
    rquickjs::Error::new_from_js_message("Intl", "DateTimeFormat", what.to_string())
}

/// The IANA zone a `timeZone` option names, case-insensitively: its database entry.
pub(crate) fn zone(name: &str) -> Option<jiff::tz::TimeZone> {
    jiff::tz::db().get(name).ok()
}

/// A time formatter and the glue before it, for component options ICU4X's field sets cannot
/// combine (a year or a month without a day, with a time: `nov. 2024, 18:00` on the
/// reference): the date and the time formatted apart and joined by the locale's date-time
/// glue, as ICU joins a date skeleton's pattern and a time skeleton's.
type TimeAfterDate = (DateTimeFormatter<CompositeFieldSet>, String);

/// The date-only field set and the [`TimeAfterDate`] for options whose composite field set
/// ICU4X refuses; None when the options do not hold both a date and a time.
fn split_date_time(
    locale: &Locale,
    o: &Object,
) -> rquickjs::Result<Option<(CompositeFieldSet, TimeAfterDate)>> {
    let b = builder(o)?;
    if b.date_fields.is_none() || b.time_precision.is_none() {
        return Ok(None);
    }
    let mut date = b.clone();
    date.time_precision = None;
    date.zone_style = None;
    let mut time = b.clone();
    time.date_fields = None;
    time.year_style = None;
    let date = date.build_composite().map_err(failure)?;
    let time = time.build_composite().map_err(failure)?;
    let time = DateTimeFormatter::try_new(locale.into(), time).map_err(failure)?;
    // The glue of the whole date in the same length (ICU4X has none for a year or a month
    // alone with a time).
    let mut whole = b;
    whole.date_fields = Some(DateFields::YMD);
    whole.year_style = Some(YearStyle::Full);
    let glue = glue_of(locale, whole)?.unwrap_or_else(|| " ".to_string());
    Ok(Some((date, (time, glue))))
}

/// Narrow names ICU4X's field sets do not print, and the pattern that prints them alone.
type NarrowNames = (
    FixedCalendarDateTimeNames<Gregorian, DateFieldSet>,
    DateTimePattern,
);

/// The locale's names that `include` loads, with `pattern` (`EEEEE`, `LLLLL`, `MMMMM`).
fn narrow_names(
    locale: &Locale,
    pattern: &str,
    include: impl FnOnce(
        &mut FixedCalendarDateTimeNames<Gregorian, DateFieldSet>,
    ) -> Result<(), icu::datetime::pattern::PatternLoadError>,
) -> rquickjs::Result<NarrowNames> {
    let mut names = FixedCalendarDateTimeNames::<Gregorian, DateFieldSet>::try_new(locale.into())
        .map_err(failure)?;
    include(&mut names).map_err(failure)?;
    Ok((names, pattern.parse().map_err(failure)?))
}

/// Whether `formatter` writes 2024 in two digits (a short date style's `yy`).
fn short_year(formatter: &DateTimeFormatter<CompositeFieldSet>) -> rquickjs::Result<bool> {
    let date = Date::try_new_iso(2024, 1, 5).map_err(failure)?;
    let time = Time::try_new(15, 0, 0, 0).map_err(failure)?;
    let zone = TimeZone::UNKNOWN
        .with_offset(UtcOffset::try_from_seconds(0).ok())
        .with_zone_name_timestamp(ZoneNameTimestamp::from_epoch_seconds(0));
    let zoned: ZonedDateTime<Iso, _> = ZonedDateTime { date, time, zone };
    Ok(Parts::of(&formatter.format(&zoned))
        .pieces(Nesting::Outer)
        .iter()
        .any(|(k, v)| *k == "year" && v.chars().count() == 2))
}

/// The field set for the resolved component options (or styles).
fn field_set(o: &Object) -> rquickjs::Result<CompositeFieldSet> {
    builder(o)?.build_composite().map_err(failure)
}

/// The field set builder for the resolved component options (or styles).
fn builder(o: &Object) -> rquickjs::Result<FieldSetBuilder> {
    let mut b = FieldSetBuilder::new();
    let date_style = text(o, "dateStyle")?;
    let time_style = text(o, "timeStyle")?;
    if date_style.is_some() || time_style.is_some() {
        if let Some(style) = &date_style {
            let (fields, length) = match style.as_str() {
                "full" => (DateFields::YMDE, Length::Long),
                "long" => (DateFields::YMD, Length::Long),
                "medium" => (DateFields::YMD, Length::Medium),
                _ => (DateFields::YMD, Length::Short),
            };
            b.date_fields = Some(fields);
            b.length = Some(length);
            // The Buddhist calendar's full dates name the era (`วันอังคารที่ 29 กุมภาพันธ์
            // พ.ศ. 2543` on the reference; its long ones do not), which ICU4X's automatic
            // year style leaves out.
            if style == "full" && text(o, "calendar")?.as_deref() == Some("buddhist") {
                b.year_style = Some(YearStyle::WithEra);
            }
        }
        if let Some(style) = &time_style {
            let (precision, zone) = match style.as_str() {
                "full" => (TimePrecision::Second, Some(ZoneStyle::SpecificLong)),
                "long" => (TimePrecision::Second, Some(ZoneStyle::SpecificShort)),
                "medium" => (TimePrecision::Second, None),
                _ => (TimePrecision::Minute, None),
            };
            b.time_precision = Some(precision);
            b.zone_style = zone;
            if b.length.is_none() {
                b.length = Some(Length::Medium);
            }
        }
    } else {
        let weekday = text(o, "weekday")?;
        let year = text(o, "year")?;
        let month = text(o, "month")?;
        let day = text(o, "day")?;
        let (y, m, d, e) = (
            year.is_some(),
            month.is_some(),
            day.is_some(),
            weekday.is_some(),
        );
        let fields = match (y, m, d, e) {
            (false, false, false, false) => None,
            (true, false, false, false) => Some(DateFields::Y),
            (false, true, false, false) => Some(DateFields::M),
            (false, false, true, false) => Some(DateFields::D),
            (false, false, false, true) => Some(DateFields::E),
            (true, true, false, false) => Some(DateFields::YM),
            (false, true, true, false) => Some(DateFields::MD),
            (false, false, true, true) => Some(DateFields::DE),
            (false, true, _, true) => Some(DateFields::MDE),
            (true, _, _, true) => Some(DateFields::YMDE),
            _ => Some(DateFields::YMD),
        };
        b.date_fields = fields;
        let length = match month.as_deref() {
            Some("long") | Some("narrow") => Length::Long,
            Some("short") => Length::Medium,
            Some(_) => Length::Short,
            None => match weekday.as_deref() {
                Some("long") => Length::Long,
                Some("short") => Length::Medium,
                _ => Length::Short,
            },
        };
        b.length = Some(length);
        if fields.is_some_and(|f| {
            matches!(
                f,
                DateFields::Y | DateFields::YM | DateFields::YMD | DateFields::YMDE
            )
        }) {
            b.year_style = Some(if text(o, "era")?.is_some() {
                YearStyle::WithEra
            } else if year.as_deref() == Some("2-digit") {
                YearStyle::Auto
            } else {
                YearStyle::Full
            });
        }
        if month.as_deref() == Some("2-digit")
            || day.as_deref() == Some("2-digit")
            || text(o, "hour")?.as_deref() == Some("2-digit")
        {
            b.alignment = Some(Alignment::Column);
        }
        let fractional = o.get::<_, Option<f64>>("fractionalSecondDigits")?;
        let precision = if let Some(n) = fractional {
            Some(TimePrecision::Subsecond(match n as u8 {
                1 => SubsecondDigits::S1,
                2 => SubsecondDigits::S2,
                _ => SubsecondDigits::S3,
            }))
        } else if text(o, "second")?.is_some() {
            Some(TimePrecision::Second)
        } else if text(o, "minute")?.is_some() {
            Some(TimePrecision::Minute)
        } else if text(o, "hour")?.is_some() {
            Some(TimePrecision::Hour)
        } else {
            None
        };
        b.time_precision = precision;
        b.zone_style = match text(o, "timeZoneName")?.as_deref() {
            Some("long") => Some(ZoneStyle::SpecificLong),
            Some("short") => Some(ZoneStyle::SpecificShort),
            Some("shortOffset") => Some(ZoneStyle::LocalizedOffsetShort),
            Some("longOffset") => Some(ZoneStyle::LocalizedOffsetLong),
            Some("shortGeneric") => Some(ZoneStyle::GenericShort),
            Some("longGeneric") => Some(ZoneStyle::GenericLong),
            _ => None,
        };
    }
    Ok(b)
}

impl DateFormatter {
    /// The formatter for `locale` (with its `-u-ca-`, `-u-nu-` and `-u-hc-` keywords) and the
    /// resolved options; `timeZone` names an IANA zone.
    pub fn new(locale: &str, o: &Object) -> rquickjs::Result<Self> {
        let mut locale = preferred_cycle(super::formatting_locale(locale));
        // A calendar the table holds for the locale (th's Buddhist, fa's Persian) formats
        // through its CLDR 48 patterns as the Gregorian one does: the tag names it, for the
        // table's lookups (`units::entry`) and the pattern formatter's dates.
        let held_calendar = text(o, "calendar")?.filter(|c| {
            matches!(c.as_str(), "buddhist" | "persian")
                && super::units::has_calendar(&locale.to_string(), c)
        });
        if let Some(c) = &held_calendar
            && let Ok(value) = c.parse()
        {
            let ca = icu::locale::extensions::unicode::key!("ca");
            locale.extensions.unicode.keywords.set(ca, value);
        }
        let has = |k: &str| -> rquickjs::Result<bool> { Ok(text(o, k)?.is_some()) };
        let styled = has("dateStyle")? || has("timeStyle")?;
        let alone = !styled
            && [
                "weekday", "era", "year", "month", "day", "hour", "minute", "second",
            ]
            .iter()
            .map(|k| text(o, k))
            .collect::<rquickjs::Result<Vec<_>>>()?
            .iter()
            .all(Option::is_none)
            && o.get::<_, Option<f64>>("fractionalSecondDigits")?.is_none();
        let day_period = match text(o, "dayPeriod")? {
            Some(width) if alone => Some(DayPeriodOnly::new(&locale, &width)?),
            _ => None,
        };
        let mut time_after_date = None;
        // A date with a zone name and no time: V8 joins the two as a date and a time, with
        // the locale's date-time glue (`14. Feb. 2009, GMT+6`, `2024年6月16日 GMT+9`), where
        // ICU4X's date-zone patterns differ (a numeric date, the zone first).
        let zone_apart = !styled
            && has("timeZoneName")?
            && !has("hour")?
            && !has("minute")?
            && !has("second")?
            && o.get::<_, Option<f64>>("fractionalSecondDigits")?.is_none()
            && fields_have_date(o)?;
        let fields = if day_period.is_some() {
            let mut b = FieldSetBuilder::new();
            b.time_precision = Some(TimePrecision::Hour);
            b.build_composite().map_err(failure)?
        } else if zone_apart {
            let mut date = builder(o)?;
            let mut zone = FieldSetBuilder::new();
            zone.zone_style = date.zone_style.take();
            let zone = zone.build_composite().map_err(failure)?;
            let zone = DateTimeFormatter::try_new((&locale).into(), zone).map_err(failure)?;
            let glue = date_time_glue(&locale, o)?.unwrap_or_else(|| " ".to_string());
            time_after_date = Some((zone, glue));
            date.build_composite().map_err(failure)?
        } else {
            match field_set(o) {
                Ok(fields) => fields,
                Err(refused) => {
                    let (date, time) = split_date_time(&locale, o)?.ok_or(refused)?;
                    time_after_date = Some(time);
                    date
                }
            }
        };
        let formatter = DateTimeFormatter::try_new((&locale).into(), fields).map_err(failure)?;
        let two_digit_year = text(o, "year")?.as_deref() == Some("2-digit")
            || (text(o, "dateStyle")?.as_deref() == Some("short") && short_year(&formatter)?);
        let gregorian = text(o, "calendar")?.is_none_or(|c| c == "gregory");
        let patterned = gregorian || held_calendar.is_some();
        let narrow_month = if gregorian && text(o, "month")?.as_deref() == Some("narrow") {
            let alone = !has("year")? && !has("day")?;
            let (length, pattern) = if alone {
                (MonthNameLength::StandaloneNarrow, "LLLLL")
            } else {
                (MonthNameLength::Narrow, "MMMMM")
            };
            Some(narrow_names(&locale, pattern, |names| {
                names.include_month_names(length).map(|_| ())
            })?)
        } else {
            None
        };
        let weekday = weekday_formatter(&locale, o)?;
        let narrow_weekday = if text(o, "weekday")?.as_deref() == Some("narrow") {
            Some(narrow_names(&locale, "EEEEE", |names| {
                names
                    .include_weekday_names(WeekdayNameLength::Narrow)
                    .map(|_| ())
            })?)
        } else {
            None
        };
        let mut unasked = Vec::new();
        if !styled {
            for (field, key) in [
                ("era", "era"),
                ("hour", "hour"),
                ("minute", "minute"),
                ("dayPeriod", "hour"),
            ] {
                if text(o, key)?.is_none() {
                    unasked.push(field);
                }
            }
        }
        let weekday_time = !styled
            && has("weekday")?
            && !has("year")?
            && !has("month")?
            && !has("day")?
            && has("hour")?;
        let name = text(o, "timeZone")?.unwrap_or_else(|| "UTC".to_string());
        let zone = offset_zone(&name)
            .or_else(|| zone(&name))
            .ok_or_else(|| failure(format!("unknown time zone {name}")))?;
        let icu_zone = IanaParser::new().parse(zone.iana_name().unwrap_or(&name));
        let numeric =
            |k: &str| -> rquickjs::Result<bool> { Ok(text(o, k)?.as_deref() == Some("numeric")) };
        let numeric_date = if !styled
            && numeric("year")?
            && numeric("month")?
            && numeric("day")?
            && !has("weekday")?
            && !has("era")?
        {
            numeric_date(&locale)
        } else {
            None
        };
        let mut hour_digits = o
            .get::<_, Option<f64>>("hourDigits")?
            .map(|n| if n >= 2.0 { 2 } else { 1 });
        // A styled hour keeps the digits of the locale's CLDR 48 time pattern when an hour
        // cycle replaces the pattern's (`de`'s `HH:mm:ss` on h12: `04:13:20 AM`; `es-MX`'s
        // `h:mm:ss a`: `1:56:56 a.m.`), but a 24-hour clock replacing a 12-hour pattern's
        // hour pads it (`el`'s `h:mm a` on h23: `02:31`).
        if let Some(style) = text(o, "timeStyle")?
            && locale.id.language.as_str() != "und"
            && let Some((letter, digits)) =
                super::units::entry(&locale.to_string(), "dn", 'p', &format!("time-{style}"))
                    .and_then(pattern_hour)
        {
            let hc = icu::locale::extensions::unicode::key!("hc");
            let cycle = locale
                .extensions
                .unicode
                .keywords
                .get(&hc)
                .map(|v| v.to_string());
            let twelve = matches!(letter, 'h' | 'K');
            let to_24 = matches!(cycle.as_deref(), Some("h23" | "h24"));
            hour_digits = Some(if twelve && to_24 { 2 } else { digits });
        }
        let hant = locale.id.language.as_str() == "zh"
            && (locale.id.script.is_some_and(|s| s.as_str() == "Hant")
                || locale
                    .id
                    .region
                    .is_some_and(|r| matches!(r.as_str(), "TW" | "HK" | "MO")));
        // With a style, V8's zh-Hant patterns print the flexible periods too.
        let am_pm = if hant && !styled && has("hour")? {
            Some(DayPeriodOnly::am_pm(&locale)?)
        } else if let Some(width) = text(o, "dayPeriod")?.filter(|_| !styled && !alone) {
            // An hour with a flexible period (`12 in the morning`) where ICU4X's data has
            // none for the locale: its AM/PM replaced by the reference's CLDR period.
            match DayPeriodOnly::new(&locale, &width) {
                Ok(DayPeriodOnly::Cldr(periods, _)) => {
                    Some(DayPeriodOnly::Cldr(periods, !has("minute")?))
                }
                _ => None,
            }
        } else {
            None
        };
        let lower_am_pm = locale.id.language.as_str() == "en"
            && locale.id.region.is_some_and(|r| r.as_str() == "IN");
        let zone_style = if day_period.is_some() || locale.id.language.as_str() == "pa" {
            None
        } else {
            builder(o)?.zone_style
        };
        let cldr_zone = if name == "+00:00" {
            Some("Etc/GMT".to_string())
        } else if offset_zone(&name).is_some() {
            None
        } else {
            let parsed = icu::time::zone::iana::IanaParserExtended::new()
                .parse(zone.iana_name().unwrap_or(&name));
            match parsed.canonical {
                "" => None,
                "UTC" | "Etc/UTC" => Some("Etc/UTC".to_string()),
                c => Some(icu_name(c).to_string()),
            }
        };
        // A time style alone shows no calendar field: its pattern serves every calendar.
        let styled_pattern = if styled && (patterned || !has("dateStyle")?) {
            let info = ZoneInfo {
                zone: zone.clone(),
                id: cldr_zone.clone(),
            };
            let f = PatternFormatter::new(&locale, info);
            let cycle = text(o, "hourCycle")?;
            style_pattern(
                &f,
                &locale,
                text(o, "dateStyle")?.as_deref(),
                text(o, "timeStyle")?.as_deref(),
                cycle.as_deref(),
                gregorian,
            )
            .map(|pattern| (f, pattern))
        } else {
            None
        };
        let pattern = if patterned && !styled {
            Some(component_pattern(&locale, o)?)
        } else {
            None
        };
        let range_skeleton = if patterned {
            range_skeleton(&locale.to_string(), o, pattern.as_deref())?
        } else {
            None
        };
        let range_formatter = range_skeleton.as_ref().map(|_| {
            PatternFormatter::new(
                &locale,
                ZoneInfo {
                    zone: zone.clone(),
                    id: cldr_zone.clone(),
                },
            )
        });
        // Every component pattern is written by the pattern formatter, as ICU writes it: its
        // era names, glue and literals are the reference's (`después de Cristo`, `domingo,
        // 00:00`, `2024년 11월 3일`), where ICU4X's field sets differ.
        let pattern_formatter = pattern.as_ref().filter(|_| patterned).map(|_| {
            super::date_pattern::PatternFormatter::new(
                &locale,
                super::date_pattern::ZoneInfo {
                    zone: zone.clone(),
                    id: cldr_zone.clone(),
                },
            )
        });
        Ok(DateFormatter {
            styled: styled_pattern,
            range_skeleton,
            range_formatter,
            formatter,
            zone,
            icu_zone,
            weekday,
            unasked,
            weekday_time,
            day_period,
            numeric_date,
            hour_digits,
            am_pm,
            lower_am_pm,
            hant,
            korean: locale.id.language.as_str() == "ko",
            strip_zone_marks: matches!(locale.id.language.as_str(), "ar" | "ur"),
            time_after_date,
            narrow_weekday,
            narrow_month,
            two_digit_year,
            h24: text(o, "hourCycle")?.as_deref() == Some("h24"),
            tag: locale.to_string(),
            zone_style,
            cldr_zone,
            pattern,
            pattern_formatter,
        })
    }

    /// The instant `ms` in the formatter's zone: its ISO date, time and UTC offset (seconds).
    /// Beyond jiff's years (±9999; ECMAScript's time values reach ±275,760), the offset is
    /// the zone's at the nearest instant jiff holds and the date is counted in days.
    /// An instant's local fields in the formatter's zone, for `formatRange`.
    fn local_fields_of(&self, ms: f64) -> rquickjs::Result<super::date_range::Local> {
        let (date, time, _) = self.local(ms)?;
        // In the formatter's calendar: a range's pattern writes these.
        let date = super::date_pattern::Calendar::of(&self.tag).date(
            date.year().extended_year(),
            date.month().ordinal,
            date.day_of_month().0,
        );
        Ok(super::date_range::Local {
            year: date.year,
            month: date.month,
            day: date.day,
            hour: time.hour.number(),
            minute: time.minute.number(),
            second: time.second.number(),
            millisecond: (time.subsecond.number() / 1_000_000) as u16,
        })
    }

    fn local(&self, ms: f64) -> rquickjs::Result<(Date<Iso>, Time, i32)> {
        let ms = ms as i64;
        if let Ok(ts) = jiff::Timestamp::from_millisecond(ms) {
            let local = ts.to_zoned(self.zone.clone());
            let date = Date::try_new_iso(
                i32::from(local.year()),
                local.month() as u8,
                local.day() as u8,
            )
            .map_err(failure)?;
            let time = Time::try_new(
                local.hour() as u8,
                local.minute() as u8,
                local.second() as u8,
                local.subsec_nanosecond() as u32,
            )
            .map_err(failure)?;
            return Ok((date, time, local.offset().seconds()));
        }
        // The zone's rules at the same point of the 400-year Gregorian cycle (146,097 days,
        // whole weeks) inside jiff's years, as ICU applies the zone's last rule for ever.
        const CYCLE: i64 = 146_097 * 86_400_000;
        let cycles = if ms > 0 {
            (ms - jiff::Timestamp::MAX.as_millisecond()).div_euclid(CYCLE) + 1
        } else {
            -((jiff::Timestamp::MIN.as_millisecond() - ms).div_euclid(CYCLE) + 1)
        };
        let offset = jiff::Timestamp::from_millisecond(ms - cycles * CYCLE)
            .map(|ts| ts.to_zoned(self.zone.clone()).offset().seconds())
            .unwrap_or_default();
        let local = ms + i64::from(offset) * 1000;
        let (days, in_day) = (local.div_euclid(86_400_000), local.rem_euclid(86_400_000));
        // Rata Die 719,163 is 1970-01-01.
        let date = Date::from_rata_die(RataDie::new(719_163 + days), Iso);
        let time = Time::try_new(
            (in_day / 3_600_000) as u8,
            (in_day / 60_000 % 60) as u8,
            (in_day / 1000 % 60) as u8,
            (in_day % 1000 * 1_000_000) as u32,
        )
        .map_err(failure)?;
        Ok((date, time, offset))
    }

    /// The instant `ms` (milliseconds since the epoch) formatted, as parts.
    fn format_parts(&self, ms: f64) -> rquickjs::Result<Vec<(&'static str, String)>> {
        self.format_parts_with(ms, true)
    }

    /// The parts, with the digits of the CLDR 48 component pattern (`with_pattern`) or
    /// without (a range's ends, whose patterns are the interval formats').
    fn format_parts_with(
        &self,
        ms: f64,
        with_pattern: bool,
    ) -> rquickjs::Result<Vec<(&'static str, String)>> {
        let (date, time, offset) = self.local(ms)?;
        if let Some((f, pattern)) = &self.styled {
            return Ok(f.format(pattern, &Moment::at(ms as i64, offset)));
        }
        // Gregorian component options: V8's CLDR 48 pattern, formatted as ICU writes it.
        if with_pattern
            && let (Some(pattern), Some(formatter)) = (&self.pattern, &self.pattern_formatter)
            && jiff::Timestamp::from_millisecond(ms as i64).is_ok()
        {
            let moment = super::date_pattern::Moment::at(ms as i64, offset);
            return Ok(formatter.format(pattern, &moment));
        }
        // Beyond jiff's years the zone is named by its offset (`GMT-4`), as on the reference.
        let named = if jiff::Timestamp::from_millisecond(ms as i64).is_ok() {
            self.icu_zone
        } else {
            TimeZone::UNKNOWN
        };
        let zone = named
            .with_offset(UtcOffset::try_from_seconds(offset).ok())
            .with_zone_name_timestamp(ZoneNameTimestamp::from_epoch_seconds(
                (ms / 1000.0).floor() as i64
            ));
        if let Some(only) = &self.day_period {
            return Ok(vec![("dayPeriod", only.format(&time))]);
        }
        let zoned: ZonedDateTime<Iso, _> = ZonedDateTime { date, time, zone };
        let mut parts = Parts::of(&self.formatter.format(&zoned)).pieces(Nesting::Outer);
        for (narrow, kind) in [
            (&self.narrow_weekday, "weekday"),
            (&self.narrow_month, "month"),
        ] {
            let Some((names, pattern)) = narrow else {
                continue;
            };
            let mut name = String::new();
            let _ = names
                .with_pattern_unchecked(pattern)
                .format(&zoned.date.to_calendar(Gregorian))
                .try_write_to(&mut name);
            for piece in parts.iter_mut().filter(|p| p.0 == kind) {
                piece.1 = name.clone();
            }
        }
        if self.two_digit_year {
            for piece in parts.iter_mut().filter(|p| p.0 == "year") {
                let digits: Vec<char> = piece.1.chars().collect();
                if digits.len() > 2 && digits.iter().all(|c| c.is_numeric()) {
                    piece.1 = digits[digits.len() - 2..].iter().collect();
                }
            }
        }
        if self.h24 {
            for piece in parts.iter_mut().filter(|p| p.0 == "hour") {
                if piece.1.chars().all(is_zero) {
                    // 24 in the zero's own script (its two and four follow it).
                    let zero = piece.1.chars().next().map_or(0, u32::from);
                    piece.1 = [2, 4]
                        .iter()
                        .filter_map(|k| char::from_u32(zero + k))
                        .collect();
                }
            }
        }
        if let Some((time, glue)) = &self.time_after_date {
            // The glue was read after a whole date, so it opens with the text a date of
            // these fields may end with itself (`2024.`, `2024 р.`, `30日`): written once.
            let plain = |c: char| if c.is_whitespace() { ' ' } else { c };
            let mut glue = glue.as_str();
            if let Some(end) = parts.last().filter(|p| p.0 == "literal") {
                let n = end.1.chars().count();
                if glue.chars().map(plain).take(n).eq(end.1.chars().map(plain)) {
                    glue = glue.char_indices().nth(n).map_or("", |(i, _)| &glue[i..]);
                }
            }
            parts.push(("literal", glue.to_string()));
            parts.extend(Parts::of(&time.format(&zoned)).pieces(Nesting::Outer));
        }
        if let Some(f) = &self.weekday {
            let name = Parts::of(&f.format(&zoned)).text;
            for piece in parts.iter_mut().filter(|p| p.0 == "weekday") {
                piece.1 = name.clone();
            }
        }
        if !self.unasked.is_empty() {
            parts = prune(parts, &self.unasked);
            // Seconds alone are not padded.
            if self.unasked.contains(&"minute") {
                for piece in parts.iter_mut().filter(|p| p.0 == "second") {
                    if piece.1.len() > 1
                        && piece.1.starts_with('0')
                        && piece.1.as_bytes()[1].is_ascii_digit()
                    {
                        piece.1.remove(0);
                    }
                }
            }
        }
        if let Some(i) = parts.iter().position(|p| p.0 == "weekday")
            && self.weekday_time
            && parts.get(i + 1).is_some_and(|p| p.0 == "literal")
            && parts.get(i + 2).is_some_and(|p| p.0 == "hour")
        {
            parts[i + 1].1 = " ".to_string();
        }
        if let Some(style) = self.zone_style
            && let Some(name) = super::zones::zone_name(
                &self.tag,
                self.cldr_zone.as_deref(),
                &self.zone,
                ms as i64,
                style,
            )
        {
            for piece in parts.iter_mut().filter(|p| p.0 == "timeZoneName") {
                piece.1 = name.clone();
            }
        }
        // V8 prints a plain space where CLDR puts a narrow no-break one (before AM/PM).
        for piece in &mut parts {
            if piece.1.contains('\u{202f}') {
                piece.1 = piece.1.replace('\u{202f}', " ");
            }
        }
        self.as_v8_patterns(&mut parts, &time, with_pattern);
        Ok(split_fractional_seconds(parts))
    }

    /// Rewrites ICU4X's output where V8's patterns differ, as measured (see the fields).
    fn as_v8_patterns(
        &self,
        parts: &mut Vec<(&'static str, String)>,
        time: &Time,
        with_pattern: bool,
    ) {
        if self.hant {
            for piece in parts.iter_mut().filter(|p| p.0 == "literal") {
                if piece.1.contains('\u{2009}') {
                    piece.1 = piece.1.replace('\u{2009}', " ");
                }
            }
        }
        if let Some(names) = &self.am_pm {
            for piece in parts.iter_mut().filter(|p| p.0 == "dayPeriod") {
                piece.1 = names.format(time);
            }
        }
        if self.lower_am_pm {
            for piece in parts.iter_mut().filter(|p| p.0 == "dayPeriod") {
                if piece.1 == "AM" || piece.1 == "PM" {
                    piece.1 = piece.1.to_lowercase();
                }
            }
        }
        if let Some(digits) = self.hour_digits {
            for piece in parts.iter_mut().filter(|p| p.0 == "hour") {
                repad(&mut piece.1, digits);
            }
        }
        if self.strip_zone_marks {
            for piece in parts.iter_mut().filter(|p| p.0 == "timeZoneName") {
                piece
                    .1
                    .retain(|c| !matches!(c, '\u{200e}' | '\u{200f}' | '\u{61c}'));
            }
        }
        if let Some(date) = self.numeric_date {
            for piece in parts.iter_mut() {
                match piece.0 {
                    "day" => repad(&mut piece.1, if date.pad_day { 2 } else { 1 }),
                    "month" => repad(&mut piece.1, if date.pad_month { 2 } else { 1 }),
                    _ => {}
                }
            }
        }
        // The digits of the CLDR 48 pattern V8 picks for component options (`skeleton.rs`).
        if let Some(pattern) = self.pattern.as_ref().filter(|_| with_pattern) {
            let digits = super::skeleton::digits(pattern);
            for piece in parts.iter_mut() {
                if let Some((_, n)) = digits.iter().find(|(k, _)| *k == piece.0) {
                    repad(&mut piece.1, *n);
                }
            }
        }
        // Korean numeric dates: V8 writes `2024. 7. 1.` where ICU4X's data has `2024/7/1`.
        if self.korean
            && let Some(y) = parts.iter().position(|p| p.0 == "year")
            && parts.len() >= y + 5
            && parts[y + 1] == ("literal", "/".to_string())
            && parts[y + 2].0 == "month"
            && parts[y + 3] == ("literal", "/".to_string())
            && parts[y + 4].0 == "day"
        {
            parts[y + 1].1 = ". ".to_string();
            parts[y + 3].1 = ". ".to_string();
            match parts.get_mut(y + 5) {
                Some(next) if next.0 == "literal" => next.1.insert(0, '.'),
                _ => parts.insert(y + 5, ("literal", ".".to_string())),
            }
        }
    }
}

/// ICU4X writes seconds with their fraction as one piece (`06.789`); V8 gives `second`, the
/// separator as a `literal` and `fractionalSecond`, and writes Arabic-Indic digits with the
/// Arabic decimal separator (`٠٦٫٧٨٩`).
fn split_fractional_seconds(parts: Vec<(&'static str, String)>) -> Vec<(&'static str, String)> {
    let mut out = Vec::with_capacity(parts.len() + 2);
    for (kind, text) in parts {
        let split = (kind == "second")
            .then(|| {
                text.char_indices()
                    .rev()
                    .find(|(_, c)| matches!(c, '.' | ',' | '\u{66b}'))
            })
            .flatten()
            .filter(|(i, c)| *i > 0 && *i + c.len_utf8() < text.len());
        let Some((i, found)) = split else {
            out.push((kind, text));
            continue;
        };
        let arabic = text.chars().any(|c| ('\u{660}'..='\u{6f9}').contains(&c));
        let sep = if found == '.' && arabic {
            '\u{66b}'
        } else {
            found
        };
        out.push(("second", text[..i].to_string()));
        out.push(("literal", sep.to_string()));
        out.push(("fractionalSecond", text[i + found.len_utf8()..].to_string()));
    }
    out
}

/// The pieces without the fields in `unasked`, each with the literal that joined it to the
/// rest: for an hour (or its day period), the one after it where a kept time field follows
/// that literal (an hour dropped before its minutes: `um 00:00`); else the one before it (a
/// minute dropped after its hour, an era after its year), else the one after it (a field
/// opening the text).
fn prune(parts: Vec<(&'static str, String)>, unasked: &[&str]) -> Vec<(&'static str, String)> {
    let n = parts.len();
    let dropped = |i: usize| unasked.contains(&parts[i].0);
    let literal = |i: usize| i < n && parts[i].0 == "literal";
    let kept_time =
        |i: usize| i < n && !dropped(i) && matches!(parts[i].0, "hour" | "minute" | "second");
    let mut keep = vec![true; n];
    for i in 0..n {
        if !dropped(i) {
            continue;
        }
        keep[i] = false;
        if matches!(parts[i].0, "hour" | "dayPeriod") && literal(i + 1) && kept_time(i + 2) {
            keep[i + 1] = false;
        } else if i > 0 && literal(i - 1) && keep[i - 1] {
            keep[i - 1] = false;
        } else if literal(i + 1) {
            keep[i + 1] = false;
        }
    }
    let mut out: Vec<(&'static str, String)> = parts
        .into_iter()
        .zip(keep)
        .filter_map(|(piece, keep)| keep.then_some(piece))
        .collect();
    while out
        .last()
        .is_some_and(|p| p.0 == "literal" && p.1.trim().is_empty())
    {
        out.pop();
    }
    while out
        .first()
        .is_some_and(|p| p.0 == "literal" && p.1.trim().is_empty())
    {
        out.remove(0);
    }
    out
}

/// The skeleton of V8's pattern for the options, as `formatRange` matches it against the
/// interval formats: the styles' CLDR 48 patterns, or the component options' `pattern`
/// (V8 reads the skeleton off the pattern: `zh-TW`'s `y年M月d日` for a short month is
/// `yMd`), else their fields (ICU's generator keeps each field's width, the hour in the
/// format's cycle). None for the options the interval path leaves to the fallback: zone
/// names of component options, fractions of seconds, eras, day periods.
fn range_skeleton(
    tag: &str,
    o: &Object,
    pattern: Option<&str>,
) -> rquickjs::Result<Option<String>> {
    for k in ["timeZoneName", "era", "dayPeriod"] {
        if text(o, k)?.is_some() {
            return Ok(None);
        }
    }
    if o.get::<_, Option<f64>>("fractionalSecondDigits")?.is_some() {
        return Ok(None);
    }
    let hour = match text(o, "hourCycle")?.as_deref() {
        Some("h11") => Some('K'),
        Some("h12") => Some('h'),
        Some("h23") => Some('H'),
        Some("h24") => Some('k'),
        _ => None,
    };
    let date_style = text(o, "dateStyle")?;
    let time_style = text(o, "timeStyle")?;
    if date_style.is_some() || time_style.is_some() {
        let mut pattern = String::new();
        if let Some(style) = &date_style {
            let Some(p) = super::units::entry(tag, "dn", 'p', &format!("date-{style}")) else {
                return Ok(None);
            };
            pattern.push_str(p);
        }
        if let Some(style) = &time_style {
            let Some(p) = super::units::entry(tag, "dn", 'p', &format!("time-{style}")) else {
                return Ok(None);
            };
            pattern.push(' ');
            pattern.push_str(p);
        }
        return Ok(Some(super::date_range::skeleton_of(&pattern, hour)));
    }
    if let Some(pattern) = pattern {
        return Ok(Some(super::date_range::skeleton_of(pattern, None)));
    }
    let mut skeleton = String::new();
    let mut push = |letter: char, n: usize| skeleton.extend(std::iter::repeat_n(letter, n));
    match text(o, "year")?.as_deref() {
        Some("2-digit") => push('y', 2),
        Some(_) => push('y', 1),
        None => {}
    }
    match text(o, "month")?.as_deref() {
        Some("numeric") => push('M', 1),
        Some("2-digit") => push('M', 2),
        Some("short") => push('M', 3),
        Some("long") => push('M', 4),
        Some(_) => push('M', 5),
        None => {}
    }
    match text(o, "weekday")?.as_deref() {
        Some("short") => push('E', 3),
        Some("long") => push('E', 4),
        Some(_) => push('E', 5),
        None => {}
    }
    match text(o, "day")?.as_deref() {
        Some("2-digit") => push('d', 2),
        Some(_) => push('d', 1),
        None => {}
    }
    if let Some(width) = text(o, "hour")? {
        let Some(letter) = hour else {
            return Ok(None);
        };
        push(letter, if width == "2-digit" { 2 } else { 1 });
        if matches!(letter, 'h' | 'K') {
            push('a', 1);
        }
    }
    match text(o, "minute")?.as_deref() {
        Some("2-digit") => push('m', 2),
        Some(_) => push('m', 1),
        None => {}
    }
    match text(o, "second")?.as_deref() {
        Some("2-digit") => push('s', 2),
        Some(_) => push('s', 1),
        None => {}
    }
    Ok((!skeleton.is_empty()).then_some(skeleton))
}

/// A formatter of the weekday alone in the width the options ask, when the date's length
/// would print another width (`{weekday: "long", month: "short"}`); None otherwise.
fn weekday_formatter(
    locale: &Locale,
    o: &Object,
) -> rquickjs::Result<Option<DateTimeFormatter<CompositeFieldSet>>> {
    let Some(weekday) = text(o, "weekday")? else {
        return Ok(None);
    };
    let wanted = match weekday.as_str() {
        "long" => Length::Long,
        "short" => Length::Medium,
        _ => Length::Short,
    };
    let given = match text(o, "month")?.as_deref() {
        Some("long") | Some("narrow") => Length::Long,
        Some("short") => Length::Medium,
        Some(_) => Length::Short,
        None => return Ok(None),
    };
    if wanted == given {
        return Ok(None);
    }
    let mut b = FieldSetBuilder::new();
    b.date_fields = Some(DateFields::E);
    b.length = Some(wanted);
    let fields = b.build_composite().map_err(failure)?;
    DateTimeFormatter::try_new(locale.into(), fields)
        .map(Some)
        .map_err(failure)
}

#[rquickjs::methods]
impl DateFormatter {
    /// The parts of an instant's formatted text, as `{type, value}` objects.
    #[qjs(rename = "parts")]
    pub fn js_parts<'js>(&self, ctx: Ctx<'js>, ms: f64) -> rquickjs::Result<Array<'js>> {
        super::parts::pieces_to_js(&ctx, self.format_parts(ms)?)
    }

    /// The parts of a range's end joined by the fallback: as `parts`, less the component
    /// pattern's digits.
    #[qjs(rename = "endParts")]
    pub fn end_parts<'js>(&self, ctx: Ctx<'js>, ms: f64) -> rquickjs::Result<Array<'js>> {
        super::parts::pieces_to_js(&ctx, self.format_parts_with(ms, false)?)
    }

    /// The component options V8's `resolvedOptions()` reads off the pattern (`skeleton.rs`),
    /// as `option=value` separated by `;`; empty for styles and other calendars.
    pub fn components(&self) -> String {
        self.pattern
            .as_deref()
            .map(super::skeleton::components)
            .unwrap_or_default()
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(";")
    }

    /// The parts of the range between two instants with their `source`, where the
    /// format's interval patterns apply (`date_range.rs`); undefined where the range falls
    /// back to both ends formatted whole (`intl.js` joins them).
    #[qjs(rename = "rangeParts")]
    pub fn range_parts<'js>(
        &self,
        ctx: Ctx<'js>,
        a: f64,
        b: f64,
    ) -> rquickjs::Result<Option<Array<'js>>> {
        use super::date_range::{
            Plan, date_plus_time, fallback_pattern, greatest_difference, plan, render, sources,
            whole,
        };
        let Some(skeleton) = &self.range_skeleton else {
            return Ok(None);
        };
        let (la, lb) = (self.local_fields_of(a)?, self.local_fields_of(b)?);
        let single = |ms: f64| -> rquickjs::Result<Vec<(&'static str, String, &'static str)>> {
            Ok(self
                .format_parts(ms)?
                .into_iter()
                .map(|(k, v)| (k, v, "shared"))
                .collect())
        };
        // An instant through the generator's pattern for a skeleton (None beyond the years
        // the CLDR pattern formatter names zones in, or without one).
        let through = |skeleton: &str, ms: f64| -> rquickjs::Result<Option<Vec<_>>> {
            let Some(f) = &self.range_formatter else {
                return Ok(None);
            };
            if jiff::Timestamp::from_millisecond(ms as i64).is_err() {
                return Ok(None);
            }
            let (_, _, offset) = self.local(ms)?;
            let pattern = fallback_pattern(&self.tag, skeleton);
            Ok(Some(f.format(&pattern, &Moment::at(ms as i64, offset))))
        };
        let pieces = match greatest_difference(&la, &lb).map(|f| plan(&self.tag, skeleton, f)) {
            None | Some(Plan::Single) => single(a)?,
            Some(Plan::Whole(skeleton)) => {
                let (Some(x), Some(y)) = (through(&skeleton, a)?, through(&skeleton, b)?) else {
                    return Ok(None);
                };
                match whole(&self.range_pattern(), x, y) {
                    Some(pieces) => pieces,
                    None => return Ok(None),
                }
            }
            Some(Plan::Halves(first, second)) => {
                let (pa, pb) = (self.format_parts(a)?, self.format_parts(b)?);
                let (Some(x), Some(y)) = (render(&first, &la, &pa), render(&second, &lb, &pb))
                else {
                    return Ok(None);
                };
                sources(x, y)
            }
            Some(Plan::DatePlusTime { date, time, glue }) => {
                let (Some(d), Some(x), Some(y)) =
                    (through(&date, a)?, through(&time, a)?, through(&time, b)?)
                else {
                    return Ok(None);
                };
                match date_plus_time(&glue, &self.range_pattern(), d, x, y) {
                    Some(pieces) => pieces,
                    None => return Ok(None),
                }
            }
        };
        let array = Array::new(ctx.clone())?;
        for (i, (kind, value, source)) in pieces.into_iter().enumerate() {
            let o = Object::new(ctx.clone())?;
            super::parts::put(&o, "type", kind)?;
            super::parts::put(&o, "value", value)?;
            super::parts::put(&o, "source", source)?;
            super::parts::put(&array, i as u32, o)?;
        }
        Ok(Some(array))
    }

    /// The local calendar date and hour of an instant in the formatter's zone
    /// (`2024-1-5 15`), for `formatRange` to tell which fields of two instants differ.
    #[qjs(rename = "localFields")]
    pub fn local_fields(&self, ms: f64) -> rquickjs::Result<String> {
        let (date, time, _) = self.local(ms)?;
        Ok(format!(
            "{}-{}-{} {}",
            date.year().extended_year(),
            date.month().ordinal,
            date.day_of_month().0,
            time.hour.number()
        ))
    }

    /// The locale's date interval fallback from the reference's CLDR (`{0} – {1}`, `{0}～{1}`
    /// in `ja`, `{0} تا {1}` in `fa`), its thin spaces plain ones as V8 writes them.
    #[qjs(rename = "rangePattern")]
    pub fn range_pattern(&self) -> String {
        super::units::entry(&self.tag, "dt", 'l', "fallback")
            .unwrap_or("{0} – {1}")
            .replace('\u{2009}', " ")
    }

    /// An instant's formatted text.
    pub fn format(&self, ms: f64) -> rquickjs::Result<String> {
        Ok(self.format_parts(ms)?.into_iter().map(|(_, s)| s).collect())
    }
}

/// ICU's canonical names where they are the older IANA name (CLDR keeps the first name a
/// zone had; V8 answers these): IANA's current name → ICU's.
const ICU_NAMES: [(&str, &str); 20] = [
    ("Asia/Kolkata", "Asia/Calcutta"),
    ("Asia/Kathmandu", "Asia/Katmandu"),
    ("Asia/Ho_Chi_Minh", "Asia/Saigon"),
    ("Asia/Yangon", "Asia/Rangoon"),
    ("Europe/Kyiv", "Europe/Kiev"),
    ("America/Argentina/Buenos_Aires", "America/Buenos_Aires"),
    ("America/Argentina/Catamarca", "America/Catamarca"),
    ("America/Argentina/Cordoba", "America/Cordoba"),
    ("America/Argentina/Jujuy", "America/Jujuy"),
    ("America/Argentina/Mendoza", "America/Mendoza"),
    ("Atlantic/Faroe", "Atlantic/Faeroe"),
    ("America/Nuuk", "America/Godthab"),
    ("Pacific/Chuuk", "Pacific/Truk"),
    ("Pacific/Pohnpei", "Pacific/Ponape"),
    ("Pacific/Kanton", "Pacific/Enderbury"),
    ("America/Indiana/Indianapolis", "America/Indianapolis"),
    ("America/Kentucky/Louisville", "America/Louisville"),
    ("Africa/Asmara", "Africa/Asmera"),
    ("America/Atikokan", "America/Coral_Harbour"),
    ("Asia/Ulaanbaatar", "Asia/Ulaanbaatar"),
];

fn icu_name(canonical: &str) -> &str {
    ICU_NAMES
        .iter()
        .find(|(iana, _)| *iana == canonical)
        .map_or(canonical, |(_, icu)| icu)
}

/// The canonical names of every zone, as ICU names them, sorted (`supportedValuesOf`).
pub(crate) fn zone_names() -> String {
    // Space-separated: `intl.js` splits it (a string crosses without storing into an array
    // a program may have tainted).
    location_zones(|_| true)
}

/// The canonical location zones whose CLDR short id `keep` accepts, as ICU lists them for V8
/// (measured on the reference): named as ICU names them (`America/Indianapolis`), sorted,
/// space-separated; no `Etc/` zones and none of the POSIX-style names without a region
/// (`EST5EDT`).
pub(crate) fn location_zones(keep: impl Fn(&str) -> bool) -> String {
    let mut names: Vec<String> = icu::time::zone::iana::IanaParserExtended::new()
        .iter()
        .filter(|z| keep(z.time_zone.0.as_str()))
        .map(|z| icu_name(z.canonical).to_string())
        .filter(|n| n.contains('/') && !n.starts_with("Etc/"))
        .collect();
    names.sort();
    names.dedup();
    names.join(" ")
}

/// A UTC offset time zone (`+03:01`, as `intl.js` normalizes the option): a fixed offset.
fn offset_zone(name: &str) -> Option<jiff::tz::TimeZone> {
    let b = name.as_bytes();
    if b.len() != 6 || !matches!(b[0], b'+' | b'-') || b[3] != b':' {
        return None;
    }
    let hours: i32 = name[1..3].parse().ok()?;
    let minutes: i32 = name[4..6].parse().ok()?;
    let sign = if b[0] == b'-' { -1 } else { 1 };
    let offset = jiff::tz::Offset::from_seconds(sign * (hours * 3600 + minutes * 60)).ok()?;
    Some(jiff::tz::TimeZone::fixed(offset))
}

/// The zone's canonical name as ICU gives it (`US/Pacific` → `America/Los_Angeles`,
/// `asia/kolkata` → `Asia/Calcutta`), or None for an unknown zone.
pub(crate) fn normalize_zone(name: &str) -> Option<String> {
    let known = zone(name)?;
    let parsed = icu::time::zone::iana::IanaParserExtended::new().parse(name);
    if parsed.time_zone == TimeZone::UNKNOWN {
        return known.iana_name().map(str::to_string);
    }
    let canonical = match parsed.canonical {
        "Etc/UTC" | "Etc/GMT" => "UTC",
        c => c,
    };
    Some(icu_name(canonical).to_string())
}
