"""The next night: "again?" after the verdict, and the evening's tally of wins per player and side."""

import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from gm.cli import app
from fakes import FakeClock
from gm.night.context import NightContext
from gm.night.evening import run_evening
from gm.text.lines import Voice
from gm.werewolf.decks import standard_deck
from gm.werewolf.evening import Evening, EveningError, evening_from_json
from gm.werewolf.judge import Side

from fakes import RecordingSpeaker, ScriptedAsker, ScriptedControls

FOUR = ("Aki", "Ken", "Mio", "Sora")


# -- the tally (pure) ----------------------------------------------------------------------------
def test_wins_per_player_and_side():
    evening = Evening(FOUR).add("villagers", ["Ken", "Mio", "Sora"]).add("traitor_werewolf", ["Aki"])
    evening = evening.add("werewolves", ["Sora", "Aki"])
    assert evening.wins() == {"Aki": 2, "Ken": 1, "Mio": 1, "Sora": 2}
    assert evening.sides() == {"villagers": 1, "werewolves": 1, "traitor_werewolf": 1}
    assert evening.nights[-1].winners == ("Aki", "Sora")  # seating order
    assert evening_from_json(json.loads(json.dumps(evening.to_json()))) == evening


@pytest.mark.parametrize("side, winners, message", [
    ("wolves", [], "unknown side 'wolves'"),
    ("villagers", ["Yui"], "winner 'Yui' is not a player"),
    ("villagers", ["Aki", "Aki"], "a winner is named twice"),
])
def test_an_impossible_night_is_refused(side, winners, message):
    with pytest.raises(EveningError, match=message):
        Evening(FOUR).add(side, winners)


@given(st.lists(st.tuples(st.sampled_from(list(Side)), st.sets(st.sampled_from(FOUR))), max_size=12))
def test_the_tally_counts_every_night_once(nights):
    evening = Evening(FOUR)
    for side, winners in nights:
        evening = evening.add(side, sorted(winners))
    assert sum(evening.sides().values()) == len(nights)
    assert sum(evening.wins().values()) == sum(len(winners) for _, winners in nights)
    assert evening_from_json(evening.to_json()) == evening


# -- nights in a row -----------------------------------------------------------------------------
MORNING = [("werewolf.deal", "done"), ("werewolf.pass_right", None), ("werewolf.lay_down", None),
           ("werewolf.seer_one", None)]


def counts(*numbers):
    """One round's counts typed in one line, in the candidates' order."""
    return [("werewolf.vote.ask_count", " ".join(map(str, numbers)))]


def evening_of(answers, lang="en"):
    clock = FakeClock()
    speaker = RecordingSpeaker(clock)
    kept = []
    ctx = NightContext(players=list(FOUR), deck=standard_deck(4), voice=Voice(lang), speaker=speaker,
                       asker=ScriptedAsker(answers, clock), clock=clock, controls=ScriptedControls(clock))
    evening = run_evening(ctx, kept.append)
    assert not ctx.asker.answers
    return evening, speaker, kept


TRAITOR_WEREWOLF_NIGHT = MORNING + counts(3, 1, 0, 0, 0) + [("werewolf.reveal.ask_first", "werewolf"),
                                                           ("werewolf.reveal.ask_second", "traitor")]
VILLAGERS_NIGHT = MORNING + counts(3, 1, 0, 0, 0) + [("werewolf.reveal.ask_first", "werewolf"),
                                                    ("werewolf.reveal.ask_second", "villager"),
                                                    ("werewolf.evening.ask_winner", "Mio"),
                                                    ("werewolf.evening.ask_winner", "Ken"),
                                                    ("werewolf.evening.ask_winner", "done")]


@pytest.mark.parametrize("lang, tally", [
    ("en", "The evening, 2 nights: the villagers won 1 time and the Traitor Werewolf won 1 time. "
           "Wins: Aki 1, Ken 1, Mio 1 and Sora 0."),
    ("ja",
     "今夜の成績、2回のゲームで、村人陣営の勝利1回、裏切り人狼の勝利1回。勝った回数はAkiさん1回、Kenさん1回、Mioさん1回、Soraさん0回。"),
])
def test_again_plays_the_next_night_with_the_same_table_and_the_tally_is_said(lang, tally):
    answers = [*VILLAGERS_NIGHT, ("werewolf.evening.again", "yes"), *TRAITOR_WEREWOLF_NIGHT,
               ("werewolf.evening.again", "no")]
    evening, speaker, kept = evening_of(answers, lang)
    assert [night.winning_side for night in evening.nights] == ["villagers", "traitor_werewolf"]
    assert evening.nights[0].winners == ("Ken", "Mio")  # named by the table: the verdict named the side only
    assert [len(e.nights) for e in kept] == [1, 2]  # kept after every night
    assert speaker.keys.count("werewolf.intro") == 2
    assert speaker.lines[-1].key == "werewolf.evening.tally" and speaker.lines[-1].text == tally


# -- gm werewolf play and gm werewolf evening --------------------------------------------------------
NIGHT_KEYS = "\n\n\n\n" + "3\n1\n" + "\n" + "werewolf\ntraitor\n"  # 3 + 1: every vote counted


def test_play_keeps_the_evening_beside_the_log_and_evening_prints_it(tmp_path):
    runner = CliRunner()
    log = tmp_path / "night.jsonl"
    result = runner.invoke(app, ["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", "--time-scale", "0.001",
                                 "--speech", "off", "--log", str(log)], input=NIGHT_KEYS + "y\n" + NIGHT_KEYS + "no\n")
    assert result.exit_code == 0, result.output
    assert "The evening, 2 nights: the Traitor Werewolf won 2 times. Wins: Aki 2" in result.output
    kept = json.loads((tmp_path / "night.evening.json").read_text(encoding="utf-8"))
    assert kept["wins"] == {"Aki": 2, "Ken": 0, "Mio": 0, "Sora": 0}
    shown = runner.invoke(app, ["werewolf", "evening", "--file", str(tmp_path / "night.evening.json"), "--json"])
    assert shown.exit_code == 0 and json.loads(shown.stdout) == kept


def test_play_without_a_log_keeps_nights_in_the_data_dir():
    data_home = Path(os.environ["XDG_DATA_HOME"])  # each test's own (conftest)
    runner = CliRunner()
    assert runner.invoke(app, ["werewolf", "evening", "--json"]).exit_code == 2  # nothing played yet
    result = runner.invoke(app, ["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", "--time-scale", "0.001",
                                 "--speech", "off"], input=NIGHT_KEYS)
    assert result.exit_code == 0, result.output
    folder = data_home / "gm" / "werewolf"
    assert len(list(folder.glob("*.jsonl"))) == 1 and len(list(folder.glob("*.evening.json"))) == 1
    shown = runner.invoke(app, ["werewolf", "evening", "--json"])
    assert json.loads(shown.stdout)["sides"] == {"traitor_werewolf": 1}
    table = runner.invoke(app, ["werewolf", "evening", "--lang", "ja"])
    assert "今夜は1回遊びました。" in table.stdout and "裏切り人狼" in table.stdout


def test_evening_refuses_a_file_that_is_no_evening(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": ["A"], "nights": [{"winning_side": "villagers", "winners": ["B"]}]}')
    result = CliRunner().invoke(app, ["werewolf", "evening", "--file", str(bad)])
    assert result.exit_code == 2 and result.stderr.strip() == "gm: winner 'B' is not a player (A)"
