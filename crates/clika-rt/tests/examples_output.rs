//! The Rust examples print exactly the lines the specification documents
//! (`tests/expected/*.expected` are copies of the spec's documented output).

#![cfg(not(miri))] // Miri cannot spawn processes.

use std::path::PathBuf;
use std::process::Command;

/// `cargo test` builds the examples next to the test binaries: `target/<profile>/examples`.
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    profile_dir.join("examples").join(name)
}

fn check(name: &str) {
    let out = Command::new(example(name))
        .output()
        .unwrap_or_else(|e| panic!("running {name}: {e}"));
    assert!(
        out.status.success(),
        "{name} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = std::fs::read_to_string(format!(
        "{}/tests/expected/{name}.expected",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("expected output");
    assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{name}");
}

#[test]
fn borrow_prints_the_documented_lines() {
    check("borrow");
}

#[test]
fn adopt_prints_the_documented_lines() {
    check("adopt");
}

#[test]
fn strided_roi_prints_the_documented_lines() {
    check("strided_roi");
}

#[test]
fn release_cached_prints_the_documented_lines() {
    check("release_cached");
}
