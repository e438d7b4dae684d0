"""What a new table hears before its first night: each card of the deck in play and the night's
flow, one or two sentences each (the rulebook's 役職サマリ and ゲームの流れサマリ)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scorer.werewolf.cards import Card
from scorer.werewolf.decks import Deck

DISCUSSION = 180  # the book's three minutes (「3分間の話し合いの時間です」)


@dataclass(frozen=True)
class LessonLine:
    """One line of the lesson: a voice-pack key and its fields."""

    key: str
    fields: dict[str, Any] = field(default_factory=dict)


def lesson(deck: Deck, discussion: int = DISCUSSION) -> list[LessonLine]:
    """The lines that explain `deck`: set-up, the morning, each card, the day, the vote."""
    steps = [LessonLine("werewolf.teach.setup", {"graveyard": deck.graveyard}), LessonLine("werewolf.teach.morning")]
    for card in deck.cards:
        steps.append(LessonLine(card.teach(deck.players)))
        if card is Card.TRAITOR and deck.has(Card.WEREWOLF):
            steps.append(LessonLine("werewolf.teach.traitor_werewolf"))
    steps += [LessonLine("werewolf.teach.day", {"secs": discussion}), LessonLine("werewolf.teach.vote")]
    if deck.players == 4:
        steps.append(LessonLine("werewolf.teach.four_players"))
    return steps
