"""The stub covers the module and accepts a typed usage example under mypy --strict; every
docstring example of the package runs."""

from __future__ import annotations

import doctest
import inspect
import pathlib
import subprocess
import sys

import pytest

import convexity as cx

HERE = pathlib.Path(__file__).parent


def test_mypy_strict_accepts_the_typed_example() -> None:
    pytest.importorskip("mypy")
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(HERE / "typed" / "usage.py")],
        capture_output=True, text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_strict_rejects_a_wrong_call() -> None:
    pytest.importorskip("mypy")
    src = "import convexity as cx\nr: int = cx.distance(cx.Sphere(1.0), None, cx.Sphere(1.0), None)\n"
    tmp = HERE / "typed" / "_wrong.py"
    tmp.write_text(src)
    try:
        out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(tmp)],
                             capture_output=True, text=True)
    finally:
        tmp.unlink()
    assert out.returncode != 0 and "QueryResult" in out.stdout, out.stdout


def test_stub_lists_every_public_name() -> None:
    stub = (pathlib.Path(cx.__file__).parent / "__init__.pyi").read_text()
    for name in cx.__all__:
        assert (f"def {name}(" in stub) or (f"class {name}" in stub) or (f"{name}:" in stub), name
    assert (pathlib.Path(cx.__file__).parent / "py.typed").exists()


def _objects():
    yield "convexity", cx
    for name in cx.__all__:
        obj = getattr(cx, name)
        yield name, obj
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if not attr.startswith("_"):
                    yield f"{name}.{attr}", member


def test_every_docstring_example_runs() -> None:
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    documented = set()
    for name, obj in _objects():
        doc = getattr(obj, "__doc__", None)
        if not doc or not isinstance(doc, str):
            continue
        test = parser.get_doctest(doc, {"cx": cx}, name, None, 0)
        if test.examples:
            documented.add(name.split(".")[0])
        examples += len(test.examples)
        runner.run(test)
    assert runner.failures == 0, runner.summarize()
    # Every public function and shape class carries an example.
    missing = [n for n in cx.__all__ if n not in documented and n not in ("METHODS", "Shape", "QueryResult", "BatchResult")]
    assert missing == [], missing
    assert examples > 40


def test_readme_python_example_runs() -> None:
    readme = (HERE.parents[1] / "README.md").read_text()
    start = readme.index("## From Python")
    code = readme[readme.index("```python\n", start) + len("```python\n"):]
    code = code[: code.index("```")]
    assert len(code.strip().splitlines()) <= 12
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "verified" in out.stdout
