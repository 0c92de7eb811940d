//! Tool behaviours materialized for our executor, meaning exactly what
//! `reference-worker/src/tools.js` makes them mean on the reference side.
//!
//! Every host-side call is recorded on arrival, before any delay and before the behaviour
//! runs, as `{tool: "<provider or connector>.<raw name>", args: [...]}` with the arguments
//! projected as outcomes are.
//!
//! A `delay_ms` is a host timer, as the reference's host sets one around its answer: the
//! tool answers at once and declares the delay ([`answer_after`]), and the executor holds
//! the answer until the delay has passed on its loop's clock, ordered with the sandbox's
//! timers by deadline, then by the order they were set. So equal delays answer in call
//! order, and a delay against a timer in the order of their deadlines, on every run and
//! however loaded the machine. Where no executor listens, the tool waits the delay itself.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use codemode_executor::dialect::{Connector, ConnectorBinding, Provider, Thrown, ToolFn, Tools};
use codemode_executor::protocol::{BoxFuture, JsValue, answer_after};
use indexmap::IndexMap;
use serde_json::Value;

use crate::catalogue::{Behaviour, BehaviourKind, Case, CaseTools, PathStep, decode_value};
use crate::outcome::project;

/// The calls one execution made, in arrival order.
#[derive(Clone, Default)]
pub struct CallLog(Arc<Mutex<Vec<Value>>>);

impl CallLog {
    fn record(&self, tool: &str, args: &[JsValue]) {
        let args = project(&JsValue::Array(args.to_vec())).unwrap_or(Value::Array(Vec::new()));
        let mut entry = serde_json::Map::new();
        entry.insert("tool".into(), Value::String(tool.to_string()));
        entry.insert("args".into(), args);
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Value::Object(entry));
    }

    /// The calls recorded so far.
    pub fn snapshot(&self) -> Vec<Value> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// The case's tools and connectors, recording into `log`.
pub fn materialize(case: &Case, log: &CallLog) -> (Tools, Vec<Connector>) {
    let tools = match &case.tools {
        CaseTools::Fns(fns) => Tools::Fns(tool_fns("codemode", fns, log)),
        CaseTools::Providers(providers) => Tools::Providers(
            providers
                .iter()
                .map(|p| {
                    let mut provider = Provider::new(p.name.clone());
                    provider.fns = tool_fns(&p.name, &p.tools, log);
                    provider.prelude = p.prelude.clone();
                    provider.positional_args = p.positional_args;
                    provider.proxy_source = p.proxy_source.clone();
                    provider
                })
                .collect(),
        ),
    };
    let connectors = case
        .connectors
        .iter()
        .map(|c| {
            Connector::new(
                c.name.clone(),
                ConnectorTools {
                    prefix: c.name.clone(),
                    tools: c
                        .tools
                        .iter()
                        .map(|(name, b)| (name.clone(), Arc::new(Runner::new(b))))
                        .collect(),
                    log: log.clone(),
                },
            )
        })
        .collect();
    (tools, connectors)
}

fn tool_fns(
    prefix: &str,
    tools: &IndexMap<String, Behaviour>,
    log: &CallLog,
) -> Vec<(String, ToolFn)> {
    tools
        .iter()
        .map(|(name, behaviour)| {
            let runner = Arc::new(Runner::new(behaviour));
            let tool = format!("{prefix}.{name}");
            let log = log.clone();
            let f: ToolFn = Arc::new(move |args: Vec<JsValue>| {
                log.record(&tool, &args);
                let runner = runner.clone();
                Box::pin(async move { runner.run(args).await })
            });
            (name.clone(), f)
        })
        .collect()
}

struct ConnectorTools {
    prefix: String,
    tools: HashMap<String, Arc<Runner>>,
    log: CallLog,
}

impl ConnectorBinding for ConnectorTools {
    fn call_tool(&self, tool: String, arg: JsValue) -> BoxFuture<'static, Result<JsValue, Thrown>> {
        self.log.record(
            &format!("{}.{tool}", self.prefix),
            std::slice::from_ref(&arg),
        );
        let runner = self.tools.get(&tool).cloned();
        Box::pin(async move {
            match runner {
                Some(runner) => runner.run(vec![arg]).await,
                None => Err(Thrown::Error(format!("Unknown connector tool \"{tool}\""))),
            }
        })
    }
}

/// One materialized behaviour, with its own call counter for `returns_seq`.
struct Runner {
    behaviour: Behaviour,
    calls: AtomicUsize,
}

