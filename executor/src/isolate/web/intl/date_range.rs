//! `Intl.DateTimeFormat.prototype.formatRange` as V8 does it with ICU's date interval
//! format on CLDR 48's `intervalFormats` (the `di` lines of `units.data.z`).
//!
//! V8 makes the interval format from the skeleton of the format's pattern. ICU splits the
//! skeleton into its date and its time, each normalized (one `d`, `h`/`H`, `m`; `M` and
//! `MM` as `M`; `E` to `EEE` as `E`; `a` left out), and matches the time's (or, without a
//! time, the date's) against the locale's interval skeletons: the one with the least
//! distance (a field missing on either side weighs most, a text month against a numeric one
//! next, then the difference of widths). For two instants, the greatest calendar field in
//! which they differ (era, year, month, day, am/pm, hour, minute, second, millisecond)
//! picks the skeleton's pattern for that field (its fields widened to the format's where
//! the skeleton matched with other widths); a date before a time range comes from the
//! date's best pattern joined by the locale's medium date-time glue. The pattern is split
//! at its first repeated field: the first half formats the start, the second the end.
//! Without a pattern for the field, a field finer than every field of the format leaves
//! the start alone; otherwise the range falls back to both ends formatted whole (the
//! caller's path).
//!
//! [`Plan`] is the selection; [`render`] writes a pattern half from the fields of one
//! instant and the names its own formatting gave; [`sources`] marks each part as ICU's
//! spans do (a field that repeats, and what lies between its first and last occurrence, is
//! `startRange` in the first half and `endRange` in the second; the rest is `shared`).

use super::units::entry;

/// The calendar fields ICU compares, greatest first.
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
pub(crate) enum Field {
    Era,
    Year,
    Month,
    Day,
    AmPm,
    Hour,
    Minute,
    Second,
    Millisecond,
}

impl Field {
    /// ICU's level of the field: a pattern letter of this level or finer shows it.
    fn level(self) -> u8 {
        match self {
            Field::Era => 0,
            Field::Year => 10,
            Field::Month => 20,
            Field::Day => 30,
            Field::AmPm => 40,
            Field::Hour => 50,
            Field::Minute => 60,
            Field::Second => 70,
            Field::Millisecond => 80,
        }
    }

    /// The letter an extended skeleton is prefixed with for the field.
    fn letter(self) -> char {
        match self {
            Field::Era => 'G',
            Field::Year => 'y',
            Field::Month => 'M',
            Field::Day => 'd',
            Field::AmPm => 'a',
            Field::Hour => 'h',
            Field::Minute => 'm',
            Field::Second => 's',
            Field::Millisecond => 'S',
        }
    }
}

/// The level of a pattern letter (None for letters ICU gives no level here).
fn letter_level(c: char) -> Option<u8> {
    Some(match c {
        'G' => 0,
        'y' | 'Y' | 'u' | 'U' | 'r' => 10,
        'Q' | 'q' | 'M' | 'L' | 'w' | 'W' => 20,
        'd' | 'D' | 'E' | 'c' | 'e' | 'F' | 'g' => 30,
        'a' | 'b' | 'B' => 40,
        'h' | 'H' | 'k' | 'K' => 50,
        'm' => 60,
        's' | 'A' => 70,
        'S' => 80,
        _ => return None,
    })
}

/// One instant's local fields (proleptic Gregorian year, 0 = 1 BC; hour 0-23).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Local {
    pub year: i32,
    pub month: u8,
    pub day: u8,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub millisecond: u16,
}

/// The greatest field in which the two instants differ, None when they agree to the
/// millisecond.
pub(crate) fn greatest_difference(a: &Local, b: &Local) -> Option<Field> {
    if (a.year > 0) != (b.year > 0) {
        Some(Field::Era)
    } else if a.year != b.year {
        Some(Field::Year)
    } else if a.month != b.month {
        Some(Field::Month)
    } else if a.day != b.day {
        Some(Field::Day)
    } else if a.hour / 12 != b.hour / 12 {
        Some(Field::AmPm)
    } else if a.hour % 12 != b.hour % 12 {
        Some(Field::Hour)
    } else if a.minute != b.minute {
        Some(Field::Minute)
    } else if a.second != b.second {
        Some(Field::Second)
    } else if a.millisecond != b.millisecond {
        Some(Field::Millisecond)
    } else {
        None
    }
}

/// How a range is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Plan {
    /// The format shows none of the fields that differ: the start alone.
    Single,
    /// An interval pattern's halves: the first for the start, the second for the end.
    Halves(String, String),
    /// No interval pattern applies, the ends on one day: the date once (the generator's
    /// pattern for the `date` skeleton, see [`fallback_pattern`]), then the two times
    /// (`time`'s) joined by the fallback, in the medium date-time `glue`.
    DatePlusTime {
        date: String,
        time: String,
        glue: String,
    },
    /// No interval pattern applies: both ends whole through the generator's pattern for
    /// the skeleton (see [`fallback_pattern`]), joined by the fallback.
    Whole(String),
}

