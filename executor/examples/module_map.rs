//! A module map: modules the program may import, statically or with `import()`, by exact
//! name (a module's own imports resolve against its folder, as URL paths do). A module
//! outside the map does not load.
//!
//! `cargo run -p codemode-executor --example module_map`

use codemode_executor::{CodemodeExecutor, Error, ExecuteOptions, IsolateExecutor, JsValue};

async fn run() -> Result<Vec<String>, Error> {
    let executor = CodemodeExecutor::new(IsolateExecutor::default());
    let options = ExecuteOptions::new()
        .module("lib/math.js", "export const double = (x) => 2 * x;")
        .module(
            "lib/greet.js",
            "import { double } from './math.js'; export default (name) => `hi ${name} x${double(2)}`;",
        );
    let code = r#"import { double } from "lib/math.js";
async () => {
    const greet = (await import("lib/greet.js")).default;
    return [double(21), greet("ada")];
}"#;
    let outcome = executor.execute(code, [], options.clone()).await?;
    let mut lines = vec![format!("result: {}", outcome.result.to_js_string())];

    let missing = executor
        .execute(
            "async () => (await import('lib/missing.js')).x",
            [],
            options,
        )
        .await?;
    lines.push(format!("missing: {}", missing.error.unwrap_or_default()));
    assert_eq!(missing.result, JsValue::Undefined);
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
    async fn imports_from_the_map_only() {
        assert_eq!(
            super::run().await.unwrap(),
            [
                "result: 42,hi ada x4",
                "missing: No such module \"lib/missing.js\".",
            ]
        );
    }
}
