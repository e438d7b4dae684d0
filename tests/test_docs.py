"""The README and docs/: every console example runs and prints what it shows, every path they
name exists, and the README stays a user's guide (≤ 300 lines).

A console example is a fenced ```console block: lines starting `$ ` are commands, the lines up to
the next command are its output (stdout and stderr as a terminal shows them). An output line that
is only `…` stands for any number of lines. A command is `gm …`, optionally fed by `printf '…' |`
or `< FILE` and followed by `| tail -N`, `| head -N` or `| grep WORD`; `$ cat FILE` shows a file,
and the test writes the file from the lines shown. Each document's examples run in order in one
folder, speech off, with the score journal and gm's data folder inside it.
"""

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli import app

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ANY = "…"
runner = CliRunner()


def examples(text: str) -> list[tuple[int, str, list[str]]]:
    """(line number, command, output lines shown) for every command of every console block."""
    found: list[tuple[int, str, list[str]]] = []
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            inside = line.strip() == "```console" if not inside else False
            continue
        if not inside:
            continue
        if line.startswith("$ "):
            found.append((number, line[2:], []))
        elif found:
            found[-1][2].append(line)
    return found


def _unquote_printf(text: str) -> str:
    return shlex.split(text)[0].replace("\\n", "\n")


def run(command: str, folder: Path, env: dict[str, str | None]) -> list[str]:
    """The lines `command` prints, run in-process in `folder`."""
    stdin = None
    feed = re.match(r"printf ('(?:[^']|\\')*') \| (.*)", command)
    if feed:
        stdin, command = _unquote_printf(feed.group(1)), feed.group(2)
    command, _, filtered = command.partition(" | ")
    command, _, source = command.partition(" < ")
    if source:
        stdin = (folder / source.strip()).read_text(encoding="utf-8")
    argv = shlex.split(command)
    assert argv[0] == "gm", f"not a gm command: {command}"
    result = runner.invoke(app, argv[1:], input=stdin, env=env)
    lines = result.output.splitlines()
    if filtered:
        tool, *args = shlex.split(filtered)
        if tool == "grep":
            lines = [line for line in lines if args[0] in line]
        elif tool in ("tail", "head"):
            n = int(args[0].lstrip("-n") or args[1])
            lines = lines[-n:] if tool == "tail" else lines[:n]
        else:
            raise AssertionError(f"unknown filter {filtered!r}")
    return lines


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether `printed` is what `shown` shows, `…` lines standing for any lines (trailing spaces aside)."""
    shown = [line.rstrip() for line in shown]
    printed = [line.rstrip() for line in printed]
    if not shown:
        return not printed
    if shown[0] == ANY:
        return any(matches(shown[1:], printed[i:]) for i in range(len(printed) + 1))
    return bool(printed) and shown[0] == printed[0] and matches(shown[1:], printed[1:])


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_console_example_prints_what_it_shows(document, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = {"GM_SPEECH": "off", "GM_SCORE_FILE": str(tmp_path / "score.jsonl"), "LANG": "C.UTF-8",
           "LC_ALL": None, "LC_MESSAGES": None, "COLUMNS": "80", "NO_COLOR": "1",
           "XDG_DATA_HOME": str(tmp_path / "data"), "GM_VOSK_MODEL": None}
    found = examples(document.read_text(encoding="utf-8"))
    for number, command, shown in found:
        if command.startswith("cat "):
            (tmp_path / command[4:].strip()).write_text("\n".join(shown) + "\n", encoding="utf-8")
            continue
        printed = run(command, tmp_path, env)
        assert matches(shown, printed), (
            f"{document.name}:{number}: $ {command}\n--- shown\n" + "\n".join(shown)
            + "\n--- printed\n" + "\n".join(printed))


def test_the_readme_has_console_examples_of_every_command_group():
    commands = [command for _, command, _ in examples((ROOT / "README.md").read_text(encoding="utf-8"))]
    for group in ("werewolf", "score", "solitaire", "voice"):
        assert any(re.search(rf"\bgm {group}\b", command) for command in commands), group


def test_the_readme_is_a_users_guide_of_at_most_300_lines():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 300


PATH = re.compile(r"`([\w.-]+(?:/[\w.-]+)+/?|[\w-]+\.(?:md|sh|toml))`")  # a relative path in code style
LINK = re.compile(r"\]\((?!https?:)([^)#\s]+)\)")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_path_a_document_names_exists(document):
    text = document.read_text(encoding="utf-8")
    named = set(PATH.findall(text)) | set(LINK.findall(text))
    missing = sorted(path for path in named if not (ROOT / path).exists() and not (document.parent / path).exists())
    assert not missing, f"{document.name} names paths that do not exist: {missing}"


def test_the_example_runner_sees_a_wrong_output():
    assert matches(["a", ANY, "d"], ["a", "b", "c", "d"]) and matches(["a", ANY], ["a"])
    assert not matches(["▒▒"], ["▒▒▒"]) and not matches(["a"], ["a", "b"])
