"""The layout's promises, read from the source: dependencies point one way and nothing cycles."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("gm", "scorer", "voices")
CLI = ("gm.__main__", "gm.launch", "gm.cli", "gm.commands")
PURE = ("scorer",)
DEVICES = ("typer", "rich", "click", "vosk", "pyttsx3", "sounddevice", "pyopenjtalk")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


MODULES = _modules()


def _imports(name: str, top_level_only: bool) -> set[str]:
    """The modules `name` imports (anywhere, or only at module level), resolved to known names
    where a `from package import module` names a module."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in MODULES)
    return found


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_the_tree_is_found():
    assert {"gm.cli", "gm.ports", "scorer.werewolf.tally", "scorer.humalien.fold"} <= set(MODULES)


@pytest.mark.parametrize("name", sorted(n for n in MODULES if not _within(n, CLI)))
def test_no_edge_or_core_module_imports_the_cli(name):
    assert not {m for m in _imports(name, top_level_only=False) if _within(m, CLI)}


@pytest.mark.parametrize("name", sorted(n for n in MODULES if _within(n, PURE)))
def test_rules_code_touches_no_terminal_or_device(name):
    imported = _imports(name, top_level_only=False)
    assert not {m for m in imported if _within(m, DEVICES)}
    if _within(name, ("scorer",)):
        assert not {m for m in imported if _within(m, ("gm",))}, "scorer imports nothing from gm"


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """An import cycle of `graph` (module → the modules it imports), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for name in sorted(graph):
        if name not in state and (found := visit(name)):
            return found
    return None


def test_no_import_cycles_at_module_level():
    graph = {name: {m for m in _imports(name, top_level_only=True) if m in MODULES and m != name}
             for name in MODULES}
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " → ".join(cycle or [])


def test_the_hearing_modules_import_each_other_one_way_even_inside_functions():
    hearing = {name for name in MODULES if _within(name, ("gm.hearing",))}
    graph = {name: {m for m in _imports(name, top_level_only=False) if m in hearing and m != name}
             for name in hearing}
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " → ".join(cycle or [])


def _run_time_imports(name: str) -> set[str]:
    """The modules `name` imports when it runs (imports under `if TYPE_CHECKING:` name types only)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                   for n in ast.walk(node)}
    return {alias.name if isinstance(node, ast.Import) else f"{node.module}"
            for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in typing_only
            for alias in node.names}


def test_the_ports_import_no_edge_module_when_they_run():
    edges = ("gm.hearing", "gm.speech", "gm.night", "gm.table", *CLI, *DEVICES)
    assert not {m for m in _run_time_imports("gm.ports") if _within(m, edges)}


# Capabilities one part needs of another, declared in the ports (gm.ports, gm.speech.engines.protocol).
DECLARED = {"flush", "release", "answered_by", "speaking", "last_spoken_end", "streams", "render_parts", "warm_up"}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_declared_capability_is_probed_for(name):
    probes = [node.lineno for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8")))
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and node.args[1].value in DECLARED]
    assert not probes, f"{name} probes for a declared capability on line(s) {probes}"
