"""The layout's promises, read from the source: dependencies point one way (down the layers), nothing
cycles, and the rules of the three games (scorer) touch no file, clock, device or compiler."""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from paths import ROOT

PACKAGES = ("gm", "scorer", "voices")
CLI = ("gm.__main__", "gm.launch", "gm.cli", "gm.commands")
PURE = ("scorer",)
DEVICES = ("typer", "rich", "click", "vosk", "pyttsx3", "sounddevice", "pyopenjtalk")
EDGE_LIBRARIES = (*DEVICES, "numba", "platformdirs", "pocketsphinx")
# Standard modules that reach files, processes, the clock or the terminal (as far as a test can tell).
FILES_AND_CLOCK = ("os", "io", "pathlib", "shutil", "tempfile", "glob", "fcntl", "mmap", "sqlite3", "pickle",
                   "shelve", "subprocess", "socket", "urllib", "http", "sys", "time", "datetime", "threading",
                   "multiprocessing", "signal", "logging", "importlib", "builtins")
EFFECTFUL_BUILTINS = ("open", "print", "input", "breakpoint", "__import__", "exec", "eval")
# The layers, top to bottom (docs/design.md): a module imports from its own layer and those below.
LAYERS = (
    CLI,
    ("gm.night", "gm.score", "gm.solitaire"),  # the runners
    ("gm.table", "gm.hearing", "gm.speech"),  # the conversation and the audio edges
    ("gm.text", "gm.ports", "gm.clock", "gm.files", "gm.durable", "gm.c_random", "gm"),  # lines, ports
    ("voices",),  # the voice packs
    ("scorer",),  # the rules
    ("scorer.values",),  # the values every part shares (Named, Refusal): below the rules, about no game
)
NEUTRAL = "scorer.values"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


MODULES = _modules()


@cache
def _tree(name: str) -> ast.Module:
    """The syntax tree of module `name`, parsed once for every test that reads it."""
    return ast.parse(MODULES[name].read_text(encoding="utf-8"))


@cache
def _imports(name: str, top_level_only: bool) -> frozenset[str]:
    """The modules `name` imports (anywhere, or only at module level), resolved to known names
    where a `from package import module` names a module."""
    tree = _tree(name)
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in MODULES)
    return frozenset(found)


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


@cache
def _edges(top_level_only: bool) -> dict[str, frozenset[str]]:
    return {name: frozenset(m for m in _imports(name, top_level_only) if m in MODULES and m != name)
            for name in MODULES}


def _graph(top_level_only: bool) -> dict[str, set[str]]:
    """Module → the modules of gm, scorer and voices it imports (at module level, or anywhere)."""
    return {name: set(imported) for name, imported in _edges(top_level_only).items()}



def _layer(name: str) -> int:
    """The layer of `name` (0 is the top): the one naming the longest prefix of it."""
    return max(((len(p), index) for index, layer in enumerate(LAYERS) for p in layer if _within(name, (p,))))[1]


def test_every_module_has_a_layer():
    assert {name: _layer(name) for name in MODULES}
    assert _layer("gm.cli") < _layer("gm.night.vote") < _layer("gm.hearing.listening") < _layer("gm.text.lines")
    assert _layer("gm.text.lines") < _layer("voices") < _layer("scorer.werewolf.tally") < _layer(NEUTRAL)
    assert _layer("gm") == 3 and _layer(NEUTRAL) == len(LAYERS) - 1


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_imports_a_layer_above_its_own(name):
    upward = {m for m in _graph(top_level_only=False)[name] if _layer(m) < _layer(name)}
    assert not upward, f"{name} imports {sorted(upward)}, from a layer above its own"


def test_the_shared_values_build_on_the_standard_library_alone():
    """gm, the packs and the rules all import scorer.values; it imports none of them, no game and no
    edge: a refusal or a closed set of words means the same in every layer."""
    imported = _imports(NEUTRAL, top_level_only=False)
    assert imported <= {"__future__", "enum"}, sorted(imported)


def test_every_part_takes_the_shared_values_from_their_one_module():
    """gm, voices and scorer each import the shared values from their one module."""
    users = {name.split(".")[0] for name in MODULES if NEUTRAL in _imports(name, top_level_only=True)}
    assert users == {"gm", "scorer", "voices"}


def test_one_refusal_root():
    """Refusal is the only error that derives from ValueError itself: every narrow error of gm, the
    packs and the rules derives from it (the one counter the code itself asks for is a bug, not input)."""
    roots = sorted(f"{name}.{node.name}" for name in MODULES for node in ast.walk(_tree(name))
                   if isinstance(node, ast.ClassDef)
                   and any(isinstance(base, ast.Name) and base.id == "ValueError" for base in node.bases))
    assert roots == ["gm.text.korean.UnknownCounter", f"{NEUTRAL}.Refusal"]


