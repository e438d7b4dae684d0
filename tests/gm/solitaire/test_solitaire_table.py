"""7th Sense at the table: elements readable without colour, hints as the commands to type,
the reading on quitting, and readings refused when the pyramid cannot leave that many cards."""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

from gm.cli import app
from gm.solitaire.board import MARKS, card_text, legend_text, pyramid_text, table_text
from gm.solitaire.play import command_for, parse_command, play_game
from gm.text.lines import Pack
from scorer.solitaire.cards import card_of
from scorer.solitaire.deal import deal_from_seed
from scorer.solitaire.engine import apply, start
from scorer.solitaire.moves import Owl
from scorer.solitaire.odds import SMART_DISTRIBUTIONS
from scorer.solitaire.policies import smart
from scorer.solitaire.reading import BadLeft, reading
from tests.fakes import RecordingSpeaker

EN = Pack("en")

runner = CliRunner()
COLOUR = re.compile(r"\x1b\[[0-9;]*(3[0-7]|4[0-7]|38;|48;)")


def drawn(state, monkeypatch, no_color: bool) -> str:
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100)
    for part in (pyramid_text(state), table_text(state, EN), legend_text(EN)):
        console.print(part)
    return out.getvalue()


def test_with_no_color_the_elements_are_told_apart_by_their_letters(monkeypatch):
    state = start(deal_from_seed(3))  # bottom row: 1 wind, 6 water, 12 fire, 12 earth, 11 earth, 11 water, 7 earth
    raw = drawn(state, monkeypatch, no_color=True)
    assert not COLOUR.search(raw)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", raw)
    assert " 1A " in plain and "12F" in plain and "12E" in plain and "11W" in plain
    assert "elements:  F  fire  W  water  A  wind (air)  E  earth" in plain
    coloured = drawn(state, monkeypatch, no_color=False)
    assert COLOUR.search(coloured) and "12F" in coloured


def test_every_card_shows_its_number_and_a_distinct_letter():
    assert len(set(MARKS.values())) == 4
    seen = {card_text(card_of(rank, name)).plain for rank in range(1, 14) for name in MARKS}
    assert len(seen) == 52 and card_text(card_of(7, "water")).plain == " 7W"


class HintFollower:
    """Typed input that asks for a hint, then types the command the hint printed."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.asked = False
        self.typed: list[str] = []

    def readline(self, size: int = -1) -> str:
        self.asked = not self.asked
        if self.asked:
            return "hint\n"
        hint = [line for line in self.out.getvalue().splitlines() if "hint: " in line][-1]
        command = re.search(r"hint: (.+?)   \(", hint).group(1)
        self.typed.append(command)
        assert len(self.typed) < 400, "a hint's command was not taken"
        return command + "\n"


# two whole games in the quick loop, eight with the slow tests
@pytest.mark.parametrize("seed", [0, 1, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(2, 8))])
def test_every_hint_typed_as_printed_plays_the_smart_game(seed):
    deal = deal_from_seed(seed)
    out = io.StringIO()
    stream = HintFollower(out)
    end = play_game(deal, EN, RecordingSpeaker(), stream, Console(file=out, width=100, no_color=True))
    state, moves = start(deal), 0
    while not state.over:
        state, moves = apply(state, smart(state)), moves + 1
    assert end == state and len(stream.typed) == moves


def test_the_owl_hint_gives_the_set_aside_index_the_command_needs():
    state = start(deal_from_seed(0))
    while not (state.pending == "owl" and isinstance(smart(state), Owl)):
        state = apply(state, smart(state))
    move = smart(state)
    typed = command_for(state, move, EN)
    index, position = map(int, typed.split())
    assert state.set_aside[index - 1] == move.card and position == move.position + 1
    assert parse_command(typed, state, EN) == move


def test_quit_says_the_reading_of_the_cards_left_so_far():
    result = runner.invoke(app, ["solitaire", "play", "--seed", "3", "--speech", "off"], input="pair 22 24\nquit\n")
    assert result.exit_code == 0
    assert result.stdout.endswith("You stop here, with 26 cards left in the pyramid.\n"
                                  "26 cards left: the outlook is very dark.\n")
    ja = runner.invoke(app, ["solitaire", "play", "--seed", "3", "--speech", "off", "--lang", "ja"], input="")
    assert ja.stdout.endswith("ここで終わります。場札の残りは28枚です。\n"
                              "場札の残り28枚：見通しは非常に暗いでしょう。\n")


@pytest.mark.parametrize("args, message", [
    (["100"], "gm: a 7-row pyramid holds 28 cards: 100 cannot be left\n"),
    (["16", "--rows", "5"], "gm: a 5-row pyramid holds 15 cards: 16 cannot be left\n"),
    (["3", "--rows", "12", "--odds"], "gm: rows must be 3–9, not 12\n"),
])
def test_a_count_the_pyramid_cannot_have_is_refused(args, message):
    result = runner.invoke(app, ["solitaire", "reading", *args, "--speech", "off"])
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message)


def test_the_whole_pyramid_left_is_a_reading():
    assert reading(45, 9).key == "dark" and reading(15, 5).key == "dark"
    with pytest.raises(BadLeft, match="a 3-row pyramid holds 6 cards: 7 cannot be left"):
        reading(7, 3)


@pytest.mark.parametrize("rows", range(3, 10))
def test_odds_compare_with_the_table_of_the_same_rows(rows):
    result = runner.invoke(app, ["solitaire", "reading", "3", "--rows", str(rows), "--odds", "--json"])
    data = json.loads(result.stdout)
    table = SMART_DISTRIBUTIONS[rows]
    worse = sum(n for left, n in table.items() if left > 3)
    assert data["odds"] == {"better_than": round(worse / 10000, 4), "same_as": round(table.get(3, 0) / 10000, 4),
                            "games": 10000, "rows": rows}
    assert data["rows"] == rows and data["text"].endswith(f"games played well on {rows} rows.")


def test_odds_for_5_rows_are_the_5_row_table_not_the_7_row_one():
    data = json.loads(runner.invoke(app, ["solitaire", "reading", "1", "--rows", "5", "--odds", "--json"]).stdout)
    assert data["odds"]["better_than"] == round((20 + 1) / 10000, 4)
    seven = json.loads(runner.invoke(app, ["solitaire", "reading", "1", "--odds", "--json"]).stdout)
    assert seven["odds"]["better_than"] > 0.4
