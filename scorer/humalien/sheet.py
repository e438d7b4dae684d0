"""The score sheet of one match: games, points per player, multipliers, who ended each game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorer.humalien.errors import UnknownPlayer
from scorer.humalien.events import Kind

GAMES = 3  # 全３戦
MAX_PILES = 5
MAX_HAND = 10  # １０枚ずつ手札: a hand never grows
MAX_STOCK = 20  # 5 piles of 4
MAX_LEFT = MAX_HAND + MAX_STOCK
SIXES_PER_BOX = 4  # 数字カード５２枚: four 6s (ドクロ)
HUMALIENS_PER_BOX = 2
FINISH_BASE = 5
GOD_ISLAND_POINTS = 30
ANGEL_CUT_POINTS = 5  # the forced flow with all five piles gone


@dataclass(frozen=True, slots=True)
class Ending:
    """Who ended a game and how: FINISH (they went out) or FOUL (they fouled; the opponent scored)."""

    player: str
    how: Kind


@dataclass(frozen=True, slots=True)
class Game:
    number: int
    points: tuple[int, int] = (0, 0)
    sixes: int = 0  # 666s played in this game
    piles: tuple[int, int] = (0, 0)  # last recorded empty piles of each player
    god_islands: int = 0
    angel_cuts: int = 0
    ended_by: Ending | None = None
    skull_cards: int = 0  # 6s and Humaliens played: skull cards, three per 666 (HU-R6)
    least_sixes: int = 0  # the fewest 6s those plays hold: one per skull play, three per 666
    can_hold: tuple[int, int] = (MAX_LEFT, MAX_LEFT)  # the most cards each player can still hold

    @property
    def multiplier(self) -> int:
        """End points are multiplied by 3 per 666 in the game (×9 after two, remote only)."""
        times: int = 3 ** self.sixes  # a whole number: sixes is never negative
        return times


@dataclass(frozen=True, slots=True)
class Match:
    players: tuple[str, str]
    remote: bool = False
    games: tuple[Game, ...] = (Game(1),)
    readings: tuple[tuple[str, str], ...] = ()

    @property
    def current(self) -> Game:
        return self.games[-1]

    @property
    def game(self) -> int:
        return self.current.number

    @property
    def over(self) -> bool:
        return self.current.number == GAMES and self.current.ended_by is not None

    @property
    def max_skull_cards(self) -> int:
        """HU-R3: 4 sixes + 2 Humaliens in one box; with two boxes a player's hand comes from
        their own box and their stock from the other's, so one play may hold 8 sixes + 4 Humaliens."""
        return self.boxes * (SIXES_PER_BOX + HUMALIENS_PER_BOX)

    @property
    def max_game_sixes(self) -> int:
        """The 6s one game holds: four per box (HU-R6)."""
        return self.boxes * SIXES_PER_BOX

    @property
    def boxes(self) -> int:
        """Boxes in play: one, or one per player in remote play."""
        return 2 if self.remote else 1

    @property
    def max_sixes(self) -> int:
        """A 666 takes three of the four 6s in a box: one per game, two in remote play."""
        return self.boxes

    @property
    def totals(self) -> tuple[int, int]:
        return (sum(g.points[0] for g in self.games), sum(g.points[1] for g in self.games))

    def total(self, player: str) -> int:
        return self.totals[self.index(player)]

    def index(self, player: str) -> int:
        if player == self.players[0]:
            return 0
        if player == self.players[1]:
            return 1
        raise UnknownPlayer(f"no player {player!r} in the match {self.title}", "no_player",
                            player=player, match=self.title)

    def opponent(self, player: str) -> str:
        return self.players[1 - self.index(player)]

    @property
    def title(self) -> str:
        return f"{self.players[0]} v {self.players[1]}"

    @property
    def leader(self) -> str | None:
        a, b = self.totals
        return None if a == b else self.players[0 if a > b else 1]

    @property
    def winner(self) -> str | None:
        """The match winner once game 3 ended; None before, and on equal totals (HU-R1: a draw)."""
        return self.leader if self.over else None

    @property
    def draw(self) -> bool:
        return self.over and self.leader is None

    def to_dict(self) -> dict[str, Any]:
        """The sheet as JSON-ready data (the `gm score show --json` contract)."""
        names = self.players
        return {
            "players": list(names),
            "remote": self.remote,
            "game": self.game,
            "over": self.over,
            "games": [
                {
                    "number": g.number,
                    "points": dict(zip(names, g.points)),
                    "multiplier": g.multiplier,
                    "ended_by": None if g.ended_by is None
                    else {"player": g.ended_by.player, "how": g.ended_by.how},
                }
                for g in self.games
            ],
            "totals": dict(zip(names, self.totals)),
            "winner": self.winner,
            "draw": self.draw,
        }


def resolve_player(match: Match, text: str) -> str:
    """The player `text` names: exact name or reading in any case, else a unique prefix of either
    (け → 健 when 健 reads けん); UnknownPlayer otherwise."""
    said = text.strip().casefold()
    spellings = [(p.casefold(), p) for p in match.players]
    spellings += [(r.casefold(), p) for p, r in dict(match.readings).items()]
    exact = [p for spelt, p in spellings if spelt == said]
    if exact:
        return exact[0]
    hits = list(dict.fromkeys(p for spelt, p in spellings if said and spelt.startswith(said)))
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise UnknownPlayer(f"player {text!r} could be {hits[0]} or {hits[1]} in the match {match.title}",
                            "player_could_be", player=text, a=hits[0], b=hits[1], match=match.title)
    raise UnknownPlayer(f"no player {text!r} in the match {match.title}", "no_player", player=text, match=match.title)
