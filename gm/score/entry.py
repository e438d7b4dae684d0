"""Typed entries → events: verbs, player names by unique prefix, counts (shared by CLI and play)."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Collection, Mapping, Sequence

from scorer.humalien.errors import NoMatch, ScoreError
from scorer.humalien.events import (
    AngelCut, Event, Finish, Flow, Foul, GodIsland, NewMatch, Redo, SixSixSix, Skull, Undo,
)
from scorer.humalien.fold import State
from scorer.humalien.sheet import Match, resolve_player
from scorer.named import Named
from scorer.names import plain_name
from gm.text.numbers import signed_number, whole_number
from gm.text.parse import fold


class ArgKind(Named):
    """What a verb's argument is: a player (by unique prefix), a new player's NAME[=reading], a count."""

    PLAYER = "player"
    NAME = "name"
    COUNT = "count"


@dataclass(frozen=True)
class Arg:
    """One argument of a verb: `flag` = given only with that flag (PILES after --keep-stock)."""

    name: str
    kind: ArgKind
    optional: bool = False
    flag: str | None = None

    def usage(self) -> str:
        return f"[{self.name}]" if self.optional else self.name


@dataclass(frozen=True)
class Verb:
    """A command of `gm score play` (and of `gm score`): its arguments, flags and aliases; what it
    does is in the voice packs (`score.help.<name>`). `scoring` verbs append an event."""

    name: str
    args: tuple[Arg, ...] = ()
    flags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    scoring: bool = False

    def args_with(self, flags: Collection[str]) -> tuple[Arg, ...]:
        """The arguments taken when `flags` are given."""
        return tuple(arg for arg in self.args if arg.flag is None or arg.flag in flags)

    def synopsis(self, flags: Collection[str] = ()) -> str:
        """ "angel-cut PLAYER --keep-stock [PILES]": the verb as typed with `flags`."""
        words = [self.name, *(arg.usage() for arg in self.args if arg.flag is None)]
        for flag in self.flags:
            if flag in flags:
                words += [flag, *(arg.usage() for arg in self.args if arg.flag == flag)]
        return " ".join(words)

    def usage(self) -> str:
        """ "angel-cut PLAYER [--keep-stock [PILES]]": every form, for help and errors."""
        words = [self.name, *(arg.usage() for arg in self.args if arg.flag is None)]
        for flag in self.flags:
            words.append("[" + " ".join([flag, *(arg.usage() for arg in self.args if arg.flag == flag)]) + "]")
        return " ".join(words)

    def help_usage(self) -> str:
        """The usage with the short alias: "flow PLAYER [PILES]   (f)"."""
        return f"{self.usage():<20}  ({self.aliases[0]})" if self.aliases else self.usage()


KEEP_STOCK = "--keep-stock"
WON = "--won"
_PLAYER = Arg("PLAYER", ArgKind.PLAYER)

VERB_TABLE: tuple[Verb, ...] = (
    Verb("new", (Arg("ALICE", ArgKind.NAME), Arg("BOB", ArgKind.NAME)), ("--remote", "--abandon")),
    Verb("flow", (_PLAYER, Arg("PILES", ArgKind.COUNT, optional=True)), aliases=("f",), scoring=True),
    Verb("skull", (_PLAYER, Arg("CARDS", ArgKind.COUNT, optional=True)), aliases=("s",), scoring=True),
    Verb("666", (_PLAYER, Arg("PILES", ArgKind.COUNT, optional=True)), aliases=("6",), scoring=True),
    Verb("god-island", (_PLAYER,), aliases=("g", "god"), scoring=True),
    Verb("angel-cut", (_PLAYER, Arg("PILES", ArgKind.COUNT, optional=True, flag=KEEP_STOCK),
                       Arg("LEFT", ArgKind.COUNT, flag=WON)), (KEEP_STOCK, WON),
         aliases=("a", "angel", "ac"), scoring=True),
    Verb("finish", (_PLAYER, Arg("LEFT", ArgKind.COUNT)), aliases=("fi",), scoring=True),
    Verb("foul", (_PLAYER, Arg("LEFT", ArgKind.COUNT)), aliases=("fo",), scoring=True),
    Verb("undo", aliases=("u",)),
    Verb("redo", aliases=("r",)),
    Verb("show"),
    Verb("say"),
    Verb("help", aliases=("?",)),
    Verb("quit", aliases=("q", "exit")),
)
VERBS_BY_NAME = {verb.name: verb for verb in VERB_TABLE}
VERBS = tuple(VERBS_BY_NAME)
ALIASES = {alias: verb.name for verb in VERB_TABLE for alias in verb.aliases}


class BadEntry(ScoreError):
    """A typed entry that names no verb, or has the wrong arguments."""


def resolve_verb(text: str, words: Mapping[str, str] | None = None) -> str:
    """The verb `text` names: a verb, an alias, a word of the night's language for it (`words`:
    the pack's word → verb, `verb_words`), or a unique prefix of a verb or of such a word."""
    said = fold(text)
    local = {fold(word): verb for word, verb in (words or {}).items()}
    if said in VERBS:
        return said
    if said in ALIASES:
        return ALIASES[said]
    if said in local:
        return local[said]
    hits = sorted({v for v in VERBS if said and v.startswith(said)}
                  | {v for w, v in local.items() if said and w.startswith(said)})
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise BadEntry(f"{text!r} could be {', '.join(hits)}", "command_could_be", command=text,
                       commands=", ".join(hits))
    raise BadEntry(f"unknown command {text!r} (try help)", "unknown_command", command=text)


