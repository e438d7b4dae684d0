"""Typed entries → events: verbs, player names by unique prefix, counts (shared by CLI and play)."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable, Collection, Mapping, Sequence

from scorer.humalien.errors import NoMatch, ScoreError
from scorer.humalien.events import (
    AngelCut, Event, Finish, Flow, Foul, GodIsland, NewMatch, Redo, Scoring, SixSixSix, Skull, Undo,
)
from scorer.humalien.fold import State
from scorer.humalien.sheet import Match, resolve_player
from scorer.values import Named
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
class Said:
    """What a scoring verb was given: the player (a name of the match), the count typed (its
    PILES, CARDS or LEFT; None when left out), --keep-stock, --won's LEFT, the player's empty
    piles as last recorded this game, and the verb's usage (said when LEFT is missing)."""

    player: str
    count: int | None
    keep_stock: bool
    won: int | None
    recorded_piles: int
    usage: str

    def piles(self) -> int:
        """PILES as given, else the player's empty piles as last recorded this game."""
        return self.count if self.count is not None else self.recorded_piles

    def left(self) -> int:
        """LEFT, which the verb needs."""
        if self.count is None:
            raise BadEntry(f"usage: {self.usage}", "usage", usage=self.usage)
        return self.count


@dataclass(frozen=True)
class Verb:
    """A command of `gm score play` (and of `gm score`): its arguments, flags and aliases; what it
    does is in the voice packs (`score.help.<name>`). A scoring verb carries its `event`, made from
    what was said; `entry` makes the event a typed entry appends (None: the verb appends nothing);
    `flagless`: the refusal of a count typed without the flag that takes it."""

    name: str
    args: tuple[Arg, ...] = ()
    flags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    event: Callable[[Said], Scoring] | None = None
    entry: Callable[[Verb, Sequence[str], State], Event] | None = None
    flagless: Callable[[], BadEntry] | None = None

    @property
    def scoring(self) -> bool:
        return self.event is not None

    @property
    def count_flag(self) -> str | None:
        """The flag its count (PILES, CARDS or LEFT) is typed after; None: typed after PLAYER."""
        return next((arg.flag for arg in self.args if arg.kind == ArgKind.COUNT and arg.flag != WON), None)

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


class BadEntry(ScoreError):
    """A typed entry that names no verb, or has the wrong arguments."""


def _angel_cut_piles() -> BadEntry:
    return BadEntry(f"angel-cut takes PILES only with {KEEP_STOCK} "
                    "(a discarded stock leaves all 5 piles empty)", "angel_cut_piles")


def _angel_cut(said: Said) -> AngelCut:
    if said.count is not None and not said.keep_stock:
        raise _angel_cut_piles()
    return AngelCut(said.player, said.piles() if said.keep_stock else None, said.won)


def _scoring_entry(spec: Verb, args: Sequence[str], state: State) -> Event:
    """The event of a scoring verb from its typed words: PLAYER, then its counts and flags."""
    match_of(state)
    groups = _grouped(spec, args)
    flags = [flag for flag in groups if flag is not None]
    if spec.flagless is not None and not flags and len(groups[None]) > 1:
        raise spec.flagless()
    typed = _typed(spec, groups, flags)
    player = next(text for arg, text in typed if arg.kind == ArgKind.PLAYER)
    counts = {arg.flag: parse_count(text, arg.name) for arg, text in typed if arg.kind == ArgKind.COUNT}
    return scored(spec.name, state, player, counts.get(spec.count_flag), keep_stock=KEEP_STOCK in flags,
                  won=counts.get(WON))


def _typed(spec: Verb, groups: Mapping[str | None, Sequence[str]], flags: Sequence[str]) -> list[tuple[Arg, str]]:
    """Each word with the argument it gives: as many as each flag (or none) takes."""
    typed: list[tuple[Arg, str]] = []
    for flag, words in groups.items():
        wanted = [arg for arg in spec.args if arg.flag == flag]
        needed = sum(1 for arg in wanted if not arg.optional)
        if not needed <= len(words) <= len(wanted):
            usage = spec.synopsis(flags)
            raise BadEntry(f"usage: {usage}", "usage", usage=usage)
        typed += zip(wanted, words)
    return typed