/// The letters of a pattern outside its quoted text.
fn letters(pattern: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    for c in pattern.chars() {
        if c == '\'' {
            quoted = !quoted;
        } else if !quoted && c.is_ascii_alphabetic() {
            out.push(c);
        }
    }
    out
}

/// The canonical order of skeleton letters, as CLDR writes its skeletons.
const ORDER: &str = "GyYuUrQqMLwWEcedDFgabBhHKkjmsSAzZOvVXx";

/// A skeleton's letters in CLDR's order (`dMMMy` → `yMMMd`).
pub(crate) fn canonical(skeleton: &str) -> String {
    let mut chars: Vec<char> = skeleton.chars().collect();
    chars.sort_by_key(|c| ORDER.find(*c).unwrap_or(ORDER.len()));
    chars.into_iter().collect()
}

/// A pattern's skeleton (`d. MMMM y, HH:mm` → `yMMMMdHHmm`), its hour letter `hour` where
/// one is given (the format's hour cycle).
pub(crate) fn skeleton_of(pattern: &str, hour: Option<char>) -> String {
    let mut s = letters(pattern);
    if let Some(h) = hour {
        s = s
            .chars()
            .map(|c| {
                if matches!(c, 'h' | 'H' | 'k' | 'K') {
                    h
                } else {
                    c
                }
            })
            .collect();
    }
    canonical(&s)
}

/// The date and time skeletons of a skeleton, with their normal forms.
#[derive(Debug, Default, PartialEq, Eq)]
struct Split {
    date: String,
    date_normal: String,
    time: String,
    time_normal: String,
}

fn split(skeleton: &str) -> Split {
    let mut s = Split::default();
    let count = |c: char| skeleton.chars().filter(|x| *x == c).count();
    for c in skeleton.chars() {
        match c {
            'E' | 'd' | 'M' | 'y' => s.date.push(c),
            'G' | 'Y' | 'u' | 'Q' | 'q' | 'L' | 'l' | 'W' | 'w' | 'D' | 'F' | 'g' | 'e' | 'c'
            | 'U' | 'r' => {
                s.date.push(c);
                s.date_normal.push(c);
            }
            'h' | 'H' | 'm' | 'v' | 'z' => s.time.push(c),
            'k' | 'K' | 'j' | 's' | 'S' | 'V' | 'Z' | 'A' | 'b' | 'B' | 'O' | 'X' | 'x' => {
                s.time.push(c);
                s.time_normal.push(c);
            }
            'a' => s.time.push(c),
            _ => {}
        }
    }
    // The year keeps its width (`yy` widens the matched skeleton's `y`).
    s.date_normal.extend(std::iter::repeat_n('y', count('y')));
    match count('M') {
        0 => {}
        1 | 2 => s.date_normal.push('M'),
        n => s.date_normal.extend(std::iter::repeat_n('M', n.min(5))),
    }
    match count('E') {
        0 => {}
        1..=3 => s.date_normal.push('E'),
        n => s.date_normal.extend(std::iter::repeat_n('E', n.min(6))),
    }
    if count('d') > 0 {
        s.date_normal.push('d');
    }
    if count('H') > 0 {
        s.time_normal.push('H');
    } else if count('h') > 0 {
        s.time_normal.push('h');
    }
    if count('m') > 0 {
        s.time_normal.push('m');
    }
    if count('z') > 0 {
        s.time_normal.push('z');
    }
    if count('v') > 0 {
        s.time_normal.push('v');
    }
    s
}

/// The width of each letter in a skeleton.
fn widths(skeleton: &str) -> [u8; 58] {
    let mut w = [0u8; 58];
    for c in skeleton.chars() {
        if let Some(i) = (c as u32).checked_sub('A' as u32).filter(|i| *i < 58) {
            w[i as usize] = w[i as usize].saturating_add(1);
        }
    }
    w
}

/// How a matched skeleton differs from the input: 0 the same, 1 in widths, 2 in `z`/`v`
/// only, -1 in fields.
type Difference = i8;

