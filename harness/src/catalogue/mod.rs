//! The case catalogue: YAML files of cases, loaded, validated and located.
//!
//! The format is `docs/case-format.md`. Loading reports every problem of every file
//! at once, each with its file, line and column, and never half-loads a catalogue.

mod behaviour;
pub(crate) mod load;
mod outbound;
pub(crate) mod raw;
mod values;
mod versions;

pub use behaviour::{Behaviour, BehaviourKind, PathStep};
pub use load::load_dirs;
pub use outbound::{Answer, OutboundBehaviour, OutboundKind, OutboundSpec, ResponseSpec};
pub use values::{ValueError, decode_value};
pub use versions::VersionRange;

use std::path::PathBuf;

use indexmap::IndexMap;
use serde_json::Value;

/// Every case of every loaded file, in file order then case order.
#[derive(Debug, Clone, Default)]
pub struct Catalogue {
    /// The cases, in file order then case order.
    pub cases: Vec<Case>,
}

impl Catalogue {
    /// The case with this id.
    pub fn get(&self, id: &str) -> Option<&Case> {
        self.cases.iter().find(|case| case.id == id)
    }
}

/// One case.
#[derive(Debug, Clone)]
pub struct Case {
    /// The case's id, unique across every loaded catalogue (`area/name`).
    pub id: String,
    /// One line saying what the case pins.
    pub about: Option<String>,
    /// The program, as a model would write it.
    pub code: String,
    /// The tools the program may call: providers, or a bare record of functions.
    pub tools: CaseTools,
    /// The case's connectors.
    pub connectors: Vec<ConnectorSpec>,
    /// The case's executor options.
    pub options: CaseOptions,
    /// What every side that runs the case must produce.
    pub expect: Expect,
    /// `false` when the reference cannot run the case; [`Case::reason`] says why.
    pub reference: bool,
    /// Why the reference cannot run the case, when it cannot.
    pub reason: Option<String>,
    /// The reference column ranges where the case does not apply.
    pub skip_on: Vec<SkipOn>,
    /// The reference gives the expected outcome only on a machine that is not saturated (the
    /// order of timers and tool answers moves under load): a reference cell that fails is run
    /// again alone, with nothing else in flight on any reference column, and passes as
    /// `flaky` when the quiet run agrees. Ours is never retried for it.
    pub timing_sensitive: bool,
    /// Where the case stands: its file and the line of its `id`.
    pub file: PathBuf,
    /// The line of the case's `id` in [`Case::file`].
    pub line: u64,
}

impl Case {
    /// A case a command makes rather than reads from a catalogue (`eval`, `explore`,
    /// `test262`, the surface probe): `code` with no tools or connectors, the default
    /// options, run on every column, expecting no logs, no calls and an `undefined` result.
    /// Callers change what differs with struct update syntax.
    pub fn program(
        id: impl Into<String>,
        code: impl Into<String>,
        file: PathBuf,
        line: u64,
    ) -> Case {
        Case {
            id: id.into(),
            about: None,
            code: code.into(),
            tools: CaseTools::Providers(Vec::new()),
            connectors: Vec::new(),
            options: CaseOptions::default(),
            expect: Expect {
                result: None,
                error: None,
                logs: Value::Array(Vec::new()),
                calls: Value::Array(Vec::new()),
                threw: None,
            },
            reference: true,
            reason: None,
            skip_on: Vec::new(),
            timing_sensitive: false,
            file,
            line,
        }
    }

    /// `file:line`, for messages.
    pub fn location(&self) -> String {
        format!("{}:{}", self.file.display(), self.line)
    }

    /// The `skip_on` entry that applies to this upstream version, if any.
    pub fn skip_for(&self, version: &semver::Version) -> Option<&SkipOn> {
        self.skip_on
            .iter()
            .find(|skip| skip.versions.matches(version))
    }
}

/// A case's second argument to `execute`.
#[derive(Debug, Clone, PartialEq)]
pub enum CaseTools {
    /// `providers:` (an empty list when the case names neither).
    Providers(Vec<ProviderSpec>),
    /// `fns:`, the dialect's older bare record.
    Fns(IndexMap<String, Behaviour>),
}

/// One provider of a case.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderSpec {
    /// The provider's name: the global the program calls it through.
    pub name: String,
    /// Raw tool name → its behaviour.
    pub tools: IndexMap<String, Behaviour>,
    /// Source run before the program, for this provider.
    pub prelude: Option<String>,
    /// Whether the tools receive every argument (`true`) or only the first.
    pub positional_args: Option<bool>,
    /// The source of the provider's proxy, replacing the default.
    pub proxy_source: Option<String>,
}

/// One connector of a case.
#[derive(Debug, Clone, PartialEq)]
pub struct ConnectorSpec {
    /// The connector's name.
    pub name: String,
    /// Raw tool name → its behaviour.
    pub tools: IndexMap<String, Behaviour>,
}

/// A case's options.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CaseOptions {
    /// The executor's bound for this case, in milliseconds.
    pub timeout_ms: Option<u64>,
    /// Module name → source, importable by the program.
    pub modules: Option<IndexMap<String, String>>,
    /// `Some` when the case names a mode: `blocked`, or a described handler.
    pub outbound: Option<OutboundSpec>,
}

/// What every side that runs the case must produce, as written (matchers included).
#[derive(Debug, Clone, PartialEq)]
pub struct Expect {
    /// `None` when the result must be `undefined`.
    pub result: Option<Value>,
    /// The expected `error`, when the run must fail.
    pub error: Option<Value>,
    /// The expected console lines (`[]` when none).
    pub logs: Value,
    /// The expected host-side tool calls, in arrival order (`[]` when none).
    pub calls: Value,
    /// The expected rejection of `execute()` itself.
    pub threw: Option<Value>,
}

impl Expect {
    /// The expectation as an outcome-shaped JSON object (matchers left in place).
    pub fn to_outcome_json(&self) -> Value {
        let mut map = serde_json::Map::new();
        if let Some(result) = &self.result {
            map.insert("result".into(), result.clone());
        }
        if let Some(error) = &self.error {
            map.insert("error".into(), error.clone());
        }
        map.insert("logs".into(), self.logs.clone());
        map.insert("calls".into(), self.calls.clone());
        if let Some(threw) = &self.threw {
            map.insert("threw".into(), threw.clone());
        }
        Value::Object(map)
    }
}

/// A reference column range where the case does not apply, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct SkipOn {
    /// The reference versions the annotation covers.
    pub versions: VersionRange,
    /// Why the case does not apply to them.
    pub reason: String,
}
