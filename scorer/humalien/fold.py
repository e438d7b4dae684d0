"""State of a match = the fold of its events; undo and redo are events too.

`advance` is the fold step (fast: a 10,000-event journal replays in well under 150 ms);
`apply` also reports what changed, for printing and speaking.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NamedTuple
from collections.abc import Callable, Iterable, Mapping

from scorer.humalien.errors import (
    BadPlayers, CountOutOfRange, Impossible, MatchInProgress, MatchOver, NoMatch, NothingToRedo,
    NothingToUndo, SecondSixSixSix,
)
from scorer.humalien.events import (
    AngelCut, Doing, Event, Finish, Flow, Foul, GodIsland, Kind, NewMatch, Redo, Scoring, SixSixSix, Skull,
    Undo, kind_of,
)
from scorer.humalien.sheet import (
    ANGEL_CUT_POINTS, FINISH_BASE, GAMES, GOD_ISLAND_POINTS, MAX_HAND, MAX_LEFT, MAX_PILES, Ending, Game,
    Match,
)


FOUR_CARD_PLAY = 4  # 666 and Angel Cut: three cards and the Eye; God Island: four Owls


@dataclass(frozen=True, slots=True)
class Award:
    """Points one event gave one player: `count` is the piles, cards or cards left it counted."""

    player: str
    how: Kind
    points: int
    total: int
    game: int
    count: int | None = None
    multiplier: int = 1


class Applied(NamedTuple):
    """One event that took effect, with the sheet before and after it (a light record: the
    undo history holds one per event)."""

    event: Doing
    before: Match | None
    after: Match

    @property
    def ended_game(self) -> int | None:
        """The game this event ended (a finish or foul finish), else None: a game that had
        ended before it took no event, so it ended here if it has ended now."""
        before = self.before
        if before is None or isinstance(self.event, NewMatch) or self.after.games[before.game - 1].ended_by is None:
            return None
        return before.game

    @property
    def awards(self) -> tuple[Award, ...]:
        """Who scored what with this event (none for a new match)."""
        event, before, after = self.event, self.before, self.after
        if before is None or isinstance(event, NewMatch):
            return ()
        rule = RULES[type(event)]
        scorer = before.opponent(event.player) if rule.by_opponent else event.player
        i = before.index(scorer)
        g = before.game
        total = after.totals[i]
        award = Award(player=scorer, how=kind_of(event), points=total - before.totals[i], total=total,
                      game=g, count=rule.counted(event), multiplier=after.games[g - 1].multiplier)
        return (award,) if rule.parts is None else rule.parts(award, event, before.totals[i])


Stack = tuple[Applied, "Stack"] | None


@dataclass(frozen=True, slots=True)
class Change:
    """What one event changed: awards (negative for an undo), the game it ended, the sheet after."""

    event: Event
    match: Match | None
    awards: tuple[Award, ...] = ()
    target: Doing | None = None  # the event an undo took back or a redo put back
    ended_game: int | None = None


@dataclass(frozen=True, slots=True)
class State:
    """The current sheet plus the undo and redo stacks (persistent, so states are cheap to keep)."""

    match: Match | None = None
    done: Stack = None
    undone: Stack = None


def _count(value: int, low: int, high: int, what: str, player: str, match: Match, context: str = "") -> int:
    if not low <= value <= high:
        raise CountOutOfRange(f"{what} {value} is out of range {low}–{high} "
                              f"({player}, game {match.game}{context})", "out_of_range",
                              what=what, value=value, low=low, high=high, player=player, game=match.game,
                              context=context)
    return value


def _new_match(match: Match | None, event: NewMatch) -> Match:
    names = tuple(p.strip() for p in event.players)
    if len(names) != 2 or not all(names):
        raise BadPlayers(f"a match needs two player names, not {list(event.players)!r}", "two_names",
                         names=list(event.players))
    if names[0].casefold() == names[1].casefold():
        raise BadPlayers(f"the two players must differ, not {names[0]!r} twice", "same_players", player=names[0])
    for name, _ in event.readings:
        if name not in names:
            raise BadPlayers(f"reading given for {name!r}, who is not a player of {names[0]} v {names[1]}",
                             "reading_not_player", player=name, a=names[0], b=names[1])
    if match is not None and not match.over and not event.abandon:
        raise MatchInProgress(
            f"the match {match.title} is in game {match.game} and unfinished: "
            "finish it, or start the new one with --abandon", "match_in_progress", match=match.title, game=match.game)
    return Match(players=names, remote=event.remote, readings=event.readings)


def _score(match: Match | None, event: Scoring, strict: bool) -> Match:
    """The sheet after a scoring event (a ScoreError if the event cannot happen now; with
    `strict`, also if the cards cannot produce it: HU-R6). The event's own step is its row in
    `RULES`."""
    if match is None:
        raise NoMatch(f"no match to score {kind_of(event)} for {event.player!r}: start one with `new`", "no_match_for",
                      kind=kind_of(event), player=event.player)
    game = match.games[-1]
    if game.ended_by is not None and game.number == GAMES:
        raise MatchOver(
            f"the match {match.title} is over ({_result(match)}): no {kind_of(event)} after game {GAMES}; "
            "undo, or start a new match", "match_over", match=match.title,
            result=_result(match), kind=kind_of(event), games=GAMES)
    player: str = event.player
    i = 0 if player == match.players[0] else match.index(player)
    g = game.number
    turn = _Turn(match, game, player, i, strict)
    points = RULES[type(event)].step(turn, event)
    a, b = game.points
    played = Game(g, (a + points, b) if turn.scorer == 0 else (a, b + points), turn.sixes, turn.piles,
                  turn.god_islands, turn.angel_cuts, turn.ended, turn.skull_cards, turn.least_sixes,
                  turn.holds(turn.piles))
    games = match.games[:-1] + (played,)
    if turn.ended is not None and g < GAMES:
        games += (Game(g + 1),)
    return Match(match.players, match.remote, games, match.readings)


class _Turn:
    """One scoring event at work on the current game: what the cards in play still allow
    (HU-R6: the 6s and Humaliens a box holds, the most cards each player can still hold: 10 in
    hand and 20 in stock, less what they played; no stock once it was discarded or all 5 piles
    are empty), and the game's counts the event changes: empty piles, 666s, God Islands, Angel
    Cuts, who scores (`scorer`, an index) and how the game ended."""

    __slots__ = ("match", "game", "player", "i", "strict", "skull_cards", "least_sixes", "can_hold",
                 "piles", "sixes", "god_islands", "angel_cuts", "scorer", "ended")

    def __init__(self, match: Match, game: Game, player: str, i: int, strict: bool) -> None:
        self.match, self.game, self.player, self.i, self.strict = match, game, player, i, strict
        self.skull_cards, self.least_sixes = game.skull_cards, game.least_sixes
        self.can_hold = game.can_hold
        self.piles, self.sixes = game.piles, game.sixes
        self.god_islands, self.angel_cuts = game.god_islands, game.angel_cuts
        self.scorer = i
        self.ended: Ending | None = None

    def flow(self, piles: int, what: str) -> int:
        """A flow (perhaps forced) that scores `piles` empty piles, which the sheet keeps."""
        points = _flow_piles(piles, what, self.player, self.match, self.strict)
        self.piles = _with(self.piles, self.i, points)
        return points

    def finish(self, left: int, name: str, what: str, how: Kind = Kind.FINISH) -> int:
        """The game ends with the other player holding `left`: the end points (×3 per 666)."""
        left = self.left(left, name, what, 1 - self.i)
        self.ended = Ending(self.player, how)
        return (FINISH_BASE + left) * self.game.multiplier

    def skulls(self, what: str, cards: int, sixes: int) -> None:
        """A play of `cards` 6s and Humaliens, at least `sixes` of them 6s."""
        match, had = self.match, self.least_sixes
        limit = match.max_game_sixes
        if self.strict and had + sixes > limit:
            raise Impossible(
                f"{what} by {self.player} refused: at least {had} of the {limit} 6s a game holds were played "
                f"already in game {match.game}, and it needs {sixes} (HU-R6)", "sixes_played",
                what=what, player=self.player, had=had, limit=limit, game=match.game, need=sixes)
        had, limit = self.skull_cards, match.max_skull_cards
        if self.strict and had + cards > limit:
            raise Impossible(
                f"{what} by {self.player} refused: {had} of the {limit} 6s and Humaliens a game holds were "
                f"played already in game {match.game}, so at most {limit - had} can still come (HU-R6)",
                "skull_cards_played", what=what, player=self.player, had=had, limit=limit, game=match.game,
                more=limit - had, cards=cards)
        self.skull_cards += cards
        self.least_sixes += sixes

    def play(self, what: str, cards: int) -> None:
        """`cards` leave the player's hand and stock."""
        most = self.can_hold[self.i]
        if self.strict and cards > most:
            raise Impossible(
                f"{what} by {self.player} refused: {self.player} can hold at most {most} "
                f"{'card' if most == 1 else 'cards'} now in game {self.match.game} (HU-R6)", "play_exceeds_hand",
                what=what, player=self.player, most=most, game=self.match.game, cards=cards)
        self.can_hold = _with(self.can_hold, self.i, max(0, most - cards))

    def left(self, left: int, name: str, what: str, holder_index: int) -> int:
        """The cards the other player still holds when the game ends: 1 up to what they can
        hold; with 0 they would have finished first (HU-R6)."""
        match, player = self.match, self.player
        holder = match.players[holder_index]
        if self.strict and left == 0:
            raise Impossible(f"{what} by {player} with {holder} holding 0 cards refused: "
                             f"{holder} would have finished first (HU-R6)", "nothing_left", what=what, player=player,
                             holder=holder)
        _count(left, 1 if self.strict else 0, MAX_LEFT, name, player, match, f": hand + stock piles of {holder}")
        most = self.can_hold[holder_index]
        if self.strict and left > most:
            stock_gone = self.game.piles[holder_index] == MAX_PILES
            played = MAX_LEFT - most
            reason = (f"{holder}'s stock is gone, so at most {most} {'card is' if most == 1 else 'cards are'} "
                      "left in hand" if stock_gone else
                      f"{holder} can hold at most {most}: 10 in hand and 20 in stock, less the {played} "
                      f"{'card' if played == 1 else 'cards'} {holder} played this game")
            raise Impossible(f"{what} by {player} with {holder} holding {left} cards refused: {reason} (HU-R6)",
                             "held_no_stock" if stock_gone else "held_at_most", what=what, player=player,
                             holder=holder, left=left, most=most, played=played, game=match.game)
        return left

    def holds(self, piles: tuple[int, int]) -> tuple[int, int]:
        """The most cards each player can still hold, with no stock for one whose piles are all empty."""
        a, b = self.can_hold
        if piles[0] == MAX_PILES and a > MAX_HAND:
            a = MAX_HAND
        if piles[1] == MAX_PILES and b > MAX_HAND:
            b = MAX_HAND
        return self.can_hold if (a, b) == self.can_hold else (a, b)


