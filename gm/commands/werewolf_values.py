"""The values gm werewolf's options take: players (`--players`, NAME=reading), name=value pairs
(`--votes`: counts or a roll call) and the deck (`--players`, `--variant`, `--with`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from scorer.values import Refusal
from gm.text.names import BadInput, graveyard_names, parse_card_list, resolve_name
from gm.text.numbers import whole_number
from gm.text.parse import fold, split_list
from scorer.werewolf.tally import GRAVEYARD

if TYPE_CHECKING:
    from gm.text.lines import Pack
    from scorer.werewolf.decks import Deck


class BadPlayers(Refusal):
    """A player list that cannot be used (empty names, duplicates, bad readings); `key` (under the
    voice packs' `errors.players`) and `fields` word it in every language."""

    prefix = "players"


def parse_players(spec: str) -> tuple[list[str], dict[str, str]]:
    """Split "Aki,Ken" or "健=けん,美緒=みお" into names and their spoken readings."""
    from scorer.names import plain_name

    names: list[str] = []
    readings: dict[str, str] = {}
    for item in spec.replace("、", ",").split(","):
        name, _, reading = item.partition("=")
        name, reading = name.strip(), reading.strip()
        if not name:
            raise BadPlayers(f"empty player name in {spec!r}", "empty_name", spec=spec)
        if name.casefold() in (n.casefold() for n in names):
            raise BadPlayers(f"player {name!r} is named twice in {spec!r}", "named_twice", name=name, spec=spec)
        if _ and not reading:
            raise BadPlayers(f"empty reading for player {name!r}", "empty_reading", name=name)
        names.append(plain_name(name))
        if reading:
            readings[name] = plain_name(reading)
    return names, readings


def check_player_names(names: Sequence[str], pack: Pack) -> None:
    """A player may not be named like the graveyard, in any case or language (the vote needs
    both), nor like a word that answers a question in `pack`'s language (done, none, yes,
    no, 完了, 없음, a number), nor like a key the keyboard keeps (r repeats, ? lists): the table
    could never name them. Full-width forms count too."""
    from gm.hearing.keyboard import HELP, REPEAT
    from gm.text.words import Words

    graveyard = {fold(name) for name in graveyard_names()} | {GRAVEYARD}
    words = Words.of(pack).answer_words()
    for name in names:
        said = fold(name)
        if said in graveyard:
            raise BadInput(f"a player cannot be named {name!r}: that is the graveyard's name", "graveyard_name",
                           name=name)
        if said in (REPEAT, HELP, fold("？")):
            raise BadInput(f"a player cannot be named {name!r}: typing {said} repeats the question or lists "
                           "its answers", "keyboard_key", name=name, word=said)
        if said in words or whole_number(said) is not None:
            raise BadInput(f"a player cannot be named {name!r}: it is an answer word ({said})", "answer_word",
                           name=name, word=said)


def player_count(text: str) -> int:
    """`--players` as a count ("4", "４") or as the players' names ("Aki,Ken,Mio,Sora")."""
    number = whole_number(text)
    return number if number is not None else len(parse_players(text)[0])


def deck_for(players: int, variant: str | None = None, swap_ins: str = "") -> Deck:
    """The deck a command plays with: the standard deck for `players`, a variant, swap-ins (HW-R1)."""
    from scorer.werewolf.decks import standard_deck

    return standard_deck(players, variant, parse_card_list(swap_ins))


def parse_pairs(spec: str) -> list[tuple[str, str]]:
    """ "A=2, B=1" or "A 2, B 1" (as a tally is typed at a night's first count) → [("A", "2"),
    ("B", "1")]; each left side at most once (any case)."""
    pairs: list[tuple[str, str]] = []
    for item in split_list(spec):
        left, sep, right = (part.strip() for part in item.partition("="))
        if not sep:  # "A 2": the name's words, then the value
            left, sep, right = item.strip().rpartition(" ")
            left, right = left.strip(), right.strip()
        if not sep or not left or not right:
            raise BadInput(f"{item!r} is not name=value (in {spec!r})", "not_pair", item=item, spec=spec)
        if left.casefold() in (seen.casefold() for seen, _ in pairs):
            raise BadInput(f"{left!r} is given twice in {spec!r}", "given_twice", name=left, spec=spec)
        pairs.append((left, right))
    if not pairs:
        raise BadInput(f"no name=value pairs in {spec!r}", "no_pairs", spec=spec)
    return pairs


def parse_counts(spec: str, candidates: Sequence[str], aliases: Mapping[str, str] | None = None) -> dict[str, int]:
    """Count mode: "A=2,graveyard=1" → candidate → number of votes."""
    counts: dict[str, int] = {}
    for name, value in parse_pairs(spec):
        candidate = resolve_name(name, candidates, "candidate", aliases)
        if candidate in counts:
            raise BadInput(f"{candidate!r} is given twice in {spec!r}", "given_twice", name=candidate, spec=spec)
        votes = whole_number(value)
        if votes is None:
            raise BadInput(f"votes for {name!r} must be a whole number, not {value!r}", "votes_whole",
                           name=name, value=value)
        counts[candidate] = votes
    return counts


def parse_roll_call(
    spec: str, voters: Sequence[str], candidates: Sequence[str], aliases: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Roll-call mode: "A=B,C=graveyard" → voter → candidate."""
    return {
        resolve_name(voter, voters, "voter"): resolve_name(choice, candidates, "candidate", aliases)
        for voter, choice in parse_pairs(spec)
    }