/// The locale's interval skeleton nearest `skeleton`, as ICU measures it.
fn best_skeleton(tag: &str, skeleton: &str) -> Option<(&'static str, Difference)> {
    let list = entry(tag, "di", 'l', "*")?;
    let mut input = skeleton.to_string();
    let replaced = input.contains('z');
    input = input
        .replace('z', "v")
        .replace('k', "H")
        .replace('K', "h")
        .replace('b', "a");
    let want = widths(&input);
    let mut best: Option<(&'static str, Difference, u32)> = None;
    for candidate in list.split(' ').filter(|s| !s.is_empty()) {
        let have = widths(candidate);
        let mut distance = 0u32;
        let mut difference: Difference = 1;
        for i in 0..58 {
            let (a, b) = (want[i], have[i]);
            if a == b {
                continue;
            }
            if a == 0 || b == 0 {
                difference = -1;
                distance += 0x1000;
            } else if i == ('M' as usize - 'A' as usize) && ((a <= 2) != (b <= 2)) {
                distance += 0x100;
            } else {
                distance += u32::from(a.abs_diff(b));
            }
        }
        if best.is_none_or(|(_, _, d)| distance < d) {
            best = Some((candidate, difference, distance));
        }
        if distance == 0 {
            best = Some((candidate, 0, 0));
            break;
        }
    }
    let (name, mut difference, _) = best?;
    if replaced && difference != -1 {
        difference = 2;
    }
    Some((name, difference))
}

/// The interval pattern of `skeleton` (exactly as the table names it) for `field`.
fn lookup(tag: &str, skeleton: &str, field: Field) -> Option<&'static str> {
    let letters: &[char] = match field {
        Field::Era => &['G'],
        Field::Year => &['y'],
        Field::Month => &['M'],
        Field::Day => &['d'],
        Field::AmPm => &['a', 'B'],
        Field::Hour => &['h', 'H'],
        Field::Minute => &['m'],
        _ => &[],
    };
    letters
        .iter()
        .find_map(|l| entry(tag, "di", 'l', &format!("{skeleton}/{l}")))
}

/// Whether no letter of `skeleton` is as fine as `field` (ICU then shows one date).
fn ignored(skeleton: &str, field: Field) -> bool {
    !skeleton
        .chars()
        .filter_map(letter_level)
        .any(|l| l >= field.level())
}

/// `pattern` with the widths of `input`'s fields where the matched skeleton `best` had
/// other widths (`d MMM – d MMM` for `MMMMd` → `d MMMM – d MMMM`), `v` as `z` where only
/// the zone letter differed.
fn adjust_widths(input: &str, best: &str, pattern: &str, difference: Difference) -> String {
    let pattern = if difference == 2 {
        pattern.replace('v', "z")
    } else {
        pattern.to_string()
    };
    let want = widths(input);
    let have = widths(best);
    let index = |c: char| {
        let c = if c == 'L' { 'M' } else { c };
        (c as usize).wrapping_sub('A' as usize)
    };
    let mut out = String::new();
    let chars: Vec<char> = pattern.chars().collect();
    let mut quoted = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            if chars.get(i + 1) == Some(&'\'') {
                out.push_str("''");
                i += 2;
                continue;
            }
            quoted = !quoted;
            out.push(c);
            i += 1;
            continue;
        }
        if quoted || !c.is_ascii_alphabetic() {
            out.push(c);
            i += 1;
            continue;
        }
        let mut n = 1;
        while chars.get(i + n) == Some(&c) {
            n += 1;
        }
        let k = index(c);
        let mut width = n;
        if k < 58 && usize::from(have[k]) == n && want[k] > have[k] {
            width = usize::from(want[k]);
        }
        out.extend(std::iter::repeat_n(c, width));
        i += n;
    }
    out
}

/// The interval pattern for `field` of a skeleton matched as `best`, following ICU's
/// extension of a skeleton that lacks the field (`MMMd` with the years differing takes
/// `yMMMd`'s pattern); with the skeletons the later fields extend from.
fn field_pattern(
    tag: &str,
    field: Field,
    skeleton: &str,
    best: &str,
    difference: Difference,
) -> (Option<String>, Option<(String, String)>) {
    if let Some(p) = lookup(tag, best, field) {
        let p = if difference != 0 {
            adjust_widths(skeleton, best, p, difference)
        } else {
            p.to_string()
        };
        return (Some(p), None);
    }
    if ignored(best, field) {
        return (None, None);
    }
    let letter = field.letter();
    let ext_skeleton = format!("{letter}{skeleton}");
    let ext_best = format!("{letter}{best}");
    let mut difference = difference;
    let mut used = ext_best.clone();
    let mut pattern = lookup(tag, &ext_best, field);
    if pattern.is_none()
        && difference == 0
        && let Some((other, d)) = best_skeleton(tag, &ext_best)
    {
        difference = d;
        if d != -1 {
            pattern = lookup(tag, other, field);
            used = other.to_string();
        }
    }
    let extended = Some((ext_skeleton.clone(), ext_best));
    match pattern {
        Some(p) if difference != -1 => {
            let p = if difference != 0 {
                adjust_widths(&ext_skeleton, &used, p, difference)
            } else {
                p.to_string()
            };
            (Some(p), extended)
        }
        _ => (None, extended),
    }
}

