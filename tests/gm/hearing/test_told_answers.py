"""The answers told to Whisper after a question are the pack's `[language.told]` table: Japanese
tells a count's answers (四票 as よん票), a pack of gm's packs folder may tell its own, English tells none."""

from pathlib import Path

import voices
from gm.hearing.told import telling, told

EN = Path(voices.__file__).with_name("en.toml").read_text(encoding="utf-8")


def test_japanese_tells_a_counts_answers_in_the_spellings_whisper_writes():
    answers = ("0", "1", "4", "1", "graveyard")
    assert told(answers, "ja") == {"なし": "0", "一票": "1", "よん票": "4"}
    assert telling(answers, "ja", "。") == " なし、一票、よん票。"
    assert told(answers, "en") == {} and telling(answers, "en", ".") == ""


def test_a_packs_told_table_is_what_is_told(tmp_path, monkeypatch):
    assert EN.count("[language.told]\n") == 1
    told_here = '[language.told]\n"2" = "two votes"\n"0" = "no votes"\n'
    (tmp_path / "xx.toml").write_text(EN.replace("[language.told]\n", told_here), encoding="utf-8")
    monkeypatch.setenv(voices.PACKS_ENV, str(tmp_path))
    assert told(("1", "2", "0"), "xx") == {"two votes": "2", "no votes": "0"}
    assert telling(("1", "2", "0"), "xx", ".") == " two votes, no votes."
