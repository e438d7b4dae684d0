"""The README and docs/: every console example runs and prints what it shows (the format is in
tests/docs_examples.py), every path they name exists, and the README stays a user's guide."""

import os
import re
import subprocess
import sys

import pytest
from docs_examples import ANY, DOCUMENTS, ROOT, examples, matches, mismatches

pytestmark = pytest.mark.slow  # runs every console example


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_console_example_prints_what_it_shows(document, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    wrong = mismatches(document, tmp_path)
    assert not wrong, "\n".join(
        f"{document.name}:{number}: $ {command}\n--- shown\n" + "\n".join(shown) + "\n--- printed\n"
        + "\n".join(printed) for number, command, shown, printed in wrong)


def test_the_readme_has_console_examples_of_every_command_group():
    commands = [command for _, command, _ in examples((ROOT / "README.md").read_text(encoding="utf-8"))]
    for group in ("werewolf", "score", "solitaire", "voice"):
        assert any(re.search(rf"\bgm {group}\b", command) for command in commands), group


def test_the_readme_is_a_users_guide_of_at_most_300_lines():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 300


@pytest.mark.skipif(sys.platform == "win32", reason="a folder opened as standard input (POSIX)")
def test_what_python_itself_refuses_is_in_the_readmes_troubleshooting(tmp_path):
    """A folder as standard input stops Python before gm starts: the README says what it means."""
    folder = os.open(tmp_path, os.O_RDONLY)
    try:
        stopped = subprocess.run([sys.executable, "-c", "pass"], stdin=folder, capture_output=True, text=True)
    finally:
        os.close(folder)
    message = re.search(r"<stdin> is a directory", stopped.stderr)
    troubleshooting = (ROOT / "README.md").read_text(encoding="utf-8").split("## Troubleshooting")[1]
    assert message and message.group(0) in troubleshooting


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
