"""The commands `gm solitaire play` and `gm score play` show are the commands they take, in every
pack's language; a command that does not fit is refused in one line and changes nothing."""

from __future__ import annotations

import dataclasses
import io
import json

import pytest
from rich.console import Console
from typer.testing import CliRunner

from gm.cli import app
from gm.score.entry import resolve_verb
from gm.score.play import help_text, verb_words
from gm.solitaire.play import BadCommand, command_for, command_words, parse_command, play_game
from gm.text.lines import Pack
from scorer.solitaire.cards import EYE, HUMALIEN, OWL
from scorer.solitaire.deal import deal_from_seed
from scorer.solitaire.engine import apply, start
from scorer.solitaire.moves import Forgo, Humalien, Pair, PairFlip, Special, Turn
from scorer.solitaire.policies import smart
from tests.fakes import RecordingSpeaker

EN = Pack("en")

runner = CliRunner()

@pytest.mark.parametrize("lang, typed, move", [
    ("ja", "ヒント", "hint"), ("ja", "めくる", Turn()), ("ja", "ペア 22 23", Pair(21, 22)),
    ("ja", "ペア ３", PairFlip(2)),
    ("ja", "特殊", Special()), ("ja", "終了", "quit"), ("ko", "힌트", "hint"), ("ko", "뒤집기", Turn()),
    ("ko", "짝 1 2", Pair(0, 1)), ("ko", "끝내기", "quit"), ("en", "flip", Turn()), ("ja", "flip", Turn()),
    ("ko", "hint", "hint"),
])
def test_the_packs_command_words_are_taken(lang, typed, move):
    assert parse_command(typed, start(deal_from_seed(0)), Pack(lang)) == move


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_every_command_word_the_help_line_shows_is_taken(lang):
    pack = Pack(lang)
    state = start(deal_from_seed(0))
    shown = pack.text("solitaire.board.help", **command_words(pack))
    for command in ("pair", "flip", "special", "hint", "quit"):
        assert command_words(pack)[command] in shown
    assert parse_command(command_words(pack)["flip"], state, pack) == Turn()
    assert parse_command(command_words(pack)["hint"], state, pack) == "hint"
    for pending in (HUMALIEN, EYE, OWL):  # the special card's line shows its skip word, which is taken
        waiting = dataclasses.replace(state, pending=pending)
        assert command_words(pack)["skip"] in pack.text(f"solitaire.board.{EFFECT[pending]}", **command_words(pack))
        assert parse_command(command_words(pack)["skip"], waiting, pack) == Forgo()


EFFECT = {HUMALIEN: "humalien", EYE: "eye", OWL: "owl"}


@pytest.mark.parametrize("lang", ["ja", "ko"])
@pytest.mark.parametrize("seed", range(3))
def test_every_hint_in_the_packs_words_plays_as_typed(lang, seed):
    pack = Pack(lang)
    state = start(deal_from_seed(seed))
    while not state.over:
        move = smart(state)
        assert parse_command(command_for(state, move, pack), state, pack) == move
        state = apply(state, move)


@pytest.mark.parametrize("typed", ["pair 24", "pair", "24 1", "flip", "skip 3", "24 keep"])
def test_at_the_humalien_only_its_number_or_skip_is_taken(typed):
    """SS: the Humalien discards one face-up pyramid card; "pair 24" is no such answer."""
    state = dataclasses.replace(start(deal_from_seed(0)), pending=HUMALIEN)
    with pytest.raises(BadCommand) as refused:
        parse_command(typed, state, EN)
    assert "\n" not in str(refused.value) and "humalien" in str(refused.value)
    assert parse_command("24", state, EN) == Humalien(23)


def test_pair_n_at_the_humalien_prompt_discards_nothing():
    """Played through: the Humalien turned, "pair N" (N a card it could discard) is refused in one
    line and the game goes on from where it was (the old prompt discarded card N)."""
    seed, state, typed = next(found for found in map(_to_humalien, range(200)) if found is not None)
    position = smart(state).position + 1
    out = io.StringIO()
    script = io.StringIO("\n".join([*typed, f"pair {position}", "quit"]) + "\n")
    end = play_game(deal_from_seed(seed), EN, RecordingSpeaker(), script, Console(file=out, width=100))
    assert end == state
    assert "humalien: the card to discard (A), or skip" in out.getvalue().split("> ")[-2]


def _to_humalien(seed):
    """The commands that bring the smart game of `seed` to a turned Humalien, with the state then."""
    state, typed = start(deal_from_seed(seed)), []
    while not state.over and state.pending != HUMALIEN:
        move = smart(state)
        typed.append(command_for(state, move, EN))
        state = apply(state, move)
    return (seed, state, typed) if state.pending == HUMALIEN else None


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_every_score_command_word_the_help_shows_is_taken(lang):
    pack = Pack(lang)
    shown = help_text(pack)
    for word, verb in verb_words(pack).items():
        assert word in shown and resolve_verb(word, verb_words(pack)) == verb
        assert resolve_verb(verb, verb_words(pack)) == verb  # the English names in every language


@pytest.mark.parametrize("lang, players, typed, kinds", [
    ("ja", ("健", "美緒"), "ドクロ 健\n流れ 美緒 2\n取り消し\n終了\n", ["new", "skull"]),
    ("ko", ("민수", "지훈"), "해골 민수\n흘림 지훈 2\n취소\n끝내기\n", ["new", "skull"]),
])
def test_score_play_takes_its_languages_words(tmp_path, lang, players, typed, kinds):
    path = tmp_path / "m.jsonl"
    runner.invoke(app, ["score", "new", *players, "--file", str(path)])
    result = runner.invoke(app, ["score", "play", "--file", str(path), "--speech", "off", "--lang", lang], input=typed)
    assert result.exit_code == 0, result.output
    assert "? " not in result.stdout, result.stdout  # nothing refused
    assert [json.loads(line)["kind"] for line in path.read_text().splitlines()][:2] == kinds
