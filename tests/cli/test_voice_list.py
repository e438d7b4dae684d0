"""`gm voice list`: the voices of gm's own languages, `--all` for every other, JSON alike."""

import json

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.speech import tts
from gm.speech.voices_found import FoundVoice

runner = CliRunner()
FOUND = [FoundVoice("gmw/en-us", "English (America)", "en-us"), FoundVoice("jpx/ja", "Japanese", "ja"),
         FoundVoice("ko", "Korean", "ko"), FoundVoice("art/piqd", "Klingon", "piqd"),
         FoundVoice("roa/fr", "French", "fr")]


@pytest.fixture(autouse=True)
def machine(monkeypatch):
    monkeypatch.setattr(tts, "installed_voices", lambda: (list(FOUND), []))


def listed(*args):
    result = runner.invoke(app, ["voice", "list", *args, "--json"])
    assert result.exit_code == 0, result.output
    return [v["id"] for v in json.loads(result.stdout)]


def test_only_gms_languages_by_default_and_every_voice_with_all():
    assert listed() == ["gmw/en-us", "jpx/ja", "ko"]
    assert listed("--all") == [v.id for v in FOUND]
    assert listed("--lang", "ko") == ["ko"]


@pytest.mark.parametrize("locale, others", [
    ("C", "2 voices of other languages: gm voice list --all"),
    ("ja_JP.UTF-8", "ほかの言語の声が2件あります：gm voice list --all"),
])
def test_the_table_says_in_the_locales_language_how_many_voices_it_leaves_out(monkeypatch, locale, others):
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", locale)
    text = runner.invoke(app, ["voice", "list"]).stdout
    assert "Klingon" not in text and "Japanese" in text
    assert text.splitlines()[-1] == others
    assert "Klingon" in runner.invoke(app, ["voice", "list", "--all"]).stdout
