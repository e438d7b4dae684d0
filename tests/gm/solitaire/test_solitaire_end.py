"""7th Sense Training's last words: what ended the game (the pyramid cleared with stock left, the
last stock card set aside (SS-R4) or paired away (SS-R6)), and readings 0 and 10+ in the manual's
words, without a percentage the manual does not give."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.solitaire.play import command_for
from gm.text.lines import Pack
from scorer.solitaire.deal import deal_from_seed
from scorer.solitaire.engine import apply, start
from scorer.solitaire.policies import smart
from scorer.solitaire.reading import reading

EN = Pack("en")

runner = CliRunner()


def smart_game(seed, rows):
    """The smart player's game of one deal: the commands typed, and the last state."""
    state, commands = start(deal_from_seed(seed, rows)), []
    while not state.over:
        move = smart(state)
        commands.append(command_for(state, move, EN))
        state = apply(state, move)
    return commands, state


def played(seed, rows, lang="en"):
    commands, _ = smart_game(seed, rows)
    result = runner.invoke(app, ["solitaire", "play", "--seed", str(seed), "--rows", str(rows), "--speech", "off",
                                 "--lang", lang], input="\n".join(commands) + "\n")
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("seed, rows, ending, stock", [(1, 3, "cleared", 27), (0, 7, "set_aside", 0),
                                                      (4, 7, "paired", 0)])
def test_the_game_knows_how_it_ended(seed, rows, ending, stock):
    _, state = smart_game(seed, rows)
    assert (state.ending, state.stock_left) == (ending, stock)
    assert start(deal_from_seed(seed, rows)).ending is None


@pytest.mark.parametrize("lang, line", [
    ("en", "The pyramid is cleared, with 27 cards still in the stock. The game is over."),
    ("ja", "場札がすべてなくなりました。山札は27枚残っています。ゲーム終了です。"),
    ("ko", "피라미드를 모두 치웠습니다. 더미에는 아직 27장이 남아 있습니다. 게임이 끝났습니다."),
])
def test_a_pyramid_cleared_with_stock_left_says_so(lang, line):
    out = played(1, 3, lang)
    assert line in out
    assert "stock is spent" not in out and "置き札" not in out.split("ゲーム終了")[0][-60:]


@pytest.mark.parametrize("lang, line", [
    ("en", "The last stock card was paired away: no stock is left to turn. The game is over."),
    ("ja", "山札の最後の1枚はペアにして取り除きました。めくる山札はもうありません。ゲーム終了です。"),
])
def test_a_last_stock_card_paired_away_says_so(lang, line):
    out = played(4, 7, lang)
    assert line in out and "山札がすべて置き札" not in out and "stock is spent" not in out


def test_the_last_stock_card_set_aside_is_the_manuals_end():
    assert "The last stock card is set aside: the stock is spent. The game is over." in played(0, 7)
    assert "山札の最後の1枚が置き札になりました。" in played(0, 7, "ja")


@pytest.mark.parametrize("left, lang, words", [
    (0, "en", "almost certainly"), (0, "ja", "ほぼ間違いなく"), (0, "ko", "거의 틀림없이"),
    (10, "en", "very dark"), (10, "ja", "非常に暗い"), (12, "ja", "非常に暗い"),
])
def test_readings_0_and_10_up_carry_the_manuals_words_and_no_percentage(left, lang, words):
    data = json.loads(runner.invoke(app, ["solitaire", "reading", str(left), "--json", "--lang", lang]).stdout)
    assert data["percent"] is None and data["outlook"] == words and words in data["text"]
    assert data["reading"] == ("bright" if left == 0 else "dark")
    text = runner.invoke(app, ["solitaire", "reading", str(left), "--speech", "off", "--lang", lang]).stdout
    assert words in text and "100" not in text and "0%" not in text


def test_a_reading_between_keeps_its_percentage():
    assert reading(3).percent == 70 and reading(0).percent is None and reading(10).percent is None
    data = json.loads(runner.invoke(app, ["solitaire", "reading", "3", "--json", "--lang", "ja"]).stdout)
    assert (data["percent"], data["outlook"], data["reading"]) == (70, "70%程度", "chance")


def test_the_histogram_words_readings_0_and_10_up():
    out = runner.invoke(app, ["solitaire", "simulate", "--deals", "60", "--policy", "smart"],
                        env={"COLUMNS": "80"}).stdout
    words = {int(line.split()[0]): line.split()[2] for line in out.splitlines()[1:]}
    assert (words[0], words[1], words[9], words[11]) == ("bright", "90%", "10%", "dark")  # seeds 0–59
    assert "100%  █" not in out and " 0%  █" not in out
    assert all(len(line) <= 80 for line in out.splitlines())


def test_the_histogram_keeps_one_line_a_reading_and_its_columns_in_japanese_and_korean():
    from rich.cells import cell_len

    for lang in ("ja", "ko"):
        out = runner.invoke(app, ["solitaire", "simulate", "--deals", "60", "--policy", "smart"],
                            env={"COLUMNS": "80", "LANG": f"{lang}_{lang.upper()}.UTF-8"}).stdout
        rows = out.splitlines()[1:]
        assert len(rows) == len([row for row in rows if "█" in row]), out  # no row wrapped
        bars = {cell_len(row[:row.index("█")]) for row in rows}
        assert len(bars) == 1, out  # "明るい" and "60%" take the same column width
