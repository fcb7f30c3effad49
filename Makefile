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
# What ships (libclika_rt, the wheel) builds with Cargo.toml's `dist` profile: no debug info,
# stripped, ThinLTO. Examples, benchmarks and `make python` use `release` (line tables kept).
DIST_PROFILE := dist
CAPI_LIB_DIR := target/$(DIST_PROFILE)
CPP_EXAMPLES := borrow adopt strided_roi release_cached compute

.PHONY: demo test lint bench install python miri \
        demo-rust demo-cpp test-rust test-capi fmt-check clippy doc \
        capi-lib header header-check gen-header-tool \
        test-python test-pip-install test-asan stubtest demo-compute test-examples \
        packages-test packages-demo wheel test-wheel test-sizes docs

## demo: build and run the examples: the specification's programs (Rust, C++), then the
## compute example bundle (examples/compute: every chapter in Rust, C++ and Python)
demo: packages-demo demo-rust demo-cpp demo-compute

demo-rust:
	$(CARGO) build --release -p clika-rt --examples
	@for e in $(RUST_EXAMPLES); do echo "== Rust example: $$e"; ./target/release/examples/$$e || exit 1; done

## test: every test suite
test: packages-test test-rust test-capi test-python test-examples test-sizes

## packages-test, packages-demo: the Debian packages each needs (scripts/ensure-packages holds
## the one list): installed when run as root, otherwise make stops with the apt-get line
packages-test packages-demo:
	@scripts/ensure-packages $(patsubst packages-%,%,$@)

test-rust:
	$(CARGO) test --workspace
	# The GPU suites again with host-memory import off: the copy paths stay correct.
	CLIKA_RT_GPU_IMPORT=off $(CARGO) test -p clika-rt --test device_conformance \
		--test gpu_memory --test gpu_import
	$(CARGO) test -p clika-rt --features ndarray,serde --test conventions --lib
	$(CARGO) test -p clika-rt --features ndarray,serde --doc -- ndarray_interop serde_impl
	# PRUNE_TEST_BINARIES=1 (CI's one-shot run): the test executables, about 5 GB of the
	# target directory, are not run again, so their disk goes back before the Python steps.
	$(if $(PRUNE_TEST_BINARIES),find target/debug/deps -maxdepth 1 -type f -perm -u+x ! -name '*.so' -delete)

## lint: formatting, clippy, rustdoc — all with warnings as errors; the C header is current;
## the Python stubs match the extension
lint: fmt-check clippy doc header-check stubtest

fmt-check:
	$(CARGO) fmt --all -- --check

clippy:
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy -p clika-rt --lib --test conventions --features ndarray,serde -- -D warnings

doc:
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc -p clika-rt --no-deps --features ndarray,serde

## docs: all the documentation as one HTML folder, target/docs/ (open target/docs/index.html):
## the Rust API (rustdoc), the Python API from its docstrings (pdoc), the C and C++ headers
## (Doxygen, installed by scripts/ensure-packages docs) and the guides (README, docs/*.md);
## warnings are errors in every step (scripts/build-docs)
docs: python
	@scripts/ensure-packages docs
	CARGO=$(CARGO) $(PY) scripts/build-docs

## miri: the core's unsafe paths under Miri (needs nightly with the miri component). The core
## is built without default features, so the wgpu GPU backend is never compiled under Miri.
miri:
	@if cargo +nightly miri --version >/dev/null 2>&1; then \
		PROPTEST_CASES=8 MIRIFLAGS="-Zmiri-strict-provenance -Zmiri-disable-isolation" \
		cargo +nightly miri test -p clika-rt --no-default-features --lib --tests; \
	else echo "miri: skipped (nightly Rust with the miri component is not installed)"; fi

## bench: criterion benchmarks, then bench/compare.py (numpy / PyTorch / clika_runtime on the
## same data, one process) writing bench/results/compare.{md,png}, then bench/ops.py (every
## operation of the Python package at three sizes) writing bench/results/ops.md, the rows of
## the newer op groups (ops_elementwise, ops_algorithms, ops_vision) and the cross-process
## transfer (processes.py). The OpenBLAS variables this machine sets slow numpy, so they are
## unset for the comparison (compare.py also re-execs itself without them).
bench: $(VENV)/.bench-stamp python
	$(CARGO) bench -p clika-rt
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(PY) bench/compare.py
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(PY) bench/ops.py
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(PY) bench/ops_elementwise.py
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(PY) bench/ops_algorithms.py
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(PY) bench/ops_vision.py
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(PY) bench/processes.py

