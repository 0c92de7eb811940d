//! Generates `src/isolate/web/intl/supplemental.data`, CLDR's plural rules (cardinal and
//! ordinal) and the regions' preferred hour cycles, of the release the reference's ICU
//! carries, from the npm package `cldr-core` (its `supplemental/plurals.json`,
//! `supplemental/ordinals.json` and `supplemental/timeData.json`; the command and version
//! are in `docs/intl.md`):
//!
//! ```text
//! cargo run -p codemode-executor --example supplemental_data -- CORE_DIR OUT
//! ```
//!
//! ICU4X 2.4's compiled plural rules are a newer CLDR's, whose rules differ for some
//! languages (Vietnamese gains `one`, Spanish ordinals `one`), so `Intl.PluralRules` reads
//! these instead; ICU4X's compiled data has no time data by region, which
//! `Intl.Locale.prototype.getHourCycles` answers from.
//!
//! The output is text: a header line `cldr <version>`, then one line per language, rule type
//! and category, `<c|o>\t<language>\t<category>\t<condition>`, the condition without its
//! samples (`i = 1 and v = 0`; `other` is written with an empty condition, so every language
//! CLDR lists has a line), and one line per region (or language and region) of the time
//! data, `h\t<region>\t<preferred hour symbol>` (`h\tUS\th`, `h\tca-ES\tH`).

use std::path::Path;

fn read(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))
}

const CATEGORIES: &[&str] = &["zero", "one", "two", "few", "many", "other"];

fn run(core: &Path, out: &Path) -> Result<(), String> {
    let version = read(&core.join("package.json"))?["version"]
        .as_str()
        .ok_or("cldr-core's package.json names no version")?
        .to_string();
    let mut text = format!("cldr {version}\n");
    let mut languages = 0;
    for (kind, file, key) in [
        ('c', "plurals.json", "plurals-type-cardinal"),
        ('o', "ordinals.json", "plurals-type-ordinal"),
    ] {
        let json = read(&core.join("supplemental").join(file))?;
        let table = json["supplemental"][key]
            .as_object()
            .ok_or_else(|| format!("{file} has no {key}"))?;
        for (language, rules) in table {
            languages += 1;
            for category in CATEGORIES {
                let Some(rule) = rules[format!("pluralRule-count-{category}")].as_str() else {
                    continue;
                };
                let condition = rule.split('@').next().unwrap_or("").trim();
                text.push_str(&format!("{kind}\t{language}\t{category}\t{condition}\n"));
            }
        }
    }
    let time = read(&core.join("supplemental").join("timeData.json"))?;
    let regions = time["supplemental"]["timeData"]
        .as_object()
        .ok_or("timeData.json has no timeData")?;
    for (region, data) in regions {
        let preferred = data["_preferred"]
            .as_str()
            .ok_or_else(|| format!("timeData's {region} has no _preferred"))?;
        text.push_str(&format!("h\t{region}\t{preferred}\n"));
    }
    std::fs::write(out, &text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!(
        "{languages} rule sets and {} regions' hours from CLDR {version}: {} bytes in {}",
        regions.len(),
        text.len(),
        out.display()
    );
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [core, out] = args.as_slice() else {
        eprintln!(
            "usage: supplemental_data CORE_DIR OUT (the unpacked cldr-core package, and the file to write)"
        );
        std::process::exit(2);
    };
    if let Err(e) = run(Path::new(core), Path::new(out)) {
        eprintln!("supplemental_data: {e}");
        std::process::exit(1);
    }
}