def parse_count(text: str, what: str) -> int:
    """ASCII or full-width digits (３, as Japanese input methods type them), perhaps after a minus
    sign (the score sheet then says the count's range); nothing else."""
    count = signed_number(text)
    if count is None:
        raise BadEntry(f"{what} must be a whole number, not {text!r}", "whole_number", what=what, text=text)
    return count


def _is_flag(word: str) -> bool:
    return word.startswith("--") and whole_number(word[2:]) is None


def _grouped(spec: Verb, words: Sequence[str]) -> dict[str | None, list[str]]:
    """The words of an entry by the flag they follow (None: before any flag). Values typed before
    the flags that take them ("a alice 3 --keep-stock") go to the first flag given."""
    groups: dict[str | None, list[str]] = {None: []}
    current: str | None = None
    for word in words:
        if _is_flag(word):
            if word not in spec.flags or word in groups:
                raise BadEntry(f"usage: {spec.usage()}", "usage", usage=spec.usage())
            current = word
            groups[word] = []
        else:
            groups[current].append(word)
    base = sum(1 for arg in spec.args if arg.flag is None)
    flags = [flag for flag in groups if flag is not None]
    if len(groups[None]) > base and flags:
        groups[flags[0]][:0] = groups[None][base:]
        del groups[None][base:]
    return groups


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
        raise BadEntry(f"a match needs two players, not {len(players)}: {list(names)!r}", "two_players",
                       n=len(players), names=list(names))
    return NewMatch((players[0], players[1]), remote=remote, abandon=abandon, readings=tuple(readings))


def build(verb: str, args: Sequence[str], state: State) -> Event:
    """The event for a scoring verb (or undo/redo) and its typed arguments, against `state`."""
    if verb == "undo":
        return Undo()
    if verb == "redo":
        return Redo()
    spec = VERBS_BY_NAME.get(verb)
    if spec is not None and verb == "new":
        given = {a for a in args if a.startswith("--")}
        if given - set(spec.flags):
            raise BadEntry(f"usage: {spec.usage()}", "usage", usage=spec.usage())
        return new_match([a for a in args if not a.startswith("--")], "--remote" in given, "--abandon" in given)
    if spec is None or not spec.scoring:
        raise BadEntry(f"{verb!r} is not a scoring command", "not_scoring", command=verb)
    match_of(state)
    groups = _grouped(spec, args)
    flags = [flag for flag in groups if flag is not None]
    if verb == "angel-cut" and not flags and len(groups[None]) > 1:
        raise BadEntry(f"angel-cut takes PILES only with {KEEP_STOCK} "
                       "(a discarded stock leaves all 5 piles empty)", "angel_cut_piles")
    typed: list[tuple[Arg, str]] = []
    for flag, words in groups.items():
        wanted = [arg for arg in spec.args if arg.flag == flag]
        needed = sum(1 for arg in wanted if not arg.optional)
        if not needed <= len(words) <= len(wanted):
            usage = spec.synopsis(flags)
            raise BadEntry(f"usage: {usage}", "usage", usage=usage)
        typed += zip(wanted, words)
    player = next(text for arg, text in typed if arg.kind == ArgKind.PLAYER)
    counts = {arg.flag: parse_count(text, arg.name) for arg, text in typed if arg.kind == ArgKind.COUNT}
    count = counts.get(KEEP_STOCK if verb == "angel-cut" else None)
    return scored(verb, state, player, count, keep_stock=KEEP_STOCK in flags, won=counts.get(WON))


def scored(verb: str, state: State, player: str, count: int | None = None, *, keep_stock: bool = False,
           won: int | None = None) -> Event:
    """The event of scoring verb `verb` for `player` (a name or a unique prefix of one) against
    `state`: `count` is its PILES, CARDS or LEFT (PILES left out: as last recorded this game);
    angel-cut takes PILES only with `keep_stock`, and `won` (the opponent's cards left) when the
    cut wins the game."""
    match = match_of(state)
    name = resolve_player(match, player)

    def piles() -> int:
        """PILES as given, else the player's empty piles as last recorded this game."""
        return count if count is not None else match.current.piles[match.index(name)]

    if verb == "flow":
        return Flow(name, piles())
    if verb == "skull":
        return Skull(name, 1 if count is None else count)
    if verb == "666":
        return SixSixSix(name, piles())
    if verb == "god-island":
        return GodIsland(name)
    if verb == "angel-cut":
        if count is not None and not keep_stock:
            raise BadEntry(f"angel-cut takes PILES only with {KEEP_STOCK} "
                           "(a discarded stock leaves all 5 piles empty)", "angel_cut_piles")
        return AngelCut(name, piles() if keep_stock else None, won)
    if count is None:
        usage = VERBS_BY_NAME[verb].usage()
        raise BadEntry(f"usage: {usage}", "usage", usage=usage)
    if verb == "finish":
        return Finish(name, count)
    if verb == "foul":
        return Foul(name, count)
    raise BadEntry(f"{verb!r} is not a scoring command", "not_scoring", command=verb)
