"""Console examples of README.md and docs/: finding them, running them, comparing their output.

A console example is a fenced ```console block: lines starting `$ ` are commands, the lines up to
the next command are its output (stdout and stderr as a terminal shows them). An output line that
is only `…` stands for any number of lines. A command is `gm …`, optionally fed by `printf '…' |`
or `< FILE` and followed by `| tail -N`, `| head -N` or `| grep WORD`; `$ cat FILE` shows a file,
and the runner writes the file from the lines shown. Each document's examples run in order in one
folder, speech off, with the score journal and gm's data folder inside it.

tests/project/test_docs.py checks them. When gm's output changes on purpose, refresh the examples that
have no `…` line (the others are listed, to edit by hand):

    .venv/bin/python tests/docs_examples.py README.md docs/*.md
"""

from __future__ import annotations

import re
import shlex
import sys
import tempfile
from pathlib import Path

from typer.testing import CliRunner

from gm.cli import app

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ANY = "…"
runner = CliRunner()


def environment(folder: Path) -> dict[str, str | None]:
    """The variables every example runs with: English, speech off, files inside `folder`."""
    return {"GM_SPEECH": "off", "GM_SCORE_FILE": str(folder / "score.jsonl"), "LANG": "C.UTF-8",
            "LC_ALL": None, "LC_MESSAGES": None, "COLUMNS": "80", "NO_COLOR": "1",
            "XDG_DATA_HOME": str(folder / "data"), "GM_VOSK_MODEL": None}


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




def mismatches(document: Path, folder: Path) -> list[tuple[int, str, list[str], list[str]]]:
    """(line, command, shown, printed) of every example of `document` whose output differs;
    the files its `cat` examples show are written into `folder` first."""
    env, found = environment(folder), []
    for number, command, shown in examples(document.read_text(encoding="utf-8")):
        if command.startswith("cat "):
            (folder / command[4:].strip()).write_text("\n".join(shown) + "\n", encoding="utf-8")
            continue
        printed = run(command, folder, env)
        if not matches(shown, printed):
            found.append((number, command, shown, printed))
    return found


def refresh(document: Path) -> None:
    """Write the real output into every example of `document` that has no `…` line."""
    import os

    lines = document.read_text(encoding="utf-8").splitlines()
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            wrong = mismatches(document, Path(folder))
        finally:
            os.chdir(here)
    for number, command, shown, printed in reversed(wrong):
        if ANY in shown:
            print(f"{document}:{number}: edit by hand: $ {command}", file=sys.stderr)
            continue
        lines[number:number + len(shown)] = [line.rstrip() for line in printed]
        print(f"{document}:{number}: refreshed: $ {command}", file=sys.stderr)
    document.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    for name in sys.argv[1:]:
        refresh(Path(name).resolve())
