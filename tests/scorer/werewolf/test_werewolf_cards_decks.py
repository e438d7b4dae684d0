"""Cards and decks: the rulebook's decks by player count, the variants and swap-ins (HW-R1, HW-R2)."""

import pytest

from gm.text.lines import Pack
from scorer.werewolf.cards import BOX_COUNTS, CARD_IDS, Card, UnknownCard, names_from_pack, parse_card
from scorer.werewolf.decks import DeckError, custom_deck, graveyard_size, standard_deck
from gm.text.names import card_names
from scorer.werewolf.sides import Side
from voices import load_pack


def test_the_box_holds_ten_villagers_and_one_of_every_other_card():
    assert len(CARD_IDS) == 11
    assert sum(BOX_COUNTS.values()) == 20  # 23 cards with the 3 rule cards
    assert BOX_COUNTS["villager"] == 10 and BOX_COUNTS["death"] == 1


@pytest.mark.parametrize("text, card", [
    ("werewolf", "werewolf"), ("WereWolf", "werewolf"), (" seer ", "seer"),
    ("Grave digger", "gravedigger"), ("fortune teller", "seer"), ("reaper", "death"),
    ("墓掘り", "gravedigger"),
])
def test_parse_card_accepts_ids_in_any_case_and_aliases(text, card):
    assert parse_card(text) == card


def test_parse_card_reads_localized_names_and_their_kana():
    names = card_names()
    assert parse_card("人狼", names) == "werewolf"
    assert parse_card("じんろう", names) == "werewolf"
    assert parse_card("墓堀", names) == "gravedigger"
    assert parse_card("ゴリラ", names) == "gorilla"
    assert parse_card("Apprentice", names) == "apprentice"
    assert names_from_pack(load_pack("ja")["werewolf"]["cards"])["裏切り者"] == "traitor"


@pytest.mark.parametrize("text", ["wolf", "", "人", "villagers"])
def test_unknown_cards_are_refused_naming_the_text_and_the_cards(text):
    with pytest.raises(UnknownCard, match=f"unknown card {text!r}.*villager, werewolf"):
        parse_card(text, card_names())


@pytest.mark.parametrize("players, variant, cards", [
    (4, None, {"villager": 6, "werewolf": 1, "traitor": 1, "seer": 1}),
    (5, None, {"villager": 8, "werewolf": 1, "traitor": 1, "seer": 1, "gravedigger": 1}),
    (6, None, {"villager": 10, "werewolf": 1, "traitor": 1, "seer": 1, "gravedigger": 1}),
    (6, "magician", {"villager": 9, "werewolf": 1, "traitor": 1, "seer": 1, "gravedigger": 1, "magician": 1}),
    (6, "dead", {"villager": 9, "werewolf": 1, "traitor": 1, "seer": 1, "gravedigger": 1, "death": 1}),
])
def test_the_rulebook_decks(players, variant, cards):
    deck = standard_deck(players, variant)
    assert dict(deck.cards) == cards
    assert deck.players == players and deck.variant == variant
    assert deck.graveyard == (1 if players == 4 else 2)
    assert deck.total == 2 * players + deck.graveyard


def test_swap_ins_each_replace_a_villager():
    deck = standard_deck(6, "magician", ["gorilla", "Angel", "apprentice"])
    assert deck.count(Card.VILLAGER) == 6
    assert all(deck.has(card) for card in (Card.GORILLA, Card.ANGEL, Card.APPRENTICE, Card.MAGICIAN))
    assert deck.total == 14 and deck.variant == "magician"
    four = standard_deck(4, swap_ins=["gorilla"])
    assert four.count(Card.VILLAGER) == 5 and four.count(Card.GORILLA) == 1 and four.total == 9
    assert standard_deck(5, swap_ins=["gorilla"]).count(Card.VILLAGER) == 7


def test_deck_lookups():
    deck = standard_deck(4)  # a card's name is read by parse_card (above); the deck is asked by card
    assert deck.has(Card.SEER) and not deck.has(Card.GRAVEDIGGER) and deck.count(Card.GRAVEDIGGER) == 0
    assert deck.count(Card.VILLAGER) == 6


