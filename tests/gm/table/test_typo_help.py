"""Every refused reply names the part it could not read and offers the nearest answer, in every
pack's language (gm/table/questions.py `Asked.offer`, the one place replies are helped)."""

import io

import pytest

from fakes import FakeClock
from gm.hearing.keyboard import KeyboardAsker
from gm.ports import Refused
from gm.table.questions import Counting, Table
from gm.text.words import nearest
from gm.text.lines import Pack

PLAYERS = {"en": ["Aki", "Ken", "Mio", "Sora"], "ja": ["健", "美緒", "空", "愛"],
           "ko": ["민수", "지훈", "서연", "지민"]}
READINGS = {"健": "けん", "美緒": "みお", "空": "そら", "愛": "あい"}
CARDS = ("villager", "werewolf", "traitor", "seer")


def table(lang):
    return Table(Pack(lang, READINGS if lang == "ja" else None), PLAYERS[lang]), PLAYERS[lang]


def offered(refused, part, value):
    assert isinstance(refused, Refused), refused
    assert refused.line.key in ("table.near", "table.near_part") and part in refused.line.text, refused.line.text
    assert refused.near == value


@pytest.mark.parametrize("lang, typed, part, fixed", [
    ("en", "Aki 2, Kne 2, Mio 1", "Kne", {"Aki": 2, "Ken": 2, "Mio": 1}),
    ("ja", "けん 2、みう 1", "みう", {"健": 2, "美緒": 1}),
    ("ko", "민수 2, 서여 1", "서여", {"민수": 2, "서연": 1}),
])
def test_a_slip_in_a_tally_is_named_and_y_takes_the_tally_mended(lang, typed, part, fixed):
    questions, players = table(lang)
    candidates = [*players, "graveyard"]
    tally = questions.tally(dict.fromkeys(candidates, 1), candidates, 5)
    refused = tally.parse(typed)
    offered(refused, part, refused.near)
    assert dict(refused.near) == fixed
    count = questions.count(candidates, 5, Counting(tuple(candidates)))
    assert dict(count.parse(typed).near) == fixed
    out = []
    take = {"en": "y", "ja": "はい", "ko": "네"}[lang]
    asker = KeyboardAsker(FakeClock(), io.StringIO(f"{typed}\n{take}\n"), echo=out.append)
    assert dict(asker.ask(tally).value) == fixed


def test_a_slip_in_a_tally_the_vote_cannot_have_is_still_named_with_its_answer():
    questions, players = table("en")
    candidates = [*players, "graveyard"]
    refused = questions.count(candidates, 4, Counting(tuple(candidates))).parse("Aki 2, Kne 2, Mio 1")
    assert refused.line.text == "“Aki 2, Kne 2, Mio 1”: did you mean Ken for “Kne”? Please answer again."
    assert refused.near is None


@pytest.mark.parametrize("lang, typed, part", [
    ("en", "werwolf villagr", "werwolf"), ("ja", "じんろ むらびと", "じんろ"), ("ko", "늑대인 시민", "늑대인"),
])
def test_a_hand_with_slips_is_offered_mended(lang, typed, part):
    questions, players = table(lang)
    offered(questions.hand("werewolf.reveal.ask_hand", CARDS, players[0], name=players[0]).parse(typed), part,
            ("werewolf", "villager"))


@pytest.mark.parametrize("lang, typed, player", [("en", "Sorra", "Sora"), ("ja", "けんじ", "健"),
                                                 ("ko", "민수우", "민수")])
def test_a_name_with_a_slip_or_a_reading_too_long_is_offered(lang, typed, player):
    questions, players = table(lang)
    pick = questions.pick("werewolf.vote.ask_voter", [*players, "graveyard"], "werewolf.vote.abstain",
                          voter=players[0])
    offered(pick.parse(typed), typed, player)


@pytest.mark.parametrize("lang, typed, answer", [
    ("ja", "とうひょう", "vote"), ("ja", "さいかい", "resume"), ("ja", "とおひょう", Refused),
    ("en", "vote nwo", Refused), ("ko", "그마", Refused),
])
def test_the_pause_prompt_takes_its_answers_as_said_and_offers_the_nearest(lang, typed, answer):
    """The pause prompt's answers are pack lines: 投票 is also とうひょう, as the line says it."""
    questions, _ = table(lang)
    pack = questions.pack
    answers = ("resume", "vote", "quit")
    choice = questions.choice("werewolf.timer.interrupted", answers,
                              {a: pack.line(f"werewolf.timer.choice_{a}") for a in answers})
    parsed = choice.parse(typed)
    if answer is Refused:
        assert isinstance(parsed, Refused) and parsed.line.key == "table.near" and parsed.near in answers
    else:
        assert parsed == answer


@pytest.mark.parametrize("lang, typed, part", [
    ("en", "Aki 2, Yui 2", "Yui"), ("ja", "けん 2、ゆき 1", "ゆき"), ("ko", "민수 2, 유리 1", "유리"),
])
def test_a_part_that_reads_as_nothing_is_named(lang, typed, part):
    questions, players = table(lang)
    candidates = [*players, "graveyard"]
    refused = questions.tally(dict.fromkeys(candidates, 1), candidates, 5).parse(typed)
    assert refused.line.key == "table.unknown_part" and refused.line.fields["part"] == part
    assert refused.near is None


def test_nearest_is_one_answer_or_none():
    spellings = {"ken": "Ken", "one": "1", "aki": "Aki", "mio": "Mio"}
    assert nearest("kne", spellings) == "Ken"  # as near as "one": the one typed with its first letter
    assert nearest("xyz", spellings) is None and nearest("ke", spellings) is None  # too short to mend
    assert nearest("ken", spellings) is None  # an answer itself is no slip


def test_a_refusal_typed_at_the_keyboard_names_the_part():
    questions, players = table("en")
    candidates = [*players, "graveyard"]
    out = []
    asker = KeyboardAsker(FakeClock(), io.StringIO("Aki 2, Kne 2\ny\n"), echo=out.append)
    assert dict(asker.ask(questions.tally(dict.fromkeys(candidates, 1), candidates, 5)).value) == {
        "Aki": 2, "Ken": 2}
    assert out[1] == "  ? “Kne”: did you mean Ken? (y)"
