//! Tidy: the repository's habits that nothing else keeps, checked on every `cargo test`, in
//! the manner of rust-analyzer's `xtask/src/tidy.rs`. Each failure prints `file:line: what`.
//!
//! - every Rust source file opens with a `//!` doc;
//! - every repository path a doc or a comment cites (in backticks) exists;
//! - every relative Markdown link in `README.md`, `ARCHITECTURE.md` and `docs/` resolves, its
//!   anchor included;
//! - no doc or comment names a path outside the repository (a machine's absolute path, a
//!   sibling checkout's files) or an issue number;
//! - the executor's layers import one way: `protocol` knows nothing of QuickJS, the dialect,
//!   the isolate or the remote layer; the dialect nothing of QuickJS, the isolate or the
//!   remote layer;
//! - each crate's integration tests are one binary, `tests/main.rs` with a module per concept
//!   (the harness's catalogue, through libtest-mimic, is the one other), so a new test file
//!   becomes a module instead of one more binary that links everything again.
//!
//! Paths under `results/`, `target/` and `node_modules/` are outputs of commands, not sources,
//! and are not required to exist; a path with a placeholder (`<version>`, `NNNN`, `*`) names
//! no one file. Fixtures are data and are not read.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The repository's root, or `None` when the crate is built outside the repository
/// (packaged alone), where there is nothing to tidy.
fn root() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()?
        .to_path_buf();
    root.join("ARCHITECTURE.md").is_file().then_some(root)
}

/// Directories never read: build output, installed packages, version control, the engine's
/// upstream crates (`vendor/codemode-*`: published sources plus the patch series, checked by
/// `vendor/apply-patches.sh --check` instead), generated reports, test fixtures (data written
/// to exercise parsers).
fn skipped(relative: &Path) -> bool {
    let text = relative.to_string_lossy();
    let name = relative
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    matches!(name.as_str(), "target" | "node_modules" | "fixtures")
        || (name.starts_with('.') && name != ".ci" && name != ".github")
        || (text.starts_with("vendor/codemode-") && relative.components().count() == 2)
        || text == "results"
}

/// Every file the checks read, relative to the root, in a stable order.
fn files(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = fs::read_dir(root.join(&dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let relative = dir.join(entry.file_name());
            if skipped(&relative) {
                continue;
            }
            match entry.file_type() {
                Ok(t) if t.is_dir() => pending.push(relative),
                Ok(t) if t.is_file() => found.push(relative),
                _ => {}
            }
        }
    }
    found.sort();
    found
}

fn extension(path: &Path) -> &str {
    path.extension().and_then(|e| e.to_str()).unwrap_or("")
}

fn is_markdown(path: &Path) -> bool {
    extension(path) == "md"
}

/// Source files whose comments are read: Rust, JavaScript, shell, Python, YAML, TOML.
fn comment_marker(path: &Path) -> Option<&'static str> {
    match extension(path) {
        "rs" | "js" | "mjs" => Some("//"),
        "yaml" | "yml" | "toml" | "sh" | "py" => Some("#"),
        _ => None,
    }
}

/// The prose of a file, line by line (1-based): a Markdown file's lines outside fenced code
/// blocks, a source file's comments.
fn prose(path: &Path, text: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    if is_markdown(path) {
        let mut fenced = false;
        for (i, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                continue;
            }
            if !fenced {
                lines.push((i + 1, line.to_string()));
            }
        }
    } else if let Some(marker) = comment_marker(path) {
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            if let Some(comment) = trimmed.strip_prefix(marker) {
                lines.push((i + 1, comment.to_string()));
            } else if let Some(at) = line.find(&format!(" {marker} ")) {
                lines.push((i + 1, line[at + marker.len() + 1..].to_string()));
            }
        }
    }
    lines
}

/// The spans of a line written in backticks.
fn code_spans(line: &str) -> impl Iterator<Item = &str> {
    line.split('`').skip(1).step_by(2)
}

/// A backticked span read as a path: `Some` when it has the shape of one (a `/`, no spaces,
/// no placeholders or patterns, not a `./` module specifier), with a trailing `:line` or
/// `#anchor` dropped.
fn path_shaped(span: &str) -> Option<&str> {
    let span = span.trim_end_matches(['.', ',', ';']);
    if !span.contains('/')
        || span.starts_with('/')
        || span.starts_with("./")
        || span.contains("://")
        || span.contains("..")
        || span
            .chars()
            .any(|c| c.is_whitespace() || "*<>{}…$|@=[](),'\"\\".contains(c))
        || span.contains("NNNN")
    {
        return None;
    }
    let span = span.split('#').next()?;
    let span = match span.split_once(':') {
        Some((path, rest)) if rest.chars().all(|c| c.is_ascii_digit() || c == ':') => path,
        Some(_) => return None,
        None => span,
    };
    (!span.is_empty()).then_some(span)
}

