//! The engine the executor links is the published `rquickjs-sys` plus the patch series under
//! `vendor/patches`, and nothing else: `vendor/apply-patches.sh --check` reverse-applies the
//! series to a copy of the committed tree and compares every file with the recorded checksums
//! of the pristine release.

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
    assert!(
        stdout.contains("vendor/rquickjs-sys is rquickjs-sys"),
        "the check names what it verified: {stdout}"
    );
}
