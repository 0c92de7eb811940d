//! Choosing the tests of a run: every `.js` file under the suite's `test/` (fixtures, named
//! `*_FIXTURE.js`, are no tests), those matching a `--filter` glob, each read and either left
//! out by a rule of [`super::metadata`] or turned into a program; then, with `--sample N`, N
//! of each filter's runnable tests drawn with the seed.
//!
//! Guarantees: the same suite, filters, sample and seed choose the same tests in the same
//! order (sorted by path); every matched file is either run or counted under a reason.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use regex::Regex;

use super::metadata::{self, LeftOut, Metadata};
use super::program::{self, Expectation};
use crate::{Error, Result};

/// A test chosen to run.
#[derive(Debug, Clone)]
pub struct Test {
    /// The path under `test/`, with `/` separators (`built-ins/Array/length.js`).
    pub path: String,
    /// Its frontmatter.
    pub meta: Metadata,
    /// What it expects.
    pub expectation: Expectation,
    /// The program the columns run: the harness files it includes, then the test.
    pub program: String,
}

/// What a selection found.
#[derive(Debug, Default)]
pub struct Selection {
    /// The tests to run, sorted by path.
    pub tests: Vec<Test>,
    /// How many matched files each rule left out.
    pub left_out: BTreeMap<String, usize>,
    /// How many matched files could have run (before sampling).
    pub runnable: usize,
}

/// A `--filter` glob over paths under `test/`: `*` within one path segment, `**` across
/// segments, `?` one character; a glob without wildcards names a file or a directory.
#[derive(Debug, Clone)]
pub struct Filter {
    /// The glob, as given (without a leading `test/` or a trailing `/`).
    pub glob: String,
    pattern: Regex,
}

impl Filter {
    /// The filter for `glob`; a glob that names nothing is refused with a sentence.
    pub fn new(glob: &str) -> Result<Self> {
        let glob = glob.trim_start_matches("test/").trim_end_matches('/');
        if glob.is_empty() {
            return Err(Error::Usage("a --filter glob is empty".into()));
        }
        let mut pattern = String::from("^");
        let mut chars = glob.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '*' if chars.peek() == Some(&'*') => {
                    chars.next();
                    pattern.push_str(".*");
                }
                '*' => pattern.push_str("[^/]*"),
                '?' => pattern.push_str("[^/]"),
                c => pattern.push_str(&regex::escape(&c.to_string())),
            }
        }
        // A directory (or a glob naming directories) matches every test below it.
        pattern.push_str("(/.*)?$");
        let pattern = Regex::new(&pattern)
            .map_err(|e| Error::Usage(format!("the --filter glob {glob:?} is not usable: {e}")))?;
        Ok(Filter {
            glob: glob.to_string(),
            pattern,
        })
    }

    /// Whether `path` (under `test/`) matches.
    pub fn matches(&self, path: &str) -> bool {
        self.pattern.is_match(path)
    }
}

/// The suite's two directories, checked: `harness/` (includes) and `test/` (tests).
pub fn suite(dir: &Path) -> Result<(PathBuf, PathBuf)> {
    let harness = dir.join("harness");
    let tests = dir.join("test");
    if !harness.join("assert.js").is_file() || !tests.is_dir() {
        return Err(Error::Usage(format!(
            "{} is not a test262 checkout: it needs harness/assert.js and test/ (clone https://github.com/tc39/test262 and pass its root to --dir)",
            dir.display()
        )));
    }
    Ok((harness, tests))
}

