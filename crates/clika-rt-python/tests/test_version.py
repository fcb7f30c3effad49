"""`clika_runtime.__version__` is the workspace version in the root Cargo.toml, and the
installed distribution's version (maturin takes the package version from Cargo)."""

import re
from importlib import metadata
from pathlib import Path

import clika_runtime as crt

ROOT = Path(__file__).resolve().parents[3]


def workspace_version() -> str:
    manifest = (ROOT / "Cargo.toml").read_text()
    table = manifest.split("[workspace.package]", 1)[1]
    match = re.search(r'^version = "([^"]+)"', table, re.MULTILINE)
    assert match, "[workspace.package] sets version"
    return match.group(1)


def test_version_is_the_workspace_version():
    assert crt.__version__ == workspace_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", crt.__version__)


def test_version_is_the_distribution_version():
    assert metadata.version("clika-runtime") == crt.__version__
