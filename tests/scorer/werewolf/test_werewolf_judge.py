"""Who wins: every case of the rulebook's 【ゲームの勝敗】, the variants, HW-R5, HW-R6, and what to ask."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.text.lines import Pack
from gm.text.verdicts import verdict_key
from scorer.werewolf.cards import Card
from scorer.werewolf.decks import custom_deck, standard_deck
from judged import judge
from scorer.werewolf.sides import JudgeError, decided_side, side_of
from scorer.werewolf.tally import GRAVEYARD
from test_werewolf_inquiry import eligible


def table(spec, graveyard):
    """ "A=werewolf+traitor B=villager+seer" → players and hands; graveyard "villager+seer"."""
    hands = {}
    for item in spec.split():
        name, cards = item.split("=")
        hands[name] = cards.split("+")
    return list(hands), hands, graveyard.split("+")


FOUR_TW = table("A=werewolf+traitor B=villager+seer C=villager+villager D=villager+villager", "villager")
FOUR = table("A=werewolf+villager B=traitor+seer C=villager+villager D=villager+villager", "villager")


def verdict_of(deal, executed, **kw):
    players, hands, graveyard = deal
    return judge(players, hands, graveyard, executed, **kw)


def check(verdict, side, winners, reason):
    assert verdict.winning_side == side
    assert verdict.winners == tuple(winners)
    assert verdict_key(verdict) == f"werewolf.verdict.{reason}"
    for lang in ("en", "ja"):
        assert Pack(lang).text(verdict_key(verdict), **verdict.fields)


# -- sides --------------------------------------------------------------------------------------
@pytest.mark.parametrize("hand, turned, side", [
    (["villager", "villager"], False, "villagers"),
    (["seer", "gravedigger"], False, "villagers"),
    (["werewolf", "villager"], False, "werewolves"),
    (["traitor", "seer"], False, "werewolves"),  # an ability user on the werewolf side
    (["werewolf", "traitor"], False, "traitor_werewolf"),
    (["seer", "villager"], True, "werewolves"),  # saw the magician
    (["magician", "villager"], False, "villagers"),  # holding the magician does nothing
])
def test_side_of(hand, turned, side):
    assert side_of(hand, turned) == side


def test_side_of_needs_two_cards():
    with pytest.raises(JudgeError, match="the hand has 3 cards, not 2"):
        side_of(["villager"] * 3)


# -- the normal game ------------------------------------------------------------------------------
def test_the_traitor_werewolf_executed_wins_alone():
    check(verdict_of(FOUR_TW, "A"), "traitor_werewolf", ["A"], "traitor_werewolf_executed")


def test_the_werewolf_executed_is_a_villager_win():
    verdict = verdict_of(FOUR, "A")
    check(verdict, "villagers", ["C", "D"], "werewolf_executed")
    assert Pack("en").text(verdict_key(verdict), **verdict.fields) == (
        "A held the werewolf card: the villager side wins: C and D.")
    assert dict(verdict.sides) == {"A": "werewolves", "B": "werewolves", "C": "villagers", "D": "villagers"}


def test_an_innocent_executed_is_a_werewolf_win_and_the_executed_traitor_still_wins():
    check(verdict_of(FOUR, "C"), "werewolves", ["A", "B"], "innocent_executed")
    check(verdict_of(FOUR, "B"), "werewolves", ["A", "B"], "innocent_executed")


def test_a_traitor_werewolf_elsewhere_saves_the_village():
    verdict = verdict_of(FOUR_TW, "B")
    check(verdict, "villagers", ["B", "C", "D"], "traitor_werewolf_spared")
    assert verdict.fields["traitor_werewolf"] == "A"


def test_the_graveyard_with_the_werewolf_is_a_villager_win():
    deal = table("A=traitor+villager B=seer+gravedigger C=villager+villager D=villager+villager "
                 "E=villager+villager", "werewolf+villager")
    check(verdict_of(deal, GRAVEYARD), "villagers", ["B", "C", "D", "E"], "graveyard_werewolf")


def test_the_graveyard_with_werewolf_and_traitor_is_no_traitor_werewolf():
    deal = table("A=villager+villager B=seer+gravedigger C=villager+villager D=villager+villager "
                 "E=villager+villager", "werewolf+traitor")
    check(verdict_of(deal, GRAVEYARD), "villagers", ["A", "B", "C", "D", "E"], "graveyard_werewolf_traitor")


def test_the_graveyard_voted_with_a_traitor_werewolf_elsewhere():
    check(verdict_of(FOUR_TW, GRAVEYARD), "villagers", ["B", "C", "D"], "graveyard_traitor_werewolf_spared")


def test_the_graveyard_voted_without_the_werewolf_is_a_werewolf_win():
    check(verdict_of(FOUR, GRAVEYARD), "werewolves", ["A", "B"], "graveyard_innocent")


def test_an_empty_werewolf_side_wins_nothing():
    deal = table("A=villager+villager B=seer+gravedigger C=villager+villager D=villager+villager "
                 "E=villager+villager", "werewolf+traitor")
    verdict = verdict_of(deal, "C")
    check(verdict, "werewolves", [], "innocent_executed_nobody")
    assert Pack("en").text(verdict_key(verdict), **verdict.fields).endswith("so nobody wins.")


# -- panic (HW-R5) --------------------------------------------------------------------------------
def test_panic_is_a_werewolf_side_win():
    check(verdict_of(FOUR, None), "werewolves", ["A", "B"], "panic")


def test_panic_with_a_traitor_werewolf_the_villagers_win():
    # HW-R5 (役職ルール③): a Traitor Werewolf reverses both sides' conditions; panic spares them
    verdict = verdict_of(FOUR_TW, None)
    check(verdict, "villagers", ["B", "C", "D"], "panic_traitor_werewolf")
    assert Pack("en").text(verdict_key(verdict), **verdict.fields) == (
        "A tie again, and the village panics. But the Traitor Werewolf A was spared, which reverses "
        "the sides. The villager side wins: B, C and D.")
    assert "村人陣営の勝利です。勝者はB、C、D。" in Pack("ja").text(verdict_key(verdict), **verdict.fields)


def test_panic_with_a_traitor_werewolf_the_magician_turned_lose():
    deal = table("A=werewolf+traitor B=seer+villager C=villager+villager D=villager+villager "
                 "E=gravedigger+villager F=villager+villager", "magician+villager")
    verdict = verdict_of(deal, None, magician_seen_by=["B"], deck=standard_deck(6, "magician"))
    check(verdict, "villagers", ["C", "D", "E", "F"], "panic_traitor_werewolf")


def test_panic_with_werewolf_and_traitor_in_the_graveyard():
    deal = table("A=villager+villager B=seer+gravedigger C=villager+villager D=villager+villager "
                 "E=villager+villager", "werewolf+traitor")
    check(verdict_of(deal, None), "werewolves", [], "panic_nobody")


# -- Magician's Night --------------------------------------------------------------------------------
MAGICIAN = table("A=seer+villager B=gravedigger+villager C=magician+villager D=werewolf+villager "
                 "E=traitor+villager F=villager+villager", "villager+villager")


def test_rulebook_example_1_the_seer_who_saw_the_magician_joins_the_werewolves():
    deck = standard_deck(6, "magician")
    verdict = verdict_of(MAGICIAN, "C", magician_seen_by=["A"], deck=deck)
    check(verdict, "werewolves", ["A", "D", "E"], "innocent_executed")
    assert verdict.sides["C"] == "villagers"  # holding the magician does nothing


def test_magician_turned_players_lose_with_the_werewolves():
    verdict = verdict_of(MAGICIAN, "D", magician_seen_by=["A", "B"], deck=standard_deck(6, "magician"))
    check(verdict, "villagers", ["C", "F"], "werewolf_executed")


def test_with_every_other_player_on_the_werewolf_side_nobody_wins_with_the_villagers():
    deck = custom_deck(4, {"villager": 3, "werewolf": 1, "traitor": 1, "seer": 1, "gravedigger": 1,
                           "magician": 1, "gorilla": 1})
    deal = table("A=werewolf+villager B=traitor+villager C=seer+villager D=gravedigger+gorilla", "magician")
    check(verdict_of(deal, "A", magician_seen_by=["C", "D"], deck=deck), "villagers", [], "werewolf_executed_nobody")


# -- Battle with the Dead (HW-R6) ----------------------------------------------------------------------
DEAD = table("A=werewolf+traitor B=gravedigger+villager C=seer+villager D=villager+villager "
             "E=villager+villager F=villager+villager", "death+villager")


def test_the_living_win_by_voting_the_graveyard():
    check(verdict_of(DEAD, GRAVEYARD, deck=standard_deck(6, "dead")), "living", ["C", "D", "E", "F"], "dead_graveyard")


def test_the_dead_win_when_a_player_is_executed_even_the_werewolf():
    verdict = verdict_of(DEAD, "A", deck=standard_deck(6, "dead"))
    check(verdict, "dead", ["A", "B"], "dead_executed")  # the Traitor Werewolf is ignored
    assert verdict.sides["A"] == "dead"


def test_the_dead_win_on_panic():
    check(verdict_of(DEAD, None, deck=standard_deck(6, "dead")), "dead", ["A", "B"], "dead_panic")


def test_death_in_a_hand_is_the_normal_game():
    deal = table("A=werewolf+traitor B=gravedigger+villager C=seer+death D=villager+villager "
                 "E=villager+villager F=villager+villager", "villager+villager")
    verdict = verdict_of(deal, "A", deck=standard_deck(6, "dead"))
    check(verdict, "traitor_werewolf", ["A"], "traitor_werewolf_executed")


@pytest.mark.parametrize("deal, message", [
    (table("A=werewolf+villager B=traitor+seer C=villager+villager D=villager+villager", "death"),
     "death is not in the deck \\(the 4-player deck\\)"),
    (DEAD, "death is not in the deck \\(the 6-player deck\\)"),
    (MAGICIAN, "magician is not in the deck \\(the 6-player deck\\)"),
])
def test_without_a_deck_the_standard_deck_is_judged(deal, message):
    # the deck is the standard one for the player count unless a variant is given: never judged as one
    with pytest.raises(JudgeError, match=message):
        verdict_of(deal, "A")


def test_an_empty_dead_side_wins_nothing():
    deck = custom_deck(5, {"villager": 8, "werewolf": 1, "seer": 1, "traitor": 1, "death": 1})
    deal = table("A=werewolf+villager B=seer+villager C=villager+villager D=villager+villager "
                 "E=villager+villager", "death+traitor")
    check(verdict_of(deal, "A", deck=deck), "dead", [], "dead_executed_nobody")
    check(verdict_of(deal, None, deck=deck), "dead", [], "dead_panic_nobody")


# -- inconsistent cards ----------------------------------------------------------------------------
def _four(**changes):
    players, hands, graveyard = table("A=werewolf+villager B=traitor+seer C=villager+villager "
                                      "D=villager+villager", "villager")
    hands = dict(hands)
    request = dict(players=players, hands=hands, graveyard=graveyard, executed="A")
    request.update(changes)
    return request


@pytest.mark.parametrize("changes, message", [
    (dict(hands={"A": ["werewolf", "villager"], "B": ["werewolf", "seer"], "C": ["villager", "villager"],
                 "D": ["villager", "villager"]}), "2 werewolf cards, but every deck has exactly one"),
    (dict(hands={"A": ["villager", "villager"], "B": ["traitor", "seer"], "C": ["villager", "villager"],
                 "D": ["villager", "villager"]}), "0 werewolf cards"),
    (dict(hands={"A": ["werewolf", "villager"], "B": ["seer", "seer"], "C": ["villager", "villager"],
                 "D": ["villager", "villager"]}), "2 × seer but the deck has 1"),
    (dict(hands={"A": ["werewolf"], "B": ["traitor", "seer"], "C": ["villager", "villager"],
                 "D": ["villager", "villager"]}), "A has 1 cards, not 2"),
    (dict(hands={"A": ["werewolf", "wolf"], "B": ["traitor", "seer"], "C": ["villager", "villager"],
                 "D": ["villager", "villager"]}), "unknown card 'wolf' in A"),
    (dict(graveyard=["villager", "villager"]), "the graveyard has 2 cards, not 1"),
    (dict(executed="Yui"), "the executed 'Yui' is neither a player"),
    (dict(magician_seen_by=["Yui"]), "'Yui' saw the magician but is not a player"),
    (dict(magician_seen_by=["B"]), "players saw the magician, but no magician card is in play"),
    (dict(players=["A", "B", "C", "E"]), "cards given for 'D', who is not a player"),
    (dict(players=["A", "B", "C", "D", "E"]), "no cards given for E"),
    (dict(players=["A", "B", "C", "A"]), "a player is named twice"),
    (dict(players=["A", "B", "C", "Graveyard"], hands={"A": ["werewolf", "villager"], "B": ["traitor", "seer"],
                                                       "C": ["villager", "villager"],
                                                       "Graveyard": ["villager", "villager"]}),
     "'Graveyard' cannot be a player's name: it is the graveyard's"),
    (dict(deck=standard_deck(5)), "the deck is for 5 players, not 4"),
])
def test_inconsistent_cards_are_refused_precisely(changes, message):
    with pytest.raises(JudgeError, match=message):
        judge(**_four(**changes))


def test_a_card_not_in_the_deck_is_refused():
    request = _four(graveyard=["gorilla"])
    assert judge(**request, deck=standard_deck(4, swap_ins=["gorilla"])).winning_side == "villagers"
    with pytest.raises(JudgeError, match="gorilla is not in the deck"):
        judge(**request)
    with pytest.raises(JudgeError, match="7 × villager but the deck has 6"):
        judge(**_four(graveyard=["villager"], hands={"A": ["werewolf", "villager"], "B": ["villager", "seer"],
                                                     "C": ["villager", "villager"], "D": ["villager", "villager"]}),
              deck=standard_deck(4))


def test_more_than_two_magician_sightings_are_refused():
    players, hands, graveyard = MAGICIAN
    with pytest.raises(JudgeError, match="3 players saw the magician, but only the seer and the gravedigger can"):
        judge(players, hands, graveyard, "D", ["A", "B", "C"], standard_deck(6, "magician"))
    with pytest.raises(JudgeError, match="named twice among those who saw the magician"):
        judge(players, hands, graveyard, "D", ["A", "A"], standard_deck(6, "magician"))


# -- what the executed player's cards decide -----------------------------------------------------------
@pytest.mark.parametrize("deck, executed, hand, side", [
    (standard_deck(4), "A", ["werewolf", "traitor"], "traitor_werewolf"),
    (standard_deck(4), "A", ["werewolf", "villager"], "villagers"),
    (standard_deck(4), "A", ["traitor", "villager"], "werewolves"),  # the traitor is here: no TW elsewhere
    (standard_deck(4), "A", ["villager", "seer"], None),  # a Traitor Werewolf may be elsewhere
    (custom_deck(4, {"villager": 7, "werewolf": 1, "seer": 1}), "A", ["villager", "seer"], "werewolves"),
    (standard_deck(4), None, None, None),  # panic: werewolves, or villagers if a Traitor Werewolf was spared
    (custom_deck(4, {"villager": 7, "werewolf": 1, "seer": 1}), None, None, "werewolves"),
    (standard_deck(6, "dead"), None, None, None),  # panic: dead or werewolves, by the graveyard
    (standard_deck(6, "dead"), "A", ["werewolf", "villager"], None),  # death may lie in the graveyard
    (standard_deck(6, "dead"), "A", ["werewolf", "death"], "villagers"),  # death is not in the graveyard
    (standard_deck(6, "dead"), "A", ["death", "villager"], None),
    (standard_deck(6, "dead"), "A", ["death", "traitor"], "werewolves"),
    (standard_deck(4), GRAVEYARD, None, None),  # the graveyard's cards are needed
    (standard_deck(4), GRAVEYARD, ["werewolf"], "villagers"),
    (standard_deck(4), GRAVEYARD, ["traitor"], "werewolves"),
    (standard_deck(4), GRAVEYARD, ["villager"], None),
    (standard_deck(5), GRAVEYARD, ["werewolf", "traitor"], "villagers"),
    (standard_deck(6, "dead"), GRAVEYARD, ["death", "villager"], "living"),
    (standard_deck(6, "dead"), GRAVEYARD, ["werewolf", "villager"], "villagers"),
    (standard_deck(6, "dead"), GRAVEYARD, ["seer", "villager"], None),
    (standard_deck(6, "magician"), "A", ["seer", "villager"], None),
])
def test_decided_side(deck, executed, hand, side):
    assert decided_side(deck, executed, hand) == side


@pytest.mark.parametrize("executed, hand, message", [
    ("A", ["werewolf"], "A has 1 cards, not 2"),
    (GRAVEYARD, ["werewolf", "villager"], "the graveyard has 2 cards, not 1"),
    ("A", ["werewolf", "death"], "death in A is not in the deck"),
    ("A", ["seer", "seer"], "A holds 2 × seer but the deck has 1"),
])
def test_decided_side_refuses_impossible_cards(executed, hand, message):
    with pytest.raises(JudgeError, match=message):
        decided_side(standard_deck(4), executed, hand)


# -- properties over random deals ---------------------------------------------------------------------
DECKS = [standard_deck(4), standard_deck(4, swap_ins=["gorilla"]), standard_deck(5), standard_deck(6),
         standard_deck(6, "magician", ["angel", "apprentice"]), standard_deck(6, "dead", ["gorilla"]),
         custom_deck(5, {"villager": 7, "werewolf": 1, "traitor": 1, "death": 1, "magician": 1, "seer": 1})]
PACKS = (Pack("en"), Pack("ja"))


@st.composite
def deals(draw):
    deck = draw(st.sampled_from(DECKS))
    cards = [card for card, count in deck.cards.items() for _ in range(count)]
    random.Random(draw(st.integers(0, 2**32))).shuffle(cards)
    players = [f"P{i}" for i in range(deck.players)]
    hands = {name: cards[2 * i:2 * i + 2] for i, name in enumerate(players)}
    graveyard = cards[2 * deck.players:]
    executed = draw(st.sampled_from([*players, GRAVEYARD, None]))
    able = eligible(players, hands, graveyard)  # HW-R7: only an ability's user can have seen it
    turned = draw(st.lists(st.sampled_from(able), max_size=2, unique=True)) if deck.has(Card.MAGICIAN) and able else []
    return deck, players, hands, graveyard, executed, turned


@pytest.mark.slow
@settings(max_examples=300)
@given(deals())
def test_a_decided_side_always_agrees_with_the_full_verdict(deal):
    deck, players, hands, graveyard, executed, turned = deal
    verdict = judge(players, hands, graveyard, executed, turned, deck)
    shown = graveyard if executed == GRAVEYARD else hands.get(executed)
    side = decided_side(deck, executed, shown)
    assert side is None or side == verdict.winning_side
    assert verdict.winners == tuple(p for p in players if verdict.sides[p] == verdict.winning_side)
    for pack in PACKS:  # every reason the judge can give has a line in both packs
        assert pack.text(verdict_key(verdict), **verdict.fields)


def test_a_player_who_could_not_have_used_an_ability_cannot_have_seen_the_magician():
    """HW-R7: 占い師か墓堀が役職能力で…魔術師のカードを見てしまった場合 — E holds the traitor only."""
    with pytest.raises(JudgeError, match="E could not have seen the magician"):
        verdict_of(MAGICIAN, "D", magician_seen_by=["E"], deck=standard_deck(6, "magician"))
    swapped = table("A=villager+villager B=gravedigger+villager C=magician+villager D=werewolf+villager "
                    "E=traitor+villager F=villager+villager", "seer+villager")  # A's seer card swapped away
    check(verdict_of(swapped, "D", magician_seen_by=["A"], deck=standard_deck(6, "magician")),
          "villagers", ["B", "C", "F"], "werewolf_executed")
