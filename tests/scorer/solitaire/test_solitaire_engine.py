"""The rules of 7th Sense Training, one at a time, on hand-made and seeded deals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.solitaire.cards import NUMBER_CARDS, card_of, rank
from scorer.solitaire.deal import BadDeal, Deal, deal_from_seed
from scorer.solitaire.engine import IllegalMove, apply, legal_moves, start
from scorer.solitaire.layout import BadLayout, pyramid
from scorer.solitaire.moves import (
    BadMove, Eye, Forgo, Humalien, Owl, Pair, PairFlip, Special, Turn, move_from_json, move_to_json,
)

H, E, OW = "humalien", "eye", "owl"


def c(text: str) -> int:
    """A card from "7f" / "12w" / "1e" / "13a" (fire, water, wind=a for air, earth)."""
    elements = {"f": "fire", "w": "water", "a": "wind", "e": "earth"}
    return card_of(int(text[:-1]), elements[text[-1]])


def make_deal(pyramid_cards: str, stock_top: str = "", specials=(H, H, E, E, OW, OW, OW, OW)) -> Deal:
    """A 3-row deal (positions 1 | 2 3 | 4 5 6): the given pyramid, the stock's top cards, then the rest."""
    cards = [c(x) for x in pyramid_cards.split()]
    top = [c(x) for x in stock_top.split()]
    rest = [card for card in NUMBER_CARDS if card not in cards and card not in top]
    return Deal(3, tuple(cards), tuple(top + rest), tuple(specials))


def test_the_pyramid_layout_and_its_bounds():  # SS-R1
    assert [pyramid(r).size for r in range(3, 10)] == [6, 10, 15, 21, 28, 36, 45]
    seven = pyramid(7)
    assert seven.covers[0] == 0b110 and seven.position(6, 0) == 21
    assert seven.uncovered((1 << 28) - 1) == seven.bottom
    for rows in (2, 10, 0):
        with pytest.raises(BadLayout, match=f"not {rows}"):
            pyramid(rows)


def test_a_fixed_seed_deals_the_same_cards_on_every_machine():
    deal = deal_from_seed(1)
    assert deal.pyramid == (49, 9, 37, 22, 2, 38, 19, 11, 35, 5, 29, 51, 43, 15, 23, 46, 47, 21, 40, 39, 12, 50, 32,
                            20, 25, 26, 34, 10)
    assert deal.stock == (33, 3, 18, 14, 17, 44, 0, 27, 42, 1, 45, 6, 13, 24, 41, 30, 28, 31, 7, 16, 4, 48, 36, 8)
    assert deal.specials == (E, H, OW, H, OW, OW, OW, E)
    assert deal_from_seed(1, rows=4).pyramid == deal.pyramid[:10]


def test_deals_must_hold_the_whole_deck_and_the_eight_specials():
    with pytest.raises(BadDeal, match="holds 6 cards, not 5"):
        Deal(3, tuple(range(5)), tuple(range(5, 52)), (H, H, E, E, OW, OW, OW, OW))
    with pytest.raises(BadDeal, match="each of the 52"):
        Deal(3, (0, 0, 1, 2, 3, 4), tuple(range(6, 52)), (H, H, E, E, OW, OW, OW, OW))
    with pytest.raises(BadDeal, match="specials"):
        make_deal("1f 2f 3f 4f 5f 6f", specials=(H,) * 8)
    with pytest.raises(BadDeal, match="integer"):
        deal_from_seed("7")


def test_setup_turns_the_bottom_row_face_up_and_a_face_up_13_leaves_at_once():  # SS-R2
    state = start(make_deal("1f 2f 3f 13f 5f 6f"))
    assert state.left == 5 and state.discard == (c("13f"),)
    assert state.positions(state.face_up) == [4, 5]  # 5f, 6f; position 2 is still covered by 5


