"""The Python surface is written down in three places that must agree: the extension's own
registrations (``_native.__all__``, from which ``clika_runtime.__all__`` is derived), the
package stub ``__init__.pyi`` (for type checkers) and the extension stub ``_native.pyi``."""

import ast
from pathlib import Path

import clika_runtime as crt
from clika_runtime import _native

PKG = Path(crt.__file__).parent


def public(names):
    return {n for n in names if not n.startswith("_")}


def stub_reexports(path):
    """Names ``__init__.pyi`` re-exports (``from x import a as a``) and lists in ``__all__``."""
    tree = ast.parse(path.read_text())
    imported, listed = set(), set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            imported |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            imported |= {a.asname or a.name.split(".")[-1] for a in node.names}
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            listed |= {e.value for e in node.value.elts}
    return imported, listed


def stub_definitions(path):
    """Top-level names ``_native.pyi`` defines (classes, functions, annotated constants)."""
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return public(names)


def test_package_exports_exactly_the_extension_names():
    extension = public(_native.__all__)
    assert set(crt.__all__) == extension | {"ops"}
    for name in extension:
        assert getattr(crt, name) is getattr(_native, name)


def test_package_stub_agrees_with_the_package():
    imported, listed = stub_reexports(PKG / "__init__.pyi")
    assert listed == set(crt.__all__), listed ^ set(crt.__all__)
    assert public(imported) == set(crt.__all__), public(imported) ^ set(crt.__all__)


def test_extension_stub_agrees_with_the_extension():
    defined = stub_definitions(PKG / "_native.pyi")
    registered = public(_native.__all__)
    assert defined == registered, defined ^ registered