/// The range plan for a format of `skeleton` (its pattern's skeleton, see [`skeleton_of`])
/// in locale `tag` whose ends differ first in `field`.
pub(crate) fn plan(tag: &str, skeleton: &str, field: Field) -> Plan {
    let s = split(skeleton);
    // ICU leaves the start alone where no field of the format is as fine as the field, and
    // otherwise falls back to both ends formatted whole by the format's own skeleton.
    if ignored(skeleton, field) {
        return Plan::Single;
    }
    let whole = Plan::Whole(skeleton.to_string());
    if s.time.is_empty() {
        let Some((best, difference)) = best_skeleton(tag, &s.date_normal) else {
            return whole;
        };
        if difference == -1 {
            return whole;
        }
        let mut best = best.to_string();
        let mut skel = s.date_normal.clone();
        for f in [Field::Day, Field::Month, Field::Year, Field::Era] {
            let (pattern, extended) = field_pattern(tag, f, &skel, &best, difference);
            if f == field {
                return match pattern {
                    Some(p) => halves(&p),
                    None => whole,
                };
            }
            if f == Field::Month
                && pattern.is_some()
                && let Some((e, b)) = extended
            {
                skel = e;
                best = b;
            }
        }
        return whole;
    }
    // The interval skeleton nearest the time (without one, or one with other fields, ICU
    // completes no missing date field and has no time interval pattern).
    let found = best_skeleton(tag, &s.time_normal).filter(|(_, d)| *d != -1);
    if field <= Field::Day {
        if s.date.is_empty() {
            // A time alone on two days shows the numeric date (`yMd`), with the era where
            // the eras differ.
            let era = if field == Field::Era { "G" } else { "" };
            return Plan::Whole(canonical(&format!("{era}yMd{}", s.time)));
        }
        if found.is_none() {
            return whole;
        }
        // A date field the format lacks is added to the skeleton, with those before it.
        let mut extended = skeleton.to_string();
        for (f, letter) in [
            (Field::Day, 'd'),
            (Field::Month, 'M'),
            (Field::Year, 'y'),
            (Field::Era, 'G'),
        ] {
            let present = s.date.contains(letter);
            if !present {
                extended.insert(0, letter);
            }
            if f == field {
                return if present {
                    whole
                } else {
                    Plan::Whole(canonical(&extended))
                };
            }
        }
        return whole;
    }
    let glue = date_time_glue(tag);
    let time = found.and_then(|(best, difference)| {
        let time = if field == Field::AmPm {
            lookup(tag, best, field).or_else(|| lookup(tag, best, Field::Hour))
        } else {
            lookup(tag, best, field)
        }?;
        Some(if difference != 0 {
            adjust_widths(&s.time_normal, best, time, difference)
        } else {
            time.to_string()
        })
    });
    let Some(time) = time else {
        // ICU's fallback on one day: the date once beside the two times (where the locale
        // has interval skeletons at all).
        return match glue {
            Some(glue) if !s.date.is_empty() && best_skeleton(tag, &s.time_normal).is_some() => {
                Plan::DatePlusTime {
                    date: s.date_normal.clone(),
                    time: s.time_normal.clone(),
                    glue,
                }
            }
            _ => whole,
        };
    };
    if s.date.is_empty() {
        return halves(&time);
    }
    let Some(glue) = glue else {
        return whole;
    };
    let date = fallback_pattern(tag, &s.date);
    halves(&glue.replace("{0}", &time).replace("{1}", &date))
}

/// The date-time glue ICU's interval format joins a date and a time range with: the
/// locale's medium one (`{1}, {0}`), with a space in Traditional Chinese where CLDR 48's
/// JSON has none (as the reference writes it: `2024/1/1 凌晨1:00–2:00`).
fn date_time_glue(tag: &str) -> Option<String> {
    let glue = entry(tag, "dn", 'p', "glue-medium")?;
    Some(if glue == "{1}{0}" && tag.starts_with("zh") {
        "{1} {0}".to_string()
    } else {
        glue.to_string()
    })
}

/// The pattern ICU's generator gives `skeleton` as the interval format asks for it: without
/// options, the hour, minutes and seconds as long as in the matched pattern (`tr`'s
/// `HH:mm` where the format's own pattern is `H:mm`).
pub(crate) fn fallback_pattern(tag: &str, skeleton: &str) -> String {
    let hour = skeleton
        .chars()
        .find(|c| matches!(c, 'h' | 'H' | 'k' | 'K'))
        .unwrap_or('H');
    super::skeleton::best_pattern_keeping_hour(tag, skeleton, ".", hour)
}

/// An interval pattern split at its first repeated field.
fn halves(pattern: &str) -> Plan {
    let at = split_point(pattern);
    Plan::Halves(pattern[..at].to_string(), pattern[at..].to_string())
}

