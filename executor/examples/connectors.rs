//! Connectors: a global whose every property is a tool, all answered by one binding (here an
//! async closure over the tool's name and its first argument).
//!
//! `cargo run -p codemode-executor --example connectors`

use codemode_executor::{
    CodemodeExecutor, Connector, Error, ExecuteOptions, IsolateExecutor, JsValue, Thrown,
    from_js_value, to_js_value,
};
use serde::Deserialize;

#[derive(Deserialize)]
struct Query {
    repo: String,
}

async fn run() -> Result<Vec<String>, Error> {
    let executor = CodemodeExecutor::new(IsolateExecutor::default());
    let github = Connector::new("github", |tool: String, arg: JsValue| async move {
        match tool.as_str() {
            "list_issues" => {
                let query: Query = from_js_value(arg).map_err(|e| Thrown::Error(e.to_string()))?;
                to_js_value(&[format!("{}#1", query.repo), format!("{}#2", query.repo)])
                    .map_err(|e| Thrown::Error(e.to_string()))
            }
            other => Err(Thrown::Error(format!("github has no tool {other:?}"))),
        }
    });
    let options = ExecuteOptions::new().connector(github);
    let code = r#"async () => {
        const issues = await github.list_issues({ repo: "acme/app" });
        try {
            await github.delete_repo({ repo: "acme/app" });
        } catch (e) {
            console.error(e.message);
        }
        return issues;
    }"#;
    let outcome = executor.execute(code, [], options).await?;
    let issues: Vec<String> = outcome.result_as()?;
    let mut lines: Vec<String> = outcome.logs.clone();
    lines.push(format!("issues: {}", issues.join(", ")));
    executor.dispose().await;
    Ok(lines)
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    for line in run().await? {
        println!("{line}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn prints_the_issues_and_the_refusal() {
        assert_eq!(
            super::run().await.unwrap(),
            [
                "[error] github has no tool \"delete_repo\"",
                "issues: acme/app#1, acme/app#2",
            ]
        );
    }
}