$(VENV)/.bench-stamp: bench/requirements.txt $(VENV)/.deps-stamp
	$(PY) -m pip install -q -r bench/requirements.txt
	@touch $@

## install PREFIX=DIR: headers, libclika_rt.{so,a}, pkg-config file and CMake package
# `cargo rustc --crate-type`: the crate also declares an rlib (for its Rust tests), and with an
# rlib among the crate types Cargo silently drops LTO for all of them (rust-lang/cargo#9672).
capi-lib:
	$(CARGO) rustc --profile $(DIST_PROFILE) -p clika-rt-capi --lib --crate-type cdylib,staticlib

install: capi-lib
	@case "$(PREFIX)" in "") echo "install: PREFIX is empty"; exit 1;; esac
	$(eval P := $(abspath $(PREFIX)))
	install -d $(P)/include/ClikaRT $(P)/lib/pkgconfig $(P)/lib/cmake/ClikaRT
	install -m 644 $(CAPI_DIR)/include/ClikaRT/clika_rt_c.h $(CAPI_DIR)/include/ClikaRT/clika_rt.h $(CAPI_DIR)/include/ClikaRT/clika_rt_vision.h $(P)/include/ClikaRT/
	install -m 755 $(CAPI_LIB_DIR)/libclika_rt_capi.so $(P)/lib/libclika_rt.so.$(CAPI_VERSION)
	ln -sf libclika_rt.so.$(CAPI_VERSION) $(P)/lib/libclika_rt.so.$(CAPI_MAJOR)
	ln -sf libclika_rt.so.$(CAPI_MAJOR) $(P)/lib/libclika_rt.so
	install -m 644 $(CAPI_LIB_DIR)/libclika_rt_capi.a $(P)/lib/libclika_rt.a
	# The Rust standard library's objects in the archive carry line tables: drop them, as
	# install -s would (a static C++ program: 24.8 -> 22.4 MB).
	strip --strip-debug $(P)/lib/libclika_rt.a
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

## demo-compute: the compute example bundle, every chapter in all three languages
## (demo-cpp leaves the install in target/capi-prefix)
demo-compute: demo-cpp python
	examples/compute/run $(CAPI_PREFIX)

## test-examples: the bundle's output, checked against examples/compute/expected, and every
## C++ / Python example in docs/ compiled and run (the Rust ones are doctests)
test-examples: python
	rm -rf $(CAPI_PREFIX)
	$(MAKE) --no-print-directory install PREFIX=$(CAPI_PREFIX)
	examples/compute/run --check $(CAPI_PREFIX)
	PYTHON=$(abspath $(PY)) docs/check $(CAPI_PREFIX)

## header: regenerate the C header with cbindgen (a separate workspace, pinned)
gen-header-tool:
	cd $(CAPI_DIR)/gen-header && $(CARGO) build --release --locked --target-dir $(CURDIR)/target/gen-header

header: gen-header-tool
	$(GEN_HEADER) $(CAPI_DIR) $(CAPI_HEADER)

header-check: gen-header-tool
	$(GEN_HEADER) $(CAPI_DIR) target/gen-header/clika_rt_c.h
	@diff -u $(CAPI_HEADER) target/gen-header/clika_rt_c.h || \
		{ echo "$(CAPI_HEADER) is stale: run 'make header' and commit it"; exit 1; }

## python: build the Python package (clika_runtime) into .venv for development
# The venv is created on a fresh machine and refreshed when requirements-dev.txt changes.
PY_HOST ?= python3
PY_DIR := crates/clika-rt-python
SPEC_MAIN := $(firstword $(wildcard ../shared/acceptance/seed/main.py) $(PY_DIR)/tests/spec/main.py)
PIP_VENV := target/pip-venv

$(VENV)/.deps-stamp: requirements-dev.txt
	@test -x $(PY) || $(PY_HOST) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	@touch $@

