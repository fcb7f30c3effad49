"""Every public name of ``clika_runtime`` has a docstring, and every example in one runs.

The rule (what ``help()`` shows must be enough to use the name):

* every public object has a docstring whose first line is a summary;
* a public function or method (a callable that is not a class) also has a numpy-doc
  ``Returns`` (or ``Parameters``) section and an ``Examples`` section with at least one
  ``>>>`` line, so the reader sees how it is called and what comes back;
* classes, exceptions and properties need the summary only (a class's constructor is
  documented in the class's docstring, a property is one value).

Public means: every name in ``clika_runtime.__all__`` (``ops``'s functions included), and the
public methods and properties (no leading underscore) of its classes. Dunder methods are
Python's protocols (``__add__``, ``__dlpack__``...) and are documented by the data model, not
here. The dtype objects (``crt.float32``...) are instances of ``DType``: its docstring covers
them.

``PENDING`` names the public names that do not meet the rule yet (issue 16 is burning the list
down, most-used names first). The test fails for any other name that misses the rule, and for a
``PENDING`` name that now meets it or no longer exists, so the list is always exact and only
shrinks. ``python tests/test_docstrings.py`` prints the counts and the names still missing.

Every ``>>>`` example is run by ``doctest`` (``test_examples``) with ``crt`` and ``np`` in scope;
examples print deterministic values only.
"""

from __future__ import annotations

import doctest
import inspect
import re
import sys
import types
from typing import Any, Iterator, List, Tuple

import numpy as np
import pytest

import clika_runtime as crt

OPS_ALIASES = {"Kernel", "Rule", "Spec"}  # typing aliases of ops, documented by #: comments


def public_objects() -> Iterator[Tuple[str, Any]]:
    """(qualified name, object) for every public name, its classes' members included."""
    for name in crt.__all__:
        obj = getattr(crt, name)
        if name == "ops":
            yield "ops", obj
            for sub in obj.__all__:
                if sub not in OPS_ALIASES:
                    yield f"ops.{sub}", getattr(obj, sub)
            continue
        if isinstance(obj, crt.DType):
            continue  # an instance: DType's docstring documents it
        yield name, obj
        if isinstance(obj, type) and not issubclass(obj, BaseException):
            for attr, member in sorted(vars(obj).items()):
                if not attr.startswith("_"):
                    yield f"{name}.{attr}", member


def is_function(obj: Any) -> bool:
    if isinstance(obj, (property, types.GetSetDescriptorType, types.MemberDescriptorType)):
        return False
    if isinstance(obj, (staticmethod, classmethod)):
        return True
    return callable(obj) and not isinstance(obj, type)


def problems(obj: Any) -> List[str]:
    """What ``obj``'s docstring lacks under the rule (empty when it meets it)."""
    target = obj.__func__ if isinstance(obj, (staticmethod, classmethod)) else obj
    doc = inspect.cleandoc(getattr(target, "__doc__", None) or "")
    if isinstance(obj, types.ModuleType):
        doc = inspect.cleandoc(obj.__doc__ or "")
    missing = []
    first = doc.split("\n", 1)[0].strip()
    if not first:
        return ["a summary"]
    if is_function(obj):
        if not re.search(r"^(Returns|Parameters)\n-{3,}$", doc, re.M):
            missing.append("a Returns or Parameters section")
        if not re.search(r"^Examples\n-{3,}\n(.*\n)*?>>> ", doc + "\n", re.M):
            missing.append("an Examples section with >>>")
    return missing


# Names that do not meet the rule yet; see the module docstring. Regenerate the list with
# ``python tests/test_docstrings.py --pending`` only to remove names, never to add them.
PENDING: frozenset = frozenset()


def test_public_names_are_documented() -> None:
    bad = {}
    for name, obj in public_objects():
        missing = problems(obj)
        if missing and name not in PENDING:
            bad[name] = missing
    assert not bad, "public names without the docstring the rule asks for:\n" + "\n".join(
        f"  {n}: lacks {', '.join(m)}" for n, m in sorted(bad.items())
    )


def test_pending_list_is_exact() -> None:
    names = dict(public_objects())
    gone = sorted(n for n in PENDING if n not in names)
    done = sorted(n for n in PENDING if n in names and not problems(names[n]))
    assert not gone, f"PENDING names that are no longer public: {gone}"
    assert not done, f"PENDING names now documented (remove them from PENDING): {done}"


def test_stubs_carry_the_docstrings() -> None:
    """_native.pyi has each docstring of the extension (scripts/sync-stub-docs writes them)."""
    import subprocess
    from pathlib import Path

    script = Path(__file__).resolve().parents[3] / "scripts" / "sync-stub-docs"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def _doctests() -> List[doctest.DocTest]:
    parser = doctest.DocTestParser()
    tests = []
    for name, obj in [("clika_runtime", crt), *public_objects()]:
        target = obj.__func__ if isinstance(obj, (staticmethod, classmethod)) else obj
        doc = getattr(target, "__doc__", None)
        if not doc or ">>>" not in doc:
            continue
        globs = {"crt": crt, "np": np}
        tests.append(parser.get_doctest(inspect.cleandoc(doc), globs, name, None, 0))
    return tests


DOCTESTS = _doctests()


def test_there_are_examples() -> None:
    assert len(DOCTESTS) >= 20


@pytest.mark.parametrize("test", DOCTESTS, ids=[t.name for t in DOCTESTS])
def test_examples(test: doctest.DocTest) -> None:
    out: List[str] = []
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    result = runner.run(test, out=out.append)
    assert result.failed == 0, "".join(out)


if __name__ == "__main__":
    objs = list(public_objects())
    missing = [(n, problems(o)) for n, o in objs]
    missing = [(n, m) for n, m in missing if m]
    print(f"{len(objs)} public names, {len(objs) - len(missing)} meet the rule, "
          f"{len(missing)} do not", file=sys.stderr)
    if "--pending" in sys.argv:
        print("\n".join(n for n, _ in missing))
    else:
        for n, m in missing:
            print(f"{n}: lacks {', '.join(m)}")
