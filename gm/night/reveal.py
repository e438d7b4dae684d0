"""The reveal: ask the fewest questions that decide every player's side, then say the winners.

The game master never sees the cards. It asks the executed player's two cards (the graveyard's
when it was voted), says the side they decide, then asks only who holds the cards every side
still depends on, and who saw the magician (scorer.werewolf.inquiry). An answer the deck or an
earlier answer rules out is refused with the reason and asked again. A vote total the cards
make impossible is said with the verdict and logged with it; the verdict stands (HW-R8).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from gm.night.context import NightContext
from gm.table.asked import Asked
from gm.text.verdicts import verdict_key
from scorer.werewolf.cards import Card
from scorer.werewolf.inquiry import HandOf, Question, WhoHolds, answered, next_question, verdict
from scorer.werewolf.sides import JudgeError, Side, decided_side
from scorer.werewolf.known import Known, SeerRefused
from scorer.werewolf.miscount import TRAITOR, Miscount, miscount
from scorer.werewolf.tally import GRAVEYARD, Outcome

REFUSED_AGAIN = 2
"""Answers refused in a row at one question before the reveal starts again, typed (`_inquire`)."""


@dataclass(frozen=True)
class Reveal:
    """The night's end: the winning side, who won, every player's side, and the reason said."""

    executed: str | None
    winning_side: Side
    winners: tuple[str, ...]
    sides: Mapping[str, Side]
    reason: str


def _hand(ctx: NightContext, owner: str) -> Asked[tuple[Card, ...]]:
    """`owner`'s cards turned face up, given in one line ("werewolf villager", "人狼 村人")."""
    cards = [c for c in ctx.deck.cards if ctx.deck.count(c)]
    doubles = [c for c in cards if ctx.deck.count(c) > 1]  # a hand holds a card twice only where the deck has two
    if owner == GRAVEYARD:
        key = "werewolf.reveal.ask_graveyard_one" if ctx.deck.graveyard == 1 else "werewolf.reveal.ask_graveyard_two"
        return ctx.table.hand(key, cards, owner, size=ctx.deck.graveyard, doubles=doubles)
    return ctx.table.hand("werewolf.reveal.ask_hand", cards, owner, doubles=doubles, name=owner)


def _holder(ctx: NightContext, known: Known, card: Card) -> Asked[str | None]:
    """Who holds `card`: the question offers only the owners who still can, not a player whose
    cards were shown, nor a graveyard turned face up without it (then it does not name the graveyard).
    A "no" heard alone is the graveyard, read back for a yes: nobody holds it, and Whisper wrote a
    table's "the graveyard" as "no" in a room that echoes, asked twice, and the keyboard took it
    (bench/table_nights_bench.py --seed 5012, night 0; --seed 5013, night 8)."""
    ruled_out = [owner for owner in known.owners if not known.could_hold(owner, card)]
    graveyard = GRAVEYARD not in ruled_out
    key = "werewolf.reveal.ask_holder" if graveyard else "werewolf.reveal.ask_holder_player"
    # an owner ruled out is still taken, and refused with the reason, but never offered
    return ctx.table.pick(key, known.owners, unlisted=ruled_out, none_is=GRAVEYARD if graveyard else None,
                          card=ctx.card_line(card))


def _seer(ctx: NightContext, known: Known, more: bool) -> Asked[str | None]:
    """One player who saw the magician through an ability, or None: nobody (else)."""
    key = "werewolf.reveal.magician_more" if more else "werewolf.reveal.magician_seen"
    choices = [p for p in ctx.players if p not in known.seers]
    return ctx.table.pick(key, choices, nobody="werewolf.reveal.none")


def _answer(ctx: NightContext, known: Known, question: Question, typed: bool) -> object:
    """The table's answer to `question`, typed at once where `typed` (`_inquire`)."""
    asked: Asked[Any]
    if isinstance(question, HandOf):
        asked = _hand(ctx, question.owner)
    elif isinstance(question, WhoHolds):
        asked = _holder(ctx, known, question.card)
    else:
        asked = _seer(ctx, known, question.more)
    return ctx.ask(replace(asked, tries=0) if typed else asked).value