/// The byte offset of the first field whose letter already appeared (the pattern's length
/// when none repeats).
fn split_point(pattern: &str) -> usize {
    let mut seen = [false; 58];
    let mut quoted = false;
    let mut prev: Option<(char, usize)> = None;
    for (i, c) in pattern.char_indices() {
        if c == '\'' {
            quoted = !quoted;
            prev = None;
            continue;
        }
        if quoted || !c.is_ascii_alphabetic() {
            prev = None;
            continue;
        }
        if prev.is_some_and(|(p, _)| p == c) {
            continue;
        }
        let k = (c as usize) - ('A' as usize);
        if seen[k] {
            return i;
        }
        seen[k] = true;
        prev = Some((c, i));
    }
    pattern.len()
}

/// A piece of a pattern: literal text, or a field (letter and width).
#[derive(Debug, PartialEq, Eq)]
enum Token {
    Text(String),
    Field(char, usize),
}

fn tokens(pattern: &str) -> Vec<Token> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = Vec::new();
    let mut text = String::new();
    let mut quoted = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            if chars.get(i + 1) == Some(&'\'') {
                text.push('\'');
                i += 2;
                continue;
            }
            quoted = !quoted;
            i += 1;
            continue;
        }
        if quoted || !c.is_ascii_alphabetic() {
            text.push(c);
            i += 1;
            continue;
        }
        let mut n = 1;
        while chars.get(i + n) == Some(&c) {
            n += 1;
        }
        if !text.is_empty() {
            out.push(Token::Text(std::mem::take(&mut text)));
        }
        out.push(Token::Field(c, n));
        i += n;
    }
    if !text.is_empty() {
        out.push(Token::Text(text));
    }
    out
}

/// The ECMA-402 part type of a pattern letter.
fn part_type(c: char) -> Option<&'static str> {
    Some(match c {
        'G' => "era",
        'y' => "year",
        'M' | 'L' => "month",
        'd' => "day",
        'E' | 'c' => "weekday",
        'a' | 'b' | 'B' => "dayPeriod",
        'h' | 'H' | 'K' | 'k' => "hour",
        'm' => "minute",
        's' => "second",
        'z' | 'Z' | 'O' | 'v' | 'V' | 'X' | 'x' => "timeZoneName",
        _ => return None,
    })
}

/// `n` in at least `width` digits of the numbering system whose zero is `zero`.
fn number(n: u32, width: usize, zero: char) -> String {
    let text = format!("{n:0width$}");
    text.chars()
        .map(|d| {
            let v = d.to_digit(10).unwrap_or(0);
            char::from_u32(zero as u32 + v).unwrap_or(d)
        })
        .collect()
}