def _flow(turn: _Turn, event: Flow) -> int:
    return turn.flow(event.piles, "flow")


def _skull(turn: _Turn, event: Skull) -> int:
    match = turn.match
    cards = _count(event.cards, 1, match.max_skull_cards, "skull cards in one play", turn.player, match,
                   ", remote match" if match.remote else ", one-box match")
    what = f"skull of {cards} {'card' if cards == 1 else 'cards'}"
    turn.skulls(what, cards, 1)
    turn.play(what, cards)
    return turn.game.number * cards


def _six_six_six(turn: _Turn, event: SixSixSix) -> int:
    match, player, g, sixes = turn.match, turn.player, turn.game.number, turn.sixes
    if sixes >= match.max_sixes:
        why = (" (one box has only four 6s; a remote match allows two)" if not match.remote
               else " (two boxes allow at most two)")
        raise SecondSixSixSix(f"666 by {player} refused: game {g} already had {sixes} 666" + why, "second_666",
                              player=player, game=g, sixes=sixes, why=why)
    turn.skulls("666", 3, 3)
    turn.play("666", FOUR_CARD_PLAY)
    turn.sixes += 1
    forced = 0 if event.piles is None else turn.flow(event.piles, "666's forced flow")
    return 3 * g + forced


def _god_island(turn: _Turn, event: GodIsland) -> int:
    turn.god_islands = _one_more(turn.god_islands, "God Island", "four Owls", turn.player, turn.match, turn.strict)
    turn.play("God Island", FOUR_CARD_PLAY)
    return GOD_ISLAND_POINTS


