"""A question publishes its answers typed (`Question.slots`) and how a listener asks it
(`Question.policy`): a listener takes a heard answer's value from its slot, never by reading
its token again (gm/table)."""

import pytest

from gm.ports import Kind, Refused, fix_of, fix_token
from gm.table.asked import Done
from gm.table.pairs import ByName
from gm.table.questions import Counting, Table
from gm.text.lines import Pack
from scorer.werewolf.cards import CARD_IDS

PLAYERS = {"en": ("Aki", "Ken", "Mio"), "ja": ("健", "美緒", "空"), "ko": ("민수", "지훈", "서연")}
READINGS = {"健": "けん", "美緒": "みお", "空": "そら"}
CARDS = CARD_IDS


def questions(lang):
    players = PLAYERS[lang]
    table = Table(Pack(lang, READINGS if lang == "ja" else {}), players)
    every = (*players, "graveyard")
    key = "common.yes"  # a line with no fields asks each of them here
    return {
        "step": table.step(key),
        "yes_no": table.yes_no(key),
        "count": table.count(every, 3, Counting(every), by_name=True),
        "last_count": table.count([players[-1]], 2, Counting((players[-1],), 1, (3, 3))),  # what the total leaves
        "pick": table.pick(key, every, nobody="werewolf.vote.abstain"),
        "card": table.card(key, CARDS),
        "hand": table.hand(key, CARDS, owner=players[0]),
        "graveyard": table.hand(key, CARDS, size=1),
        "tally": table.tally({players[0]: 2, players[1]: 1}, every, 3),
        "roster": table.roster(key, players),
        "choice": table.choice(key, ("resume", "quit"), {"resume": "Resume", "quit": "Quit"}),
    }


@pytest.mark.parametrize("lang", sorted(PLAYERS))
def test_every_slot_holds_the_value_its_token_is_read_as(lang):
    for kind, question in questions(lang).items():
        slots = question.slots
        assert tuple(slot.token for slot in slots) == question.answers, kind
        for slot in slots:
            assert not isinstance(slot.value, Refused), (kind, slot.token)
            read = question.parse(slot.token)
            assert slot.value == read and type(slot.value) is type(read), (kind, slot.token)  # ByName stays ByName


def test_a_slot_says_what_kind_of_answer_it_is():
    asked = questions("en")
    assert {slot.kind for slot in asked["step"].slots} == {Kind.DONE}
    assert [slot.value for slot in asked["step"].slots] == [Done.DONE]
    assert [(slot.kind, slot.value) for slot in asked["yes_no"].slots] == [(Kind.YES_NO, True), (Kind.YES_NO, False)]
    count = {slot.token: slot for slot in asked["count"].slots}
    assert (count["2"].kind, count["2"].n, dict(count["2"].value)) == (Kind.NUMBER, 2, {"Aki": 2})
    fix = count[fix_token("Ken", 1)]
    assert (fix.kind, fix.who, fix.n, fix.value) == (Kind.FIX, "Ken", 1, ByName({"Ken": 1}))
    assert {slot.kind for slot in asked["pick"].slots} == {Kind.NAME}
    assert {slot.kind for slot in asked["tally"].slots} == {Kind.YES_NO, Kind.FIX}


def test_a_fix_token_is_read_back_as_its_candidate_and_count():
    assert fix_of(fix_token("지훈", 3)) == ("지훈", 3)
    assert fix_of("3") is None and fix_of("graveyard") is None and fix_of("=3") is None


def test_the_policy_names_the_count_its_implied_value_and_a_step_that_waits():
    asked = questions("en")
    count, last = asked["count"].policy, asked["last_count"].policy
    assert count.count == "Aki" and count.implied is None and not count.waits
    assert last.count == "Mio" and last.implied is not None and asked["last_count"].default == {"Mio": 2}
    assert asked["step"].policy.waits and asked["step"].policy.count is None
    assert asked["pick"].policy.count is None and asked["pick"].policy.tries is None


def test_fixes_said_together_are_read_as_the_whole_tally_by_name():
    count = questions("en")["count"]
    slots = {slot.token: slot for slot in count.slots}
    together = count.together((slots[fix_token("Aki", 2)], slots[fix_token("Ken", 1)]))
    assert together == ByName({"Aki": 2, "Ken": 1})
    too_many = count.together((slots[fix_token("Aki", 3)], slots[fix_token("Ken", 2)]))
    assert isinstance(too_many, Refused) and too_many.aloud  # more than the vote can have, said why


@pytest.mark.parametrize("lang", sorted(PLAYERS))
def test_fixes_said_together_are_read_from_their_slots_in_every_language(lang):
    """Each slot gives its candidate and count (a reading or a graveyard in the night's language
    is never read again); a candidate named twice, or a yes among fixes, answers nothing."""
    first, second = PLAYERS[lang][:2]
    for kind in ("count", "tally"):
        question = questions(lang)[kind]
        slots = {slot.token: slot for slot in question.slots}
        fixes = (slots[fix_token(first, 2)], slots[fix_token("graveyard", 1)])
        assert question.together(fixes) == ByName({first: 2, "graveyard": 1}), kind
        twice = question.together((slots[fix_token(second, 1)], slots[fix_token(second, 0)]))
        assert isinstance(twice, Refused) and not twice.aloud, kind
    tally = {slot.token: slot for slot in questions(lang)["tally"].slots}
    mixed = questions(lang)["tally"].together((tally["yes"], tally[fix_token(first, 1)]))
    assert isinstance(mixed, Refused) and not mixed.aloud