/// The zero digit of the numbers in `parts` (`0` where none shows).
fn zero_of(parts: &[(&'static str, String)]) -> char {
    for (kind, value) in parts {
        if !matches!(
            *kind,
            "year" | "day" | "hour" | "minute" | "second" | "month"
        ) {
            continue;
        }
        for c in value.chars() {
            if c.is_ascii_digit() {
                return '0';
            }
            if c.is_numeric() {
                // The zero digits of the decimal blocks are within nine code points below.
                for k in 0..10u32 {
                    if let Some(z) = (c as u32).checked_sub(k).and_then(char::from_u32)
                        && super::datetime::is_zero(z)
                    {
                        return z;
                    }
                }
            }
        }
    }
    '0'
}

/// A pattern half written for the instant `local`, whose own formatting gave `parts` (the
/// names come from there); None where the half holds a field this cannot write.
pub(crate) fn render(
    pattern: &str,
    local: &Local,
    parts: &[(&'static str, String)],
) -> Option<Vec<(&'static str, String, char)>> {
    let zero = zero_of(parts);
    let name = |kind: &str| {
        parts
            .iter()
            .find(|(k, v)| *k == kind && !v.chars().any(char::is_numeric))
            .map(|(_, v)| v.clone())
    };
    let mut out = Vec::new();
    for token in tokens(pattern) {
        match token {
            Token::Text(t) => out.push(("literal", t.replace(['\u{2009}', '\u{202f}'], " "), ' ')),
            Token::Field(c, n) => {
                let kind = part_type(c)?;
                let value = match c {
                    'y' if local.year <= 0 => return None,
                    'y' if n == 2 => number(local.year.unsigned_abs() % 100, 2, zero),
                    'y' => number(local.year.unsigned_abs(), n, zero),
                    'M' | 'L' if n <= 2 => number(u32::from(local.month), n, zero),
                    'd' if n <= 2 => number(u32::from(local.day), n, zero),
                    'H' if n <= 2 => number(u32::from(local.hour), n, zero),
                    'h' if n <= 2 => {
                        let h = local.hour % 12;
                        number(u32::from(if h == 0 { 12 } else { h }), n, zero)
                    }
                    'm' if n <= 2 => number(u32::from(local.minute), n, zero),
                    's' if n <= 2 => number(u32::from(local.second), n, zero),
                    'z' | 'Z' | 'O' | 'v' | 'V' | 'X' | 'x' => parts
                        .iter()
                        .find(|(k, _)| *k == "timeZoneName")
                        .map(|(_, v)| v.clone())?,
                    'M' | 'L' | 'E' | 'c' | 'a' | 'b' | 'B' | 'G' => name(kind)?,
                    _ => return None,
                };
                out.push((kind, value, c));
            }
        }
    }
    Some(out)
}

/// The parts of a range from its two halves' pieces (each with its pattern letter, a space
/// for literals), adjacent literals joined, each marked `startRange`, `endRange` or
/// `shared` as ICU's spans mark them.
pub(crate) fn sources(
    first: Vec<(&'static str, String, char)>,
    second: Vec<(&'static str, String, char)>,
) -> Vec<(&'static str, String, &'static str)> {
    let mut pieces: Vec<(&'static str, String, char)> = Vec::new();
    for p in first.into_iter().chain(second) {
        if p.0 == "literal"
            && let Some(last) = pieces.last_mut().filter(|l| l.0 == "literal")
        {
            last.1.push_str(&p.1);
            continue;
        }
        if p.0 == "literal" && p.1.is_empty() {
            continue;
        }
        pieces.push(p);
    }
    let fields: Vec<usize> = (0..pieces.len())
        .filter(|i| pieces[*i].0 != "literal")
        .collect();
    let (mut s1, mut s2) = ((usize::MAX, 0), (usize::MAX, 0));
    for (x, &i) in fields.iter().enumerate() {
        if let Some(&j) = fields[x + 1..]
            .iter()
            .find(|&&j| pieces[j].2 == pieces[i].2)
        {
            s1 = (s1.0.min(i), s1.1.max(i));
            s2 = (s2.0.min(j), s2.1.max(j));
        }
    }
    pieces
        .into_iter()
        .enumerate()
        .map(|(k, (kind, value, _))| {
            let source = if s1.0 <= k && k <= s1.1 {
                "startRange"
            } else if s2.0 <= k && k <= s2.1 {
                "endRange"
            } else {
                "shared"
            };
            (kind, value, source)
        })
        .collect()
}

/// The literal text of a glue's piece (quotes taken off, thin and narrow no-break spaces
/// plain, as V8 writes them).
fn unquote(text: &str) -> String {
    tokens(text)
        .into_iter()
        .map(|t| match t {
            Token::Text(t) => t,
            Token::Field(c, n) => std::iter::repeat_n(c, n).collect(),
        })
        .collect::<String>()
        .replace(['\u{2009}', '\u{202f}'], " ")
}

/// A formatted instant's parts with the letters [`sources`] tells repeated fields by (ICU's
/// field of each part type; a space for literals).
fn lettered(parts: Vec<(&'static str, String)>) -> Vec<(&'static str, String, char)> {
    parts
        .into_iter()
        .map(|(kind, value)| {
            let letter = match kind {
                "era" => 'G',
                "year" | "relatedYear" | "yearName" => 'y',
                "month" => 'M',
                "day" => 'd',
                "weekday" => 'E',
                "dayPeriod" => 'a',
                "hour" => 'h',
                "minute" => 'm',
                "second" => 's',
                "fractionalSecond" => 'S',
                "timeZoneName" => 'z',
                _ => ' ',
            };
            (kind, value, letter)
        })
        .collect()
}

/// The offsets of `{0}` and `{1}` in a two-place pattern.
fn places(pattern: &str) -> Option<(usize, usize)> {
    Some((pattern.find("{0}")?, pattern.find("{1}")?))
}

/// The pieces of [`Plan::Whole`]: the start's parts `x` and the end's `y` in the fallback
/// (`{0} – {1}`); None where the fallback puts the end first.
pub(crate) fn whole(
    fallback: &str,
    x: Vec<(&'static str, String)>,
    y: Vec<(&'static str, String)>,
) -> Option<Vec<(&'static str, String, &'static str)>> {
    let (f0, f1) = places(fallback)?;
    if f0 > f1 {
        return None;
    }
    let literal = |t: &str| ("literal", unquote(t), ' ');
    let mut first = vec![literal(&fallback[..f0])];
    first.extend(lettered(x));
    first.push(literal(&fallback[f0 + 3..f1]));
    let mut second = lettered(y);
    second.push(literal(&fallback[f1 + 3..]));
    Some(sources(first, second))
}

/// The pieces of [`Plan::DatePlusTime`]: the glue (`{1} {0}`, `{0} {1}`) with the start's
/// `date` parts for `{1}` and for `{0}` the start's time `x` and the end's `y` in the
/// fallback (`{0} – {1}`); None where the fallback puts the end first.
pub(crate) fn date_plus_time(
    glue: &str,
    fallback: &str,
    date: Vec<(&'static str, String)>,
    x: Vec<(&'static str, String)>,
    y: Vec<(&'static str, String)>,
) -> Option<Vec<(&'static str, String, &'static str)>> {
    let literal = |t: &str| ("literal", unquote(t), ' ');
    let (g0, g1) = places(glue)?;
    let (f0, f1) = places(fallback)?;
    if f0 > f1 {
        return None;
    }
    let mut date = Some(lettered(date));
    let mut first = Vec::new();
    let mut second = Vec::new();
    if g1 < g0 {
        first.push(literal(&glue[..g1]));
        first.extend(date.take().unwrap_or_default());
        first.push(literal(&glue[g1 + 3..g0]));
    } else {
        first.push(literal(&glue[..g0]));
    }
    first.push(literal(&fallback[..f0]));
    first.extend(lettered(x));
    first.push(literal(&fallback[f0 + 3..f1]));
    second.extend(lettered(y));
    second.push(literal(&fallback[f1 + 3..]));
    if g1 < g0 {
        second.push(literal(&glue[g0 + 3..]));
    } else {
        second.push(literal(&glue[g0 + 3..g1]));
        second.extend(date.take().unwrap_or_default());
        second.push(literal(&glue[g1 + 3..]));
    }
    Some(sources(first, second))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn halves_of(tag: &str, skeleton: &str, field: Field) -> (String, String) {
        match plan(tag, skeleton, field) {
            Plan::Halves(a, b) => (a, b),
            other => panic!("{tag} {skeleton} {field:?}: {other:?}"),
        }
    }

    #[test]
    fn greatest_difference_ranks_fields_as_icu() {
        let a = Local {
            year: 2024,
            month: 1,
            day: 1,
            hour: 9,
            ..Local::default()
        };
        let mut b = a;
        b.hour = 13;
        assert_eq!(greatest_difference(&a, &b), Some(Field::AmPm));
        b.hour = 10;
        assert_eq!(greatest_difference(&a, &b), Some(Field::Hour));
        b = a;
        b.millisecond = 5;
        assert_eq!(greatest_difference(&a, &b), Some(Field::Millisecond));
        b.day = 8;
        assert_eq!(greatest_difference(&a, &b), Some(Field::Day));
        b.year = 0;
        assert_eq!(greatest_difference(&a, &b), Some(Field::Era));
        assert_eq!(greatest_difference(&a, &a), None);
    }

    #[test]
    fn skeletons_of_patterns() {
        assert_eq!(skeleton_of("d. MMMM y, HH:mm", None), "yMMMMdHHmm");
        assert_eq!(skeleton_of("h:mm a", Some('H')), "aHmm");
        assert_eq!(skeleton_of("y 'г'. d MMM", None), "yMMMd");
        let s = split("yMMMMEEEEdHHmm");
        assert_eq!(s.date_normal, "yMMMMEEEEd");
        assert_eq!(s.time_normal, "Hm");
        assert_eq!(split("ahmm").time_normal, "hm");
        assert_eq!(split("ahmm").time, "ahmm");
    }

    #[test]
    fn splits_at_the_first_repeated_field() {
        assert_eq!(split_point("d–d MMM"), "d–".len());
        assert_eq!(split_point("h:mm – h:mm a"), "h:mm – ".len());
        assert_eq!(
            split_point("d 'de' MMM – d 'de' MMM"),
            "d 'de' MMM – ".len()
        );
        assert_eq!(split_point("y"), 1);
    }

    #[test]
    fn day_ranges_share_the_month() {
        // es: `1–8 ene` (seed 1, program 988).
        assert_eq!(
            halves_of("es", "MMMd", Field::Day),
            ("d–".to_string(), "d MMM".to_string())
        );
        // The month spelt out: the pattern of `MMMd` widened.
        let (a, b) = halves_of("en", "MMMMd", Field::Day);
        assert_eq!(format!("{a}{b}"), "MMMM d\u{2009}–\u{2009}d");
    }

    #[test]
    fn a_two_digit_year_widens_the_pattern() {
        // ta: `31/3/24 – 31/3/25` (seed 1, program 196).
        let (a, b) = halves_of("ta", "yyMd", Field::Year);
        assert_eq!(format!("{a}{b}"), "d/M/yy – d/M/yy");
    }

    #[test]
    fn a_missing_year_extends_the_skeleton() {
        let (a, b) = halves_of("en", "MMMd", Field::Year);
        assert!(format!("{a}{b}").contains('y'), "{a}{b}");
    }

    #[test]
    fn time_ranges_and_dates_before_them() {
        let (a, b) = halves_of("en", "ahmm", Field::Hour);
        assert_eq!(format!("{a}|{b}"), "h:mm\u{2009}–\u{2009}|h:mm\u{202f}a");
        // ru: `1 янв. 2100 г., 03:30–15:30` (seed 1).
        let (a, b) = halves_of("ru", "yMMMdHHmm", Field::AmPm);
        assert_eq!(format!("{a}|{b}"), "d MMM y\u{202f}'г'., HH:mm–|HH:mm");
        // Different days with a time: no interval pattern.
        assert_eq!(
            plan("ru", "yMMMdHHmm", Field::Day),
            Plan::Whole("yMMMdHHmm".to_string())
        );
        // de: `Sonntag, 10. März 2024, 04:30:00 GMT-2:30 – 04:30:05 GMT-2:30` (seed 1,
        // program 646): seconds have no interval pattern; the date once, each part through
        // the generator's pattern for its normalized skeleton.
        match plan("de", "yMMMMEEEEdHHmmssz", Field::Second) {
            Plan::DatePlusTime { date, time, glue } => {
                assert_eq!(
                    (
                        fallback_pattern("de", &date).as_str(),
                        fallback_pattern("de", &time).as_str(),
                        glue.as_str()
                    ),
                    ("EEEE, d. MMMM y", "HH:mm:ss z", "{1}, {0}")
                );
            }
            other => panic!("{other:?}"),
        }
        // Seconds differ where the format shows none: the start alone.
        assert_eq!(plan("en", "ahmm", Field::Second), Plan::Single);
    }

    #[test]
    fn sources_follow_the_repeated_fields() {
        let local = |day| Local {
            year: 2024,
            month: 1,
            day,
            ..Local::default()
        };
        let names = vec![("day", "1".to_string()), ("month", "ene".to_string())];
        let a = render("d–", &local(1), &names).unwrap();
        let b = render("d MMM", &local(8), &names).unwrap();
        let parts = sources(a, b);
        let text: String = parts.iter().map(|p| p.1.as_str()).collect();
        assert_eq!(text, "1–8 ene");
        let marks: Vec<&str> = parts.iter().map(|p| p.2).collect();
        assert_eq!(
            marks,
            ["startRange", "shared", "endRange", "shared", "shared"]
        );
    }

    #[test]
    fn fallbacks_go_through_the_generator() {
        // A time alone on two days: `yMd` before it (gu: `31/12/2024 08:59:59 PM …`, seed
        // 43, program 700), the era too where the eras differ.
        assert_eq!(
            plan("gu", "ahhmmsszzzz", Field::Day),
            Plan::Whole("yMdahhmmsszzzz".to_string())
        );
        assert_eq!(
            plan("gu", "ahhmmsszzzz", Field::Era),
            Plan::Whole("GyMdahhmmsszzzz".to_string())
        );
        assert_eq!(
            fallback_pattern("gu", "yMdahhmmsszzzz"),
            "d/M/y hh:mm:ss a zzzz"
        );
        // The hour keeps the matched pattern's length: `tr`'s `H:mm` on two days is
        // `31.03.2024 08:00` (seed 7373, program 124).
        assert_eq!(fallback_pattern("tr", "yMdHmm"), "dd.MM.y HH:mm");
        // A date field the format lacks extends the skeleton, with those before it.
        assert_eq!(
            plan("en", "EEEEhmma", Field::Month),
            Plan::Whole(canonical("MdEEEEhmma"))
        );
        assert_eq!(
            plan("en", "dhmma", Field::Year),
            Plan::Whole(canonical("yMdhmma"))
        );
        assert_eq!(
            plan("en", "dhmma", Field::Day),
            Plan::Whole("dhmma".to_string())
        );
        // zh-Hant's glue has the reference's space: `1970/1/1 上午9:00` (seed 1, program 286).
        assert_eq!(fallback_pattern("zh-TW", "yMdBhmm"), "y/M/d Bh:mm");
    }

    #[test]
    fn a_date_after_the_times_and_spans_without_trailing_text() {
        let p = |v: &[(&'static str, &str)]| -> Vec<(&'static str, String)> {
            v.iter().map(|(k, s)| (*k, s.to_string())).collect()
        };
        // vi: `01:00:00 GMT+1 – 01:01:00 GMT+1 Thứ Hai, …` (seed 501, program 754).
        let parts = date_plus_time(
            "{0} {1}",
            "{0} – {1}",
            p(&[("weekday", "Thứ Hai")]),
            p(&[("hour", "01"), ("literal", ":"), ("minute", "00")]),
            p(&[("hour", "01"), ("literal", ":"), ("minute", "01")]),
        )
        .unwrap();
        let text: String = parts.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(text, "01:00 – 01:01 Thứ Hai");
        assert_eq!(parts.last().unwrap().2, "shared");
        // kn: text after an end's last field lies outside its span (seed 43, program 341).
        let parts = whole(
            "{0} – {1}",
            p(&[("day", "1"), ("literal", " ರಂದು")]),
            p(&[("day", "2"), ("literal", " ರಂದು")]),
        )
        .unwrap();
        let marks: Vec<(&str, &str)> = parts.iter().map(|x| (x.1.as_str(), x.2)).collect();
        assert_eq!(
            marks,
            [
                ("1", "startRange"),
                (" ರಂದು – ", "shared"),
                ("2", "endRange"),
                (" ರಂದು", "shared")
            ]
        );
    }
}