def _angel_cut(turn: _Turn, event: AngelCut) -> int:
    turn.angel_cuts = _one_more(turn.angel_cuts, "Angel Cut", "four 7s", turn.player, turn.match, turn.strict)
    turn.play("Angel Cut", FOUR_CARD_PLAY)
    if event.piles is None:  # the stock discarded: all five piles empty
        turn.piles = _with(turn.piles, turn.i, MAX_PILES)
        points = ANGEL_CUT_POINTS
    else:
        points = turn.flow(event.piles, "Angel Cut's forced flow (stock kept)")
    if event.opponent_left is not None:  # the hand was empty: the cut wins at once
        points += turn.finish(event.opponent_left, "opponent's cards left", "Angel Cut finish")
    return points


def _finish(turn: _Turn, event: Finish) -> int:
    return turn.finish(event.opponent_left, "opponent's cards left", "finish")


def _foul(turn: _Turn, event: Foul) -> int:
    turn.scorer = 1 - turn.i
    # HU-R4: the 666 multiplier applies to a foul finish too.
    return turn.finish(event.winner_left, "winner's own cards left", "foul finish", Kind.FOUL)


def _six_six_six_parts(award: Award, event: SixSixSix, before: int) -> tuple[Award, ...]:
    """A 666 with its forced flow: the skull points and the flow, said apart."""
    if not event.piles:
        return (award,)
    skulls = 3 * award.game
    return (replace(award, points=skulls, total=before + skulls),
            Award(award.player, Kind.FLOW, event.piles, award.total, award.game, event.piles, award.multiplier))


