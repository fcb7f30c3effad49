# ClikaRT — the front door. `make demo` runs the examples, `make test` passes every test.
# Each target does its own set-up (the Python venv, missing Debian packages) on a fresh machine.

SHELL := /bin/bash
CARGO ?= cargo
PREFIX ?= /usr/local
VENV := .venv
PY := $(VENV)/bin/python
RUST_EXAMPLES := borrow adopt strided_roi release_cached
# The C ABI crate, its headers, and where `make test` / `make demo` install it.
CAPI_DIR := crates/clika-rt-capi
CAPI_HEADER := $(CAPI_DIR)/include/ClikaRT/clika_rt_c.h
CAPI_VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
CAPI_MAJOR := $(firstword $(subst ., ,$(CAPI_VERSION)))
CAPI_PREFIX := $(CURDIR)/target/capi-prefix
GEN_HEADER := target/gen-header/release/clika-rt-gen-header
CPP_EXAMPLES := borrow adopt strided_roi release_cached

.PHONY: demo test lint bench install python miri \
        demo-rust demo-cpp test-rust test-capi fmt-check clippy doc \
        capi-lib header header-check gen-header-tool

## demo: build and run the examples
demo: demo-rust demo-cpp

demo-rust:
	$(CARGO) build --release -p clika-rt --examples
	@for e in $(RUST_EXAMPLES); do echo "== Rust example: $$e"; ./target/release/examples/$$e || exit 1; done

## test: every test suite
test: test-rust test-capi

test-rust:
	$(CARGO) test --workspace

## lint: formatting, clippy, rustdoc — all with warnings as errors; the C header is current
lint: fmt-check clippy doc header-check

fmt-check:
	$(CARGO) fmt --all -- --check

clippy:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

doc:
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps

## miri: the core's unsafe paths under Miri (needs nightly with the miri component)
miri:
	@if cargo +nightly miri --version >/dev/null 2>&1; then \
		PROPTEST_CASES=8 MIRIFLAGS="-Zmiri-strict-provenance -Zmiri-disable-isolation" \
		cargo +nightly miri test -p clika-rt --lib --tests; \
	else echo "miri: skipped (nightly Rust with the miri component is not installed)"; fi

## bench: criterion benchmarks
bench:
	$(CARGO) bench -p clika-rt

## install PREFIX=DIR: headers, libclika_rt.{so,a}, pkg-config file and CMake package
capi-lib:
	$(CARGO) build --release -p clika-rt-capi

install: capi-lib
	@case "$(PREFIX)" in "") echo "install: PREFIX is empty"; exit 1;; esac
	$(eval P := $(abspath $(PREFIX)))
	install -d $(P)/include/ClikaRT $(P)/lib/pkgconfig $(P)/lib/cmake/ClikaRT
	install -m 644 $(CAPI_DIR)/include/ClikaRT/clika_rt_c.h $(CAPI_DIR)/include/ClikaRT/clika_rt.h $(P)/include/ClikaRT/
	install -m 755 target/release/libclika_rt_capi.so $(P)/lib/libclika_rt.so.$(CAPI_VERSION)
	ln -sf libclika_rt.so.$(CAPI_VERSION) $(P)/lib/libclika_rt.so.$(CAPI_MAJOR)
	ln -sf libclika_rt.so.$(CAPI_MAJOR) $(P)/lib/libclika_rt.so
	install -m 644 target/release/libclika_rt_capi.a $(P)/lib/libclika_rt.a
	sed -e 's|@PREFIX@|$(P)|g' -e 's|@VERSION@|$(CAPI_VERSION)|g' \
		$(CAPI_DIR)/pkg/clika_rt.pc.in > $(P)/lib/pkgconfig/clika_rt.pc
	for f in ClikaRTConfig ClikaRTConfigVersion; do \
		sed -e 's|@VERSION@|$(CAPI_VERSION)|g' -e 's|@MAJOR@|$(CAPI_MAJOR)|g' \
			$(CAPI_DIR)/pkg/$$f.cmake.in > $(P)/lib/cmake/ClikaRT/$$f.cmake || exit 1; \
	done

## test-capi: the C and C++ tests (plain, ASan+UBSan, valgrind) and a CMake consumer,
## against a fresh install in target/capi-prefix
test-capi:
	rm -rf $(CAPI_PREFIX)
	$(MAKE) --no-print-directory install PREFIX=$(CAPI_PREFIX)
	$(CAPI_DIR)/tests/run $(CAPI_PREFIX)

## demo-cpp: the specification's C++ programs, built with pkg-config against an install
demo-cpp:
	rm -rf $(CAPI_PREFIX)
	$(MAKE) --no-print-directory install PREFIX=$(CAPI_PREFIX)
	@mkdir -p target/demo-cpp
	@for e in $(CPP_EXAMPLES); do \
		echo "== C++ example: $$e"; \
		PKG_CONFIG_PATH=$(CAPI_PREFIX)/lib/pkgconfig g++ -std=c++17 -O1 -Wall -Wextra -Werror \
			examples/cpp/$$e.cpp -o target/demo-cpp/$$e \
			$$(PKG_CONFIG_PATH=$(CAPI_PREFIX)/lib/pkgconfig pkg-config --cflags --libs clika_rt) || exit 1; \
		LD_LIBRARY_PATH=$(CAPI_PREFIX)/lib ./target/demo-cpp/$$e || exit 1; \
	done

## header: regenerate the C header with cbindgen (a separate workspace, pinned)
gen-header-tool:
	cd $(CAPI_DIR)/gen-header && $(CARGO) build --release --locked --target-dir $(CURDIR)/target/gen-header

header: gen-header-tool
	$(GEN_HEADER) $(CAPI_DIR) $(CAPI_HEADER)

header-check: gen-header-tool
	$(GEN_HEADER) $(CAPI_DIR) target/gen-header/clika_rt_c.h
	@diff -u $(CAPI_HEADER) target/gen-header/clika_rt_c.h || \
		{ echo "$(CAPI_HEADER) is stale: run 'make header' and commit it"; exit 1; }
