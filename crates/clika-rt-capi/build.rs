//! Gives the shared library the soname it is installed under (`make install` installs
//! `libclika_rt_capi.so` as `libclika_rt.so.0.1.0` with the links `libclika_rt.so.0` and
//! `libclika_rt.so`), so programs linked with `-lclika_rt` load it by its public name.

fn main() {
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_else(|_| "0".into());
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" || os == "android" || os.ends_with("bsd") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libclika_rt.so.{major}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