def test_the_line_renderer_knows_no_game():
    """gm.text.lines renders any pack line; what a Half Werewolf field says (a card's name, the
    graveyard's) is gm.text.werewolf_fields'."""
    assert not {m for m in _imports("gm.text.lines", top_level_only=False) if _within(m, ("scorer",))}
    assert "gm.text.werewolf_fields" in _imports("gm.text.lines", top_level_only=True)


def test_no_import_circle_anywhere_even_inside_functions():
    cycle = _cycle(_graph(top_level_only=False))
    assert cycle is None, "import cycle: " + " → ".join(cycle or [])


@pytest.mark.parametrize("name", sorted(n for n in MODULES if _within(n, ("scorer",))))
def test_the_rules_touch_no_file_clock_terminal_or_edge_library(name):
    """Values in, values out: no gm, no edge library (numba, platformdirs, devices), no module that
    reaches files, processes or the clock, no builtin that prints, reads or opens."""
    imported = _imports(name, top_level_only=False)
    assert not {m for m in imported if _within(m, ("gm", *EDGE_LIBRARIES, *FILES_AND_CLOCK))}
    tree = _tree(name)
    calls = [f"{node.func.id} (line {node.lineno})" for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name) and node.func.id in EFFECTFUL_BUILTINS]
    assert not calls, f"{name} calls {calls}"


RULES_ALONE = """
import importlib, pkgutil, sys
import scorer
for info in pkgutil.walk_packages(scorer.__path__, "scorer."):
    importlib.import_module(info.name)
print(" ".join(sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[1:]))))
"""


def test_importing_every_rules_module_loads_no_edge_library(tmp_path):
    libraries = [*EDGE_LIBRARIES, "gm"]
    done = subprocess.run([sys.executable, "-c", RULES_ALONE, *libraries], cwd=tmp_path, env={"PATH": ""},
                          capture_output=True, text=True, check=True)
    assert done.stdout.split() == []


def test_no_import_is_relative():
    """Every import names its module in full, so the structure above is read from all of them."""
    relative = [f"{name}:{node.lineno}" for name in MODULES for node in ast.walk(_tree(name))
                if isinstance(node, ast.ImportFrom) and node.level]
    assert relative == []


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


def test_the_table_and_the_hearing_import_neither_each_other_even_inside_functions():
    """The questions (gm.table) and the listener (gm.hearing) meet at the question port alone
    (`gm.ports.Question`: typed slots and a policy); the words both read live in gm.text."""
    for side, other in (("gm.table", "gm.hearing"), ("gm.hearing", "gm.table")):
        crossing = {(name, m) for name in MODULES if _within(name, (side,))
                    for m in _imports(name, top_level_only=False) if _within(m, (other,))}
        assert not crossing, crossing


def _run_time_imports(name: str) -> set[str]:
    """The modules `name` imports when it runs (imports under `if TYPE_CHECKING:` name types only)."""
    tree = _tree(name)
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                   for n in ast.walk(node)}
    return {alias.name if isinstance(node, ast.Import) else f"{node.module}"
            for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in typing_only
            for alias in node.names}


def test_the_ports_import_no_edge_module_when_they_run():
    edges = ("gm.hearing", "gm.speech", "gm.night", "gm.table", *CLI, *DEVICES)
    assert not {m for m in _run_time_imports("gm.ports") if _within(m, edges)}


def test_the_ports_import_no_edge_module_even_for_types():
    """gm.ports names what the runners talk through; nothing of an edge, not even a type."""
    edges = ("gm.hearing", "gm.speech", "gm.night", "gm.table", "gm.files", "gm.durable", "gm.solitaire",
             *CLI, *EDGE_LIBRARIES, *FILES_AND_CLOCK)
    assert not {m for m in _imports("gm.ports", top_level_only=False) if _within(m, edges)}


# Capabilities one part needs of another, declared in the ports (gm.ports, gm.speech.engines.protocol,
# gm.speech.sink).
DECLARED = {"flush", "release", "answered_by", "speaking", "last_spoken_end", "streams", "render_parts", "warm_up"}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_declared_capability_is_probed_for(name):
    probes = [node.lineno for node in ast.walk(_tree(name))
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and node.args[1].value in DECLARED]
    assert not probes, f"{name} probes for a declared capability on line(s) {probes}"
