"""`gm werewolf deck | tally | judge`: JSON contracts, readable output and exit codes."""

import json

import pytest
from typer.testing import CliRunner

from gm.cli import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, ["werewolf", *args], input=input)


def ok_json(*args, input=None):
    result = run(*args, "--json", input=input)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def refused(*args, input=None):
    result = run(*args, input=input)
    assert result.exit_code == 2, result.stdout
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gm: ")
    return lines[0]


# -- deck -------------------------------------------------------------------------------------------
def test_deck_json_for_four_players():
    assert ok_json("deck", "--players", "4") == {
        "players": 4, "variant": None,
        "cards": {"villager": 6, "werewolf": 1, "traitor": 1, "seer": 1},
        "graveyard": 1, "total": 9,
    }


def test_deck_json_with_a_variant_and_swap_ins_in_either_language():
    data = ok_json("deck", "-p", "6", "--variant", "dead", "--with", "gorilla、天使,Apprentice")
    assert data["cards"] == {"villager": 6, "werewolf": 1, "traitor": 1, "seer": 1, "gravedigger": 1,
                             "gorilla": 1, "death": 1, "angel": 1, "apprentice": 1}
    assert (data["variant"], data["graveyard"], data["total"]) == ("dead", 2, 14)


def test_deck_table_shows_localized_names():
    result = run("deck", "-p", "5", "--lang", "ja")
    assert result.exit_code == 0
    assert "5 × 2 + 2 (墓地) = 12" in result.stdout
    assert "村人" in result.stdout and "墓堀" in result.stdout and "8" in result.stdout
    english = run("deck", "-p", "5").stdout
    assert "Gravedigger" in english and "(the graveyard)" in english


@pytest.mark.parametrize("args, message", [
    (["-p", "3"], "HW-R1: Half Werewolf is for 4 to 6 players, not 3"),
    (["-p", "7"], "not 7"),
    (["-p", "5", "--variant", "magician"], "HW-R1: the magician variant is for 6 players only, not 5"),
    (["-p", "4", "--with", "angel"], "HW-R1: angel is swapped in with 6 players only, not 4"),
    (["-p", "6", "--with", "seer"], "HW-R1: 'seer' cannot be swapped in"),
    (["-p", "6", "--with", "unicorn"], "unknown card 'unicorn'"),
    (["-p", "4", "--lang", "fr"], "no voice pack for language 'fr'"),
])
def test_deck_refusals(args, message):
    assert message in refused("deck", *args)


# -- tally ------------------------------------------------------------------------------------------
PLAYERS = ["--players", "Aki,Ken,Mio,Sora"]


def test_tally_executes_the_most_voted_with_names_in_any_case():
    data = ok_json("tally", *PLAYERS, "--votes", "ken=3, AKI=1")
    assert data == {"executed": "Ken", "runoff_candidates": None, "panic": False,
                    "counts": {"Aki": 1, "Ken": 3, "Mio": 0, "Sora": 0, "graveyard": 0},
                    "runoff_counts": None}


def test_tally_takes_votes_written_as_a_tally_is_typed_at_the_night():
    """ "Aki 2, graveyard 1", as the first count of a night takes it, counts like "Aki=2,graveyard=1";
    a name of more than one word keeps its words, and an item with no count is refused."""
    assert ok_json("tally", *PLAYERS, "--votes", "Aki 2, graveyard 1, Ken 1") == ok_json(
        "tally", *PLAYERS, "--votes", "Aki=2,graveyard=1,Ken=1")
    data = ok_json("tally", "--players", "Mio Sato,Ken,Aki,Sora", "--votes", "mio sato 3,  Ken   1")
    assert data["executed"] == "Mio Sato" and data["counts"]["Ken"] == 1
    assert "'Ken' is not name=value" in refused("tally", *PLAYERS, "--votes", "Aki 3, Ken")
    roll = ok_json("tally", *PLAYERS, "--votes", "Aki Ken, Ken Aki, Mio Aki, Sora graveyard", "--roll-call")
    assert roll["counts"] == {"Aki": 2, "Ken": 1, "Mio": 0, "Sora": 0, "graveyard": 1}