/// The directory of the package a file belongs to (nearest ancestor with a `Cargo.toml` or
/// a `package.json`), relative to the root.
fn package_dir(root: &Path, file: &Path) -> PathBuf {
    let mut dir = file.parent().unwrap_or(Path::new("")).to_path_buf();
    loop {
        if root.join(&dir).join("Cargo.toml").is_file()
            || root.join(&dir).join("package.json").is_file()
            || dir.as_os_str().is_empty()
        {
            return dir;
        }
        dir.pop();
    }
}

/// What `span` names, if it names a path of the repository: it must then exist. A span is a
/// repository path when its first component is an entry of the root, of the citing file's
/// package, or of the citing file's directory.
fn cited_path_problem(root: &Path, file: &Path, span: &str) -> Option<String> {
    let path = path_shaped(span)?;
    let first = path.split('/').next()?;
    if first == "results" || first == "target" || path.split('/').any(|c| c == "node_modules") {
        return None;
    }
    let bases = [
        PathBuf::new(),
        package_dir(root, file),
        file.parent().unwrap_or(Path::new("")).to_path_buf(),
    ];
    let names_an_entry = bases
        .iter()
        .any(|base| root.join(base).join(first).exists());
    if !names_an_entry || bases.iter().any(|base| root.join(base).join(path).exists()) {
        return None;
    }
    Some(format!("`{path}` does not exist"))
}

/// Texts that name a place outside the repository: a machine's absolute path, or a checkout
/// beside this one. Built from their parts, so this file does not itself name them.
fn outside() -> Vec<String> {
    let machine = ["work", "home", "Users", "root"].map(|top| format!("/{top}/"));
    let beside = ["design", "research"].map(|room| format!("{}/{room}/", "shared"));
    let mut texts: Vec<String> = machine.into_iter().chain(beside).collect();
    texts.push(format!("../{}/", "shared"));
    texts
}

/// Where a line names an issue by its number: the word, an optional `#`, then digits.
fn names_an_issue(line: &str) -> bool {
    let lower = line.to_lowercase();
    lower.match_indices("issue").any(|(at, _)| {
        let before = lower[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-') {
            return false;
        }
        let rest = lower[at + "issue".len()..].trim_start_matches('s');
        let rest = rest.trim_start_matches([' ', '#']);
        rest.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor a Markdown text defines, repeated headings numbered as GitHub numbers them.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let base = slug(line.trim_start_matches('#'));
        let mut anchor = base.clone();
        let mut n = 0;
        while found.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        found.insert(anchor);
    }
    found
}

/// The targets of a line's inline Markdown links, `[text](target)`.
fn link_targets(line: &str) -> Vec<&str> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        targets.push(after[..end].trim());
        rest = &after[end..];
    }
    targets
}

/// `path` with `.` and `..` resolved, or `None` when it climbs above its start.
fn normalized(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(part) => out.push(part),
            _ => return None,
        }
    }
    Some(out)
}

/// What is wrong with a relative link from `file` to `target`, if anything.
fn link_problem(root: &Path, file: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let linked = if path.is_empty() {
        file.to_path_buf()
    } else {
        let Some(linked) = normalized(&file.parent().unwrap_or(Path::new("")).join(path)) else {
            return Some(format!("the link `{target}` leaves the repository"));
        };
        linked
    };
    if !root.join(&linked).exists() {
        return Some(format!("the link `{target}` names no file"));
    }
    let anchor = anchor.filter(|a| !a.is_empty())?;
    if !is_markdown(&linked) {
        return None;
    }
    let text = fs::read_to_string(root.join(&linked)).ok()?;
    (!anchors(&text).contains(anchor)).then(|| {
        format!(
            "the link `{target}` names no heading of {}",
            linked.display()
        )
    })
}