def test_a_13_uncovered_by_a_pair_leaves_and_uncovers_in_turn():  # SS-R2 cascade
    state = start(make_deal("1f 13f 3f 6f 7f 8f"))
    state = apply(state, Pair(3, 4))  # 6 + 7: uncovers position 2 (13), which leaves and uncovers nothing more
    assert state.present == 0b100101 and c("13f") in state.discard
    assert state.face_up == 0b100000


def test_pairs_must_be_two_face_up_cards_making_13():
    state = start(make_deal("1f 2f 3f 4f 9f 8f"))
    after = apply(state, Pair(3, 4))  # 4 + 9
    assert after.left == 4 and after.face_up >> 1 & 1  # position 2 is uncovered
    with pytest.raises(IllegalMove, match="4 fire and 8 fire make 12, not 13"):
        apply(state, Pair(3, 5))
    with pytest.raises(IllegalMove, match="position 1 is face down"):
        apply(state, Pair(0, 5))
    with pytest.raises(IllegalMove, match="cannot pair with itself"):
        apply(state, Pair(3, 3))
    with pytest.raises(IllegalMove, match="position 4 is empty"):
        apply(after, Pair(3, 5))
    with pytest.raises(IllegalMove, match="no pyramid position 9"):
        apply(state, Pair(8, 3))


def test_turning_the_stock_and_pairing_the_flip_card():
    state = start(make_deal("1f 2f 3f 4f 5f 6f", "9f 13w 7f"))
    with pytest.raises(IllegalMove, match="no flip card"):
        apply(state, PairFlip(3))
    state = apply(state, Turn())
    assert state.flip == c("9f") and state.stock_left == 45
    state = apply(state, PairFlip(3))  # 9 + 4
    assert state.flip is None and c("9f") in state.discard
    state = apply(state, Turn())  # a flipped 13 leaves at once (SS-R2)
    assert state.flip is None and c("13w") in state.discard
    state = apply(apply(state, Turn()), Turn())  # the 7 goes to the set-aside pile
    assert state.set_aside == (c("7f"),)
    with pytest.raises(IllegalMove, match="flip card: 1 water and 5 fire make 6, not 13"):
        apply(state, PairFlip(4))


def test_the_game_ends_when_the_stock_is_all_set_aside():  # SS-R4
    state = start(make_deal("1f 2f 3f 4f 5f 6f", "13f 13w 13a 13e"))
    for _ in range(46):
        state = apply(state, Turn())
    assert state.stock_left == 0 and state.flip is not None and not state.over
    assert Special() in legal_moves(state)  # the last flip card can still be played
    last = state.flip
    state = apply(state, Turn())
    assert state.over and state.flip is None and state.set_aside[-1] == last and len(state.set_aside) == 46 - 4
    assert legal_moves(state) == []
    with pytest.raises(IllegalMove, match="game is over"):
        apply(state, Special())


def test_a_special_card_comes_up_in_its_order_and_must_be_resolved():
    state = start(make_deal("1f 2f 3f 4f 5f 6f", specials=(OW, H, H, E, E, OW, OW, OW)))
    state = apply(state, Special())
    assert state.pending == OW and state.specials_left == 7
    with pytest.raises(IllegalMove, match="owl special card is turned"):
        apply(state, Turn())
    with pytest.raises(IllegalMove, match="the owl, not the humalien"):
        apply(state, Humalien(3))
    state = apply(state, Forgo())  # the effect could not be used: the card is discarded all the same
    assert state.pending is None and state.left == 6
    with pytest.raises(IllegalMove, match="turn a special card first"):
        apply(state, Humalien(3))


def test_humalien_discards_any_face_up_card():
    state = apply(start(make_deal("1f 2f 3f 4f 5f 6f", specials=(H, H, E, E, OW, OW, OW, OW))), Special())
    with pytest.raises(IllegalMove, match="position 1 is face down"):
        apply(state, Humalien(0))
    state = apply(state, Humalien(4))  # 5 covered 2 and 3 with its neighbours: nothing is uncovered yet
    assert state.left == 5 and state.face_up == 0b101000
    state = apply(apply(state, Special()), Humalien(3))
    assert state.left == 4 and state.face_up == 0b100010  # position 2 is uncovered