def test_tally_tie_then_runoff_then_panic():
    tie = ok_json("tally", *PLAYERS, "--votes", "Aki=2,graveyard=2")
    assert (tie["executed"], tie["runoff_candidates"], tie["panic"]) == (None, ["Aki", "graveyard"], False)
    decided = ok_json("tally", *PLAYERS, "--votes", "Aki=2,墓地=2", "--runoff", "Graveyard=3,Aki=1")
    assert (decided["executed"], decided["panic"]) == ("graveyard", False)
    assert decided["runoff_counts"] == {"Aki": 1, "graveyard": 3}
    panic = ok_json("tally", *PLAYERS, "--votes", "Aki=2,Ken=2", "--runoff", "Aki=2,Ken=2")
    assert (panic["executed"], panic["runoff_candidates"], panic["panic"]) == (None, ["Aki", "Ken"], True)


def test_tally_readable_output():
    result = run("tally", *PLAYERS, "--votes", "Aki=2,Ken=2", "--runoff", "Aki=3,Ken=1")
    assert result.exit_code == 0
    assert "runoff" in result.stdout and result.stdout.rstrip().endswith("Executed: Aki")
    assert run("tally", *PLAYERS, "--votes", "Aki=2,Ken=2").stdout.rstrip().endswith("Tie: runoff among Aki, Ken")


def test_tally_roll_call():
    data = ok_json("tally", *PLAYERS, "--roll-call", "--votes", "aki=Ken,ken=mio,mio=ken,sora=graveyard")
    assert data["executed"] == "Ken" and data["counts"]["graveyard"] == 1
    runoff = ok_json("tally", *PLAYERS, "--roll-call", "--votes", "Aki=Ken,Ken=Aki,Mio=Sora",
                     "--runoff", "Aki=Ken,Ken=Ken,Mio=Aki")
    assert runoff["executed"] == "Ken" and runoff["runoff_counts"] == {"Aki": 1, "Ken": 2, "Sora": 0}


SIX = ["--players", "A,B,C,D,E,F"]


def test_tally_takes_the_deck_and_defaults_to_the_standard_one():
    # HW-R4: with the standard 6-player deck everyone votes; Magician's Night lets two turned players lack one
    assert "HW-R4: 4 votes in all, but 6 players cast exactly 6 votes" in refused("tally", *SIX, "--votes", "A=4")
    assert ok_json("tally", *SIX, "--votes", "A=4", "--variant", "magician")["executed"] == "A"
    assert "between 4 and 6 votes" in refused("tally", *SIX, "--votes", "A=3", "--variant", "magician")
    assert ok_json("tally", *SIX, "--votes", "A=3", "--variant", "magician", "--with", "天使")["executed"] == "A"
    assert "HW-R1: the dead variant is for 6 players only, not 4" in refused(
        "tally", *PLAYERS, "--votes", "Aki=3", "--variant", "dead")


@pytest.mark.parametrize("args, message", [
    # HW-R4: the runoff has the same voters as the first round
    (["--votes", "Aki=1,Ken=1,Mio=1", "--runoff", "Aki=2,Ken=2"],
     "HW-R4: the runoff has the same voters as the first round: exactly 3 votes, not 4"),
    (["--roll-call", "--votes", "Aki=Ken,Ken=Aki,Mio=Aki,Sora=Ken", "--runoff", "Aki=Ken,Ken=Aki,Mio=Aki"],
     "HW-R4: the runoff has the same voters as the first round: exactly 4 votes, not 3"),
])
def test_a_runoff_with_other_voters_is_refused(args, message):
    assert message in refused("tally", *PLAYERS, *args)


def test_a_roll_call_records_no_vote_only_as_the_deck_allows():
    # HW-R4: with 5 players everyone votes, so `A=B,C=B` cannot execute B
    five = ["--players", "A,B,C,D,E", "--roll-call", "--votes", "A=B,C=B"]
    assert "HW-R4: 2 votes in all, but 5 players cast exactly 5 votes" in refused("tally", *five)


