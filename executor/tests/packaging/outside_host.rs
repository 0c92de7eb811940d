//! A host outside this repository builds and runs the executor as a user's crate does: a crate
//! generated in a temporary directory, its own workspace, depending on `executor/` by path
//! with no `[patch]`, whose `main` runs the crate README's host example and programs whose
//! error texts only the patched engine gives (`vendor/README.md`). A host that linked the
//! stock engine would fail to link (the executor declares the patches' exported functions)
//! or print QuickJS's texts instead of V8's.
//!
//! The host copies this workspace's `Cargo.lock` (the same versions) and builds into this
//! workspace's target directory with the workspace's dev profile, so it reuses what
//! `cargo test` already compiled; what it compiles anew is the executor crate and the few
//! dependencies whose features differ.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Programs only the patched engine words as V8 does, and the line the host prints for each
/// (the texts measured on the reference, `@cloudflare/codemode` under `wrangler dev`).
const PROGRAMS: [(&str, &str, &str); 2] = [
    (
        "property of undefined",
        "async () => { const o = undefined; return o.x; }",
        r#"error Some("Cannot read properties of undefined (reading 'x')")"#,
    ),
    (
        "type annotation",
        "async () => {\n  let n\n: number = 1;\n  return n;\n}",
        r#"Err "Failed to start Worker:\nUncaught SyntaxError: Unexpected token ':'\n  at executor.js:59""#,
    ),
];

/// The crate README's host example, its `main` renamed so the generated `main` can call it.
fn readme_example() -> String {
    let readme = include_str!("../../README.md");
    let section = readme
        .find("## Use the executor in your host")
        .expect("the crate README has a section \"Use the executor in your host\"");
    let start = section
        + readme[section..]
            .find("```rust\n")
            .expect("with a Rust block")
        + "```rust\n".len();
    let end = start + readme[start..].find("```").expect("that is closed");
    let example = &readme[start..end];
    assert!(
        example.contains("#[tokio::main]\nasync fn main()"),
        "the README example's entry point is `#[tokio::main] async fn main()`"
    );
    example.replace(
        "#[tokio::main]\nasync fn main()",
        "async fn readme_example()",
    )
}

/// `main.rs` of the generated host: the README example, then each program's outcome, one
/// line each: `LABEL: error Some("…")` for a run that failed, `LABEL: Err "…"` for a
/// start failure (a syntax error).
fn host_main() -> String {
    let programs: String = PROGRAMS
        .iter()
        .map(|(label, code, _)| format!("        ({label:?}, {code:?}),\n"))
        .collect();
    let main = r#"
#[tokio::main]
async fn main() {
    readme_example().await.expect("the README example runs");
    println!("README example: ok");
    let executor = CodemodeExecutor::new(IsolateExecutor::default());
    for (label, code) in [
PROGRAMS    ] {
        match executor.execute(code, [], ExecuteOptions::new()).await {
            Ok(outcome) => println!("{label}: error {:?}", outcome.error),
            Err(error) => println!("{label}: Err {:?}", error.to_string()),
        }
    }
}
"#;
    format!(
        "{}{}",
        readme_example(),
        main.replace("PROGRAMS", &programs)
    )
}

/// A fresh directory under the system's temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("the clock is after 1970")
            .as_nanos();
        let dir = std::env::temp_dir().join(format!(
            "codemode-outside-host-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(dir.join("src")).expect("the temporary directory is writable");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_crate_outside_the_workspace_runs_the_readme_example_on_the_patched_engine() {
    let executor = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = executor
        .parent()
        .expect("the executor sits in the workspace");
    // `CARGO_TARGET_TMPDIR` is `<target dir>/tmp`, wherever the target directory is.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the test's scratch directory is inside the target directory");

    let host = TempDir::new();
    // Its own `[workspace]`, and the workspace's dev profile (dependencies at opt-level 2,
    // the executor, a member there, at 0) so the build reuses what `cargo test` compiled.
    let manifest = format!(
        "[package]\n\
         name = \"outside-host\"\n\
         version = \"0.0.0\"\n\
         edition = \"2024\"\n\
         publish = false\n\n\
         [workspace]\n\n\
         [dependencies]\n\
         codemode-executor = {{ path = {executor:?} }}\n\
         serde = {{ version = \"1\", features = [\"derive\"] }}\n\
         tokio = {{ version = \"1\", features = [\"rt\", \"rt-multi-thread\", \"macros\", \"time\", \"sync\"] }}\n\n\
         [profile.dev.package.\"*\"]\n\
         opt-level = 2\n\n\
         [profile.dev.package.codemode-executor]\n\
         opt-level = 0\n",
    );
    std::fs::write(host.0.join("Cargo.toml"), manifest).expect("the manifest is written");
    std::fs::copy(workspace.join("Cargo.lock"), host.0.join("Cargo.lock"))
        .expect("the workspace's Cargo.lock is copied");
    std::fs::write(host.0.join("src/main.rs"), host_main()).expect("main.rs is written");

    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["run", "--quiet", "--manifest-path"])
        .arg(host.0.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the outside host did not build or run:\n{stdout}\n{stderr}"
    );

    let mut expected = vec!["README example: ok".to_string()];
    for (label, _, outcome) in PROGRAMS {
        expected.push(format!("{label}: {outcome}"));
    }
    assert_eq!(stdout.lines().collect::<Vec<_>>(), expected, "{stderr}");
}
