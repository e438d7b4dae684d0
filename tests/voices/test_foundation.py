"""The shared plumbing: lazy imports, voice packs, Japanese readings, answers, player lists."""

from collections.abc import Mapping
import io
import re
import subprocess
import sys

import pytest

from gm.text import japanese
import pack_samples as samples
from gm.commands.werewolf_values import BadPlayers, parse_players
from fakes import FakeClock
from gm.hearing.keyboard import AnswersExhausted, KeyboardAsker
from gm.text.lines import Pack
from gm.ports import Answer, How, Line, Refused
from gm.table.questions import Table
from voices import LANGUAGES, UnknownLanguage, load_pack

HEAVY = ("vosk", "pyttsx3", "sounddevice", "numpy", "pykakasi")


@pytest.mark.slow
def test_importing_the_cli_loads_no_device_library():
    code = f"import sys, gm.cli; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.slow
def test_gm_help_runs_as_a_module():
    out = subprocess.run([sys.executable, "-m", "gm", "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    for group in ("werewolf", "score", "solitaire", "voice"):
        assert group in out.stdout


def _keys(node, prefix=""):
    for key, value in node.items():
        if prefix == "" and key in ("words", "language"):  # readings and the language's rules: no lines
            continue
        path = f"{prefix}{key}"
        if isinstance(value, Mapping) and not ("text" in value and set(value) <= {"text", "kana"}):
            yield from _keys(value, path + ".")
        else:
            yield path


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_pack_has_the_same_keys_as_english(lang):
    en, other = set(_keys(load_pack("en"))), set(_keys(load_pack(lang)))
    assert en == other, f"only en: {sorted(en - other)}; only {lang}: {sorted(other - en)}"


KANA_ONLY = re.compile(r"^[\u3040-\u30ff\s、。！？!?,.…「」『』（）()・:：〜ー\-]*$")


def test_every_japanese_line_reaches_speech_as_kana():
    pack = Pack("ja")
    bad = []
    for key in filter(samples.spoken, _keys(pack.entries)):  # not the printed-only help and errors
        entry = pack.entry(key)
        spoken = entry.get("kana", entry["text"]) if isinstance(entry, Mapping) else entry
        if not KANA_ONLY.match(re.sub(r"\{[^}]*\}", "", spoken)):
            bad.append(f"{key}: {spoken}")
    assert not bad, "lines whose spoken form is not kana:\n" + "\n".join(bad)
    for word, reading in pack.entries["words"].items():
        assert KANA_ONLY.match(reading), f"[words] {word} = {reading}"


def test_unknown_language_is_refused_with_its_name():
    with pytest.raises(UnknownLanguage, match="'fr'"):
        load_pack("fr")


@pytest.mark.parametrize(
    "n, reading",
    [(0, "ぜろ"), (3, "さん"), (14, "じゅうよん"), (180, "ひゃくはちじゅう"), (300, "さんびゃく"),
     (666, "ろっぴゃくろくじゅうろく"), (1000, "せん"), (3800, "さんぜんはっぴゃく"), (10000, "いちまん")],
)
def test_japanese_numbers(n, reading):
    assert japanese.number(n) == reading


@pytest.mark.parametrize(
    "n, unit, reading",
    [(1, "人", "ひとり"), (4, "人", "よにん"), (6, "人", "ろくにん"), (1, "票", "いっぴょう"),
     (3, "票", "さんびょう"), (2, "票", "にひょう"), (3, "分", "さんぷん"), (2, "分", "にふん"),
     (10, "点", "じゅってん"), (12, "点", "じゅうにてん"), (90, "%", "きゅうじゅっぱーせんと")],
)
def test_japanese_counters(n, unit, reading):
    assert japanese.counter(n, unit) == reading


def test_japanese_durations():
    assert japanese.duration(180) == ("3分", "さんぷん")
    assert japanese.duration(150) == ("2分30秒", "にふんさんじゅうびょう")
    assert japanese.duration(10) == ("10秒", "じゅうびょう")


def test_a_pack_renders_fields_in_both_forms():
    ja = Pack("ja", readings={"健": "けん"})
    line = ja.line("common.did_not_understand", choices=["健", "墓地"])
    assert line.text.startswith("すみません") and "健、墓地" in line.text
    assert "けん、ぼち" in line.spoken
    en = Pack("en")
    assert en.text("common.did_not_understand", choices=["Aki", "Ken", "Mio"]).endswith(
        "one of: Aki, Ken and Mio.")


def _q(*answers, labels=None, default=None, timeout=None):
    return Table(Pack("en")).choice("q", answers, labels, default, timeout, prompt=Line("q", "?", "?"))


def test_answers_match_exactly_by_label_and_by_unique_prefix():
    q = _q("Aki", "Ken", "Kenta", "graveyard", labels={"graveyard": "the graveyard"})
    assert q.parse("aki") == "Aki"
    assert q.parse("Ken") == "Ken"
    assert q.parse("kent") == "Kenta"
    assert q.parse("the grave") == "graveyard"
    assert q.parse("grave") == "graveyard"
    assert q.parse("ＡＫＩ") == "Aki"  # full-width, as an IME types it
    for no_answer in ("k", "", "Sora"):
        assert isinstance(q.parse(no_answer), Refused)


def test_players_with_readings_and_duplicates():
    assert parse_players("Aki, Ken,Mio") == (["Aki", "Ken", "Mio"], {})
    assert parse_players("健=けん,美緒=みお") == (["健", "美緒"], {"健": "けん", "美緒": "みお"})
    with pytest.raises(BadPlayers, match="'aki' is named twice"):
        parse_players("Aki,aki")
    with pytest.raises(BadPlayers, match="empty player name"):
        parse_players("Aki,,Ken")


def test_keyboard_asker_reads_piped_answers_and_re_asks():
    out = []
    asker = KeyboardAsker(FakeClock(), io.StringIO("Sora\nke\n\n"), echo=out.append)
    q = _q("Aki", "Ken", default="Aki")
    assert asker.ask(q) == Answer("Ken")
    assert "  ? “Sora” answers nothing here; ? lists the answers." in out
    assert asker.ask(q) == Answer("Aki", How.DEFAULT)
    with pytest.raises(AnswersExhausted):
        asker.ask(_q("Aki", "Ken"))


def test_keyboard_asker_times_out_to_the_default_at_end_of_input():
    clock = FakeClock()
    asker = KeyboardAsker(clock, io.StringIO(""), echo=lambda _: None)
    assert asker.ask(_q("done", default="done", timeout=20)) == Answer("done", How.DEFAULT)
    assert clock.now() == 20
