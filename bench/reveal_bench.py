"""How many answers the reveal takes after the vote, per deck: median and most over random deals.

run: .venv/bin/python bench/reveal_bench.py [--deals 2000] [--seed 1]

Each deal is shuffled from the deck, the vote's outcome drawn among the players, the graveyard
and a panic, and (Magician's Night) up to two players who could have seen the magician; the
questions are those `gm werewolf play` asks (scorer.werewolf.inquiry), one typed line each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.werewolf.cards import Card  # noqa: E402
from scorer.werewolf.decks import Deck, standard_deck  # noqa: E402
from scorer.werewolf.inquiry import HandOf, WhoHolds, answered, next_question  # noqa: E402
from scorer.werewolf.known import Known  # noqa: E402
from scorer.werewolf.magician import ABILITY_CARDS  # noqa: E402
from scorer.werewolf.tally import GRAVEYARD  # noqa: E402

DECKS = {"4 players": standard_deck(4), "5 players": standard_deck(5), "6 players": standard_deck(6),
         "Magician's Night": standard_deck(6, "magician"), "Battle with the Dead": standard_deck(6, "dead")}


def answers(deck: Deck, rng: random.Random) -> int:
    """The lines one random night's reveal takes."""
    cards = [card for card, n in deck.cards.items() for _ in range(n)]
    rng.shuffle(cards)
    players = [f"P{i}" for i in range(deck.players)]
    owners = {p: cards[2 * i:2 * i + 2] for i, p in enumerate(players)} | {GRAVEYARD: cards[2 * deck.players:]}
    able = [p for p in players if set(owners[p]) & set(ABILITY_CARDS)]
    seers = rng.sample(able, min(len(able), rng.randint(0, 2))) if deck.has(Card.MAGICIAN) else []
    known, asked = Known(tuple(players), deck, rng.choice([*players, GRAVEYARD, None])), 0
    while (question := next_question(known)) is not None:
        asked += 1
        if isinstance(question, HandOf):
            reply: object = owners[question.owner]
        elif isinstance(question, WhoHolds):
            reply = next(owner for owner, held in owners.items() if question.card in held)
        else:
            reply = seers[len(known.seers)] if len(known.seers) < len(seers) else None
        known = answered(known, question, reply)
    return asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{'deck':<22} {'median':>6} {'most':>5}")
    for name, deck in DECKS.items():
        counts = [answers(deck, rng) for _ in range(args.deals)]
        print(f"{name:<22} {statistics.median(counts):>6} {max(counts):>5}")


if __name__ == "__main__":
    main()
