//! Generates `src/isolate/web/intl/units.data.z`, the CLDR unit patterns behind
//! `Intl.NumberFormat`'s unit style and the number range patterns behind `formatRange`, from
//! CLDR's JSON release (the npm packages `cldr-units-full`, `cldr-numbers-full` and
//! `cldr-core`, the release the reference's ICU carries; the command and versions are in
//! `docs/intl.md`):
//!
//! ```text
//! cargo run -p codemode-executor --example unit_data -- UNITS_DIR NUMBERS_DIR CORE_DIR OUT
//! ```
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
//! holds the locale's range pattern (`{0}–{1}`) under its numbering system's name.

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

/// One locale's range patterns, from its `numbers.json`, by numbering system.
fn ranges(numbers: &serde_json::Value, out: &mut Entries) {
    let Some(table) = numbers.as_object() else {
        return;
    };
    for (key, value) in table {
        let Some(system) = key.strip_prefix("miscPatterns-numberSystem-") else {
            continue;
        };
        if let Some(p) = value.get("range").and_then(|p| p.as_str()) {
            out.insert(("range".into(), 'l', system.into()), p.into());
        }
    }
}

fn run(units_dir: &Path, numbers_dir: &Path, core_dir: &Path, out: &Path) -> Result<(), String> {
    let version = read(&units_dir.join("package.json"))?["version"]
        .as_str()
        .unwrap_or("unknown")
        .to_string();
    let parents = read(&core_dir.join("supplemental/parentLocales.json"))?;
    let parents = parents["supplemental"]["parentLocales"]["parentLocale"].clone();
    let main = units_dir.join("main");
    let mut locales = BTreeMap::new();
    for dir in
        std::fs::read_dir(&main).map_err(|e| format!("cannot list {}: {e}", main.display()))?
    {
        let dir = dir.map_err(|e| e.to_string())?;
        let name = dir.file_name().to_string_lossy().to_string();
        let json = read(&dir.path().join("units.json"))?;
        let mut own = entries(&json["main"][&name]["units"]);
        let numbers = numbers_dir.join("main").join(&name).join("numbers.json");
        if numbers.exists() {
            ranges(&read(&numbers)?["main"][&name]["numbers"], &mut own);
        }
        locales.insert(name.clone(), own);
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
    let mut text = format!("cldr {version}\n");
    for (name, own) in &locales {
        let parent = parent_of(name);
        let inherited = locales.get(&parent);
        text.push_str(&format!("={name}\t{parent}\n"));
        for ((unit, width, field), pattern) in own {
            let key = (unit.clone(), *width, field.clone());
            if inherited.and_then(|p| p.get(&key)) == Some(pattern) {
                continue;
            }
            text.push_str(&format!("{unit}\t{width}\t{field}\t{pattern}\n"));
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
    let [units, numbers, core, out] = args.as_slice() else {
        eprintln!(
            "usage: unit_data UNITS_DIR NUMBERS_DIR CORE_DIR OUT (the unpacked cldr-units-full, cldr-numbers-full and cldr-core packages, and the file to write)"
        );
        std::process::exit(2);
    };
    let paths = (Path::new(units), Path::new(numbers), Path::new(core));
    if let Err(e) = run(paths.0, paths.1, paths.2, Path::new(out)) {
        eprintln!("unit_data: {e}");
        std::process::exit(1);
    }
}
