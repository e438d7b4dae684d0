"""The night's script as data: which steps, in which order, with which lines (pure).

Built from the deck and the seating; the runner (gm.night) plays it through its ports.
Players are given in seating order, each followed by the player on their right, so
player i passes a card to player i + 1 (and the last to the first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping, Sequence
from typing import Any

from scorer.werewolf.decks import Deck
from scorer.werewolf.refusal import WerewolfRefusal
from scorer.named import Named


class Kind(Named):
    """What the runner does with a step. ACTION goes on by itself after a pause unless "done"
    comes first; WAIT waits for "done"."""

    SAY = "say"
    ACTION = "action"
    WAIT = "wait"
    DISCUSSION = "discussion"
    VOTE = "vote"
    REVEAL = "reveal"



class SetupError(WerewolfRefusal):
    """A night that cannot be run with these players and this deck."""


@dataclass(frozen=True)
class Step:
    """One step of the night: `kind` tells the runner what to do, `key` names its line."""

    phase: str
    kind: Kind
    key: str
    fields: Mapping[str, Any] = field(default_factory=dict)


def pass_pairs(players: Sequence[str]) -> list[tuple[str, str]]:
    """Who passes a card to whom: each player to the one on their right (the next in order)."""
    return [(giver, players[(i + 1) % len(players)]) for i, giver in enumerate(players)]


def build_script(
    players: Sequence[str], deck: Deck, discussion_seconds: int, roll_call: bool = False
) -> tuple[Step, ...]:
    """The steps of a whole night for `players` (seating order) with `deck`."""
    if len(players) != deck.players:
        raise SetupError(f"the deck is for {deck.players} players but {len(players)} are named", "deck_named",
                         deck=deck.players, players=len(players))
    if discussion_seconds <= 0:
        raise SetupError(f"the discussion must last some time, not {discussion_seconds} s", "no_discussion",
                         secs=discussion_seconds)
    four = deck.players == 4
    others = [card for card in deck.cards if card != "villager" and deck.count(card)]
    steps = [
        Step("setup", Kind.SAY, "werewolf.intro", {"n": len(players), "players": list(players)}),
    ]
    if deck.variant == "magician":
        steps.append(Step("setup", Kind.SAY, "werewolf.regulation_magician"))
    if deck.variant == "dead":
        steps.append(Step("setup", Kind.SAY, "werewolf.regulation_dead"))
    steps += [
        Step("setup", Kind.WAIT, "werewolf.deal", {
            "total": deck.total, "villagers": deck.count("villager"), "others": others,
            "graveyard": deck.graveyard,
        }),
        Step("morning", Kind.SAY, "werewolf.morning"),
        Step("morning", Kind.ACTION, "werewolf.pass_right", {"pairs": pass_pairs(players)}),
        Step("morning", Kind.SAY, "werewolf.side_rules"),
    ]
    abilities = deck.has("seer") or deck.has("gravedigger")
    both = deck.has("seer") and deck.has("gravedigger")
    if abilities:  # 注意1: an ability user on the werewolf side still uses the ability
        steps.append(Step("morning", Kind.SAY, "werewolf.ability_any_side"))
    steps.append(Step("morning", Kind.ACTION, "werewolf.lay_down"))
    if both:
        steps.append(Step("morning", Kind.SAY, "werewolf.both_abilities"))
    if both:  # nobody fakes an ability; every holder comes forward
        steps.append(Step("morning", Kind.SAY, "werewolf.come_forward"))
    elif abilities:  # one ability card in the deck (the 4-player deck: the seer only)
        only = "seer" if deck.has("seer") else "gravedigger"
        steps.append(Step("morning", Kind.SAY, "werewolf.come_forward_one", {"card": only}))
    if deck.has("seer"):
        steps.append(Step("morning", Kind.ACTION, "werewolf.seer_one" if four else "werewolf.seer_two"))
    if deck.has("gravedigger"):
        if deck.has("death"):  # 注意点: said before the gravedigger acts
            steps.append(Step("morning", Kind.SAY, "werewolf.death_note"))
        steps.append(Step("morning", Kind.ACTION, "werewolf.gravedigger", {"graveyard": deck.graveyard}))
    if deck.has("apprentice"):  # HW-R3: the apprentice acts last in the morning
        steps.append(Step("morning", Kind.ACTION, "werewolf.apprentice"))
    steps.append(Step("morning", Kind.SAY, "werewolf.morning_end"))
    if deck.has("gorilla"):
        steps.append(Step("day", Kind.SAY, "werewolf.gorilla"))
    if deck.has("angel"):
        steps.append(Step("day", Kind.SAY, "werewolf.angel"))
    if both:  # 注意2: <昼フェイズ>において … 告白してもよい
        steps.append(Step("day", Kind.SAY, "werewolf.may_confess"))
    steps += [
        Step("day", Kind.DISCUSSION, "werewolf.day", {"secs": discussion_seconds}),
        Step("evening", Kind.VOTE, "werewolf.vote.roll_call_intro" if roll_call else "werewolf.vote.intro"),
        Step("end", Kind.REVEAL, "werewolf.reveal.intro"),
    ]
    return tuple(steps)
