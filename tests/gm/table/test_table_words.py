"""The table's own words (issue 37): how people say a count of none, "two votes", a casual yes or
no, typed or heard, in every language. The keyboard and the voice read them with one parser."""

import pytest

from gm.hearing.phrases import question_phrases
from gm.text.vocabulary import Vocabulary
from gm.ports import Refused
from gm.table.questions import Table
from gm.text.lines import Pack

PLAYERS = ("Aki", "Ken", "Mio")


def _count(lang):
    return Table(Pack(lang), PLAYERS).count(["Ken"], 4)


@pytest.mark.parametrize(("lang", "typed", "n"), [
    ("en", "none", 0), ("en", "no votes", 0), ("en", "None", 0),  # "two votes" was typed already
    ("ja", "なし", 0), ("ja", "いない", 0), ("ja", "誰も", 0),
    ("ko", "없음", 0)])
def test_a_count_of_none_or_of_n_votes_is_a_count(lang, typed, n):
    assert _count(lang).parse(typed) == {"Ken": n}


@pytest.mark.parametrize(("lang", "typed", "value"), [
    ("en", "sure", True), ("en", "nah", False), ("en", "NAH", False),
    ("ja", "そう", True), ("ja", "ううん", False)])
def test_a_casual_yes_or_no_is_yes_or_no(lang, typed, value):
    table = Table(Pack(lang), PLAYERS)
    assert table.yes_no("werewolf.evening.again").parse(typed) is value
    assert table.tally({"Aki": 3}, [*PLAYERS, "graveyard"], 4).parse(typed) is value


def test_heard_at_a_count_none_and_n_votes_are_counts_and_a_yes_or_no_its_answer():
    en = Vocabulary.from_pack(Pack("en"))
    table = Table(Pack("en"), PLAYERS)
    count = question_phrases(table.count(["Ken"], 4), en, str)
    assert count["none"] == count["no votes"] == "0" and count["two votes"] == "2"
    yes_no = question_phrases(table.yes_no("werewolf.evening.again"), en, str)
    assert yes_no["nah"] == "no" and yes_no["sure"] == "yes"
    assert "none" not in en.decoys_of(("number",)) and "nah" not in en.decoys_of(("yes_no",))


def test_korean_none_is_heard_as_a_count_and_ne_never_alone():
    # the Korean model cannot tell 네 (yes) from 넷 (4): 네 stays the pack's decoy, typed yes
    ko = Vocabulary.from_pack(Pack("ko"))
    table = Table(Pack("ko"), PLAYERS)
    assert question_phrases(table.count(["Ken"], 4), ko, str)["없음"] == "0"
    assert "네" not in question_phrases(table.yes_no("werewolf.evening.again"), ko, str)
    assert table.yes_no("werewolf.evening.again").parse("네") is True


@pytest.mark.parametrize("said", ["完了", "終わり", "終わった", "できた", "おわり"])
def test_a_japanese_step_is_done_said_as_a_table_says_it(said):
    """A Japanese table says a step is over as 完了, 終わり, 終わった or できた (Whisper writes each
    as said: bench/ja_listen_bench.py), heard or typed."""
    ja = Vocabulary.from_pack(Pack("ja"))
    step = Table(Pack("ja"), PLAYERS).step("werewolf.lay_down")
    assert question_phrases(step, ja, str)[said] == "done"
    assert not isinstance(step.parse(said), Refused)
