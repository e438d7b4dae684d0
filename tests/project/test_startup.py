"""Start-up: each command imports only what it uses; plain parameters are read without pydantic,
exactly as Typer reads them."""

import subprocess
import sys

import pytest
import typer
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from gm.cli import GROUPS, app
from gm.commands.plain_params import PlainReading, make_plain

HEAVY = ("vosk", "pyttsx3", "sounddevice", "numpy", "numba", "pykakasi", "pydantic")
LOADED = """
import sys
from gm.cli import app
import contextlib
with contextlib.suppress(SystemExit):
    app(sys.argv[1:], prog_name="gm")
print("LOADED", *sorted(m for m in sys.modules if m.split(".")[0] in {heavy!r} or m.startswith("gm.commands.")),
      file=sys.stderr)
"""


def loaded_by(*argv: str) -> set[str]:
    """The heavy modules and gm command modules imported by one run of `gm ARGV`."""
    code = LOADED.format(heavy=HEAVY)
    out = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True)
    line = next(line for line in out.stderr.splitlines() if line.startswith("LOADED"))
    return set(line.split()[1:])


def commands():
    for name, module in GROUPS.items():
        group = typer.main.get_command(__import__(module, fromlist=["app"]).app)
        yield name, None
        for command in group.commands:
            yield name, command


@pytest.mark.slow
@pytest.mark.parametrize("group, command", list(commands()))
def test_a_help_page_imports_its_own_group_and_nothing_heavy(group, command):
    loaded = loaded_by(group, *([command] if command else []), "--help")
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}
    others = {module for name, module in GROUPS.items() if name != group and module in loaded}
    assert not others - {"gm.commands.werewolf_play"} and GROUPS[group] in loaded


@pytest.mark.slow
def test_gm_help_imports_nothing_heavy():
    assert not {m for m in loaded_by("--help") if m.split(".")[0] in HEAVY}


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["score", "show", "--file", "{tmp}/m.jsonl", "--json"],
                                  ["solitaire", "reading", "3", "--speech", "off"],
                                  ["score", "matches", "--file", "{tmp}/m.jsonl"]])
def test_typical_commands_load_no_pydantic_and_no_solver(tmp_path, argv):
    assert CliRunner().invoke(app, ["score", "new", "Alice", "Bob", "--file", str(tmp_path / "m.jsonl")]).exit_code == 0
    loaded = loaded_by(*(a.format(tmp=tmp_path) for a in argv))
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}


def _option(kind, plain, **bounds):
    """A one-command app's `--x` option of `kind`, read plainly or by Typer (pydantic)."""
    typed = typer.Typer()

    @typed.command()
    def one(x: kind = typer.Option(None, "--x", **bounds)) -> None:  # noqa: B008
        """Only its parameter is read."""

    command = typer.main.get_command(typed)
    param = next(p for p in command.params if p.name == "x")
    if plain:
        make_plain([param])
    return param, typer.Context(command)


def _outcome(kind, plain, text, **bounds):
    param, ctx = _option(kind, plain, **bounds)
    assert isinstance(param.process_value, PlainReading) == plain
    try:
        value = param.process_value(ctx, text)
        return type(value), value
    except typer.BadParameter as error:
        return error.message


numbers = st.one_of(st.integers(-10**6, 10**6).map(str), st.floats(allow_nan=False).map(str),
                    st.text(alphabet=" 0123456789.-+e_x", max_size=8))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(numbers, st.sampled_from([(int, {}), (float, {}), (int, {"min": 1}), (float, {"min": 0.0, "max": 1.0}),
                                 (float, {"min": 0.0001})]))
def test_plain_numbers_read_as_typer_reads_them(text, kind_bounds):
    kind, bounds = kind_bounds
    assert _outcome(kind, True, text, **bounds) == _outcome(kind, False, text, **bounds)


@pytest.mark.parametrize("kind, text", [(str, "健 v 美緒"), (str, ""), (__import__("pathlib").Path, "a/b.jsonl")])
def test_plain_text_and_paths_read_as_typer_reads_them(kind, text):
    assert _outcome(kind, True, text) == _outcome(kind, False, text)
