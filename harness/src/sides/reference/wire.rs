//! The request the reference worker takes for one case (`reference-worker/README.md`).

use serde_json::{Map, Value, json};

use crate::catalogue::{Behaviour, Case, CaseTools};

/// The JSON body of `POST /execute` for a case, or why the reference wire cannot express it.
pub fn request(case: &Case, code: &str) -> Result<Value, String> {
    let tools = |tools: &indexmap::IndexMap<String, Behaviour>| -> Value {
        Value::Object(
            tools
                .iter()
                .map(|(name, b)| (name.clone(), b.raw.clone()))
                .collect(),
        )
    };
    let mut body = Map::new();
    body.insert("id".into(), json!(case.id));
    body.insert("code".into(), json!(code));
    match &case.tools {
        CaseTools::Fns(fns) => {
            body.insert("fns".into(), tools(fns));
        }
        CaseTools::Providers(providers) => {
            let list = providers
                .iter()
                .map(|p| {
                    let mut provider = Map::new();
                    provider.insert("name".into(), json!(p.name));
                    provider.insert("tools".into(), tools(&p.tools));
                    if let Some(prelude) = &p.prelude {
                        provider.insert("prelude".into(), json!(prelude));
                    }
                    if let Some(positional) = p.positional_args {
                        provider.insert("positional_args".into(), json!(positional));
                    }
                    if let Some(source) = &p.proxy_source {
                        provider.insert("proxy_source".into(), json!(source));
                    }
                    Value::Object(provider)
                })
                .collect();
            body.insert("providers".into(), Value::Array(list));
        }
    }
    if !case.connectors.is_empty() {
        let list = case
            .connectors
            .iter()
            .map(|c| json!({"name": c.name, "tools": tools(&c.tools)}))
            .collect();
        body.insert("connectors".into(), Value::Array(list));
    }
    let mut options = Map::new();
    if let Some(timeout) = case.options.timeout_ms {
        options.insert("timeout_ms".into(), json!(timeout));
    }
    if let Some(modules) = &case.options.modules {
        options.insert("modules".into(), json!(modules));
    }
    if let Some(outbound) = &case.options.outbound {
        options.insert("outbound".into(), outbound.raw());
    }
    if !options.is_empty() {
        body.insert("options".into(), Value::Object(options));
    }
    Ok(Value::Object(body))
}
