//! `clika_rt::VERSION` is the workspace version in the root Cargo.toml: the one source of
//! the version that the C library (`crt_version`) and the Python package (`__version__`)
//! report too.

#[test]
fn version_is_the_workspace_version() {
    let manifest = include_str!("../../../Cargo.toml");
    let section = manifest
        .split("[workspace.package]")
        .nth(1)
        .expect("the root Cargo.toml has a [workspace.package] table");
    let version = section
        .lines()
        .find_map(|l| l.trim().strip_prefix("version = "))
        .expect("[workspace.package] sets version")
        .trim_matches('"');
    assert_eq!(clika_rt::VERSION, version);
    let parts: Vec<&str> = clika_rt::VERSION.split('.').collect();
    assert_eq!(parts.len(), 3, "{}", clika_rt::VERSION);
    assert!(
        parts.iter().all(|p| p.parse::<u32>().is_ok()),
        "{}",
        clika_rt::VERSION
    );
}