def _new_entry(spec: Verb, args: Sequence[str], state: State) -> Event:
    given = {a for a in args if a.startswith("--")}
    if given - set(spec.flags):
        raise BadEntry(f"usage: {spec.usage()}", "usage", usage=spec.usage())
    return new_match([a for a in args if not a.startswith("--")], "--remote" in given, "--abandon" in given)


VERB_TABLE: tuple[Verb, ...] = (
    Verb("new", (Arg("ALICE", ArgKind.NAME), Arg("BOB", ArgKind.NAME)), ("--remote", "--abandon"), entry=_new_entry),
    Verb("flow", (_PLAYER, Arg("PILES", ArgKind.COUNT, optional=True)), aliases=("f",),
         event=lambda said: Flow(said.player, said.piles()), entry=_scoring_entry),
    Verb("skull", (_PLAYER, Arg("CARDS", ArgKind.COUNT, optional=True)), aliases=("s",),
         event=lambda said: Skull(said.player, 1 if said.count is None else said.count), entry=_scoring_entry),
    Verb("666", (_PLAYER, Arg("PILES", ArgKind.COUNT, optional=True)), aliases=("6",),
         event=lambda said: SixSixSix(said.player, said.piles()), entry=_scoring_entry),
    Verb("god-island", (_PLAYER,), aliases=("g", "god"),
         event=lambda said: GodIsland(said.player), entry=_scoring_entry),
    Verb("angel-cut", (_PLAYER, Arg("PILES", ArgKind.COUNT, optional=True, flag=KEEP_STOCK),
                       Arg("LEFT", ArgKind.COUNT, flag=WON)), (KEEP_STOCK, WON),
         aliases=("a", "angel", "ac"), event=_angel_cut, entry=_scoring_entry, flagless=_angel_cut_piles),
    Verb("finish", (_PLAYER, Arg("LEFT", ArgKind.COUNT)), aliases=("fi",),
         event=lambda said: Finish(said.player, said.left()), entry=_scoring_entry),
    Verb("foul", (_PLAYER, Arg("LEFT", ArgKind.COUNT)), aliases=("fo",),
         event=lambda said: Foul(said.player, said.left()), entry=_scoring_entry),
    Verb("undo", aliases=("u",), entry=lambda spec, args, state: Undo()),
    Verb("redo", aliases=("r",), entry=lambda spec, args, state: Redo()),
    Verb("show"),
    Verb("say"),
    Verb("help", aliases=("?",)),
    Verb("quit", aliases=("q", "exit")),
)
VERBS_BY_NAME = {verb.name: verb for verb in VERB_TABLE}
VERBS = tuple(VERBS_BY_NAME)
ALIASES = {alias: verb.name for verb in VERB_TABLE for alias in verb.aliases}


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
    """The event a typed entry of `verb` (a scoring verb, new, undo or redo) appends, against `state`."""
    spec = VERBS_BY_NAME.get(verb)
    if spec is None or spec.entry is None:
        raise BadEntry(f"{verb!r} is not a scoring command", "not_scoring", command=verb)
    return spec.entry(spec, args, state)


def scored(verb: str, state: State, player: str, count: int | None = None, *, keep_stock: bool = False,
           won: int | None = None) -> Event:
    """The event of scoring verb `verb` for `player` (a name or a unique prefix of one) against
    `state`: `count` is its PILES, CARDS or LEFT (PILES left out: as last recorded this game);
    angel-cut takes PILES only with `keep_stock`, and `won` (the opponent's cards left) when the
    cut wins the game."""
    match = match_of(state)
    name = resolve_player(match, player)
    spec = VERBS_BY_NAME.get(verb)
    if spec is None or spec.event is None:
        raise BadEntry(f"{verb!r} is not a scoring command", "not_scoring", command=verb)
    return spec.event(Said(name, count, keep_stock, won, match.current.piles[match.index(name)], spec.usage()))