def _revealed(ctx: NightContext, known: Known, owner: str) -> None:
    """Say what `owner` showed, and the winning side when their cards alone decide it."""
    cards = known.hands[owner]
    ctx.say("werewolf.reveal.holds", name=ctx.label(owner), cards=[ctx.card_line(c) for c in cards])
    side = decided_side(ctx.deck, owner, cards)
    if side is not None and next_question(known) is not None:
        ctx.say("werewolf.reveal.side_wins", side=ctx.pack.line(f"werewolf.sides.{side}"))
        ctx.say("werewolf.reveal.winners_next")


def _inquire(ctx: NightContext, executed: str | None) -> Known:
    """Ask until every side is decided; a refused answer is said with its reason and asked again.
    An answer refused REFUSED_AGAIN times in a row after earlier answers were taken may be refused
    for one of them (a hand heard wrong and confirmed): the cards are taken again from the start,
    typed, so that a table telling the truth can always end the night."""
    known = start = Known(tuple(ctx.players), ctx.deck, executed)
    refusals, typed = 0, False
    while (question := next_question(known)) is not None:
        try:
            known = answered(known, question, _answer(ctx, known, question, typed))
        except SeerRefused as refused:
            ctx.log("answer_refused", error=str(refused))
            ctx.say("werewolf.reveal.refused", problem=ctx.pack.error(refused))
            known = refused.then
            continue
        except JudgeError as refused:
            ctx.log("answer_refused", error=str(refused))
            ctx.say("werewolf.reveal.refused", problem=ctx.pack.error(refused))
            refusals += 1
            if refusals >= REFUSED_AGAIN and known != start and not typed:
                ctx.log("reveal_again")
                ctx.say("werewolf.reveal.again_typed")
                known, refusals, typed = start, 0, True
            continue
        refusals = 0
        if isinstance(question, HandOf):
            _revealed(ctx, known, question.owner)
    return known


def _say_miscount(ctx: NightContext, found: Miscount | None) -> None:
    """Say and log, right after the verdict, a vote total the revealed cards make impossible (HW-R4's
    voters), and that the verdict stands (HW-R8)."""
    if found is None:
        return
    ctx.log("miscount", **found.to_json())
    if found.counted < found.low:
        ctx.say("werewolf.reveal.miscount_under", counted=found.counted, low=found.low)
        return
    why = [ctx.pack.line("werewolf.reveal.no_vote_traitor") if reason == TRAITOR
           else ctx.pack.line("werewolf.reveal.no_vote_turned", name=name) for reason, name in found.no_vote]
    ctx.say("werewolf.reveal.miscount_over", counted=found.counted, why=why)


def run_reveal(ctx: NightContext, vote: Outcome, judged: Callable[[Reveal], None] = lambda reveal: None) -> Reveal:
    """Find out who won, asking only what every player's side depends on.

    `judged` gets the verdict before it is said (the evening keeps the night there), so a night
    whose verdict the table heard is never lost to a process stopped right after it."""
    executed = None if vote.panic else vote.executed
    ctx.say("werewolf.reveal.intro")
    known = _inquire(ctx, executed)
    found = verdict(known)
    line = ctx.pack.line(verdict_key(found), **found.fields)
    wrong = miscount(known, vote.total) if vote.total is not None else None
    result = Reveal(executed, found.winning_side, tuple(found.winners), found.sides, line.text)
    ctx.log("verdict", executed=executed, winning_side=result.winning_side, winners=list(result.winners),
            sides=dict(result.sides), reason=result.reason, miscount=wrong.to_json() if wrong else None)
    judged(result)
    ctx.say(line)
    _say_miscount(ctx, wrong)
    return result