/// Fails with every problem, one `file:line: what` a line.
fn report(check: &str, problems: Vec<String>) {
    assert!(
        problems.is_empty(),
        "{check}: {} problem(s)\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn every_source_file_opens_with_a_module_doc() {
    let Some(root) = root() else { return };
    let mut problems = Vec::new();
    for file in files(&root).iter().filter(|f| extension(f) == "rs") {
        let text = fs::read_to_string(root.join(file)).unwrap_or_default();
        let first = text.lines().position(|l| !l.trim().is_empty());
        match first {
            Some(i) if text.lines().nth(i).is_some_and(|l| l.starts_with("//!")) => {}
            Some(i) => problems.push(format!(
                "{}:{}: the file does not open with a `//!` doc",
                file.display(),
                i + 1
            )),
            None => problems.push(format!("{}:1: the file is empty", file.display())),
        }
    }
    report("module docs", problems);
}

#[test]
fn every_cited_path_exists() {
    let Some(root) = root() else { return };
    let mut problems = Vec::new();
    for file in files(&root) {
        let Ok(text) = fs::read_to_string(root.join(&file)) else {
            continue;
        };
        for (line, prose) in prose(&file, &text) {
            for span in code_spans(&prose) {
                if let Some(what) = cited_path_problem(&root, &file, span) {
                    problems.push(format!("{}:{line}: {what}", file.display()));
                }
            }
        }
    }
    report("cited paths", problems);
}

#[test]
fn every_relative_link_resolves() {
    let Some(root) = root() else { return };
    let mut problems = Vec::new();
    let read = files(&root).into_iter().filter(|f| {
        is_markdown(f)
            && (f.starts_with("docs")
                || f == Path::new("README.md")
                || f == Path::new("ARCHITECTURE.md"))
    });
    for file in read {
        let text = fs::read_to_string(root.join(&file)).unwrap_or_default();
        for (line, prose) in prose(&file, &text) {
            for target in link_targets(&prose) {
                if let Some(what) = link_problem(&root, &file, target) {
                    problems.push(format!("{}:{line}: {what}", file.display()));
                }
            }
        }
    }
    report("links", problems);
}

#[test]
fn no_doc_leaves_the_repository_or_names_an_issue() {
    let Some(root) = root() else { return };
    let places = outside();
    let mut problems = Vec::new();
    for file in files(&root) {
        let Ok(text) = fs::read_to_string(root.join(&file)) else {
            continue;
        };
        for (line, prose) in prose(&file, &text) {
            if let Some(outside) = places.iter().find(|o| prose.contains(o.as_str())) {
                problems.push(format!(
                    "{}:{line}: names a path outside the repository (`{outside}`)",
                    file.display()
                ));
            }
            if names_an_issue(&prose) {
                problems.push(format!(
                    "{}:{line}: names an issue by number; say the concept instead",
                    file.display()
                ));
            }
        }
    }
    report("outside references", problems);
}

#[test]
fn the_executor_layers_import_one_way() {
    let Some(root) = root() else { return };
    let rules: [(&str, &[&str]); 2] = [
        (
            "executor/src/protocol",
            &[
                "rquickjs",
                "crate::isolate",
                "crate::dialect",
                "crate::remote",
            ],
        ),
        (
            "executor/src/dialect",
            &["rquickjs", "crate::isolate", "crate::remote"],
        ),
    ];
    let mut problems = Vec::new();
    for file in files(&root).iter().filter(|f| extension(f) == "rs") {
        for (layer, forbidden) in rules {
            if !file.starts_with(layer) {
                continue;
            }
            let text = fs::read_to_string(root.join(file)).unwrap_or_default();
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                if let Some(name) = forbidden.iter().find(|f| code.contains(*f)) {
                    problems.push(format!(
                        "{}:{}: {layer} must not know `{name}`",
                        file.display(),
                        i + 1
                    ));
                }
            }
        }
    }
    report("layers", problems);
}

#[test]
fn each_crate_builds_one_integration_test_binary() {
    let Some(root) = root() else { return };
    let mut problems = Vec::new();
    for (tests, binaries) in [
        ("executor/tests", &["main.rs"][..]),
        ("harness/tests", &["main.rs", "catalogue.rs"][..]),
    ] {
        let Ok(entries) = fs::read_dir(root.join(tests)) else {
            continue;
        };
        let mut names: Vec<(String, bool)> = entries
            .flatten()
            .map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                (name, e.path().join("main.rs").is_file())
            })
            .collect();
        names.sort();
        for (name, holds_main) in names {
            if (name.ends_with(".rs") && !binaries.contains(&name.as_str())) || holds_main {
                let file = if holds_main {
                    format!("{name}/main.rs")
                } else {
                    name
                };
                problems.push(format!(
                    "{tests}/{file}:1: cargo builds this as a test binary of its own; make it a \
                     module of `{tests}/main.rs`"
                ));
            }
        }
    }
    report("test binaries", problems);
}

#[test]
fn the_checks_read_what_they_should() {
    assert_eq!(
        path_shaped("harness/src/matrix.rs:481"),
        Some("harness/src/matrix.rs")
    );
    assert_eq!(
        path_shaped("docs/harness.md#matrix"),
        Some("docs/harness.md")
    );
    assert_eq!(path_shaped("wrangler/wrangler.<VERSION>.toml"), None);
    assert_eq!(path_shaped("a b/c"), None);
    assert_eq!(path_shaped("reference@0.5.6"), None);
    assert!(names_an_issue("as issue 14 asked"));
    assert!(names_an_issue("(Issue #3)"));
    assert!(!names_an_issue("list-issues 14"));
    assert!(!names_an_issue("an issue of taste"));
    assert_eq!(
        slug("The command line and `matrix.json`"),
        "the-command-line-and-matrixjson"
    );
    assert_eq!(slug("## `matrix`".trim_start_matches('#')), "matrix");
}
