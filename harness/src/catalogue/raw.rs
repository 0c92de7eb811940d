//! The catalogue's YAML shape, as serde reads it, with locations kept for the checks that
//! come after parsing.

use indexmap::IndexMap;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use serde_saphyr::Spanned;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCase {
    pub id: Spanned<String>,
    pub about: Option<String>,
    pub code: String,
    pub providers: Option<Vec<RawProvider>>,
    pub fns: Option<Spanned<IndexMap<String, Spanned<Value>>>>,
    #[serde(default)]
    pub connectors: Vec<RawConnector>,
    #[serde(default)]
    pub options: RawOptions,
    pub expect: RawExpect,
    pub reference: Option<Spanned<bool>>,
    pub reason: Option<String>,
    #[serde(default)]
    pub skip_on: Vec<RawSkipOn>,
    #[serde(default)]
    pub timing_sensitive: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawProvider {
    pub name: String,
    #[serde(default)]
    pub tools: IndexMap<String, Spanned<Value>>,
    pub prelude: Option<String>,
    pub positional_args: Option<bool>,
    pub proxy_source: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawConnector {
    pub name: String,
    #[serde(default)]
    pub tools: IndexMap<String, Spanned<Value>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawOptions {
    pub timeout_ms: Option<u64>,
    pub modules: Option<IndexMap<String, String>>,
    pub outbound: Option<Spanned<Value>>,
}

/// `expect`: a key that is present with `null` means `null`, which is why every field goes
/// through [`present`] rather than plain `Option`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawExpect {
    #[serde(default, deserialize_with = "present")]
    pub result: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pub error: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pub logs: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pub calls: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pub threw: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSkipOn {
    pub versions: Spanned<String>,
    pub reason: String,
}

fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}
