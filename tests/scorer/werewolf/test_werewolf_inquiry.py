"""The fewest questions after the vote, and the winners they give: the same as judging the whole table."""

import itertools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.werewolf.cards import Card
from scorer.werewolf.decks import custom_deck, standard_deck
from scorer.werewolf.inquiry import HandOf, WhoHolds, WhoSawMagician, answered, next_question, verdict
from judged import judge
from scorer.werewolf.judge import Reason
from scorer.werewolf.sides import JudgeError
from scorer.werewolf.known import Known, SeerRefused
from scorer.werewolf.magician import could_have_seen
from scorer.werewolf.tally import GRAVEYARD


def deal(spec, graveyard):
    """ "A=werewolf+traitor B=villager+seer" → players and hands; graveyard "villager+seer" (as `Card`s)."""
    hands = {name: _cards(cards) for name, cards in (item.split("=") for item in spec.split())}
    return list(hands), hands, _cards(graveyard)


def _cards(ids):
    return [Card(card) for card in ids.split("+")]


class Table:
    """Answers the game master's questions from a whole deal, as the players would."""

    def __init__(self, players, hands, graveyard, seers=()):
        self.owners = {**{p: list(h) for p, h in hands.items()}, GRAVEYARD: list(graveyard)}
        self.seers = list(seers)
        self.named = 0

    def answer(self, question):
        if isinstance(question, HandOf):
            return self.owners[question.owner]
        if isinstance(question, WhoHolds):
            return next(owner for owner, cards in self.owners.items() if question.card in cards)
        assert question.more == (self.named > 0)
        self.named += 1
        return self.seers[self.named - 1] if self.named <= len(self.seers) else None


def inquire(players, hands, graveyard, executed, deck, seers=()):
    """Ask until decided: the questions asked and the verdict."""
    table = Table(players, hands, graveyard, seers)
    known, asked = Known(tuple(players), deck, executed), []
    while (question := next_question(known)) is not None:
        asked.append(question)
        assert len(asked) < 12
        known = answered(known, question, table.answer(question))
    return asked, verdict(known)


FOUR = standard_deck(4)
SIX = standard_deck(6)
MAGIC = standard_deck(6, "magician")
DEAD = standard_deck(6, "dead")
HOLDERS = [WhoHolds("werewolf"), WhoHolds("traitor")]

