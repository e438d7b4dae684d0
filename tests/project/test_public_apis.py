"""gm uses its libraries' public APIs only: no private attribute, private module or class swap of
Typer, Click, numba, pyttsx3, vosk, sounddevice, rich, pydantic or any other installed package
(a private API changes without notice in any release)."""

import ast
import re
import sys
from pathlib import Path

import pytest
from paths import ROOT

OWN = {"gm", "scorer", "voices", "bench", "tests"}
SOURCES = sorted(p for package in ("gm", "scorer", "voices") for p in (ROOT / package).rglob("*.py"))
# underscored names that are public: namedtuple's API
# namedtuple's methods, and the member value an Enum's own `__new__` sets (the enum HOWTO's "When to use __new__")
PUBLIC_UNDERSCORED = {"_replace", "_asdict", "_fields", "_make", "_field_defaults", "_value_"}
DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _foreign(module: str) -> bool:
    """An installed package's module: neither gm's own nor Python's standard library."""
    root = module.split(".")[0]
    return bool(root) and root not in OWN and root not in sys.stdlib_module_names


def _foreign_names(tree: ast.Module) -> set[str]:
    """The names this file binds to other packages' modules and classes."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and _foreign(node.module):
            bound |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            bound |= {alias.asname or alias.name.split(".")[0] for alias in node.names if _foreign(alias.name)}
    return bound


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _overrides(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The underscored methods of classes made on another package's class: overrides of its private API."""
    foreign = _foreign_names(tree)
    return [item for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
            and any(_root(base) in foreign for base in node.bases)
            for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and _private(item.name)]


def _own_names(trees: list[ast.Module]) -> set[str]:
    """Every underscored name gm defines: its functions, classes, variables, arguments, and the
    attributes it sets on its own objects (self, cls); not an override of another package's."""
    names: set[str] = set()
    for tree in trees:
        overrides = set(map(id, _overrides(tree)))
        for node in ast.walk(tree):
            if id(node) in overrides:
                continue
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[0])
            elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}):
                names.add(node.attr)
    return {name for name in names if _private(name)}


def _standard_modules(tree: ast.Module) -> set[str]:
    """The names this file binds to standard-library modules (import os, import ctypes as c)."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in sys.stdlib_module_names:
                    bound.add(alias.asname or alias.name.split(".")[0])
    return bound


def private_uses(path: Path, tree: ast.Module, own: set[str]) -> list[str]:
    """Each use in `tree` of another package's private API, as "file:line: what"."""
    where = path.relative_to(ROOT)
    standard = _standard_modules(tree)
    found = [f"{where}:{method.lineno}: overrides .{method.name}" for method in _overrides(tree)]
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and _foreign(node.module):
            private = [n.name for n in node.names if _private(n.name)]
            if any(_private(part) for part in node.module.split(".")) or private:
                found.append(f"{where}:{line}: from {node.module} import {', '.join(n.name for n in node.names)}")
        elif isinstance(node, ast.Import):
            found += [f"{where}:{line}: import {a.name}" for a in node.names
                      if _foreign(a.name) and any(_private(part) for part in a.name.split("."))]
        elif isinstance(node, ast.Attribute):
            if node.attr in {"__class__", "__dict__"} and isinstance(node.ctx, ast.Store):
                found.append(f"{where}:{line}: sets .{node.attr}")
            elif node.attr == "__mro__":
                found.append(f"{where}:{line}: reads .__mro__")
            elif isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Subscript) \
                    and ast.unparse(node.value.value) == "sys.modules":
                found.append(f"{where}:{line}: replaces .{node.attr} inside a module")
            elif (_private(node.attr) and node.attr not in own and node.attr not in PUBLIC_UNDERSCORED
                  and not (isinstance(node.value, ast.Name) and node.value.id in {"self", "cls", *standard})):
                found.append(f"{where}:{line}: .{node.attr}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and DOTTED.fullmatch(node.value):
            parts = node.value.split(".")
            if _foreign(node.value) and any(_private(part) for part in parts[1:]):
                found.append(f"{where}:{line}: the module {node.value!r}")
    return found


def _all_private_uses() -> list[str]:
    trees = {path: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in SOURCES}
    own = _own_names(list(trees.values()))
    return [use for path, tree in trees.items() for use in private_uses(path, tree, own)]


@pytest.mark.slow
def test_gm_uses_no_private_api_of_another_package():
    uses = _all_private_uses()
    assert not uses, "private APIs of other packages (use their public API):\n" + "\n".join(uses)


@pytest.mark.parametrize("code, what", [
    ("from typer._coercion import RuntimeParam", "from typer._coercion import RuntimeParam"),
    ("from numba.core.caching import _CacheLocator", "from numba.core.caching import _CacheLocator"),
    ("import pyttsx3.drivers._espeak", "import pyttsx3.drivers._espeak"),
    ("param._runtime_param = None", "._runtime_param"),
    ("value = typers._coerce_value(1)", "._coerce_value"),
    ("caching._CacheImpl._locator_classes.insert(0, x)", "._locator_classes"),
    ("param.__class__ = Plain", "sets .__class__"),
    ("found = typer.BadParameter.__mro__", "reads .__mro__"),
    ("driver = sys.modules['pyttsx3.drivers._espeak']", "the module 'pyttsx3.drivers._espeak'"),
    ("sys.modules['pyttsx3.drivers.espeak'].print = quiet", "replaces .print inside a module"),
    ("from typer.core import TyperArgument\nclass Plain(TyperArgument):\n    def _usage_display_name(self): ...",
     "overrides ._usage_display_name"),
])
def test_each_kind_of_private_use_is_found(code, what):
    path = ROOT / "gm" / "example.py"
    uses = private_uses(path, ast.parse(code), own=set())
    assert uses and uses[0].endswith(what), uses


@pytest.mark.parametrize("code", [
    "import os\nos._exit(0)",  # the standard library's own documented names
    "self._engine = engine\nself._engine.stop()",
    "point = point._replace(x=1)",
    "from typer.core import TyperArgument",
    "print('gm.commands._internal')",  # gm's own module
])
def test_public_and_own_names_pass(code):
    assert private_uses(ROOT / "gm" / "example.py", ast.parse(code), own={"_engine"}) == []
