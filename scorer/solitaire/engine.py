"""The rules of 7th Sense Training: a game state, its legal moves, and applying a move.

`GameState` is immutable; `apply(state, move)` returns the next state or raises
`IllegalMove` naming what is wrong. Legal-move generation (`legal_moves`) is separate
from applying, and `apply` checks every move on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scorer.solitaire.refusal import SolitaireRefusal
from scorer.solitaire.cards import EYE, HUMALIEN, KING, OWL, RANKS, label, pairs, rank
from scorer.solitaire.deal import Deal
from scorer.solitaire.layout import Pyramid, pyramid
from scorer.solitaire.moves import Eye, Forgo, Humalien, Move, Owl, Pair, PairFlip, Special, Turn


class IllegalMove(SolitaireRefusal):
    """A move the rules do not allow in this state (its key is under the voice packs'
    `errors.solitaire`)."""


@dataclass(frozen=True)
class GameState:
    deal: Deal
    present: int  # pyramid positions still holding their card
    revealed: int  # present positions turned face up by the Eye while still covered
    next_stock: int  # index in deal.stock of the next card to turn
    flip: int | None  # card on the flip slot (めくり札)
    set_aside: tuple[int, ...]  # set-aside pile (置き札), oldest first
    specials_used: int
    pending: str | None  # a special turned and not yet resolved
    discard: tuple[int, ...]
    ended: bool = False

    @property
    def layout(self) -> Pyramid:
        return pyramid(self.deal.rows)

    @property
    def face_up(self) -> int:
        """Mask of face-up pyramid cards: uncovered ones and those the Eye turned (SS-R3)."""
        return self.layout.uncovered(self.present) | self.revealed

    @property
    def over(self) -> bool:
        return self.ended or not self.present

    @property
    def ending(self) -> str | None:
        """How the game ended: "cleared" (no pyramid card left, perhaps with stock left),
        "set_aside" (the last stock card was set aside: the manual's end, SS-R4), "paired" (the
        last stock card was paired away and a turn found the stock empty, SS-R6); None while
        it goes on."""
        if not self.present:
            return "cleared"
        if not self.ended:
            return None
        return "set_aside" if self.deal.stock and self.deal.stock[-1] in self.set_aside else "paired"

    @property
    def left(self) -> int:
        """Pyramid cards left: what the reading is about."""
        return bin(self.present).count("1")

    @property
    def stock_left(self) -> int:
        return len(self.deal.stock) - self.next_stock

    @property
    def specials_left(self) -> int:
        return len(self.deal.specials) - self.specials_used

    def card_at(self, position: int) -> int:
        return self.deal.pyramid[position]

    def positions(self, mask: int) -> list[int]:
        return [p for p in range(self.layout.size) if mask >> p & 1]


def start(deal: Deal) -> GameState:
    """The state after set-up: bottom row face up, its 13s already gone (SS-R2)."""
    size = pyramid(deal.rows).size
    state = GameState(deal, (1 << size) - 1, 0, 0, None, (), 0, None, ())
    return _settle(state)


def _settle(state: GameState) -> GameState:
    """Discard every 13 that is face up, in the pyramid or on the flip slot (SS-R2)."""
    present, discard, flip = state.present, state.discard, state.flip
    if flip is not None and rank(flip) == KING:
        discard, flip = discard + (flip,), None
    while True:
        face_up = state.layout.uncovered(present) | (state.revealed & present)
        kings = [p for p in range(state.layout.size) if face_up >> p & 1 and rank(state.deal.pyramid[p]) == KING]
        if not kings:
            break
        for p in kings:
            present &= ~(1 << p)
            discard += (state.deal.pyramid[p],)
    return replace(state, present=present, revealed=state.revealed & present, discard=discard, flip=flip)


def _remove(state: GameState, positions: list[int], extra: tuple[int, ...] = ()) -> GameState:
    mask = sum(1 << p for p in positions)
    cards = tuple(state.deal.pyramid[p] for p in positions) + extra
    return replace(state, present=state.present & ~mask, revealed=state.revealed & ~mask, discard=state.discard + cards)


def _need_face_up(state: GameState, position: int) -> None:
    if not 0 <= position < state.layout.size:
        raise IllegalMove(f"no pyramid position {position + 1} (positions are 1–{state.layout.size})",
                          "no_position", position=position + 1, size=state.layout.size)
    if not state.present >> position & 1:
        raise IllegalMove(f"position {position + 1} is empty", "empty_position", position=position + 1)
    if not state.face_up >> position & 1:
        raise IllegalMove(f"the card at position {position + 1} is face down", "face_down", position=position + 1)


def _need_thirteen(a: int, b: int, what: str) -> None:
    if not pairs(a, b):
        raise IllegalMove(f"{what}: {label(a)} and {label(b)} make {rank(a) + rank(b)}, not 13", "not_thirteen",
                          what=what, card_a=label(a), card_b=label(b), a=rank(a), b=rank(b), total=rank(a) + rank(b))


def apply(state: GameState, move: Move) -> GameState:
    """The state after `move`, or `IllegalMove` saying why it is not allowed."""
    if state.over:
        raise IllegalMove("the game is over", "over")
    if state.pending is not None and not isinstance(move, (Humalien, Eye, Owl, Forgo)):
        raise IllegalMove(f"the {state.pending} special card is turned: use its effect or forgo it first", "pending",
                          pending=state.pending)
    if isinstance(move, Pair):
        if move.a == move.b:
            raise IllegalMove(f"position {move.a + 1} cannot pair with itself", "self_pair", position=move.a + 1)
        _need_face_up(state, move.a)
        _need_face_up(state, move.b)
        _need_thirteen(state.card_at(move.a), state.card_at(move.b), "pair")
        return _settle(_remove(state, [move.a, move.b]))
    if isinstance(move, PairFlip):
        if state.flip is None:
            raise IllegalMove("there is no flip card", "no_flip")
        _need_face_up(state, move.position)
        _need_thirteen(state.flip, state.card_at(move.position), "pair with the flip card")
        return _settle(replace(_remove(state, [move.position], (state.flip,)), flip=None))
    if isinstance(move, Turn):
        set_aside = state.set_aside + ((state.flip,) if state.flip is not None else ())
        if state.stock_left == 0:  # SS-R4: the flip card joins the set-aside pile; the game ends
            return replace(state, flip=None, set_aside=set_aside, ended=True)
        flip = state.deal.stock[state.next_stock]
        return _settle(replace(state, flip=flip, set_aside=set_aside, next_stock=state.next_stock + 1))
    if isinstance(move, Special):
        if state.specials_left == 0:
            raise IllegalMove("no special card is left", "no_special")
        return replace(state, pending=state.deal.specials[state.specials_used], specials_used=state.specials_used + 1)
    return _resolve(state, move)


def _resolve(state: GameState, move: Move) -> GameState:
    if state.pending is None:
        raise IllegalMove("turn a special card first", "no_turned")
    done = replace(state, pending=None)
    if isinstance(move, Forgo):
        return done
    expected = {Humalien: HUMALIEN, Eye: EYE, Owl: OWL}[type(move)]
    if expected != state.pending:
        raise IllegalMove(f"the turned special card is the {state.pending}, not the {expected}", "wrong_special",
                          pending=state.pending, expected=expected)
    if isinstance(move, Humalien):
        _need_face_up(state, move.position)
        return _settle(_remove(done, [move.position]))
    if isinstance(move, Eye):
        p = move.position
        if not 0 <= p < state.layout.size or not state.present >> p & 1:
            raise IllegalMove(f"no card at position {p + 1}", "no_card", position=p + 1)
        if state.face_up >> p & 1:
            raise IllegalMove(f"the card at position {p + 1} is already face up", "face_up", position=p + 1)
        if move.guess not in RANKS:
            raise IllegalMove(f"a prediction is a number 1–13, not {move.guess}", "prediction", guess=move.guess)
        if move.discard and rank(state.card_at(p)) == move.guess:
            return _settle(_remove(done, [p]))
        return _settle(replace(done, revealed=done.revealed | 1 << p))
    assert isinstance(move, Owl)
    if move.card not in state.set_aside:
        raise IllegalMove(f"{label(move.card)} is not in the set-aside pile", "not_set_aside",
                          card=label(move.card))
    _need_face_up(state, move.position)
    _need_thirteen(move.card, state.card_at(move.position), "owl")
    rest = list(state.set_aside)
    rest.remove(move.card)
    return _settle(replace(_remove(done, [move.position], (move.card,)), set_aside=tuple(rest)))


def face_up_pairs(state: GameState) -> list[Pair | PairFlip]:
    """Every pair the player can see: two face-up pyramid cards, or the flip card and one."""
    up = state.positions(state.face_up)
    moves: list[Pair | PairFlip] = [
        Pair(a, b) for i, a in enumerate(up) for b in up[i + 1 :] if pairs(state.card_at(a), state.card_at(b))
    ]
    if state.flip is not None:
        moves += [PairFlip(p) for p in up if pairs(state.flip, state.card_at(p))]
    return moves


def owl_moves(state: GameState) -> list[Owl]:
    """Every Owl pairing: a set-aside card with a face-up pyramid card that makes 13."""
    up = state.positions(state.face_up)
    return [Owl(c, p) for c in dict.fromkeys(state.set_aside) for p in up if pairs(c, state.card_at(p))]


def legal_moves(state: GameState) -> list[Move]:
    """Every move allowed now (Eye moves: every face-down card × every prediction × keep/discard)."""
    if state.over:
        return []
    up = state.positions(state.face_up)
    if state.pending == HUMALIEN:
        return [*(Humalien(p) for p in up), Forgo()]
    if state.pending == EYE:
        down = state.positions(state.present & ~state.face_up)
        return [*(Eye(p, g, d) for p in down for g in RANKS for d in (True, False)), Forgo()]
    if state.pending == OWL:
        return [*owl_moves(state), Forgo()]
    moves: list[Move] = list(face_up_pairs(state))
    if state.specials_left:
        moves.append(Special())
    moves.append(Turn())
    return moves


def replay(deal: Deal, moves: list[Move]) -> GameState:
    """The state after playing `moves` from the start of `deal`."""
    state = start(deal)
    for move in moves:
        state = apply(state, move)
    return state