def _angel_cut_parts(award: Award, event: AngelCut, before: int) -> tuple[Award, ...]:
    """An Angel Cut that won the game at once: the cut's flow and the finish it made, said apart."""
    if event.opponent_left is None:
        return (award,)
    cut = ANGEL_CUT_POINTS if event.piles is None else event.piles
    return (replace(award, points=cut, total=before + cut),
            Award(award.player, Kind.FINISH, award.points - cut, award.total, award.game, event.opponent_left,
                  award.multiplier))


class Rule(NamedTuple):
    """What an event does to the sheet: its scoring step (the points it gives, the game's counts
    changed on the turn), what its award counted (empty piles, cards in the play, cards left),
    whether the opponent scores it (a foul finish), and how its award splits in the parts said
    apart (`parts`: the award, the event, the scorer's total before it)."""

    step: Callable[[_Turn, Any], int]
    counted: Callable[[Any], int | None]
    by_opponent: bool = False
    parts: Callable[[Award, Any, int], tuple[Award, ...]] | None = None


RULES: Mapping[type, Rule] = {
    Flow: Rule(_flow, lambda event: event.piles),
    Skull: Rule(_skull, lambda event: event.cards),
    SixSixSix: Rule(_six_six_six, lambda event: 3, parts=_six_six_six_parts),
    GodIsland: Rule(_god_island, lambda event: None),
    AngelCut: Rule(_angel_cut, lambda event: event.piles, parts=_angel_cut_parts),
    Finish: Rule(_finish, lambda event: event.opponent_left),
    Foul: Rule(_foul, lambda event: event.winner_left, by_opponent=True),
}


