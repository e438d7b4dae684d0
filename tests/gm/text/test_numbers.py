"""Numbers as people type and say them: the one reader (gm/text/numbers.py) every command,
score entry, solitaire move and table answer goes through."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, strategies as st

from gm.score.entry import scored
from gm.text.vocabulary import Vocabulary
from gm.text.lines import Pack
from gm.text.numbers import MAX_DIGITS, number_words, said_number, signed_number, whole_number
from gm.text.parse import fold
from scorer.humalien import apply
from scorer.humalien.events import AngelCut, Finish, Flow, NewMatch, Skull
from scorer.humalien.fold import State
from paths import ROOT



@pytest.mark.parametrize("text, number", [
    ("3", 3), ("３", 3), (" 12 ", 12), ("１０", 10), ("0", 0), ("9" * MAX_DIGITS, int("9" * MAX_DIGITS)),
    ("٣", None), ("1_0", None), ("-1", None), ("+1", None), ("1.0", None), ("", None), ("²", None),
    ("9" * (MAX_DIGITS + 1), None), ("1e3", None), ("three", None),
])
def test_whole_numbers_are_ascii_or_full_width_digits_alone(text, number):
    assert whole_number(text) == number


@pytest.mark.parametrize("text, number", [("-3", -3), ("−3", -3), ("－３", -3), ("3", 3), ("--3", None), ("-", None),
                                          ("- ", None), ("-٣", None)])
def test_a_count_may_take_any_minus_sign(text, number):
    assert signed_number(text) == number


@given(st.integers(min_value=0, max_value=10**MAX_DIGITS - 1))
def test_every_whole_number_reads_back_as_written_in_either_width(n):
    full_width = str(n).translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    assert whole_number(str(n)) == whole_number(full_width) == n
    assert signed_number(f"−{full_width}") == -n


@pytest.mark.parametrize("lang, said, number", [
    ("en", "two", 2), ("en", "three votes", 3), ("en", "3 votes", 3), ("en", "zero", 0),
    ("ja", "に", 2), ("ja", "3票", 3), ("ja", "３ひょう", 3),
    ("ko", "둘", 2), ("ko", "한 표", 1), ("ko", "3표", 3),
    ("en", "votes", None), ("en", "ten", None), ("ja", "two", None),
])
def test_a_said_number_is_digits_with_a_counter_or_the_packs_number_word(lang, said, number):
    words = fold(said).split()
    assert said_number(words, number_words(Vocabulary.from_pack(Pack(lang)).hear)) == number


def test_every_pack_has_a_word_for_each_number_up_to_six():
    for lang in ("en", "ja", "ko"):
        assert set(range(7)) <= set(number_words(Vocabulary.from_pack(Pack(lang)).hear).values()), lang


def _match() -> State:
    return apply(State(), NewMatch(("Alice", "Bob")))[0]


def test_a_scoring_command_s_typed_count_is_its_event():
    """`gm score flow a 3` reaches the rules as Flow("Alice", 3): the count as Typer read it."""
    state = _match()
    assert scored("flow", state, "a", 3) == Flow("Alice", 3)
    assert scored("skull", state, "b") == Skull("Bob", 1)
    assert scored("finish", state, "Al", 12) == Finish("Alice", 12)
    assert scored("angel-cut", state, "b", 2, keep_stock=True, won=7) == AngelCut("Bob", 2, 7)
    assert scored("angel-cut", state, "b") == AngelCut("Bob", None, None)


def test_the_cli_reads_counts_once_and_refuses_what_is_no_number(gm):
    gm("new", "Alice", "Bob")
    assert gm("flow", "a", "３").stdout.startswith("Alice +3")
    refused = gm("flow", "a", "three")
    assert refused.exit_code == 2 and refused.stderr == "gm: score flow: PILES: must be a whole number, not 'three'\n"
    out_of_range = gm("flow", "b", "-1")
    assert out_of_range.exit_code == 2 and "-1 is out of range 0–5" in out_of_range.stderr.replace("−", "-")


def test_only_the_number_reader_knows_full_width_digits():
    """No other module keeps its own table of digits ０-９ (the speech of Japanese digits aside)."""
    own = {ROOT / "gm" / "text" / "numbers.py", ROOT / "gm" / "text" / "kana.py"}
    found = [str(path.relative_to(ROOT)) for package in ("gm", "scorer") for path in (ROOT / package).rglob("*.py")
             if path not in own and any(isinstance(node, ast.Constant) and isinstance(node.value, str)
                                        and "０" in node.value and "９" in node.value
                                        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))]
    assert found == []
