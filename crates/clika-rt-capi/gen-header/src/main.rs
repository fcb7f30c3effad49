//! `clika-rt-gen-header CRATE_DIR OUT_FILE`: writes the C header of the C ABI crate at
//! `CRATE_DIR` (configured by its `cbindgen.toml`) to `OUT_FILE`.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [crate_dir, out] = args.as_slice() else {
        eprintln!("usage: clika-rt-gen-header CRATE_DIR OUT_FILE");
        return ExitCode::from(2);
    };
    let crate_dir = PathBuf::from(crate_dir);
    let config = match cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cbindgen.toml: {e}");
            return ExitCode::FAILURE;
        }
    };
    match cbindgen::generate_with_config(&crate_dir, config) {
        Ok(bindings) => {
            bindings.write_to_file(out);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cbindgen: {e}");
            ExitCode::FAILURE
        }
    }
}
