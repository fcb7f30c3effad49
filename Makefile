# ClikaRT — the front door. `make demo` runs the examples, `make test` passes every test.
# Each target does its own set-up (the Python venv, missing Debian packages) on a fresh machine.

SHELL := /bin/bash
CARGO ?= cargo
PREFIX ?= /usr/local
VENV := .venv
PY := $(VENV)/bin/python
RUST_EXAMPLES := borrow adopt strided_roi release_cached

.PHONY: demo test lint bench install python miri \
        demo-rust test-rust fmt-check clippy doc

## demo: build and run the examples
demo: demo-rust

demo-rust:
	$(CARGO) build --release -p clika-rt --examples
	@for e in $(RUST_EXAMPLES); do echo "== Rust example: $$e"; ./target/release/examples/$$e || exit 1; done

## test: every test suite
test: test-rust

test-rust:
	$(CARGO) test --workspace

## lint: formatting, clippy, rustdoc — all with warnings as errors
lint: fmt-check clippy doc

fmt-check:
	$(CARGO) fmt --all -- --check

clippy:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

doc:
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps

## miri: the core's unsafe paths under Miri (needs nightly with the miri component)
miri:
	@if cargo +nightly miri --version >/dev/null 2>&1; then \
		PROPTEST_CASES=8 MIRIFLAGS="-Zmiri-strict-provenance" \
		cargo +nightly miri test -p clika-rt --lib --tests; \
	else echo "miri: skipped (nightly Rust with the miri component is not installed)"; fi

## bench: criterion benchmarks
bench:
	$(CARGO) bench -p clika-rt
