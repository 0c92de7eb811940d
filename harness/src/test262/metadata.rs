//! A test262 test's frontmatter (the YAML between `/*---` and `---*/`, see test262's
//! `INTERPRETING.md`), and the rules that leave a test out of a run, each with the reason
//! the report counts.
//!
//! Guarantees: a test is left out only by a rule named here, and always with that rule's
//! reason; a test whose frontmatter is missing or does not parse is left out with a reason
//! saying so, never run half-understood.

use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

/// The fields of a test's frontmatter the runner reads (the others are documentation).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct Metadata {
    /// Files of the suite's `harness/` to run before the test.
    #[serde(default)]
    pub includes: Vec<String>,
    /// The test's flags (`async`, `module`, `onlyStrict`, `raw`, …).
    #[serde(default)]
    pub flags: Vec<String>,
    /// The language features the test needs.
    #[serde(default)]
    pub features: Vec<String>,
    /// How the test must fail, when it must.
    #[serde(default)]
    pub negative: Option<Negative>,
}

/// A test that must fail: in which phase, with which error constructor.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Negative {
    /// The phase it fails in (`parse`, `resolution` or `runtime`).
    pub phase: String,
    /// The error constructor's name (`SyntaxError`, …).
    #[serde(rename = "type")]
    pub kind: String,
}

impl Metadata {
    /// Whether the frontmatter sets this flag.
    pub fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|f| f == name)
    }
}

/// Reads the frontmatter of a test's source; `Err` says why it cannot be read.
pub fn parse(source: &str) -> Result<Metadata, String> {
    let start = source
        .find("/*---")
        .ok_or("the test has no /*--- frontmatter ---*/")?;
    let body = &source[start + 5..];
    let end = body
        .find("---*/")
        .ok_or("the test's frontmatter is not closed by ---*/")?;
    let yaml = &body[..end];
    if yaml.trim().is_empty() {
        return Ok(Metadata::default());
    }
    serde_saphyr::from_str(yaml).map_err(|e| format!("the test's frontmatter does not parse: {e}"))
}

/// Why a test is left out of the run, as the report counts it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LeftOut {
    /// `flags: [module]`, or a negative test of the `resolution` phase: a codemode program is
    /// the body of a function in the sandbox's module, never a module of its own.
    Module,
    /// `flags: [noStrict]` or `[raw]`: the program runs in the sandbox's module, which is
    /// strict code, so sloppy-mode semantics cannot be run on either side.
    SloppyMode,
    /// `$262.<name>` or an include built on one: hooks a test262 host provides (realms,
    /// agents, detaching buffers, `IsHTMLDDA`, script evaluation, GC) that neither sandbox
    /// offers a program.
    HostHook(String),
    /// `flags: [CanBlockIsTrue]` / `[CanBlockIsFalse]`: whether `Atomics.wait` may block is a
    /// property of the host's agent.
    CanBlock,
    /// `eval` or the `Function` constructor family called with an argument (without one
    /// there is nothing to compile, and both sides make an empty function or return
    /// `undefined`): code generation from strings is refused
    /// on the reference ("Code generation from strings disallowed for this context") and on
    /// ours alike, so such a test measures nothing but that refusal.
    CodeGeneration,
    /// A test that cannot be read (no frontmatter, bad YAML, not UTF-8).
    Unreadable,
    /// A test whose include is not in the suite's `harness/`.
    MissingInclude(String),
    /// In the message mode: a test that is not negative and never calls `assert.throws` (nor
    /// `assert.throwsAsync`), so it makes no error text unless it fails.
    NoErrorText,
    /// In the message mode: a Temporal test. Neither side has Temporal, so every such test
    /// records the same `Temporal is not defined` on both and would only pad the figures.
    Temporal,
}

impl LeftOut {
    /// The reason as the report prints it.
    pub fn reason(&self) -> String {
        match self {
            LeftOut::Module => "module code (flags: [module] or a resolution-phase negative)".into(),
            LeftOut::SloppyMode => "sloppy mode (flags: [noStrict] or [raw]); the sandbox is a module, strict code".into(),
            LeftOut::HostHook(hook) => format!("host hook {hook}"),
            LeftOut::CanBlock => "Atomics.wait blocking (flags: [CanBlockIsTrue] or [CanBlockIsFalse])".into(),
            LeftOut::CodeGeneration => "code generation from strings (eval, Function constructors), refused on the reference".into(),
            LeftOut::Unreadable => "the test cannot be read (no frontmatter, or it does not parse)".into(),
            LeftOut::MissingInclude(name) => format!("include harness/{name} is missing"),
            LeftOut::NoErrorText => "message mode: not negative and no assert.throws, so no error text to compare".into(),
            LeftOut::Temporal => "message mode: Temporal, which neither side has".into(),
        }
    }
}

