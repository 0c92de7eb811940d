//! The engine the executor links is the published rquickjs crates plus the patches under
//! `vendor/` (the engine series, and the forks' renames), and nothing else:
//! `vendor/apply-patches.sh --check` reverse-applies each crate's patches to a copy of its
//! committed tree and compares every file with the recorded checksums of the pristine release.

use std::path::Path;
use std::process::Command;

#[test]
fn committed_engine_is_the_pristine_release_plus_the_patch_series() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../vendor/apply-patches.sh");
    let output = Command::new("bash")
        .arg(&script)
        .arg("--check")
        .output()
        .expect("bash runs vendor/apply-patches.sh");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "vendor/apply-patches.sh --check failed:\n{stdout}{stderr}"
    );
    for tree in [
        "vendor/codemode-quickjs-sys is rquickjs-sys",
        "vendor/codemode-rquickjs-core is rquickjs-core",
        "vendor/codemode-rquickjs-macro is rquickjs-macro",
        "vendor/codemode-rquickjs is rquickjs",
    ] {
        assert!(
            stdout.contains(tree),
            "the check names what it verified ({tree}): {stdout}"
        );
    }
}