@pytest.mark.parametrize("name", ["graveyard", "Graveyard", "GRAVEYARD", "墓地", "the graveyard", "ぼち"])
def test_a_player_named_like_the_graveyard_is_refused(name):
    message = f"a player cannot be named {name!r}: that is the graveyard's name"
    assert message in refused("tally", "--players", f"Aki,Ken,Mio,{name}", "--votes", "Aki=3")
    assert message in refused("judge", input=json.dumps({"players": ["Aki", "Ken", "Mio", name], "hands": {},
                                                         "graveyard": []}, ensure_ascii=False))


@pytest.mark.parametrize("args, message", [
    (["--players", "Aki,Ken,Mio", "--votes", "Aki=3"], "not 3"),
    (["--players", "A,B,C,D,E,F,G", "--votes", "A=7"], "not 7"),
    (["--players", "Aki,Ken,aki,Mio", "--votes", "Aki=3"], "player 'aki' is named twice"),
    ([*PLAYERS, "--votes", "Yui=3"], "unknown candidate 'Yui'"),
    ([*PLAYERS, "--votes", "Aki=two,Ken=2"], "votes for 'Aki' must be a whole number, not 'two'"),
    ([*PLAYERS, "--votes", "Aki"], "'Aki' is not name=value"),
    ([*PLAYERS, "--votes", "Aki=2,aki=1"], "'aki' is given twice"),
    ([*PLAYERS, "--votes", "graveyard=2,墓地=1"], "'graveyard' is given twice"),
    ([*PLAYERS, "--votes", "Aki=5"], "HW-R4: 5 votes in all, but 4 players cast between 3 and 4"),
    ([*PLAYERS, "--votes", "Aki=1,Ken=1"], "HW-R4: 2 votes in all"),
    ([*PLAYERS, "--votes", "Aki=3", "--runoff", "Aki=3"], "no runoff: Aki has the most votes"),
    ([*PLAYERS, "--votes", "Aki=2,Ken=2", "--runoff", "Mio=3"], "unknown candidate 'Mio' (choose from: Aki, Ken)"),
    ([*PLAYERS, "--roll-call", "--votes", "Yui=Aki"], "unknown voter 'Yui'"),
    ([*PLAYERS, "--roll-call", "--votes", "Aki=Yui"], "unknown candidate 'Yui'"),
])
def test_tally_refusals(args, message):
    assert message in refused("tally", *args)


# -- judge ------------------------------------------------------------------------------------------
def request(**changes):
    data = {
        "players": ["Aki", "Ken", "Mio", "Sora"],
        "hands": {"aki": ["人狼", "traitor"], "Ken": ["villager", "Seer"],
                  "Mio": ["村人", "villager"], "Sora": ["villager", "villager"]},
        "graveyard": ["villager"], "executed": "Ken", "magician_seen_by": [], "variant": None,
    }
    data.update(changes)
    return json.dumps(data, ensure_ascii=False)


def test_judge_json_from_stdin():
    data = ok_json("judge", input=request())
    assert data == {
        "winning_side": "villagers", "winners": ["Ken", "Mio", "Sora"],
        "reason": "Ken did not hold the werewolf card, but the Traitor Werewolf Aki was spared. "
                  "The villager side wins: Ken, Mio and Sora.",
        "reason_key": "werewolf.verdict.traitor_werewolf_spared",
        "sides": {"Aki": "traitor_werewolf", "Ken": "villagers", "Mio": "villagers", "Sora": "villagers"},
    }


def test_judge_from_a_file_in_japanese(tmp_path):
    path = tmp_path / "night.json"
    path.write_text(request(executed="aki"), encoding="utf-8")
    data = ok_json("judge", "--file", str(path), "--lang", "ja")
    assert data["winning_side"] == "traitor_werewolf" and data["winners"] == ["Aki"]
    assert data["reason"] == "Akiは人狼と裏切り者を持つ裏切り人狼でした。処刑された裏切り人狼の一人勝ちです。"