def _with(piles: tuple[int, int], i: int, value: int) -> tuple[int, int]:
    return (value, piles[1]) if i == 0 else (piles[0], value)


def _flow_piles(piles: int, what: str, player: str, match: Match, strict: bool) -> int:
    """The empty piles a flow scores: 0–5, and never fewer than this player already had this
    game (HU-R6: empty piles never come back; after a discarded Angel Cut all 5 stay empty)."""
    _count(piles, 0, MAX_PILES, "empty piles", player, match)
    had = match.current.piles[match.index(player)]
    if strict and piles < had:
        raise Impossible(
            f"{what} of {piles} empty {'pile' if piles == 1 else 'piles'} for {player} refused: {player} "
            f"already had {had} empty in game {match.game}, and empty piles never come back (HU-R6)",
            "piles_come_back", what=what, piles=piles, pile_word="pile" if piles == 1 else "piles", player=player,
            had=had, game=match.game)
    return piles


def _one_more(count: int, what: str, cards: str, player: str, match: Match, strict: bool) -> int:
    """One more God Island or Angel Cut this game: one per box in play (HU-R6)."""
    if strict and count >= match.boxes:
        boxes = "two boxes allow at most two" if match.remote else f"one box has only {cards}"
        raise Impossible(f"{what} by {player} refused: game {match.game} already had {count} ({boxes}; HU-R6)",
                         "one_per_box", what=what, player=player, game=match.game, count=count, boxes=boxes)
    return count + 1


def _result(match: Match) -> str:
    a, b = match.totals
    if a == b:
        return f"a draw at {a}"
    return f"{match.leader} won {max(a, b)} to {min(a, b)}"


def advance(state: State, event: Event, strict: bool = False) -> State:
    """The state after `event`; a ScoreError (state untouched) if it cannot happen.

    `strict` adds HU-R6 (what the cards cannot produce), checked on every new entry (`apply`);
    replaying a journal does not, so a match kept before those checks still reads as it was.
    """
    if isinstance(event, Undo):
        if state.done is None:
            raise NothingToUndo("nothing to undo: no event is left to take back"
                                + (" (everything is already undone)" if state.undone else ""), "nothing_to_undo",
                                note=" (everything is already undone)" if state.undone else "")
        step, rest = state.done
        return State(step.before, rest, (step, state.undone))
    if isinstance(event, Redo):
        if state.undone is None:
            raise NothingToRedo("nothing to redo: no undo since the last scoring event", "nothing_to_redo")
        step, rest = state.undone
        return State(step.after, (step, state.done), rest)
    after = _new_match(state.match, event) if isinstance(event, NewMatch) else _score(state.match, event, strict)
    return State(after, (Applied(event, state.match, after), state.done), None)


def apply(state: State, event: Event) -> tuple[State, Change]:
    """The state after `event` and what changed (for an undo: the awards taken back, negated)."""
    after = advance(state, event, strict=True)
    if isinstance(event, Undo):
        assert after.undone is not None, "an undo that took effect leaves the step it undid"
        step = after.undone[0]
        before = step.before  # None for a new match, which has no awards
        awards = () if before is None else tuple(
            replace(a, points=-a.points, total=before.total(a.player)) for a in step.awards)
        return after, Change(event, after.match, awards, target=step.event)
    assert after.done is not None, "an event that took effect leaves its step"
    step = after.done[0]
    return after, Change(event, after.match, step.awards, target=step.event if isinstance(event, Redo) else None,
                         ended_game=step.ended_game)


def fold(events: Iterable[Event], state: State = State(), strict: bool = False) -> State:
    """Apply `events` in order from `state` (an empty journal by default); `strict` as in `advance`."""
    for event in events:
        state = advance(state, event, strict)
    return state