static HOST_HOOK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\$262\.([A-Za-z_$][\w$]*)").expect("the pattern is valid"));

static CODE_GENERATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\beval\s*\(\s*[^)\s]|\b(?:Async|AsyncGenerator|Generator)?Function\s*\(\s*[^)\s]|\.constructor\s*\(\s*['`]")
        .expect("the pattern is valid")
});

/// Includes that stand on a host hook or on code generation, so every test that lists them is
/// left out with the same reason as a test that uses the hook itself.
const HOOKED_INCLUDES: &[(&str, &str)] = &[
    ("detachArrayBuffer.js", "$262.detachArrayBuffer"),
    ("atomicsHelper.js", "$262.agent"),
];

/// Features a test262 host provides rather than the language.
const HOST_FEATURES: &[(&str, &str)] = &[
    ("IsHTMLDDA", "$262.IsHTMLDDA"),
    ("cross-realm", "$262.createRealm"),
    ("host-gc-required", "$262.gc"),
];

/// The rule that leaves this test out, if any: checked in the order of [`LeftOut`]'s variants
/// so a test that breaks several rules is counted once, under the first. Code generation is
/// looked for in the test's own code only: an include that has a helper built on it (such as
/// `resizableArrayBufferUtils.js`) fails the tests that call that helper, on both sides alike.
pub fn left_out(meta: &Metadata, source: &str) -> Option<LeftOut> {
    // The frontmatter quotes the specification (`Function ( p1, … )`); only code counts.
    let source = without_frontmatter(source);
    let source = source.as_str();
    if meta.flag("module")
        || meta
            .negative
            .as_ref()
            .is_some_and(|n| n.phase == "resolution")
    {
        return Some(LeftOut::Module);
    }
    if meta.flag("noStrict") || meta.flag("raw") {
        return Some(LeftOut::SloppyMode);
    }
    if let Some(captures) = HOST_HOOK.captures(source) {
        return Some(LeftOut::HostHook(format!("$262.{}", &captures[1])));
    }
    for (include, hook) in HOOKED_INCLUDES {
        if meta.includes.iter().any(|i| i == include) {
            return Some(LeftOut::HostHook((*hook).into()));
        }
    }
    for (feature, hook) in HOST_FEATURES {
        if meta.features.iter().any(|f| f == feature) {
            return Some(LeftOut::HostHook((*hook).into()));
        }
    }
    if meta.flag("CanBlockIsTrue") || meta.flag("CanBlockIsFalse") {
        return Some(LeftOut::CanBlock);
    }
    if CODE_GENERATION.is_match(source) {
        return Some(LeftOut::CodeGeneration);
    }
    None
}

/// The source with its frontmatter comment removed.
fn without_frontmatter(source: &str) -> String {
    match (source.find("/*---"), source.find("---*/")) {
        (Some(start), Some(end)) if end > start => {
            format!("{}{}", &source[..start], &source[end + 5..])
        }
        _ => source.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_fields_are_read() {
        let meta = parse(
            "// c\n/*---\ndescription: x\nincludes: [a.js, b.js]\nflags: [async]\nnegative:\n  phase: parse\n  type: SyntaxError\n---*/\nbody",
        )
        .unwrap();
        assert_eq!(meta.includes, ["a.js", "b.js"]);
        assert!(meta.flag("async"));
        assert_eq!(
            meta.negative,
            Some(Negative {
                phase: "parse".into(),
                kind: "SyntaxError".into()
            })
        );
    }

    #[test]
    fn missing_frontmatter_is_a_reason() {
        assert!(parse("var x = 1;").unwrap_err().contains("frontmatter"));
    }

    #[test]
    fn rules_name_their_reason() {
        let plain = Metadata::default();
        assert_eq!(
            left_out(&plain, "$262.createRealm()"),
            Some(LeftOut::HostHook("$262.createRealm".into()))
        );
        assert_eq!(left_out(&plain, "eval('1')"), Some(LeftOut::CodeGeneration));
        assert_eq!(
            left_out(&plain, "new Function('return 1')"),
            Some(LeftOut::CodeGeneration)
        );
        assert_eq!(left_out(&plain, "var evaluate = 1; f()"), None);
        // Without arguments there is nothing to compile: both sides make an empty function.
        assert_eq!(
            left_out(&plain, "var f = new Function(); Function ()"),
            None
        );
        let module = Metadata {
            flags: vec!["module".into()],
            ..Metadata::default()
        };
        assert_eq!(left_out(&module, ""), Some(LeftOut::Module));
    }
}