/// Every test file under `tests`, as paths relative to it, sorted.
fn walk(tests: &Path) -> Result<Vec<String>> {
    let mut found = Vec::new();
    let mut pending = vec![tests.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|e| Error::io(&dir, e))? {
            let entry = entry.map_err(|e| Error::io(&dir, e))?;
            let path = entry.path();
            let kind = entry.file_type().map_err(|e| Error::io(&path, e))?;
            if kind.is_dir() {
                pending.push(path);
            } else if let Some(name) = path.file_name().and_then(|n| n.to_str())
                && name.ends_with(".js")
                && !name.ends_with("_FIXTURE.js")
                && let Ok(relative) = path.strip_prefix(tests)
            {
                let parts: Vec<_> = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                found.push(parts.join("/"));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// How `--sample` draws.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// How many of each filter's runnable tests run.
    pub per_filter: usize,
    /// The seed they are drawn with.
    pub seed: u64,
}

/// Chooses the tests: matched by any filter (every test when there is none), read, left out
/// or kept, sampled per filter, and built (only the chosen tests' programs are ever built, so
/// a run over the whole suite holds one frontmatter per test, not one program).
pub fn select(dir: &Path, filters: &[Filter], sample: Option<Sample>) -> Result<Selection> {
    select_for(dir, filters, sample, false)
}

/// [`select`], for the message mode when `messages`: only the tests that make error texts by
/// design (negative ones, and those calling `assert.throws` or `assert.throwsAsync`) are
/// runnable, the others counted as left out, and the programs record their texts.
pub fn select_for(
    dir: &Path,
    filters: &[Filter],
    sample: Option<Sample>,
    messages: bool,
) -> Result<Selection> {
    let (harness, tests) = suite(dir)?;
    let all = walk(&tests)?;
    let mut selection = Selection::default();
    // Runnable tests per filter (index): path and frontmatter.
    let mut runnable: Vec<Vec<(String, Metadata)>> = vec![Vec::new(); filters.len().max(1)];
    for path in all {
        let group = if filters.is_empty() {
            Some(0)
        } else {
            filters.iter().position(|f| f.matches(&path))
        };
        let Some(group) = group else { continue };
        match examine(&tests.join(&path), messages) {
            Ok(meta) => runnable[group].push((path, meta)),
            Err(reason) => *selection.left_out.entry(reason.reason()).or_default() += 1,
        }
    }
    selection.runnable = runnable.iter().map(Vec::len).sum();
    let mut chosen = Vec::new();
    for (index, mut group) in runnable.into_iter().enumerate() {
        if let Some(sample) = sample
            && group.len() > sample.per_filter
        {
            let mut rng = fastrand::Rng::with_seed(sample.seed.wrapping_add(index as u64));
            rng.shuffle(&mut group);
            group.truncate(sample.per_filter);
        }
        chosen.extend(group);
    }
    chosen.sort_by(|a, b| a.0.cmp(&b.0));
    let mut includes: HashMap<String, Option<String>> = HashMap::new();
    for (path, meta) in chosen {
        match build(
            &tests.join(&path),
            path,
            meta,
            &harness,
            &mut includes,
            messages,
        ) {
            Ok(test) => selection.tests.push(test),
            Err(reason) => {
                selection.runnable -= 1;
                *selection.left_out.entry(reason.reason()).or_default() += 1;
            }
        }
    }
    Ok(selection)
}

/// Reads one test's frontmatter, or says which rule leaves it out.
fn examine(file: &Path, messages: bool) -> std::result::Result<Metadata, LeftOut> {
    let source = std::fs::read_to_string(file).map_err(|_| LeftOut::Unreadable)?;
    let meta = metadata::parse(&source).map_err(|_| LeftOut::Unreadable)?;
    match metadata::left_out(&meta, &source) {
        Some(reason) => Err(reason),
        None if messages && meta.features.iter().any(|f| f == "Temporal") => Err(LeftOut::Temporal),
        None if messages && meta.negative.is_none() && !source.contains("assert.throws") => {
            Err(LeftOut::NoErrorText)
        }
        None => Ok(meta),
    }
}

/// Builds a kept test's program; a missing include leaves it out.
fn build(
    file: &Path,
    path: String,
    meta: Metadata,
    harness: &Path,
    includes: &mut HashMap<String, Option<String>>,
    messages: bool,
) -> std::result::Result<Test, LeftOut> {
    let source = std::fs::read_to_string(file).map_err(|_| LeftOut::Unreadable)?;
    let mut texts: Vec<(String, String)> = Vec::new();
    for name in program::includes(&meta) {
        let text = includes
            .entry(name.clone())
            .or_insert_with(|| std::fs::read_to_string(harness.join(&name)).ok());
        match text {
            Some(text) => texts.push((name, text.clone())),
            None => return Err(LeftOut::MissingInclude(name)),
        }
    }
    let texts: Vec<(String, &str)> = texts.iter().map(|(n, t)| (n.clone(), t.as_str())).collect();
    let expectation = Expectation::of(&meta);
    let program = program::program(&source, &texts, &expectation, messages);
    Ok(Test {
        path,
        meta,
        expectation,
        program,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_segments_and_directories() {
        let f = Filter::new("built-ins/Array/*/at").unwrap();
        assert!(f.matches("built-ins/Array/prototype/at/length.js"));
        assert!(!f.matches("built-ins/Array/prototype/x/at/length.js"));
        let deep = Filter::new("built-ins/**/length.js").unwrap();
        assert!(deep.matches("built-ins/Array/prototype/at/length.js"));
        assert!(!deep.matches("language/length.js"));
        let dir = Filter::new("test/intl402/").unwrap();
        assert!(dir.matches("intl402/Collator/x.js"));
        assert!(!dir.matches("intl4020/x.js"));
    }

    #[test]
    fn a_directory_without_the_suite_is_refused_with_what_it_lacks() {
        let error = select(Path::new("/nonexistent"), &[], None).unwrap_err();
        assert!(error.to_string().contains("harness/assert.js and test/"));
    }
}
