"""Every help page as a person meets it at 80 columns, and the CLI's conventions."""

import re

import pytest
import typer
from rich.cells import cell_len
from typer.testing import CliRunner

from gm.cli import app

runner = CliRunner()
WIDTH = 80


def commands_with_params(command=None, path=()):
    """(path, command) for the root and every group and command under it, e.g. ("score", "new")."""
    command = command or typer.main.get_command(app)
    yield path, command
    ctx = typer.Context(command)
    for name in getattr(command, "list_commands", lambda ctx: [])(ctx):
        yield from commands_with_params(command.get_command(ctx, name), (*path, name))


PATHS = [path for path, _ in commands_with_params()]


def help_page(path):
    width = {"COLUMNS": str(WIDTH), "TERMINAL_WIDTH": str(WIDTH)}
    result = runner.invoke(app, [*path, "--help"], prog_name="gm", env=width)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_every_command_has_a_help_page():
    assert ("score", "export") in PATHS and ("werewolf", "play") in PATHS and len(PATHS) > 25


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "gm")
def test_help_page_at_80_columns_reads_plainly(path):
    page = help_page(path)
    lines = page.splitlines()
    assert f"Usage: gm {' '.join(path)}".replace("  ", " ").strip() in page
    assert all(cell_len(line) <= WIDTH for line in lines), max(lines, key=cell_len)
    assert not re.search(r"<(bool|str|int|float|path|int range|float range)>", page)  # plain metavars
    assert "{" not in lines[1 if lines[0].strip() == "" else 0]  # arguments shown plainly in the usage line
    assert "…" not in page  # no description cut short
    # the description column stays wide: wrapped description lines start by column 40
    for line in lines:
        inner = line.strip("│ ")
        if line.startswith("│") and line.startswith("│  ") and inner:
            assert line.index(inner) <= 40, line


@pytest.mark.parametrize("path, command", list(commands_with_params()),
                         ids=lambda p: " ".join(p) if isinstance(p, tuple) else "")
def test_one_default_for_speech_and_a_plain_json_flag(path, command):
    for param in command.params:
        if "--speech" in getattr(param, "opts", ()):
            assert param.default == "on", path
        if "--json" in getattr(param, "opts", ()):
            assert param.is_flag and param.default is False, path


def test_version_and_shell_completion():
    from gm import __version__

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"gm {__version__}\n"
    page = help_page(())
    assert "--install-completion" in page and "--show-completion" in page


@pytest.mark.parametrize("args, line", [
    (["bogus"], "gm: no such command 'bogus'\n"),
    (["--bogus"], "gm: no such option '--bogus'\n"),
    (["score", "bogus"], "gm: score: no such command 'bogus'\n"),
    (["score", "show", "--json", "true"], "gm: score show: got unexpected extra argument(s) (true)\n"),
])
def test_unknown_commands_and_options_are_one_line(args, line):
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and result.stdout == "" and result.stderr == line


@pytest.mark.parametrize("group", ["werewolf", "score", "solitaire", "voice"])
def test_a_group_alone_shows_its_help(group):
    result = runner.invoke(app, [group], prog_name="gm", env={"COLUMNS": str(WIDTH)})
    assert result.exit_code == 0 and f"Usage: gm {group} [OPTIONS] COMMAND" in result.stdout
    assert result.stderr == ""
