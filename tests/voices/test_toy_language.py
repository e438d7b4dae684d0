"""A language added as data: a pack in a folder named by $GM_VOICE_PACKS (a copy of en.toml with
its words and its `[language]` rules changed) plays a whole typed night, is offered by `--lang`
and `gm voice list`, and a broken pack is refused in one line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import voices
from fakes import FAST
from gm.cli import app
from gm.speech.voices_found import FoundVoice
from gm.text.language import language
from gm.text.lines import Pack

runner = CliRunner()
EN = Path(voices.__file__).with_name("en.toml").read_text(encoding="utf-8")
# (en.toml's text, the toy language's): lines, card names and the language's own rules
TOY_WORDS = [
    ('intro = "Half Werewolf for {n:player|players}:', 'intro = "Halbwolf für {n:Spieler|Spieler}:'),
    ('executed = "{name} is executed."', 'executed = "{name} wird hingerichtet."'),
    ('werewolf = "Werewolf"', 'werewolf = "Wolfo"'),
    ('honorific = ""', 'honorific = "-san"'),
    ('list_last = " and "', 'list_last = " und "'),
    ('minutes = "{n:minute|minutes}"', 'minutes = "{n:Minute|Minuten}"'),
    ('voices = ["en-us", "en-gb", "en"]', 'voices = ["en-gb-scotland", "en-gb"]'),
    ('engine = "flite"', 'engine = "pyttsx3"'),
]
# deal, pass right, lay down, seer (Enter = done); 3 votes for Aki, 1 for Ken, Enter at the tally;
# Aki's cards, typed with the toy language's card name
ANSWERS = "\n\n\n\n" + "3\n1\n" + "\n" + "wolfo traitor\n"


def toy_pack(folder: Path, replace=TOY_WORDS, code="xx") -> Path:
    text = EN
    for old, new in replace:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    folder.mkdir(exist_ok=True)
    (folder / f"{code}.toml").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def toy(tmp_path, monkeypatch):
    monkeypatch.setenv(voices.PACKS_ENV, str(toy_pack(tmp_path / "packs")))
    monkeypatch.setenv("GM_SPEECH", "off")
    return tmp_path


def play(*args, answers=ANSWERS, clock=FAST):
    return runner.invoke(app, ["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", *clock,
                               "--speech", "off", "--listen", "off", *args], input=answers)


def test_a_pack_in_the_packs_folder_is_a_language(toy):
    assert voices.languages() == ("en", "ja", "ko", "xx")
    assert "xx" in voices.LANGUAGES and list(voices.LANGUAGES)[-1] == "xx"
    assert language("xx").honorific == "-san" and language("xx").voices == ("en-gb-scotland", "en-gb")
    assert Pack("xx").text("werewolf.intro", n=3, players=["Aki", "Ken", "Mio"]).startswith(
        "Halbwolf für 3 Spieler: Aki, Ken und Mio.")


def test_a_pack_that_brings_no_rulings_prints_the_english_ruling_and_says_so(toy):
    note = "gm: the xx voice pack brings no rulings (rulings/xx.toml beside it): HW-R1 is said in English\n"
    result = runner.invoke(app, ["werewolf", "rules", "HW-R1", "--lang", "xx"])
    assert result.exit_code == 0 and result.stderr == note
    assert result.stdout.startswith("HW-R1: Only the book's decks\nA deck is the book's deck")
    result = runner.invoke(app, ["werewolf", "rules", "HW-R1", "--lang", "xx", "--json"])
    assert result.stderr == note and json.loads(result.stdout)["lang"] == "en"
    assert runner.invoke(app, ["werewolf", "rules", "HW-R1", "--lang", "ja"]).stderr == ""


def test_a_whole_typed_night_plays_in_the_toy_language(toy):
    log = toy / "night.jsonl"
    result = play("--lang", "xx", "--log", str(log), clock=("--time-scale", "0.001"))  # the discussion's 3 minutes
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Halbwolf für 4 Spieler: Aki, Ken, Mio und Sora.")
    assert "You have 3 Minuten to find the werewolf." in out  # the duration as the pack words it
    assert "Aki wird hingerichtet." in out
    assert "Aki-san holds Wolfo und Traitor." in out  # honorific, list and card name from the pack
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    verdict = next(e for e in events if e["type"] == "verdict")
    assert verdict["executed"] == "Aki" and verdict["winning_side"] == "traitor_werewolf"
    assert [e["counts"] for e in events if e["type"] == "vote"] == [
        {"Aki": 3, "Ken": 1, "Mio": 0, "Sora": 0, "graveyard": 0}]


def test_the_toy_language_is_spoken_with_the_voices_its_pack_names(toy, monkeypatch):
    import gm.speech.tts as tts

    found = [FoundVoice("gmw/en-gb", "English (Great Britain)", "en-gb"),
             FoundVoice("gmw/en-gb-scotland", "English (Scotland)", "en-gb-scotland"),
             FoundVoice("gmw/ja", "Japanese", "ja")]
    monkeypatch.setattr(tts, "installed_voices", lambda: (found, []))
    result = runner.invoke(app, ["voice", "list", "--lang", "xx", "--json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert [(v["id"], v["default"]) for v in shown] == [("gmw/en-gb", False), ("gmw/en-gb-scotland", True)]


def test_lang_help_offers_the_toy_language(toy):
    env = {"PATH": "/usr/bin:/bin", voices.PACKS_ENV: str(toy / "packs"), "COLUMNS": "200"}
    out = subprocess.run([sys.executable, "-m", "gm", "werewolf", "play", "--help"], capture_output=True,
                         text=True, env=env, check=True).stdout
    assert "Language of every line: en, ja, ko or xx" in out


@pytest.mark.parametrize("args", [["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", "--speech", "off"],
                                  ["solitaire", "reading", "3", "--speech", "off"],
                                  ["score", "new", "Aki", "Ken"], ["voice", "list"]])
def test_an_unknown_language_is_a_one_line_error_that_changes_nothing(toy, args, monkeypatch):
    monkeypatch.setenv("GM_SCORE_FILE", str(toy / "match.jsonl"))
    result = runner.invoke(app, [*args, "--lang", "zz"], input="")
    assert result.exit_code == 2
    assert result.output == "gm: no voice pack for language 'zz' (have: en, ja, ko, xx)\n"
    assert not (toy / "match.jsonl").exists()


@pytest.mark.parametrize("broken, said", [
    (('honorific = ""', 'honorific = 3'), "language.honorific must be a string"),
    (('reading = "plain"', 'reading = "klingon"'), "reading = 'klingon' names no reading module"),
    (('engine = "flite"', 'engine = "festival"'), "asks for the speech engine 'festival'"),
])
def test_a_pack_with_a_bad_language_table_is_refused_in_one_line(tmp_path, monkeypatch, broken, said):
    monkeypatch.setenv(voices.PACKS_ENV, str(toy_pack(tmp_path / "packs", [broken], code="yy")))
    result = runner.invoke(app, ["voice", "say", "hello", "--lang", "yy"])
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and said in result.output and "yy.toml" in result.output


def test_a_pack_lacking_lines_of_gms_own_is_refused_in_one_line(tmp_path, monkeypatch):
    cut = [('executed = "{name} is executed."\n', ""), ('honorific = ""', "")]
    monkeypatch.setenv(voices.PACKS_ENV, str(toy_pack(tmp_path / "packs", cut, code="yy")))
    result = play("--lang", "yy")
    assert result.exit_code == 2, result.output
    assert result.output.endswith("yy.toml' lacks 2 of the lines of gm's own packs: "
                                  "language.honorific, werewolf.vote.executed\n")


def test_a_pack_in_the_packs_folder_takes_the_place_of_gms_own(tmp_path, monkeypatch):
    folder = toy_pack(tmp_path / "packs", TOY_WORDS[:1], code="en")
    assert Pack("en").text("werewolf.intro", n=4, players=list("ABCD")).startswith("Half Werewolf for 4 players")
    monkeypatch.setenv(voices.PACKS_ENV, str(folder))
    assert voices.languages() == ("en", "ja", "ko")
    assert Pack("en").text("werewolf.intro", n=4, players=list("ABCD")).startswith("Halbwolf für 4 Spieler: A, B")

