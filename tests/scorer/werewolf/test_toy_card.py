"""A new card is one row (docs/design.md): a toy card, declared here in one row, played through the rules.

`Card` is closed, so the toy lives in its own enum of the same kind (`AnyCard`); the rules read
only its row: the deck, the night's script, the lesson, the vote's bounds (HW-R4), the sides and
the verdict.
"""

from scorer.werewolf.cards import AnyCard, Card, Line, Row
from scorer.werewolf.decks import custom_deck, standard_deck
from judged import judge
from scorer.werewolf.script import Kind, build_script
from scorer.werewolf.sides import Side, side_of
from scorer.werewolf.tally import vote_bounds
from scorer.werewolf.teaching import lesson


class Toy(AnyCard):
    # a werewolf-side card that acts in the morning, is reminded of before the day, and has no vote
    HUNTER = "hunter", Row(wolf=True, no_vote=1, morning=Line("werewolf.hunter", fields=("graveyard",)),
                           day=Line("werewolf.hunter_day"), swap_in=(6,))


SIX = ["Aki", "Ken", "Mio", "Sora", "Yui", "Rin"]


def test_the_toy_card_swaps_in_for_a_villager_and_its_id_is_its_value():
    deck = standard_deck(6, swap_ins=[Toy.HUNTER])
    assert deck.count(Toy.HUNTER) == 1 and deck.count(Card.VILLAGER) == 9 and deck.total == 14
    assert list(deck.cards)[-1] == "hunter"
    assert custom_deck(6, {"villager": 9, "werewolf": 1, "seer": 1, "gravedigger": 1, "traitor": 1,
                           Toy.HUNTER: 1}).cards == deck.cards


def test_the_night_says_the_toy_cards_lines_in_its_phases_and_teaches_it():
    deck = standard_deck(6, swap_ins=[Toy.HUNTER])
    script = build_script(SIX, deck, 180)
    steps = {step.key: step for step in script}
    keys = [step.key for step in script]
    hunter, day = steps["werewolf.hunter"], steps["werewolf.hunter_day"]
    assert (hunter.phase, hunter.kind, dict(hunter.fields)) == ("morning", Kind.ACTION, {"graveyard": 2})
    assert (day.phase, day.kind) == ("day", Kind.SAY)
    assert keys.index("werewolf.gravedigger") < keys.index("werewolf.hunter") < keys.index("werewolf.morning_end")
    assert keys.index("werewolf.morning_end") < keys.index("werewolf.hunter_day") < keys.index("werewolf.day")
    assert "werewolf.teach.cards.hunter" in [step.key for step in lesson(deck)]


def test_the_toy_card_takes_a_vote_and_plays_for_the_werewolves():
    assert vote_bounds(6) == (6, 6)
    assert vote_bounds(6, standard_deck(6, swap_ins=[Toy.HUNTER])) == (5, 6)  # HW-R4
    assert side_of([Toy.HUNTER, "villager"]) == Side.WEREWOLVES
    deck = standard_deck(6, swap_ins=[Toy.HUNTER])
    hands = {"Aki": ["werewolf", "villager"], "Ken": [Toy.HUNTER, "villager"], "Mio": ["seer", "villager"],
             "Sora": ["gravedigger", "villager"], "Yui": ["villager", "villager"], "Rin": ["villager", "villager"]}
    verdict = judge(SIX, hands, ["traitor", "villager"], "Yui", deck=deck)
    assert verdict.winning_side == Side.WEREWOLVES and verdict.winners == ("Aki", "Ken")
