//! The repository README's host example is the crate README's, which runs as a doc test
//! (see `ReadmeDoctests` in `lib.rs`): this keeps the copy from drifting.

fn host_example(readme: &str) -> &str {
    let section = readme
        .find("## Use the executor in your host")
        .expect("the README has a section \"Use the executor in your host\"");
    let start = section
        + readme[section..]
            .find("```rust")
            .expect("with a Rust block");
    let end = start + 7 + readme[start + 7..].find("```").expect("that is closed");
    &readme[start..end]
}

#[test]
fn the_repository_readme_shows_the_crate_readmes_doc_tested_example() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    let Ok(repository) = std::fs::read_to_string(root) else {
        // Packaged alone (`cargo publish`), the crate has no repository README.
        return;
    };
    let crate_readme = include_str!("../../README.md");
    assert_eq!(host_example(&repository), host_example(crate_readme));
}

#[test]
fn the_tool_and_its_provider_are_at_most_a_third_of_the_raw_version() {
    // The raw version: a ToolFn matching JsValue trees, and a Provider spelling
    // every field: 16 lines.
    let example = host_example(include_str!("../../README.md"));
    let typed: Vec<&str> = example
        .lines()
        .filter(|line| {
            line.starts_with("#[derive")
                || line.contains("Provider::new")
                || line.contains("Ok::<_, ToolError>")
                || line.trim() == "}));"
        })
        .collect();
    assert_eq!(typed.len(), 5, "{typed:#?}");
    assert!(typed.len() * 3 <= 16);
}
