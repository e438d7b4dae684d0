"""State of a match = the fold of its events; undo and redo are events too."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Optional, Tuple

from scorer.humalien.errors import (
    BadPlayers, CountOutOfRange, MatchInProgress, MatchOver, NoMatch, NothingToRedo,
    NothingToUndo, SecondSixSixSix,
)
from scorer.humalien.events import (
    AngelCut, Doing, Event, Finish, Flow, Foul, GodIsland, NewMatch, Redo, SixSixSix, Skull,
    Undo, kind_of,
)
from scorer.humalien.sheet import (
    ANGEL_CUT_POINTS, FINISH_BASE, GAMES, GOD_ISLAND_POINTS, MAX_LEFT, MAX_PILES, Ending, Game,
    Match,
)


@dataclass(frozen=True)
class Award:
    """Points one event gave one player: `count` is the piles, cards or cards left it counted."""

    player: str
    how: str
    points: int
    total: int
    game: int
    count: int | None = None
    multiplier: int = 1


@dataclass(frozen=True)
class Step:
    """One event that took effect, with the sheet before and after it."""

    event: Doing
    before: Match | None
    after: Match
    awards: tuple[Award, ...]
    ended_game: int | None = None


Stack = Optional[Tuple[Step, "Stack"]]


@dataclass(frozen=True)
class Change:
    """What one event changed: awards (negative for an undo), the game it ended, the sheet after."""

    event: Event
    match: Match | None
    awards: tuple[Award, ...] = ()
    target: Doing | None = None  # the event an undo took back or a redo put back
    ended_game: int | None = None


@dataclass(frozen=True)
class State:
    """The current sheet plus the undo and redo stacks (persistent, so states are cheap to keep)."""

    match: Match | None = None
    done: Stack = None
    undone: Stack = None


def _count(value: int, low: int, high: int, what: str, context: str) -> int:
    if not low <= value <= high:
        raise CountOutOfRange(f"{what} {value} is out of range {low}–{high} ({context})")
    return value


def _new_match(match: Match | None, event: NewMatch) -> Match:
    names = tuple(p.strip() for p in event.players)
    if len(names) != 2 or not all(names):
        raise BadPlayers(f"a match needs two player names, not {list(event.players)!r}")
    if names[0].casefold() == names[1].casefold():
        raise BadPlayers(f"the two players must differ, not {names[0]!r} twice")
    for name, _ in event.readings:
        if name not in names:
            raise BadPlayers(f"reading given for {name!r}, who is not a player of {names[0]} v {names[1]}")
    if match is not None and not match.over and not event.abandon:
        raise MatchInProgress(
            f"the match {match.title} is in game {match.game} and unfinished: "
            "finish it, or start the new one with --abandon")
    return Match(players=names, remote=event.remote, readings=event.readings)  # type: ignore[arg-type]


def _score(match: Match | None, event: Doing) -> tuple[Match, tuple[Award, ...], int | None]:
    """The sheet after a scoring event, the awards it made, and the game it ended (if any)."""
    kind = kind_of(event)
    if match is None:
        raise NoMatch(f"no match to score {kind} for {event.player!r}: start one with `new`")  # type: ignore[union-attr]
    if match.over:
        raise MatchOver(
            f"the match {match.title} is over ({_result(match)}): no {kind} after game {GAMES}; "
            "undo, or start a new match")
    player: str = event.player  # type: ignore[union-attr]
    i = match.index(player)
    game = match.current
    g = game.number
    where = f"{player}, game {g}"
    count: int | None = None
    scorer = i
    ended: Ending | None = None
    if isinstance(event, Flow):
        count = _count(event.piles, 0, MAX_PILES, "empty piles", where)
        points = count
        piles = list(game.piles)
        piles[i] = count
        game = replace(game, piles=(piles[0], piles[1]))
    elif isinstance(event, Skull):
        count = _count(event.cards, 1, match.max_skull_cards, "skull cards in one play",
                       f"{where}, {'remote' if match.remote else 'one-box'} match")
        points = g * count
    elif isinstance(event, SixSixSix):
        if game.sixes >= match.max_sixes:
            raise SecondSixSixSix(
                f"666 by {player} refused: game {g} already had {game.sixes} 666"
                + (" (one box has only four 6s; a remote match allows two)" if not match.remote
                   else " (two boxes allow at most two)"))
        count = 3
        points = 3 * g
        game = replace(game, sixes=game.sixes + 1)
    elif isinstance(event, GodIsland):
        points = GOD_ISLAND_POINTS
    elif isinstance(event, AngelCut):
        points = ANGEL_CUT_POINTS
        piles = list(game.piles)
        piles[i] = MAX_PILES
        game = replace(game, piles=(piles[0], piles[1]))
    elif isinstance(event, Finish):
        count = _count(event.opponent_left, 0, MAX_LEFT, "opponent's cards left",
                       f"{where}: hand + stock piles of {match.opponent(player)}")
        points = (FINISH_BASE + count) * game.multiplier
        ended = Ending(player, "finish")
    elif isinstance(event, Foul):
        scorer = 1 - i
        count = _count(event.winner_left, 0, MAX_LEFT, "winner's own cards left",
                       f"{where}: hand + stock piles of {match.opponent(player)}")
        # HU-R4: the 666 multiplier applies to a foul finish too.
        points = (FINISH_BASE + count) * game.multiplier
        ended = Ending(player, "foul")
    else:  # pragma: no cover - every Doing kind is handled above
        raise TypeError(f"not a scoring event: {event!r}")
    gained = list(game.points)
    gained[scorer] += points
    game = replace(game, points=(gained[0], gained[1]), ended_by=ended)
    after = match.with_current(game)
    if ended is not None and g < GAMES:
        after = replace(after, games=after.games + (Game(g + 1),))
    award = Award(player=match.players[scorer], how=kind, points=points,
                  total=after.totals[scorer], game=g, count=count, multiplier=game.multiplier)
    return after, (award,), (g if ended else None)


def _result(match: Match) -> str:
    a, b = match.totals
    if a == b:
        return f"a draw at {a}"
    return f"{match.leader} won {max(a, b)} to {min(a, b)}"


def apply(state: State, event: Event) -> tuple[State, Change]:
    """The state after `event` and what changed; a ScoreError (state untouched) if it cannot happen."""
    if isinstance(event, Undo):
        if state.done is None:
            raise NothingToUndo("nothing to undo: no event is left to take back"
                                + (" (everything is already undone)" if state.undone else ""))
        step, rest = state.done
        awards = tuple(
            replace(a, points=-a.points,
                    total=step.before.totals[step.before.index(a.player)] if step.before else 0)
            for a in step.awards)
        return (State(step.before, rest, (step, state.undone)),
                Change(event, step.before, awards, target=step.event))
    if isinstance(event, Redo):
        if state.undone is None:
            raise NothingToRedo("nothing to redo: no undo since the last scoring event")
        step, rest = state.undone
        return (State(step.after, (step, state.done), rest),
                Change(event, step.after, step.awards, target=step.event, ended_game=step.ended_game))
    if isinstance(event, NewMatch):
        after = _new_match(state.match, event)
        awards: tuple[Award, ...] = ()
        ended = None
    else:
        after, awards, ended = _score(state.match, event)
    step = Step(event, state.match, after, awards, ended)
    return State(after, (step, state.done), None), Change(event, after, awards, ended_game=ended)


def fold(events: Iterable[Event], state: State = State()) -> State:
    """Apply `events` in order from `state` (an empty journal by default)."""
    for event in events:
        state, _ = apply(state, event)
    return state
