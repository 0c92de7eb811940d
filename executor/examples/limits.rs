//! Time and memory bounds: the executor's sizes and limits, a per-run bound, and runs that
//! hit them. A run that hits a bound still answers, with its logs, and the next run is
//! unaffected.
//!
//! `cargo run -p codemode-executor --example limits`

use std::time::Duration;

use codemode_executor::{CodemodeExecutor, Error, ExecuteOptions, IsolateExecutor, IsolateOptions};

async fn run() -> Result<Vec<String>, Error> {
    let native = IsolateExecutor::new(
        IsolateOptions::default()
            .workers(1)
            .memory_limit_bytes(16 << 20)
            .max_timeout_ms(5_000),
    );
    // The bound of a call that sets none (the dialect's default is 60 s).
    let executor =
        CodemodeExecutor::new(native).with_default_timeout(Duration::from_secs(2).into());
    let mut lines = Vec::new();

    let spin = "async () => { console.log('spinning'); for (;;) {} }";
    let bounded = ExecuteOptions::new().timeout(Duration::from_millis(100));
    let outcome = executor.execute(spin, [], bounded).await?;
    lines.push(format!("spin: {:?} {:?}", outcome.error, outcome.logs));

    let wait = "async () => { await new Promise(() => {}); }";
    let bounded = ExecuteOptions::new().timeout(Duration::from_millis(100));
    let outcome = executor.execute(wait, [], bounded).await?;
    lines.push(format!("wait: {:?}", outcome.error));

    let hog = "async () => { const a = []; for (;;) a.push('x'.repeat(1024) + a.length); }";
    let outcome = executor.execute(hog, [], ExecuteOptions::new()).await?;
    lines.push(format!("hog: {:?}", outcome.error));

    let outcome = executor
        .execute("async () => 1 + 1", [], ExecuteOptions::new())
        .await?;
    lines.push(format!("next: {}", outcome.result.to_js_string()));
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
    async fn every_bound_answers_and_the_next_run_is_unaffected() {
        assert_eq!(
            super::run().await.unwrap(),
            [
                "spin: Some(\"Execution timed out\") [\"spinning\"]",
                "wait: Some(\"Execution timed out\")",
                "hog: Some(\"Execution ran out of memory at its 16 MiB limit. Hold less data at once.\")",
                "next: 2",
            ]
        );
    }
}