# Each case: the book's sentence, the deal, the vote, the questions and the winners.
CASES = {
    Reason.WEREWOLF_EXECUTED: (  # 処刑されたプレイヤー(墓地)が人狼の役職カードを持っていた → 村人陣営の勝利
        FOUR, "A=werewolf+villager B=traitor+seer C=villager+villager D=villager+villager", "villager", "A",
        [HandOf("A"), WhoHolds("traitor")], ("C", "D")),
    Reason.INNOCENT_EXECUTED: (  # 人狼の役職カードを持っていなかった → 人狼陣営の勝利
        FOUR, "A=werewolf+villager B=traitor+seer C=villager+villager D=villager+villager", "villager", "C",
        [HandOf("C"), *HOLDERS], ("A", "B")),
    Reason.TRAITOR_WEREWOLF_EXECUTED: (  # 処刑されたプレイヤーが裏切り人狼だった → 裏切り人狼のみが勝者
        FOUR, "A=werewolf+traitor B=villager+seer C=villager+villager D=villager+villager", "villager", "A",
        [HandOf("A")], ("A",)),
    Reason.TRAITOR_WEREWOLF_SPARED: (  # 人狼を持っていなかった。ただし、ゲーム内に裏切り人狼がいた → 村人陣営の勝利
        FOUR, "A=werewolf+traitor B=villager+seer C=villager+villager D=villager+villager", "villager", "B",
        [HandOf("B"), *HOLDERS], ("B", "C", "D")),
    Reason.GRAVEYARD_WEREWOLF: (  # 処刑されたプレイヤー(墓地)が人狼の役職カードを持っていた
        SIX, "A=seer+villager B=traitor+villager C=villager+villager D=gravedigger+villager "
             "E=villager+villager F=villager+villager", "werewolf+villager", GRAVEYARD,
        [HandOf(GRAVEYARD), WhoHolds("traitor")], ("A", "C", "D", "E", "F")),
    Reason.GRAVEYARD_WEREWOLF_TRAITOR: (  # 墓地の組み合わせが人狼+裏切り者の場合は村人陣営の勝利
        SIX, "A=seer+villager B=villager+villager C=villager+villager D=gravedigger+villager "
             "E=villager+villager F=villager+villager", "werewolf+traitor", GRAVEYARD,
        [HandOf(GRAVEYARD)], ("A", "B", "C", "D", "E", "F")),
    Reason.GRAVEYARD_TRAITOR_WEREWOLF_SPARED: (  # 人狼を持っていなかった。ただし、裏切り人狼がいた
        FOUR, "A=werewolf+traitor B=villager+villager C=villager+villager D=villager+villager", "seer", GRAVEYARD,
        [HandOf(GRAVEYARD), *HOLDERS], ("B", "C", "D")),
    Reason.GRAVEYARD_INNOCENT: (  # 墓地が人狼の役職カードを持っていなかった → 人狼陣営の勝利
        FOUR, "A=werewolf+villager B=villager+villager C=villager+villager D=villager+seer", "traitor", GRAVEYARD,
        [HandOf(GRAVEYARD), WhoHolds("werewolf")], ("A",)),
    Reason.PANIC: (  # それでも同票の場合、『村は恐慌状態』とみなし、人狼陣営の勝利
        FOUR, "A=werewolf+villager B=traitor+seer C=villager+villager D=villager+villager", "villager", None,
        HOLDERS, ("A", "B")),
    Reason.PANIC_TRAITOR_WEREWOLF: (  # HW-R5: 勝敗条件が逆転する: a spared Traitor Werewolf, the villagers
        FOUR, "A=werewolf+traitor B=villager+seer C=villager+villager D=villager+villager", "villager", None,
        HOLDERS, ("B", "C", "D")),
    Reason.DEAD_GRAVEYARD: (  # 【生者陣営】投票で墓地を選ぶこと
        DEAD, "A=werewolf+villager B=traitor+seer C=gravedigger+villager D=villager+villager "
              "E=villager+villager F=villager+villager", "death+villager", GRAVEYARD,
        [HandOf(GRAVEYARD), WhoHolds("gravedigger"), WhoHolds("traitor")], ("A", "D", "E", "F")),
    Reason.DEAD_EXECUTED: (  # 【死神陣営】投票で墓地が選ばれないこと
        DEAD, "A=werewolf+villager B=traitor+seer C=gravedigger+villager D=villager+villager "
              "E=villager+villager F=villager+villager", "death+villager", "A",
        [HandOf("A"), WhoHolds("death"), WhoHolds("gravedigger"), WhoHolds("traitor")], ("B", "C")),
    Reason.DEAD_PANIC: (  # 決選投票でも同票となり村が恐慌状態となった場合、死者陣営の勝利
        DEAD, "A=werewolf+villager B=traitor+seer C=gravedigger+villager D=villager+villager "
              "E=villager+villager F=villager+villager", "death+villager", None,
        [WhoHolds("death"), WhoHolds("gravedigger"), WhoHolds("traitor")], ("B", "C")),
}


def test_every_reason_has_a_case():
    assert set(CASES) == set(Reason)


@pytest.mark.parametrize("reason", list(CASES))
def test_each_verdict_asks_only_what_decides_every_side(reason):
    deck, spec, graveyard, executed, questions, winners = CASES[reason]
    players, hands, grave = deal(spec, graveyard)
    asked, found = inquire(players, hands, grave, executed, deck)
    assert asked == questions
    assert found.reason == reason and found.winners == winners
    whole = judge(players, hands, grave, executed, deck=deck)
    assert dict(found.sides) == dict(whole.sides) and dict(found.fields) == dict(whole.fields)


def test_death_in_a_hand_judges_by_the_werewolf():
    """死神のカードがプレイヤーの手にあった場合、死神はなんの能力も持ちません."""
    players, hands, grave = deal("A=werewolf+villager B=traitor+seer C=gravedigger+villager D=death+villager "
                                 "E=villager+villager F=villager+villager", "villager+villager")
    asked, found = inquire(players, hands, grave, "A", DEAD)
    assert asked == [HandOf("A"), WhoHolds("death"), WhoHolds("traitor")]
    assert found.reason == Reason.WEREWOLF_EXECUTED and found.winners == ("C", "D", "E", "F")


def test_a_graveyard_shown_without_death_asks_no_more_about_death():
    """死神のカードが墓地にあった場合 only: a graveyard turned up without it is a normal game."""
    players, hands, grave = deal("A=werewolf+villager B=traitor+seer C=gravedigger+villager D=death+villager "
                                 "E=villager+villager F=villager+villager", "villager+villager")
    asked, found = inquire(players, hands, grave, GRAVEYARD, DEAD)
    assert asked == [HandOf(GRAVEYARD), *HOLDERS]
    assert found.reason == Reason.GRAVEYARD_INNOCENT and found.winners == ("A", "B")


# -- the magician's seers (HW-R7) ------------------------------------------------------------------
MAGIC_DEAL = deal("A=villager+villager B=werewolf+villager C=seer+villager D=traitor+villager "
                  "E=gravedigger+villager F=magician+villager", "villager+villager")


