"""Typed entries → events: verbs, player names by unique prefix, counts (shared by CLI and play)."""

from __future__ import annotations

from typing import Sequence

from scorer.humalien.errors import NoMatch, ScoreError
from scorer.humalien.events import (
    AngelCut, Event, Finish, Flow, Foul, GodIsland, NewMatch, Redo, SixSixSix, Skull, Undo,
)
from scorer.humalien.fold import State
from scorer.humalien.sheet import Match, resolve_player
from scorer.names import plain_name
from scorer.counts import whole_number

SCORING_VERBS = ("flow", "skull", "666", "god-island", "angel-cut", "finish", "foul")
VERBS = ("new",) + SCORING_VERBS + ("undo", "redo", "show", "say", "help", "quit")
ALIASES = {
    "f": "flow", "s": "skull", "6": "666", "g": "god-island", "god": "god-island",
    "a": "angel-cut", "angel": "angel-cut", "ac": "angel-cut", "fi": "finish", "fo": "foul",
    "u": "undo", "r": "redo", "q": "quit", "exit": "quit", "?": "help",
}
# Each verb's arguments and alias; what it does is in the voice packs (`score.help`).
USAGE = {
    "new": "new ALICE BOB [--remote] [--abandon]",
    "flow": "flow PLAYER [PILES]   (f)",
    "skull": "skull PLAYER [CARDS]  (s)",
    "666": "666 PLAYER [PILES]    (6)",
    "god-island": "god-island PLAYER     (g)",
    "angel-cut": "angel-cut PLAYER [--keep-stock [PILES]]  (a)",
    "finish": "finish PLAYER LEFT    (fi)",
    "foul": "foul PLAYER LEFT      (fo)",
    "undo": "undo                  (u)",
    "redo": "redo                  (r)",
    "show": "show",
    "say": "say",
    "help": "help                  (?)",
    "quit": "quit                  (q)",
}


KEEP_STOCK = "--keep-stock"


class BadEntry(ScoreError):
    """A typed entry that names no verb, or has the wrong arguments."""


def resolve_verb(text: str) -> str:
    """The verb `text` names: a verb, an alias, or a unique prefix of a verb."""
    said = text.strip().casefold()
    if said in VERBS:
        return said
    if said in ALIASES:
        return ALIASES[said]
    hits = [v for v in VERBS if said and v.startswith(said)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise BadEntry(f"{text!r} could be {', '.join(hits)}", "command_could_be", command=text,
                       commands=", ".join(hits))
    raise BadEntry(f"unknown command {text!r} (try help)", "unknown_command", command=text)


def parse_count(text: str, what: str) -> int:
    """ASCII or full-width digits (３, as Japanese input methods type them); nothing else."""
    count = whole_number(text)
    if count is None:
        raise BadEntry(f"{what} must be a whole number, not {text!r}", "whole_number", what=what, text=text)
    return count


def match_of(state: State) -> Match:
    if state.match is None:
        raise NoMatch("no match yet: start one with `gm score new ALICE BOB`", "no_match")
    return state.match


def new_match(names: Sequence[str], remote: bool = False, abandon: bool = False) -> NewMatch:
    """A new match from two names, each optionally with a spoken reading: 健=けん."""
    players: list[str] = []
    readings: list[tuple[str, str]] = []
    for spec in names:
        name, equals, reading = spec.partition("=")
        players.append(plain_name(name))
        if equals:  # "Al=" names no reading: refused, not taken as "Al"
            readings.append((players[-1], plain_name(reading, f"reading for {name.strip()!r}")))
    if len(players) != 2:
        raise BadEntry(f"a match needs two players, not {len(players)}: {list(names)!r}", "two_players", n=len(players), names=list(names))
    return NewMatch((players[0], players[1]), remote=remote, abandon=abandon, readings=tuple(readings))


def build(verb: str, args: Sequence[str], state: State) -> Event:
    """The event for a scoring verb (or undo/redo) and its typed arguments, against `state`."""
    if verb == "undo":
        return Undo()
    if verb == "redo":
        return Redo()
    if verb == "new":
        flags = {a for a in args if a.startswith("--")}
        if flags - {"--remote", "--abandon"}:
            raise BadEntry(f"usage: {USAGE['new']}", "usage", usage=USAGE["new"])
        return new_match([a for a in args if not a.startswith("--")], "--remote" in flags, "--abandon" in flags)
    if verb not in SCORING_VERBS:
        raise BadEntry(f"{verb!r} is not a scoring command", "not_scoring", command=verb)
    match = match_of(state)
    usage = USAGE[verb].split("  ")[0].strip()
    flags = [a for a in args if a.startswith("--")]
    if flags and (verb != "angel-cut" or flags != [KEEP_STOCK]):
        raise BadEntry(f"usage: {usage}", "usage", usage=usage)
    args = [a for a in args if not a.startswith("--")]
    if verb == "angel-cut":
        if not flags and len(args) > 1:
            raise BadEntry(f"angel-cut takes PILES only with {KEEP_STOCK} "
                           "(a discarded stock leaves all 5 piles empty)", "angel_cut_piles")
        usage = f"angel-cut PLAYER {KEEP_STOCK} [PILES]" if flags else "angel-cut PLAYER"
    words = [word for word in usage.split()[1:] if not word.startswith("--")]
    takes = len(words)
    needed = sum(1 for word in words if not word.startswith("["))
    if not needed <= len(args) <= takes:
        raise BadEntry(f"usage: {usage}", "usage", usage=usage)
    player = resolve_player(match, args[0])
    count = args[1] if len(args) > 1 else None

    def piles() -> int:
        """PILES as typed, else the player's empty piles as last recorded this game."""
        return match.current.piles[match.index(player)] if count is None else parse_count(count, "PILES")

    if verb == "flow":
        return Flow(player, piles())
    if verb == "skull":
        return Skull(player, 1 if count is None else parse_count(count, "CARDS"))
    if verb == "666":
        return SixSixSix(player, piles())
    if verb == "god-island":
        return GodIsland(player)
    if verb == "angel-cut":
        return AngelCut(player, piles() if flags else None)
    if verb == "finish":
        return Finish(player, parse_count(count, "LEFT"))  # type: ignore[arg-type]
    return Foul(player, parse_count(count, "LEFT"))  # type: ignore[arg-type]
