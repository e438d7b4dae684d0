"""What `gm werewolf deck | tally | judge | evening` print for people, in the language asked:
English as it always was, Japanese and Korean with no English left but the players' names."""

import json
import re

import pytest
from typer.testing import CliRunner

from gm.cli import app

runner = CliRunner()
PLAYERS = ["Aki", "Ken", "Mio", "Sora"]
TALLY = ["tally", "--players", ",".join(PLAYERS)]
LATIN = re.compile(r"[A-Za-z]+")


def shown(*args, input=None):
    result = runner.invoke(app, ["werewolf", *args], input=input)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def rows(text):
    """The table's rows as lists of cells (rich's box characters dropped)."""
    cells = [[cell.strip() for cell in re.split(r"[│┃]", line)[1:-1]] for line in text.splitlines()]
    return [row for row in cells if row]


def latin_words(text):
    """The Latin words of `text` that are not a player's name."""
    return set(LATIN.findall(text)) - set(PLAYERS)


# -- tally: HW-R4 (the most votes is executed; a tie goes to a runoff among the tied; a tie again panics)
TALLIES = {
    "executed": ([*TALLY, "--votes", "Aki=3,Ken=1"], {
        "en": [["candidate", "votes"], ["Aki", "3"], ["Ken", "1"], ["Mio", "0"], ["Sora", "0"], ["graveyard", "0"]],
        "ja": [["投票先", "得票数"], ["Aki", "3"], ["Ken", "1"], ["Mio", "0"], ["Sora", "0"], ["墓地", "0"]],
        "ko": [["후보", "표"], ["Aki", "3"], ["Ken", "1"], ["Mio", "0"], ["Sora", "0"], ["묘지", "0"]],
    }, {"en": "Executed: Aki", "ja": "処刑：Aki", "ko": "처형: Aki"}),
    "tie": ([*TALLY, "--votes", "Aki=2,墓地=2"], None,
            {"en": "Tie: runoff among Aki, graveyard", "ja": "同票：Aki、墓地で決選投票です",
             "ko": "동점: Aki, 묘지 결선 투표"}),
    "runoff": ([*TALLY, "--votes", "Aki=2,Ken=2", "--runoff", "Aki=1,Ken=3"], {
        "en": [["candidate", "votes", "runoff"], ["Aki", "2", "1"], ["Ken", "2", "3"], ["Mio", "0", ""],
               ["Sora", "0", ""], ["graveyard", "0", ""]],
        "ja": [["投票先", "得票数", "決選投票"], ["Aki", "2", "1"], ["Ken", "2", "3"], ["Mio", "0", ""],
               ["Sora", "0", ""], ["墓地", "0", ""]],
        "ko": [["후보", "표", "결선 투표"], ["Aki", "2", "1"], ["Ken", "2", "3"], ["Mio", "0", ""],
               ["Sora", "0", ""], ["묘지", "0", ""]],
    }, {"en": "Executed: Ken", "ja": "処刑：Ken", "ko": "처형: Ken"}),
    "graveyard executed": ([*TALLY, "--votes", "graveyard=2,Aki=1,Ken=1"], None,
                           {"en": "Executed: graveyard", "ja": "処刑：墓地", "ko": "처형: 묘지"}),
    "panic": ([*TALLY, "--votes", "Aki=2,Ken=2", "--runoff", "Aki=2,Ken=2"], None,
              {"en": "Tie again: the village panics.", "ja": "決選投票でも同票：村は恐慌状態です。",
               "ko": "또 동점: 마을이 공포에 빠졌습니다."}),
}


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
@pytest.mark.parametrize("case", sorted(TALLIES))
def test_tally_prints_its_table_and_outcome_in_the_language(case, lang):
    args, table, outcome = TALLIES[case]
    text = shown(*args, "--lang", lang)
    assert text.rstrip().splitlines()[-1] == outcome[lang]
    if table is not None:
        assert rows(text) == table[lang]
    if lang != "en":
        assert latin_words(text) == set()


def test_tally_json_keys_do_not_follow_the_language():
    args = [*TALLY, "--votes", "Aki=2,Ken=2", "--runoff", "Aki=2,Ken=2", "--json"]
    assert json.loads(shown(*args, "--lang", "ja")) == json.loads(shown(*args, "--lang", "en")) == {
        "executed": None, "runoff_candidates": ["Aki", "Ken"], "panic": True,
        "counts": {"Aki": 2, "Ken": 2, "Mio": 0, "Sora": 0, "graveyard": 0},
        "runoff_counts": {"Aki": 2, "Ken": 2},
    }


def test_a_roll_call_tally_in_korean():
    text = shown(*TALLY, "--roll-call", "--votes", "Aki=Ken,Ken=묘지,Mio=Ken,Sora=Ken", "--lang", "ko")
    assert rows(text)[0] == ["후보", "표"] and ["묘지", "1"] in rows(text)
    assert text.rstrip().endswith("처형: Ken")


# -- deck, judge, evening ---------------------------------------------------------------------------
@pytest.mark.parametrize("lang, first, villager", [("ja", "5 × 2 + 2 (墓地) = 12", "村人"),
                                                   ("ko", "5 × 2 + 2 (묘지) = 12", "시민")])
def test_deck_names_the_graveyard_and_the_cards_in_the_language(lang, first, villager):
    text = shown("deck", "-p", "5", "--lang", lang)
    assert text.splitlines()[0] == first
    assert [villager, "villager", "8"] in rows(text)  # the card id beside its name, as --with takes it


HANDS = {"Aki": ["werewolf", "traitor"], "Ken": ["villager", "seer"], "Mio": ["villager", "villager"],
         "Sora": ["villager", "villager"]}
REQUEST = json.dumps({"players": PLAYERS, "hands": HANDS, "graveyard": ["villager"], "executed": "Ken"})


@pytest.mark.parametrize("lang, aki", [("ja", ["Aki", "人狼 + 裏切り者", "裏切り人狼", ""]),
                                       ("ko", ["Aki", "늑대인간 + 배신자", "배신자 늑대인간", ""])])
def test_judge_prints_no_english_but_the_names(lang, aki):
    text = shown("judge", "--lang", lang, input=REQUEST)
    assert aki in rows(text) and latin_words(text) == set()


@pytest.mark.parametrize("lang, nights, side", [
    ("ja", "今夜2回、これまで1回の集まりで2回", ["村人陣営", "1", "1", "", ""]),
    ("ko", "오늘 2판, 지금까지 1번의 모임에서 2판", ["시민 진영", "1", "1", "", ""])])
def test_evening_prints_no_english_but_the_names(tmp_path, lang, nights, side):
    path = tmp_path / "evening.json"
    path.write_text(json.dumps({"players": PLAYERS, "nights": [
        {"winning_side": "villagers", "winners": ["Ken", "Mio", "Sora"]},
        {"winning_side": "werewolves", "winners": ["Aki"]}]}), encoding="utf-8")
    text = shown("evening", "--file", str(path), "--lang", lang)
    assert text.splitlines()[0] == nights and side in rows(text) and latin_words(text) == set()