def test_a_seer_who_saw_the_magician_is_asked_after_a_name_anyone_else_and_loses_with_the_werewolves():
    """(1) 占い師であるプレイヤーAは…魔術師でした…人狼陣営となります."""
    asked, found = inquire(*MAGIC_DEAL, "B", MAGIC, seers=["C"])
    assert asked == [HandOf("B"), WhoHolds("traitor"), WhoSawMagician(False), WhoHolds("seer"),
                     WhoSawMagician(True)]
    assert found.reason == Reason.WEREWOLF_EXECUTED and found.winners == ("A", "E", "F")


def test_two_seers_end_the_question_without_anyone_else():
    asked, found = inquire(*MAGIC_DEAL, "A", MAGIC, seers=["C", "E"])
    assert asked[-2:] == [WhoSawMagician(True), WhoHolds("gravedigger")]
    assert found.reason == Reason.INNOCENT_EXECUTED and found.winners == ("B", "C", "D", "E")


def test_a_player_with_no_ability_is_refused_as_a_seer():
    players, _, _ = MAGIC_DEAL
    known = Known(tuple(players), MAGIC, "B").with_hand("B", ["werewolf", "villager"])
    known = known.with_holder("traitor", "D").with_seer("A")
    assert next_question(known) == WhoHolds("seer")
    known = known.with_holder("seer", "C")
    assert next_question(known) == WhoHolds("gravedigger")
    with pytest.raises(SeerRefused) as refused:
        known.with_holder("gravedigger", "E")
    assert refused.value.key == "werewolf.not_a_seer" and refused.value.fields == {"name": "A"}
    then = refused.value.then
    assert then.holders["gravedigger"] == "E" and then.seers == () and next_question(then) == WhoSawMagician(False)


def test_a_seer_whose_card_the_swap_took_may_have_seen_it():
    """The gravedigger swapped the seer card into the graveyard after the seer used it."""
    players, _, _ = MAGIC_DEAL
    known = Known(tuple(players), MAGIC, "B").with_hand("B", ["werewolf", "villager"])
    known = known.with_holder("traitor", "D").with_seer("A").with_holder("seer", GRAVEYARD)
    assert next_question(known) == WhoHolds("gravedigger")
    assert known.with_holder("gravedigger", "E").seers == ("A",)
    with pytest.raises(SeerRefused):  # nobody could have swapped the seer card away
        known.with_holder("gravedigger", GRAVEYARD)


def test_the_gravedigger_is_a_seer_of_the_magician_at_once_when_known():
    players, _, _ = MAGIC_DEAL
    known = Known(tuple(players), MAGIC, "E").with_hand("E", ["gravedigger", "villager"])
    assert could_have_seen(known, "E") is True
    assert known.with_holder("werewolf", "B").with_holder("traitor", "D").with_seer("E").seers == ("E",)


# -- answers checked against the deck and what was shown -------------------------------------------
@pytest.mark.parametrize("steps, key", [
    ([("hand", "A", ["villager", "villager"]), ("holder", "werewolf", "A")], "werewolf.not_shown"),
    ([("hand", "A", ["werewolf", "villager"]), ("holder", "werewolf", "B")], "werewolf.card_shown"),
    ([("holder", "werewolf", "B"), ("holder", "traitor", "B"), ("holder", "seer", "B")], "werewolf.owner_full"),
    ([("holder", "werewolf", GRAVEYARD), ("holder", "traitor", GRAVEYARD)], "werewolf.owner_full"),  # 4: 1 card
    ([("holder", "werewolf", "Zed")], "werewolf.holder_unknown"),
    ([("holder", "traitor", "B"), ("hand", "A", ["traitor", "villager"])], "werewolf.card_elsewhere"),
    ([("hand", "A", ["werewolf", "werewolf"])], "werewolf.held_over_deck"),
    ([("hand", "A", ["death", "villager"])], "werewolf.held_not_in_deck"),
])
def test_an_answer_the_cards_cannot_have_is_refused(steps, key):
    known = Known(("A", "B", "C", "D"), FOUR, "A")
    with pytest.raises(JudgeError) as refused:  # an AnswerRefused, or the hand's own check
        for kind, owner_or_card, value in steps:
            known = (known.with_hand(owner_or_card, value) if kind == "hand"
                     else known.with_holder(owner_or_card, value))
    assert refused.value.key == key


# -- the property: asking only these questions gives what the whole table gives ---------------------
DECKS = [standard_deck(4), standard_deck(5), standard_deck(6), MAGIC, DEAD, standard_deck(4, None, ["gorilla"]),
         standard_deck(6, "magician", ["apprentice"]), standard_deck(6, None, ["angel", "apprentice", "gorilla"])]
NAMES = ("A", "B", "C", "D", "E", "F")


