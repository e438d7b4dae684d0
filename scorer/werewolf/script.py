"""The night's script as data: which steps, in which order, with which lines (pure).

Built from the deck and the seating; the runner (gm.night) plays it through its ports.
Players are given in seating order, each followed by the player on their right, so
player i passes a card to player i + 1 (and the last to the first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping, Sequence
from typing import Any

from scorer.werewolf.cards import Card
from scorer.werewolf.decks import VARIANTS, Deck
from scorer.werewolf.refusal import WerewolfRefusal
from scorer.values import Named


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
class NightStep:
    """One step of the night: `kind` tells the runner what to do, `key` names its line."""

    phase: str
    kind: Kind
    key: str
    fields: Mapping[str, Any] = field(default_factory=dict)


def pass_pairs(players: Sequence[str]) -> list[tuple[str, str]]:
    """Who passes a card to whom: each player to the one on their right (the next in order)."""
    return [(giver, players[(i + 1) % len(players)]) for i, giver in enumerate(players)]


def _steps(deck: Deck, phase: str) -> list[NightStep]:
    """The cards' own steps in card order: the abilities in the morning (the apprentice last,
    HW-R3), a reminder each before the discussion."""
    steps = []
    for card in deck.cards:
        line = card.row.morning if phase == "morning" else card.row.day
        if line is None:
            continue
        if card is Card.GRAVEDIGGER and deck.has(Card.DEATH):  # 注意点: said before the gravedigger acts
            steps.append(NightStep(phase, Kind.SAY, "werewolf.death_note"))
        fields = {name: getattr(deck, name) for name in line.fields}
        steps.append(NightStep(phase, Kind.ACTION if phase == "morning" else Kind.SAY, line.at(deck.players), fields))
    return steps


def build_script(
    players: Sequence[str], deck: Deck, discussion_seconds: int, roll_call: bool = False
) -> tuple[NightStep, ...]:
    """The steps of a whole night for `players` (seating order) with `deck`."""
    if len(players) != deck.players:
        raise SetupError(f"the deck is for {deck.players} players but {len(players)} are named", "deck_named",
                         deck=deck.players, players=len(players))
    if discussion_seconds <= 0:
        raise SetupError(f"the discussion must last some time, not {discussion_seconds} s", "no_discussion",
                         secs=discussion_seconds)
    others = [card for card in deck.cards if card is not Card.VILLAGER and deck.count(card)]
    steps = [
        NightStep("setup", Kind.SAY, "werewolf.intro", {"n": len(players), "players": list(players)}),
    ]
    if deck.variant in VARIANTS:
        steps.append(NightStep("setup", Kind.SAY, f"werewolf.regulation_{deck.variant}"))
    steps += [
        NightStep("setup", Kind.WAIT, "werewolf.deal", {
            "total": deck.total, "villagers": deck.count(Card.VILLAGER), "others": others,
            "graveyard": deck.graveyard,
        }),
        NightStep("morning", Kind.SAY, "werewolf.morning"),
        NightStep("morning", Kind.ACTION, "werewolf.pass_right", {"pairs": pass_pairs(players)}),
        NightStep("morning", Kind.SAY, "werewolf.side_rules"),
    ]
    abilities = deck.has(Card.SEER) or deck.has(Card.GRAVEDIGGER)
    both = deck.has(Card.SEER) and deck.has(Card.GRAVEDIGGER)
    if abilities:  # 注意1: an ability user on the werewolf side still uses the ability
        steps.append(NightStep("morning", Kind.SAY, "werewolf.ability_any_side"))
    steps.append(NightStep("morning", Kind.ACTION, "werewolf.lay_down"))
    if both:
        steps.append(NightStep("morning", Kind.SAY, "werewolf.both_abilities"))
    if both:  # nobody fakes an ability; every holder comes forward
        steps.append(NightStep("morning", Kind.SAY, "werewolf.come_forward"))
    elif abilities:  # one ability card in the deck (the 4-player deck: the seer only)
        only = Card.SEER if deck.has(Card.SEER) else Card.GRAVEDIGGER
        steps.append(NightStep("morning", Kind.SAY, "werewolf.come_forward_one", {"card": only}))
    steps += _steps(deck, "morning")
    steps.append(NightStep("morning", Kind.SAY, "werewolf.morning_end"))
    steps += _steps(deck, "day")
    if both:  # 注意2: <昼フェイズ>において … 告白してもよい
        steps.append(NightStep("day", Kind.SAY, "werewolf.may_confess"))
    steps += [
        NightStep("day", Kind.DISCUSSION, "werewolf.day", {"secs": discussion_seconds}),
        NightStep("evening", Kind.VOTE, "werewolf.vote.roll_call_intro" if roll_call else "werewolf.vote.intro"),
        NightStep("end", Kind.REVEAL, "werewolf.reveal.intro"),
    ]
    return tuple(steps)
