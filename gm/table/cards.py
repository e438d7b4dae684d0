"""Questions answered with cards: one card of the deck, the cards of one hand (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping

from gm.ports import Kind, Line, Refused
from gm.text.words import nearest, segment
from gm.table.asked import Asked
from scorer.werewolf.cards import Card


@dataclass(frozen=True)
class WhichCard(Asked[Card]):
    """One card of the deck in play (`answers`), by any language's name or reading."""

    owner: str = ""

    def read(self, words: list[str]) -> Card | None:
        card = self.words.card(words)
        return card if card in self.answers else None

    def refusal(self, text: str, words: list[str]) -> Refused:
        card = self.words.card(words)
        if card is not None:
            return self.refused("table.not_in_deck", text=text, card=self.pack.line(f"werewolf.cards.{card}"))
        return super().refusal(text, words)

    def spellings(self) -> Mapping[str, str]:
        return {**super().spellings(), **{n: c for n, c in self.words.cards.items() if c in self.answers}}

    def readback(self, value: Card, sure: bool = True) -> Line | None:
        if self.owner:
            return self.pack.line("listen.confirm_named", name=self.owner, answer=self.show(value))
        return self.pack.line("listen.confirm", answer=self.show(value))

    def tip(self) -> str:
        return self.pack.text("table.hint_card")


@dataclass(frozen=True)
class Hand(Asked["tuple[Card, ...]"]):
    """The `size` cards of one hand (or the graveyard) in one line: "werewolf villager",
    "人狼 村人", "werewolf, villager", "人狼村人". Its tokens are the ordered pairs "werewolf
    villager"; `cards` are the deck's cards."""

    cards: tuple[Card, ...] = ()
    size: int = 2
    owner: str = ""
    doubles: tuple[Card, ...] | None = None  # the cards the deck holds two of (None: any)

    def read(self, words: list[str]) -> tuple[Card, ...] | None:
        found = segment(words, self.words.card) or self._glued(words)
        if found is None or len(found) != self.size or not set(found) <= set(self.cards):
            return None
        return tuple(found)

    def _glued(self, words: list[str]) -> list[Card] | None:
        """Two names with nothing between them (人狼村人)."""
        text = "".join(words)
        for cut in range(1, len(text)):
            first, second = self.words.card([text[:cut]]), self.words.card([text[cut:]])
            if first and second:
                return [first, second]
        return None

    def refusal(self, text: str, words: list[str]) -> Refused:
        found = segment(words, self.words.card) or self._glued(words)
        if found is not None and len(found) != self.size:
            return self.refused("table.hand_size", text=text, n=self.size, example=self.example())
        if found is not None:
            wrong = next(c for c in found if c not in self.cards)
            return self.refused("table.not_in_deck", text=text, card=self.pack.line(f"werewolf.cards.{wrong}"))
        return super().refusal(text, words)

    def near(self, said: str) -> str | None:
        return None

    def value_of(self, token: str, kind: Kind, who: str, n: int) -> tuple[Card, ...] | Refused:
        ids = token.split()  # the table's token of a hand: its cards' ids
        deck = self.deck()
        if len(ids) == self.size and set(ids) <= set(deck):
            return tuple(deck[card] for card in ids)
        return super().value_of(token, kind, who, n)

    def deck(self) -> dict[str, Card]:
        """The deck's cards by id."""
        return {str(card): card for card in self.cards}

    def parts(self) -> Mapping[str, str]:
        return {name: card for name, card in self.words.cards.items() if card in self.cards}

    def part_label(self, token: str) -> str:
        return self.pack.text(f"werewolf.cards.{token}")

    def example(self) -> str:
        return " ".join(self.pack.text(f"werewolf.cards.{c}") for c in self.cards[:self.size])

    def readback(self, value: tuple[Card, ...], sure: bool = True) -> Line | None:
        cards = [self.pack.line(f"werewolf.cards.{c}") for c in value]
        if self.owner:
            return self.pack.line("listen.confirm_hand", name=self.owner, cards=cards)
        return self.pack.line("listen.confirm", answer=self.show(value))

    def show(self, value: tuple[Card, ...]) -> str:
        return " ".join(self.pack.text(f"werewolf.cards.{c}") for c in value)

    def rest(self, words: list[str]) -> RestOfHand | None:
        """Where `words` name one card of a two-card hand alone ("werewolf" for "werewolf and
        seer", the rest lost in the room), the question for the other one, as a game master asks
        who caught half a reply ("Werewolf, and the other card?"); its answer is the whole hand,
        read back for a yes as any hand is. A card written one slip off is that card: Whisper
        wrote the table's "the werewolf and the seer" as "the wherewolf and…" (seed 5003, night 5)."""
        card = self.deck().get(str(self.words.card(words) or nearest(" ".join(words), self.parts())))
        if self.size != 2 or card is None:
            return None
        prompt = self.pack.line("listen.hand_rest", card=self.pack.line(f"werewolf.cards.{card}"))
        hands = tuple(t for t in self.answers if card in t.split())  # said again whole, it holds `card`
        names = {str(c): self.pack.text(f"werewolf.cards.{c}") for c in self.cards if f"{card} {c}" in hands}
        return RestOfHand(self.key, prompt, self.pack, self.words, (*names, *hands),
                          {**names, **{t: self.labels[t] for t in hands}}, tries=self.tries, cards=self.cards,
                          size=self.size, owner=self.owner, doubles=self.doubles, first=card)

    def tip(self) -> str:
        return self.pack.text("table.hint_hand", example=self.example())

    def choices(self) -> Line:
        return self.pack.line("table.choices", choices=[self.pack.text(f"werewolf.cards.{c}") for c in self.cards])


@dataclass(frozen=True)
class RestOfHand(Hand):
    """The other card of a hand whose `first` card was heard alone (`Hand.rest`): one card of the
    deck, or the whole hand said again (its answers: each card, then each hand holding `first`;
    Whisper heard the table's "seer" as "seer seer" where every hand was one). Its value is the
    whole hand, `first` first."""

    first: Card = Card.VILLAGER

    def read(self, words: list[str]) -> tuple[Card, ...] | None:
        card = self.words.card(words)
        if card is not None and card in self.cards:
            return self.first, card
        return super().read(words)

    def value_of(self, token: str, kind: Kind, who: str, n: int) -> tuple[Card, ...] | Refused:
        return super().value_of(token if " " in token else f"{self.first} {token}", kind, who, n)

    def rest(self, words: list[str]) -> None:
        return None  # one card more makes the hand whole

    def tip(self) -> str:
        return self.pack.text("table.hint_card")