def eligible(players, hands, graveyard):
    """HW-R7 on a whole deal: holds an ability card, or lost the seer card to a swap."""
    def holder(card):
        return next((p for p in players if card in hands[p]), GRAVEYARD if card in graveyard else None)

    swappers = {holder(card) for card in ("gravedigger", "apprentice")} - {None, GRAVEYARD}
    return [p for p in players
            if {"seer", "gravedigger", "apprentice"} & set(hands[p])
            or (holder("seer") == GRAVEYARD and swappers - {p})]


@st.composite
def games(draw):
    deck = draw(st.sampled_from(DECKS))
    cards = draw(st.permutations([card for card, n in deck.cards.items() for _ in range(n)]))
    players = list(NAMES[:deck.players])
    hands = {p: cards[2 * i:2 * i + 2] for i, p in enumerate(players)}
    graveyard = cards[2 * deck.players:]
    executed = draw(st.sampled_from([*players, GRAVEYARD, None]))
    seers = []
    if deck.has(Card.MAGICIAN):
        able = eligible(players, hands, graveyard)
        seers = draw(st.lists(st.sampled_from(able), unique=True, max_size=2)) if able else []
    return players, hands, graveyard, executed, deck, seers


@given(games())
def test_the_questions_give_exactly_the_winners_of_the_whole_table(game):
    players, hands, graveyard, executed, deck, seers = game
    asked, found = inquire(players, hands, graveyard, executed, deck, seers)
    whole = judge(players, hands, graveyard, executed, seers, deck)
    assert (found.winning_side, found.winners, found.reason) == (whole.winning_side, whole.winners, whole.reason)
    assert dict(found.sides) == dict(whole.sides) and dict(found.fields) == dict(whole.fields)
    holder_questions = [q for q in asked if isinstance(q, WhoHolds)]
    assert len(holder_questions) == len(set(holder_questions)) <= 5


# -- the fewest: every holder asked was still open, and every side still undecided --------------------
DEATH_FOUR = custom_deck(4, {"villager": 5, "werewolf": 1, "traitor": 1, "death": 1, "gravedigger": 1})


def _four_player_deals(deck):
    """Every 4-player table of `deck`: where each card held once lies (villagers elsewhere)."""
    specials = [card for card, n in deck.cards.items() if card != "villager" for _ in range(n)]
    slots = [*(p for p in "ABCD" for _ in range(2)), GRAVEYARD]
    seen = set()
    for places in itertools.permutations(range(len(slots)), len(specials)):
        owners = {owner: [] for owner in [*"ABCD", GRAVEYARD]}
        for card, slot in zip(specials, places):
            owners[slots[slot]].append(card)
        for owner, cards in owners.items():
            cards += ["villager"] * ((1 if owner == GRAVEYARD else 2) - len(cards))
        deal = {owner: sorted(cards) for owner, cards in owners.items()}
        key = json.dumps(deal, sort_keys=True)
        if key not in seen:
            seen.add(key)
            yield deal


def _agrees(deal, known):
    return (all(sorted(deal[owner]) == sorted(cards) for owner, cards in known.hands.items())
            and all(card in deal[owner] for card, owner in known.holders.items()))


def _holder(deal, card):
    return next(owner for owner, cards in deal.items() if card in cards)


def _sides(deal, executed, deck):
    hands = {p: deal[p] for p in "ABCD"}
    return json.dumps(dict(judge(list("ABCD"), hands, deal[GRAVEYARD], executed, deck=deck).sides), sort_keys=True)


@pytest.mark.slow
@pytest.mark.parametrize("deck", [FOUR, DEATH_FOUR], ids=["standard", "death"])
@pytest.mark.parametrize("executed", ["A", GRAVEYARD, None])
def test_no_question_is_asked_whose_answer_or_whose_sides_are_already_known(deck, executed):
    deals = list(_four_player_deals(deck))
    judged = [(d, _sides(d, executed, deck)) for d in deals]  # each deal's sides, judged once
    for deal in deals[::7]:
        table = Table(list("ABCD"), {p: deal[p] for p in "ABCD"}, deal[GRAVEYARD])
        known = Known(tuple("ABCD"), deck, executed)
        while (question := next_question(known)) is not None:
            if isinstance(question, WhoHolds):  # its holder is open, and with the rest alike, it moves a side
                open_deals = [(d, sides) for d, sides in judged if _agrees(d, known)]
                assert len({_holder(d, question.card) for d, _ in open_deals}) > 1, (deal, question)
                others = [card for card in deck.cards if card not in ("villager", question.card)]
                alike: dict[tuple, set] = {}
                for d, sides in open_deals:
                    alike.setdefault(tuple(_holder(d, card) for card in others), set()).add(sides)
                assert any(len(sides) > 1 for sides in alike.values()), (deal, question)
            known = answered(known, question, table.answer(question))
        assert len({sides for d, sides in judged if _agrees(d, known)}) == 1
