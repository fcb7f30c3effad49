"""The wheel's metadata: the README shown on the package page (docs/pypi-readme.md) has no
relative links (they break there) and no placeholder address, and no manifest names one."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[3]


def test_pypi_readme_has_only_absolute_links():
    text = (ROOT / "docs" / "pypi-readme.md").read_text()
    targets = re.findall(r"\]\(([^)]*)\)", text) + re.findall(r'(?:href|src)="([^"]*)"', text)
    relative = [t for t in targets if not re.match(r"https://", t)]
    assert not relative, f"relative or non-https links break on the package page: {relative}"


def test_no_placeholder_urls():
    files = [ROOT / "pyproject.toml", ROOT / "Cargo.toml", ROOT / "docs" / "pypi-readme.md",
             *ROOT.glob("crates/*/Cargo.toml")]
    bad = [str(f.relative_to(ROOT)) for f in files if "example.invalid" in f.read_text()]
    assert not bad, f"placeholder URLs in {bad}"