def test_eye_of_providence_right_wrong_and_kept():  # SS-R3: a covered face-up card can be paired
    deal = make_deal("1f 2f 11f 4f 5f 6f", specials=(E, E, H, H, OW, OW, OW, OW))
    state = apply(start(deal), Special())
    with pytest.raises(IllegalMove, match="already face up"):
        apply(state, Eye(3, 4))
    with pytest.raises(IllegalMove, match="number 1–13, not 14"):
        apply(state, Eye(1, 14))
    right = apply(state, Eye(1, 2))
    assert right.left == 5 and c("2f") in right.discard
    wrong = apply(state, Eye(1, 7))
    assert wrong.left == 6 and wrong.revealed == 0b10 and wrong.face_up >> 1 & 1
    kept = apply(state, Eye(1, 2, discard=False))
    assert kept.left == 6 and kept.revealed == 0b10
    # the kept 2 is still covered by 4 and 5, yet it pairs with the 11 once that is turned by the next Eye
    kept = apply(apply(kept, Special()), Eye(2, 3))
    assert apply(kept, Pair(1, 2)).left == 4


def test_owl_pairs_a_set_aside_card_with_a_face_up_card():
    deal = make_deal("1f 2f 3f 4f 5f 6f", "9f 7f 8f", specials=(OW, OW, OW, OW, H, H, E, E))
    state = start(deal)
    for _ in range(3):
        state = apply(state, Turn())
    assert state.set_aside == (c("9f"), c("7f"))
    state = apply(state, Special())
    with pytest.raises(IllegalMove, match="8 fire is not in the set-aside pile"):
        apply(state, Owl(c("8f"), 4))
    with pytest.raises(IllegalMove, match="owl: 7 fire and 4 fire make 11"):
        apply(state, Owl(c("7f"), 3))
    state = apply(state, Owl(c("9f"), 3))
    assert state.set_aside == (c("7f"),) and state.left == 5 and c("9f") in state.discard


def test_no_special_is_left_after_eight():
    state = start(make_deal("1f 2f 3f 4f 5f 6f"))
    for _ in range(8):
        state = apply(apply(state, Special()), Forgo())
    assert Special() not in legal_moves(state)
    with pytest.raises(IllegalMove, match="no special card is left"):
        apply(state, Special())


def test_moves_round_trip_through_json():
    moves = [Pair(0, 5), PairFlip(3), Turn(), Special(), Humalien(2), Eye(1, 7, False), Owl(c("12w"), 4), Forgo()]
    assert [move_from_json(move_to_json(m)) for m in moves] == moves
    assert move_to_json(Pair(0, 5)) == {"move": "pair", "positions": [1, 6]}
    with pytest.raises(BadMove, match="cannot read move"):
        move_from_json({"move": "dance"})


def _accounted(state) -> list[int]:
    pyramid_cards = [state.card_at(p) for p in state.positions(state.present)]
    stock = list(state.deal.stock[state.next_stock :])
    flip = [state.flip] if state.flip is not None else []
    return pyramid_cards + stock + flip + list(state.set_aside) + list(state.discard)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), rows=st.integers(3, 9), choices=st.randoms(use_true_random=False))
def test_random_play_keeps_every_card_in_exactly_one_place(seed, rows, choices):
    state = start(deal_from_seed(seed, rows))
    while not state.over:
        assert sorted(_accounted(state)) == list(NUMBER_CARDS)  # 52 cards, none in two places
        assert state.revealed & ~state.present == 0
        assert all(rank(state.card_at(p)) != 13 for p in state.positions(state.face_up))  # SS-R2
        assert state.flip is None or rank(state.flip) != 13
        moves = legal_moves(state)
        assert moves, "a game that is not over always has a move (turn)"
        state = apply(state, choices.choice(moves))
    assert sorted(_accounted(state)) == list(NUMBER_CARDS)
    assert state.stock_left == 0 or state.present == 0
