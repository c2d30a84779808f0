"""engine/ stays pure Python + numpy: it never imports the web stack.

The engine is the CLI's and the tests' way in and must run without Django,
DRF, Celery, Redis, kombu or Plotly installed; webapp/ adapts to the engine,
never the other way round (DESIGN.md, STYLE.md "Our own habits").
"""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
ENGINE_DIR = REPO_ROOT / "engine"

FORBIDDEN = frozenset({"django", "rest_framework", "celery", "redis", "plotly", "kombu", "webapp"})
DYNAMIC_IMPORTERS = frozenset({"import_module", "__import__"})


def called_name(call: ast.Call) -> str:
    """``import_module`` for both ``importlib.import_module(...)`` and ``import_module(...)``."""
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return call.func.id if isinstance(call.func, ast.Name) else ""


def forbidden_imports(source: str, filename: str = "<snippet>") -> list[str]:
    """``"line N: module"`` for every import of a forbidden top-level package in ``source``.

    Covers ``import x``, ``from x import y`` (absolute only: a relative import
    stays inside engine/) and the dynamic ``importlib.import_module("x")`` /
    ``__import__("x")`` with a literal name.
    """
    found = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        elif isinstance(node, ast.Call) and called_name(node) in DYNAMIC_IMPORTERS and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                modules = [first.value]
        if isinstance(node, ast.stmt | ast.expr):
            found += [
                f"line {node.lineno}: {module}"
                for module in modules
                if module.split(".")[0] in FORBIDDEN
            ]
    return found


@pytest.mark.parametrize(
    ("snippet", "expected"),
    [
        pytest.param("import django", ["line 1: django"], id="import"),
        pytest.param("from django.db import models", ["line 1: django.db"], id="from-import"),
        pytest.param(
            "import numpy, rest_framework.views as v",
            ["line 1: rest_framework.views"],
            id="second-of-two",
        ),
        pytest.param(
            "def f():\n    from celery import shared_task", ["line 2: celery"], id="inside-function"
        ),
        pytest.param(
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import plotly.express",
            ["line 3: plotly.express"],
            id="type-checking-only",
        ),
        pytest.param(
            'import importlib\nimportlib.import_module("redis")',
            ["line 2: redis"],
            id="import-module",
        ),
        pytest.param('__import__("kombu")', ["line 1: kombu"], id="dunder-import"),
        pytest.param("from webapp import settings", ["line 1: webapp"], id="webapp"),
        pytest.param("import numpy as np\nimport yaml", [], id="allowed"),
        pytest.param("from .model import objects\nfrom . import django", [], id="relative"),
        pytest.param("import djangoish\nimport celery_like", [], id="similar-names"),
    ],
)
def test_checker_finds_forbidden_imports(snippet: str, expected: list[str]) -> None:
    assert forbidden_imports(snippet) == expected


def engine_sources() -> list[Path]:
    return sorted(ENGINE_DIR.rglob("*.py"))


def test_engine_sources_exist() -> None:
    # Guards against a vacuous pass if the folder moved.
    assert (ENGINE_DIR / "__init__.py") in engine_sources()


def test_engine_imports_nothing_from_the_web_stack() -> None:
    offences = {
        str(path.relative_to(REPO_ROOT)): found
        for path in engine_sources()
        if (found := forbidden_imports(path.read_text(encoding="utf-8"), str(path)))
    }
    assert offences == {}


# Imports engine and every module under it, then reports which forbidden
# packages ended up loaded (directly or through a dependency), which engine
# modules were imported, and which failed to import. A module that fails is
# its own tests' business; the AST check above still covers its source.
FRESH_IMPORT_SCRIPT = """
import importlib, json, pkgutil, sys
import engine
failed = {}
for module in pkgutil.walk_packages(engine.__path__, "engine.", onerror=lambda name: None):
    if module.name.endswith("__main__"):
        continue
    try:
        importlib.import_module(module.name)
    except Exception as error:
        failed[module.name] = f"{type(error).__name__}: {error}"
forbidden = set(sys.argv[1].split(","))
print(json.dumps({
    "loaded": sorted(name for name in sys.modules if name.split(".")[0] in forbidden),
    "imported": sorted(name for name in sys.modules if name.split(".")[0] == "engine"),
    "failed": failed,
}))
"""


def test_importing_the_engine_loads_none_of_the_web_stack() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", FRESH_IMPORT_SCRIPT, ",".join(sorted(FORBIDDEN))],
        cwd=REPO_ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    assert report["loaded"] == [], f"modules that failed to import: {report['failed']}"
    # Not vacuous: the engine's own framework modules really were imported.
    assert {"engine", "engine.framework.interface", "engine.cluster.state"} <= set(
        report["imported"]
    )
