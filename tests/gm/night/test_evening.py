"""The next night: "again?" after the verdict, and the evening's tally of wins per player and side."""

import csv
import io
import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from gm.cli import app
from fakes import FAST, FakeClock
from gm.night.context import NightContext
from gm.night.evening import run_evening
from gm.text.lines import Pack
from scorer.werewolf.decks import standard_deck
from scorer.werewolf.evening import Evening, EveningError, evening_from_json
from scorer.werewolf.sides import Side

from fakes import RecordingSpeaker, ScriptedAsker, ScriptedControls, key_and_fields

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


@pytest.mark.slow
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
    ctx = NightContext(players=list(FOUR), deck=standard_deck(4), pack=Pack(lang), speaker=speaker,
                       asker=ScriptedAsker(answers, clock), clock=clock, controls=ScriptedControls(clock))
    evening = run_evening(ctx, kept.append)
    assert not ctx.asker.answers
    return evening, speaker, kept


TRAITOR_WEREWOLF_NIGHT = MORNING + counts(3, 1, 0, 0, 0) + [("werewolf.reveal.ask_hand", "werewolf traitor")]
VILLAGERS_NIGHT = MORNING + counts(3, 0, 0, 0, 0) + [("werewolf.reveal.ask_hand", "werewolf villager"),
                                                    ("werewolf.reveal.ask_holder", "Sora")]  # the traitor


TALLY = ("werewolf.evening.tally", {
    "nights": 2,
    "sides": [("werewolf.evening.side_item", {"side": ("werewolf.sides.villagers", {}), "n": 1}),
              ("werewolf.evening.side_item", {"side": ("werewolf.sides.traitor_werewolf", {}), "n": 1})],
    "players": [("werewolf.evening.player_item", {"name": name, "n": n})
                for name, n in (("Aki", 1), ("Ken", 1), ("Mio", 1), ("Sora", 0))]})


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_again_plays_the_next_night_with_the_same_table_and_the_tally_is_said(lang):
    answers = [*VILLAGERS_NIGHT, ("werewolf.evening.again", "yes"), *TRAITOR_WEREWOLF_NIGHT,
               ("werewolf.evening.again", "no")]
    evening, speaker, kept = evening_of(answers, lang)
    assert [night.winning_side for night in evening.nights] == ["villagers", "traitor_werewolf"]
    assert evening.nights[0].winners == ("Ken", "Mio")  # from the cards: Aki's werewolf, Sora's traitor
    assert kept == list(evening.nights)  # each kept as soon as it was judged
    assert kept[0].sides == {"Aki": "werewolves", "Ken": "villagers", "Mio": "villagers", "Sora": "werewolves"}
    assert speaker.keys.count("werewolf.intro") == 2
    assert key_and_fields(speaker.lines[-1]) == TALLY


# -- gm werewolf play and gm werewolf evening --------------------------------------------------------
NIGHT_KEYS = "\n\n\n\n" + "3\n1\n" + "\n" + "werewolf traitor\n"  # 3 + 1: every vote counted


def play(*args, keys=NIGHT_KEYS):
    return CliRunner().invoke(app, ["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", *FAST,
                                    "--speech", "off", *args], input=keys)