impl Runner {
    fn new(behaviour: &Behaviour) -> Self {
        Self {
            behaviour: behaviour.clone(),
            calls: AtomicUsize::new(0),
        }
    }

    async fn run(&self, args: Vec<JsValue>) -> Result<JsValue, Thrown> {
        let n = self.calls.fetch_add(1, Ordering::SeqCst);
        if let Some(ms) = self.behaviour.delay_ms.filter(|ms| *ms > 0)
            && !answer_after(Duration::from_millis(ms))
        {
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
        let value = |v: &Value| decode_value(v).unwrap_or(JsValue::Undefined);
        match &self.behaviour.kind {
            BehaviourKind::Returns(v) => Ok(value(v)),
            BehaviourKind::ReturnsSeq(values) => Ok(value(&values[n.min(values.len() - 1)])),
            BehaviourKind::EchoArgs => Ok(JsValue::Array(args)),
            BehaviourKind::EchoFirst => Ok(args.into_iter().next().unwrap_or(JsValue::Undefined)),
            BehaviourKind::EchoPath(steps) => Ok(walk(JsValue::Array(args), steps)),
            BehaviourKind::Throws(message) => Err(Thrown::Error(message.clone())),
            BehaviourKind::ThrowsValue(v) => Err(Thrown::Value(value(v))),
            BehaviourKind::ControlPause => Ok(JsValue::Object(vec![(
                "__codemode_control__".into(),
                JsValue::String("pause".into()),
            )])),
            BehaviourKind::ControlError(message) => Ok(JsValue::Object(vec![
                (
                    "__codemode_control__".into(),
                    JsValue::String("error".into()),
                ),
                ("message".into(), JsValue::String(message.into())),
            ])),
        }
    }
}

/// `cur = cur[step]` along the path, `undefined` once a step lands on `null`/`undefined`.
fn walk(mut current: JsValue, steps: &[PathStep]) -> JsValue {
    for step in steps {
        current = match (current, step) {
            (JsValue::Undefined | JsValue::Null, _) => return JsValue::Undefined,
            (JsValue::Array(items), PathStep::Index(i)) => {
                items.into_iter().nth(*i).unwrap_or(JsValue::Undefined)
            }
            (JsValue::Array(items), PathStep::Key(key)) => match key.parse::<usize>() {
                Ok(i) => items.into_iter().nth(i).unwrap_or(JsValue::Undefined),
                Err(_) if key == "length" => JsValue::Number(items.len() as f64),
                Err(_) => JsValue::Undefined,
            },
            (JsValue::Object(entries), step) => {
                let key = match step {
                    PathStep::Index(i) => i.to_string(),
                    PathStep::Key(k) => k.clone(),
                };
                entries
                    .into_iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| v)
                    .unwrap_or(JsValue::Undefined)
            }
            _ => JsValue::Undefined,
        };
    }
    current
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_paths_walk_arrays_and_objects() {
        let args = JsValue::Array(vec![JsValue::Object(vec![(
            "q".into(),
            JsValue::String("x".into()),
        )])]);
        assert_eq!(
            walk(
                args.clone(),
                &[PathStep::Index(0), PathStep::Key("q".into())]
            ),
            JsValue::String("x".into())
        );
        assert_eq!(
            walk(args, &[PathStep::Index(3), PathStep::Key("q".into())]),
            JsValue::Undefined
        );
    }

    #[tokio::test]
    async fn calls_are_recorded_before_the_behaviour_runs() {
        let log = CallLog::default();
        let behaviour = Behaviour::parse(&serde_json::json!({"throws": "no"})).unwrap();
        let mut tools = IndexMap::new();
        tools.insert("t".to_string(), behaviour);
        let fns = tool_fns("p", &tools, &log);
        let result = (fns[0].1)(vec![JsValue::Number(1.0)]).await;
        assert_eq!(result, Err(Thrown::Error("no".into())));
        assert_eq!(
            log.snapshot(),
            vec![serde_json::json!({"tool": "p.t", "args": [1]})]
        );
    }

    #[tokio::test]
    async fn returns_seq_repeats_its_last_value() {
        let runner =
            Runner::new(&Behaviour::parse(&serde_json::json!({"returns_seq": [1, 2]})).unwrap());
        let mut seen = Vec::new();
        for _ in 0..3 {
            seen.push(runner.run(vec![]).await.unwrap());
        }
        assert_eq!(
            seen,
            vec![
                JsValue::Number(1.0),
                JsValue::Number(2.0),
                JsValue::Number(2.0)
            ]
        );
    }
}
