//! Reading errors: every way a run can fail, as the host reads it. A program that throws,
//! or calls a tool with arguments the tool cannot read, answers `Ok` with `error` set; the
//! executor refusing answers `Err`, whose text is a sentence.
//!
//! `cargo run -p codemode-executor --example errors`

use codemode_executor::{
    CodemodeExecutor, Error, ExecuteOptions, IsolateExecutor, Provider, ToolError, tool,
};
use serde::Deserialize;

#[derive(Deserialize)]
struct Transfer {
    #[allow(dead_code)]
    to: String,
    cents: u32,
}

async fn run() -> Result<Vec<String>, Error> {
    let executor = CodemodeExecutor::new(IsolateExecutor::default());
    let bank = Provider::new("bank").tool(
        "transfer",
        tool(|t: Transfer| async move {
            if t.cents > 10_000 {
                return Err(ToolError::new("Transfers above 100.00 need approval."));
            }
            Ok(true)
        }),
    );
    let cases = [
        // The tool rejects.
        (
            "rejected",
            "async () => bank.transfer({ to: 'bob', cents: 20000 })",
        ),
        // The arguments do not fit the tool's type.
        (
            "bad arguments",
            "async () => bank.transfer({ to: 'bob', cents: -5 })",
        ),
        ("missing field", "async () => bank.transfer({ cents: 5 })"),
        // The program throws.
        (
            "thrown",
            "async () => { throw new TypeError('no account') }",
        ),
        // The program does not parse.
        ("syntax", "async () => { return }}"),
    ];
    let mut lines = Vec::new();
    for (label, code) in cases {
        match executor
            .execute(code, bank.clone(), ExecuteOptions::new())
            .await
        {
            Ok(outcome) => lines.push(format!("{label}: error {:?}", outcome.error)),
            Err(error) => lines.push(format!("{label}: Err {error}")),
        }
    }
    // The dialect refuses the call before anything runs.
    let bad_name = Provider::new("my-bank");
    let outcome = executor
        .execute("async () => 1", bad_name, ExecuteOptions::new())
        .await?;
    lines.push(format!("refused: error {:?}", outcome.error));
    executor.dispose().await;
    match executor
        .execute("async () => 1", [], ExecuteOptions::new())
        .await
    {
        Ok(outcome) => lines.push(format!("disposed: ran anyway {outcome:?}")),
        Err(error) => lines.push(format!("disposed: Err {error}")),
    }
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
    async fn every_failure_reads_as_a_sentence() {
        assert_eq!(
            super::run().await.unwrap(),
            [
                "rejected: error Some(\"Transfers above 100.00 need approval.\")",
                "bad arguments: error Some(\"Tool \\\"bank.transfer\\\" could not read its arguments: at arguments[0].cents, invalid value: number `-5`, expected u32.\")",
                "missing field: error Some(\"Tool \\\"bank.transfer\\\" could not read its arguments: at arguments[0], missing field `to`.\")",
                "thrown: error Some(\"no account\")",
                "syntax: Err Failed to start Worker:\nUncaught SyntaxError: Unexpected token '}'\n  at executor.js:70",
                "refused: error Some(\"Provider name \\\"my-bank\\\" is not a valid JavaScript identifier\")",
                "disposed: Err The executor has been disposed and accepts no more executions.",
            ]
        );
    }
}