def shown(*args):
    result = CliRunner().invoke(app, ["werewolf", "evening", *args])
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.slow
def test_two_runs_with_one_log_keep_both_evenings_and_evening_shows_tonight_and_all_time(tmp_path):
    log = tmp_path / "ev.jsonl"
    first = play("--log", str(log), keys=NIGHT_KEYS + "y\n" + NIGHT_KEYS + "no\n")
    assert first.exit_code == 0, first.output
    assert "The evening, 2 nights: the Traitor Werewolf won 2 times. Wins: Aki 2" in first.output
    second = play("--log", str(log))
    assert second.exit_code == 0, second.output
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [e["type"] for e in events].count("setup") == 3  # the first evening's two nights were kept
    assert not list(tmp_path.glob("*.evening.json"))
    data = json.loads(shown("--json").stdout)  # the latest group: these players
    assert (data["group"], data["evenings"]) == ("Aki,Ken,Mio,Sora", 2)
    assert data["tonight"]["nights"] == 1 and data["all_time"]["nights"] == 3
    aki = data["all_time"]["players"][0]
    assert aki == {"name": "Aki", "nights": 3, "wins": 3, "share": 1.0,
                   "by_side": {"traitor_werewolf": {"nights": 3, "wins": 3, "share": 1.0}}}
    ken = data["tonight"]["players"][1]
    assert ken == {"name": "Ken", "nights": 1, "wins": 0, "share": 0.0,
                   "by_side": {"villagers": {"nights": 1, "wins": 0, "share": 0.0}}}


@pytest.mark.slow
def test_a_group_is_kept_under_its_name_and_its_players_in_any_order():
    assert play("--group", "Friday").exit_code == 0
    assert play().exit_code == 0
    assert play().exit_code == 0
    friday = json.loads(shown("--group", "Friday", "--json").stdout)
    assert (friday["group"], friday["all_time"]["nights"]) == ("Friday", 1)
    table = json.loads(shown("--group", "Sora, aki,Ken,Mio", "--json").stdout)
    assert (table["evenings"], table["all_time"]["nights"], table["tonight"]["nights"]) == (2, 2, 1)
    missing = CliRunner().invoke(app, ["werewolf", "evening", "--group", "Saturday"])
    assert missing.exit_code == 2 and "Saturday" in missing.stderr
    empty = play("--group", " , ")
    assert empty.exit_code == 2 and "a group needs a name" in empty.stderr


def test_play_without_a_log_keeps_nights_in_the_data_dir_and_evening_prints_them_in_japanese():
    data_home = Path(os.environ["XDG_DATA_HOME"])  # each test's own (conftest)
    assert CliRunner().invoke(app, ["werewolf", "evening", "--json"]).exit_code == 2  # nothing played yet
    assert play().exit_code == 0
    folder = data_home / "gm" / "werewolf"
    assert len(list(folder.glob("*.jsonl"))) == 1 and len(list((folder / "groups").glob("*.jsonl"))) == 1
    assert json.loads(shown("--json").stdout)["tonight"]["sides"] == {"traitor_werewolf": 1}
    table = shown("--lang", "ja").stdout
    assert "Aki,Ken,Mio,Sora：今夜1回、これまで1回の集まりで1回" in table and "裏切り人狼 1/1" in table


def test_evening_exports_csv_one_row_per_player_and_scope():
    assert play().exit_code == 0
    rows = list(csv.DictReader(io.StringIO(shown("--csv").stdout)))
    assert [(r["scope"], r["player"]) for r in rows] == [(scope, name) for scope in ("tonight", "all_time")
                                                         for name in FOUR]
    assert rows[0]["wins"] == "1" and rows[0]["traitor_werewolf_wins"] == "1" and rows[1]["villagers_nights"] == "1"


def test_an_evening_file_of_earlier_versions_still_shows(tmp_path):
    old = tmp_path / "night.evening.json"
    old.write_text(json.dumps(Evening(FOUR).add("villagers", ["Ken", "Mio"]).to_json()), encoding="utf-8")
    data = json.loads(shown("--file", str(old), "--json").stdout)
    assert data["all_time"]["players"][1] == {"name": "Ken", "nights": 1, "wins": 1, "share": 1.0, "by_side": {}}


def test_evening_refuses_a_file_that_is_no_evening(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": ["A"], "nights": [{"winning_side": "villagers", "winners": ["B"]}]}')
    result = CliRunner().invoke(app, ["werewolf", "evening", "--file", str(bad)])
    assert result.exit_code == 2 and result.stderr.strip() == "gm: winner 'B' is not a player (A)"
