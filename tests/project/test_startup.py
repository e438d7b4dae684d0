"""Start-up: each command imports only what it uses; plain parameters are read without pydantic,
exactly as Typer reads them."""

import json
import subprocess
import sys

import pytest
import typer
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from gm.cli import GROUPS, app
from gm.commands.plain_params import PlainReading, make_plain

HEAVY = ("vosk", "pyttsx3", "sounddevice", "numpy", "numba", "pykakasi", "pydantic")
# One fresh interpreter imports gm.cli, then runs each command line in a fork of itself: each fork
# starts from what a fresh `gm` has loaded when it reads its arguments, as a new process would. Typer's
# help renderer (rich, markdown) is loaded before the forks, once: what is loaded before a fork is
# seen in it, so this can only add to what a command is seen loading, and it is none of HEAVY.
LOADED = """
import contextlib, json, os, sys
from gm.cli import app
import typer.rich_utils

def loaded():
    return sorted(m for m in sys.modules if m.split(".")[0] in {heavy!r} or m.startswith("gm.commands."))

def run(argv):
    with contextlib.suppress(SystemExit):
        app(argv, prog_name="gm")
    return loaded()

for argv in json.loads(sys.argv[1]):
    if not hasattr(os, "fork"):
        print(json.dumps(run(argv)))
        break
    sys.stdout.flush()
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reader)
        code = 1
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            with os.fdopen(writer, "w") as out:
                out.write(json.dumps(run(argv)))
            code = 0
        finally:
            os._exit(code)
    os.close(writer)
    with os.fdopen(reader) as got:
        found = got.read()
    _, status = os.waitpid(pid, 0)
    if status != 0:
        sys.exit(f"gm {{argv}} ended with status {{status}}")
    print(found, flush=True)
"""


def loaded_by_each(*argvs: list[str]) -> list[set[str]]:
    """The heavy modules and gm command modules imported by a run of `gm ARGV`, for each ARGV."""
    found: list[set[str]] = []
    while len(found) < len(argvs):  # where there is no fork, one process per command line
        out = subprocess.run([sys.executable, "-c", LOADED.format(heavy=HEAVY), json.dumps(argvs[len(found):])],
                             capture_output=True, text=True, check=True)
        read = [set(json.loads(line)) for line in out.stdout.splitlines()]
        assert read, out.stderr
        found += read
    return found


def commands():
    for name, module in GROUPS.items():
        group = typer.main.get_command(__import__(module, fromlist=["app"]).app)
        yield name, None
        for command in group.commands:
            yield name, command


HELP_PAGES = list(commands())


@pytest.fixture(scope="module")
def loaded_by_help():
    """What each help page (and `gm --help`) loads, all read in one interpreter."""
    argvs = [[group, *([command] if command else []), "--help"] for group, command in HELP_PAGES] + [["--help"]]
    return dict(zip([*HELP_PAGES, None], loaded_by_each(*argvs)))


@pytest.mark.slow
@pytest.mark.parametrize("group, command", HELP_PAGES)
def test_a_help_page_imports_its_own_group_and_nothing_heavy(loaded_by_help, group, command):
    loaded = loaded_by_help[group, command]
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}
    others = {module for name, module in GROUPS.items() if name != group and module in loaded}
    assert not others - {"gm.commands.werewolf_play"} and GROUPS[group] in loaded


@pytest.mark.slow
def test_gm_help_imports_nothing_heavy(loaded_by_help):
    assert not {m for m in loaded_by_help[None] if m.split(".")[0] in HEAVY}


TYPICAL = [["score", "show", "--file", "{tmp}/m.jsonl", "--json"], ["solitaire", "reading", "3", "--speech", "off"],
           ["score", "matches", "--file", "{tmp}/m.jsonl"]]


@pytest.mark.slow
def test_typical_commands_load_no_pydantic_and_no_solver(tmp_path):
    assert CliRunner().invoke(app, ["score", "new", "Alice", "Bob", "--file", str(tmp_path / "m.jsonl")]).exit_code == 0
    for argv, loaded in zip(TYPICAL, loaded_by_each(*([a.format(tmp=tmp_path) for a in argv] for argv in TYPICAL))):
        assert not {m for m in loaded if m.split(".")[0] in HEAVY}, argv


@pytest.mark.slow
def test_the_start_up_probe_sees_what_a_command_loads():
    """The probe itself: what a command line loads is seen, and each command line starts afresh
    (what one loaded is not counted for the next)."""
    first, second = loaded_by_each(["solitaire", "--help"], ["score", "--help"])
    assert {"gm.commands.solitaire", "gm.commands.score"} & first == {"gm.commands.solitaire"}
    assert {"gm.commands.solitaire", "gm.commands.score"} & second == {"gm.commands.score"}


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