def test_judge_panic_and_the_graveyard():
    # HW-R5: panic spares the Traitor Werewolf (Aki), which reverses the sides: the villagers win
    assert ok_json("judge", input=request(executed=None))["winners"] == ["Ken", "Mio", "Sora"]
    assert ok_json("judge", input=request(executed="墓地"))["reason_key"] == (
        "werewolf.verdict.graveyard_traitor_werewolf_spared")


@pytest.mark.parametrize("changes, message", [
    (dict(graveyard=["死神"]), "death is not in the deck (the 4-player deck)"),
    (dict(hands={"aki": ["人狼", "traitor"], "Ken": ["villager", "Seer"], "Mio": ["魔術師", "villager"],
                 "Sora": ["villager", "villager"]}), "magician is not in the deck (the 4-player deck)"),
])
def test_judge_without_a_variant_judges_the_standard_deck(changes, message):
    assert message in refused("judge", input=request(**changes))


def test_judge_with_the_dead_and_a_custom_deck():
    six = {"players": ["A", "B", "C", "D", "E", "F"],
           "hands": {"A": ["werewolf", "villager"], "B": ["gravedigger", "villager"], "C": ["seer", "traitor"],
                     "D": ["villager", "villager"], "E": ["villager", "villager"], "F": ["villager", "villager"]},
           "graveyard": ["死神", "villager"], "executed": "graveyard", "variant": "dead"}
    data = ok_json("judge", input=json.dumps(six, ensure_ascii=False))
    assert (data["winning_side"], data["winners"]) == ("living", ["A", "D", "E", "F"])
    six.pop("variant")
    six["hands"]["F"] = ["villager", "ブランク"]
    six["deck"] = {"villager": 8, "werewolf": 1, "traitor": 1, "seer": 1, "gravedigger": 1, "death": 1, "blank": 1}
    assert ok_json("judge", input=json.dumps(six, ensure_ascii=False))["winning_side"] == "living"


def test_judge_readable_output():
    result = run("judge", "--lang", "ja", input=request(executed="Mio"))
    assert result.exit_code == 0
    assert result.stdout.startswith("Mioは人狼のカードを持っていませんでしたが")
    assert "人狼 + 裏切り者" in result.stdout and "裏切り人狼" in result.stdout and "★" in result.stdout


@pytest.mark.parametrize("payload, message", [
    ('{"players": [', "bad JSON"),
    ("[1, 2]", "the judge reads a JSON object, not a list"),
    (request(players="Aki,Ken"), '"players" must be a JSON list, not a string'),
    (request(players=["Aki", "Ken", "Mio", "aki"]), "a player is named twice"),
    (request(hands=[]), '"hands" must be a JSON object'),
    (request(executed="Yui"), "unknown executed player 'Yui'"),
    (request(executed=3), '"executed" must be a player, "graveyard" or null'),
    (request(graveyard=["wolfsbane"]), "unknown card 'wolfsbane'"),
    (request(graveyard=["werewolf"]), "2 werewolf cards, but every deck has exactly one"),
    (request(graveyard=["gorilla"]), "gorilla is not in the deck"),
    (request(magician_seen_by=["Ken"]), "no magician card is in play"),
    (request(magician_seen_by=["Yui"]), "unknown player 'Yui'"),
    (request(variant="zombie"), "HW-R1: unknown variant 'zombie'"),
    (request(players=["Aki", "Ken", "Mio"]), "unknown player 'Sora'"),
    (request(deck={"villager": 3, "werewolf": 1}), "HW-R2: 4 players need 9 cards"),
    (request(deck={"villager": 6, "werewolf": 1, "人狼": 1}), 'werewolf is given twice in "deck"'),
    (request(hands={"Aki": ["werewolf", "traitor"], "aki": ["villager", "villager"]}),
     "the cards of Aki are given twice"),
])
def test_judge_refusals(payload, message):
    assert message in refused("judge", input=payload)


def test_judge_missing_file(tmp_path):
    assert "No such file" in refused("judge", "--file", str(tmp_path / "none.json"))