# PY_FROM_WHEEL=1 (CI sets it): the dev venv gets the wheel that test-wheel builds and checks
# anyway, instead of a second optimized build of the whole crate by `maturin develop`; the
# tests then also run against exactly what ships.
ifeq ($(PY_FROM_WHEEL),1)
python: wheel
	$(PY) -m pip install -q --force-reinstall --no-deps $(WHEEL_DIR)/*.whl
else
python: $(VENV)/.deps-stamp
	VIRTUAL_ENV=$(abspath $(VENV)) $(VENV)/bin/maturin develop --release -q
endif

## test-python: pytest (+ hypothesis) over the extension, then the wheel in a fresh venv.
## The C library is installed first: the shared-registry tests build a C++ caller against it.
test-python: python test-wheel
	$(MAKE) --no-print-directory install PREFIX=$(CAPI_PREFIX) >/dev/null
	CLIKA_RT_PREFIX=$(CAPI_PREFIX) $(PY) -m pytest -q $(PY_DIR)/tests
	CLIKA_RT_GPU_IMPORT=off $(PY) -m pytest -q $(PY_DIR)/tests/test_devices.py \
		$(PY_DIR)/tests/test_gpu_import.py

## wheel: the wheel a package index accepts, in target/wheels: abi3 (one wheel for CPython
## >= 3.11), manylinux_2_28 (linked by zig, from the ziglang package in .venv, against glibc
## 2.28's symbols), the dist profile. auditwheel must agree with the tag maturin gave it.
WHEEL_DIR := target/wheels
WHEEL_VENV := target/wheel-venv
WHEEL_GLIBC_MAX := 28
wheel: $(VENV)/.deps-stamp
	rm -rf $(WHEEL_DIR)
	PATH=$(abspath $(VENV))/bin:$$PATH $(VENV)/bin/maturin build --profile $(DIST_PROFILE) \
		--zig --compatibility manylinux_2_$(WHEEL_GLIBC_MAX) --interpreter $(abspath $(PY)) \
		--out $(WHEEL_DIR)
	@whl=$$(ls $(WHEEL_DIR)/*.whl) && echo "$$whl" && \
	[[ $$whl == *-cp311-abi3-*manylinux_2_$(WHEEL_GLIBC_MAX)_* ]] || \
		{ echo "wheel: expected a cp311-abi3 manylinux_2_$(WHEEL_GLIBC_MAX) wheel"; exit 1; }; \
	shown=$$($(VENV)/bin/auditwheel show $$whl) || exit 1; echo "$$shown"; \
	glibc=$$(grep -o 'platform tag:[^"]*"manylinux_2_[0-9]*' <<<"$$shown" | head -1 | sed 's/.*_//'); \
	[[ -n $$glibc && $$glibc -le $(WHEEL_GLIBC_MAX) ]] || \
		{ echo "wheel: auditwheel does not find it manylinux_2_$(WHEEL_GLIBC_MAX)-compatible"; exit 1; }

## test-wheel: what a user does: the wheel into a fresh venv, then the spec's main.py and every
## Python chapter of the compute bundle, checked, run against the installed package
test-wheel: wheel
	rm -rf $(WHEEL_VENV)
	$(PY_HOST) -m venv $(WHEEL_VENV)
	$(WHEEL_VENV)/bin/pip install -q $(WHEEL_DIR)/*.whl
	@out=$$(cd /tmp && $(abspath $(WHEEL_VENV))/bin/python $(abspath $(SPEC_MAIN))) || exit 1; \
	echo "$$out"; \
	[ "$$(sed -n 1p <<<"$$out")" = "sum after buf[0] = 100: 100" ] && \
	[ "$$(sed -n 2p <<<"$$out")" = "shared bytes: 4" ] && \
	[[ "$$(sed -n 3p <<<"$$out")" == "non-contiguous refused: "*np.ascontiguousarray* ]] && \
	echo "wheel + spec main.py: ok" || { echo "wheel + spec main.py: FAILED"; exit 1; }
	cd /tmp && LANGS=python PYTHON=$(abspath $(WHEEL_VENV))/bin/python $(CURDIR)/examples/compute/run --check

## test-sizes: the shipped artefacts against their size budgets (libclika_rt.so, a statically
## linked C++ program, the wheel), from what `make test` built
test-sizes: test-wheel
	$(MAKE) --no-print-directory install PREFIX=$(CAPI_PREFIX) >/dev/null
	scripts/check-sizes $(CAPI_PREFIX) $(WHEEL_DIR)/*.whl

# What a user does from a clone: `pip install .` into a fresh venv, then the spec's main.py.
# Its own target dir, so alternating with `make python` does not rebuild PyO3 each time.
# Not in `test` (test-wheel builds and checks the wheel instead: one build, not two).
test-pip-install:
	rm -rf $(PIP_VENV)
	$(PY_HOST) -m venv $(PIP_VENV)
	CARGO_TARGET_DIR=$(abspath target/pip-install) $(PIP_VENV)/bin/pip install -q .
	@out=$$(cd /tmp && $(abspath $(PIP_VENV))/bin/python $(abspath $(SPEC_MAIN))) || exit 1; \
	echo "$$out"; \
	[ "$$(sed -n 1p <<<"$$out")" = "sum after buf[0] = 100: 100" ] && \
	[ "$$(sed -n 2p <<<"$$out")" = "shared bytes: 4" ] && \
	[[ "$$(sed -n 3p <<<"$$out")" == "non-contiguous refused: "*np.ascontiguousarray* ]] && \
	echo "pip install . + spec main.py: ok" || { echo "pip install . + spec main.py: FAILED"; exit 1; }

stubtest: python
	cd /tmp && $(abspath $(PY)) -m mypy.stubtest clika_runtime
	cd $(PY_DIR)/python && $(abspath $(PY)) -m mypy --strict clika_runtime

## test-asan: the Python tests against an AddressSanitizer build of the extension (nightly
## Rust, system libasan preloaded — with libstdc++, or ASan cannot find the real __cxa_throw
## when the C++ caller of test_custom_ops_native.py throws), or under valgrind without
## nightly (failing only on errors whose stack passes through the extension: CPython itself
## reports false positives without its suppression file). Slow; not in `test`.
ASAN_DIR := target/asan-python
test-asan: $(VENV)/.deps-stamp
	@if cargo +nightly --version >/dev/null 2>&1; then \
		set -e; \
		RUSTFLAGS="-Zsanitizer=address" CARGO_TARGET_DIR=$(abspath target/asan) \
		PYO3_PYTHON=$(abspath $(PY)) \
			cargo +nightly build -p clika-rt-python --target x86_64-unknown-linux-gnu \
			--features extension-module; \
		rm -rf $(ASAN_DIR) && mkdir -p $(ASAN_DIR); \
		cp -r $(PY_DIR)/python/clika_runtime $(ASAN_DIR)/; \
		rm -f $(ASAN_DIR)/clika_runtime/*.so; \
		cp target/asan/x86_64-unknown-linux-gnu/debug/libclika_runtime_native.so \
			$(ASAN_DIR)/clika_runtime/_native.abi3.so; \
		$(MAKE) --no-print-directory install PREFIX=$(CAPI_PREFIX) >/dev/null; \
		LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libstdc++.so)" \
		ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 PYTHONPATH=$(abspath $(ASAN_DIR)) \
		CLIKA_RT_PREFIX=$(CAPI_PREFIX) \
			$(PY) -m pytest -q -p no:cacheprovider $(PY_DIR)/tests -k "not pip"; \
	else \
		$(MAKE) python; \
		PYTHONMALLOC=malloc valgrind --log-file=target/valgrind-python.log \
			$(PY) -m pytest -q -p no:cacheprovider $(PY_DIR)/tests -k "not exit" || exit 1; \
		awk '/^==[0-9]+== (Invalid|Conditional|Use of|Syscall|Mismatched|Source and|Argument)/ { blk = $$0; open = 1; next } \
			open { blk = blk "\n" $$0; if ($$0 ~ /^==[0-9]+== $$/) { \
				if (blk ~ /clika|_native/) { print blk; bad = 1 } open = 0 } } \
			END { exit bad }' target/valgrind-python.log; \
	fi