@pytest.mark.parametrize("players, variant, swap_ins, message", [
    (3, None, (), "HW-R1: Half Werewolf is for 4 to 6 players, not 3"),
    (7, None, (), "HW-R1: Half Werewolf is for 4 to 6 players, not 7"),
    (5, "magician", (), "HW-R1: the magician variant is for 6 players only, not 5"),
    (4, "dead", (), "HW-R1: the dead variant is for 6 players only, not 4"),
    (6, "zombie", (), "HW-R1: unknown variant 'zombie'"),
    (4, None, ("angel",), "HW-R1: angel is swapped in with 6 players only, not 4"),
    (5, None, ("apprentice",), "HW-R1: apprentice is swapped in with 6 players only, not 5"),
    (6, None, ("gorilla", "gorilla"), "HW-R1: gorilla is swapped in twice"),
    (6, None, ("seer",), "HW-R1: 'seer' cannot be swapped in"),
    (6, None, ("death",), "HW-R1: 'death' cannot be swapped in"),
    (6, None, ("wolfman",), "unknown card 'wolfman'"),
])
def test_other_compositions_are_refused(players, variant, swap_ins, message):
    with pytest.raises(ValueError) as caught:
        standard_deck(players, variant, swap_ins)
    assert str(caught.value).startswith(message)


def test_graveyard_size():
    assert [graveyard_size(n) for n in (4, 5, 6)] == [1, 2, 2]
    with pytest.raises(DeckError, match="not 8"):
        graveyard_size(8)


def test_a_custom_deck_with_box_counts_and_one_werewolf():
    deck = custom_deck(5, {"villager": 7, "werewolf": 1, "traitor": 1, "seer": 1, "magician": 1, "Angel": 1})
    assert deck.variant == "custom" and deck.total == 12 and deck.graveyard == 2
    assert list(deck.cards) == ["villager", "werewolf", "traitor", "seer", "magician", "angel"]
    assert custom_deck(4, {"villager": 5, "werewolf": 1, "blank": 1, "seer": 1, "traitor": 1, "death": 0}).total == 9


@pytest.mark.parametrize("players, cards, message", [
    (4, {"villager": 7, "werewolf": 1, "seer": 1, "traitor": 1},
     "HW-R2: 4 players need 9 cards (2 each + 1 in the graveyard), not 10"),
    (6, {"villager": 10, "werewolf": 1, "seer": 1}, "HW-R2: 6 players need 14 cards"),
    (4, {"villager": 6, "seer": 1, "traitor": 1, "gravedigger": 1}, "HW-R2: a deck has exactly one werewolf, not 0"),
    (4, {"villager": 6, "werewolf": 2, "seer": 1}, "HW-R2: 2 × werewolf but the box holds 1"),
    (6, {"villager": 11, "werewolf": 1, "seer": 1, "traitor": 1}, "HW-R2: 11 × villager but the box holds 10"),
    (4, {"villager": 7, "werewolf": 1, "seer": -1, "traitor": 2},
     "HW-R2: count of 'seer' must be a whole number ≥ 0, not -1"),
    (4, {"villager": 6, "werewolf": 1, "seer": "1", "traitor": 1}, "HW-R2: count of 'seer' must be a whole number"),
    (7, {"villager": 10, "werewolf": 1}, "HW-R2: Half Werewolf is for 4 to 6 players, not 7"),
    (4, {"villager": 6, "werewolf": 1, "wizard": 1, "traitor": 1}, "unknown card 'wizard'"),
])
def test_custom_decks_that_break_hw_r2_are_refused(players, cards, message):
    with pytest.raises(ValueError) as caught:
        custom_deck(players, cards)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_every_card_and_side_has_a_name_in_every_language(lang):
    pack = Pack(lang)
    names = {pack.text(f"werewolf.cards.{card}") for card in CARD_IDS}
    assert len(names) == len(CARD_IDS)
    assert len({pack.text(f"werewolf.sides.{side}") for side in Side}) == len(Side)
    if lang == "ja":
        assert pack.line("werewolf.cards.gravedigger").spoken == "はかほり"
        assert pack.spoken_word("裏切り者") == "うらぎりもの"
