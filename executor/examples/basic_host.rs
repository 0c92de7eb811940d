//! A basic host: one executor, a provider with typed tools, one program, and what it
//! resolved with, read back as a Rust type.
//!
//! `cargo run -p codemode-executor --example basic_host`

use codemode_executor::{
    CodemodeExecutor, Error, ExecuteOptions, IsolateExecutor, Provider, ToolError, tool,
    tool_positional,
};
use serde::{Deserialize, Serialize};

/// What `weather.get_weather({ city, days? })` sends.
#[derive(Deserialize)]
struct Forecast {
    city: String,
    /// Left out by the program: `None`.
    days: Option<u32>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Day {
    day: u32,
    temp_c: f64,
}

/// What the program resolves with.
#[derive(Deserialize)]
struct Summary {
    city: String,
    warmest: f64,
    total: f64,
}

async fn run() -> Result<Vec<String>, Error> {
    let executor = CodemodeExecutor::new(IsolateExecutor::default());
    let weather = Provider::new("weather")
        .tool(
            "get-weather",
            tool(|args: Forecast| async move {
                let days = args.days.unwrap_or(3);
                let forecast: Vec<Day> = (1..=days)
                    .map(|day| Day {
                        day,
                        temp_c: 18.0 + f64::from(day),
                    })
                    .collect();
                Ok::<_, ToolError>((args.city, forecast))
            }),
        )
        .tool(
            "add",
            tool_positional(|(a, b): (f64, f64)| async move { Ok::<_, ToolError>(a + b) }),
        );
    let code = r#"async () => {
        const [city, days] = await weather.get_weather({ city: "Lisbon" });
        console.log("days:", days.length);
        const warmest = Math.max(...days.map((d) => d.tempC));
        return { city, warmest, total: await weather.add(warmest, 0.5) };
    }"#;
    let outcome = executor
        .execute(code, weather, ExecuteOptions::new())
        .await?;
    let summary: Summary = outcome.result_as()?;
    let mut lines: Vec<String> = outcome.logs.iter().map(|l| format!("log: {l}")).collect();
    lines.push(format!("error: {:?}", outcome.error));
    lines.push(format!(
        "result: {} warmest {} total {}",
        summary.city, summary.warmest, summary.total
    ));
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
    async fn prints_the_outcome() {
        assert_eq!(
            super::run().await.unwrap(),
            [
                "log: days: 3",
                "error: None",
                "result: Lisbon warmest 21 total 21.5",
            ]
        );
    }
}
