"""The reveal: ask the fewest questions that decide every player's side, then say the winners.

The game master never sees the cards. It asks the executed player's two cards (the graveyard's
when it was voted), says the side they decide, then asks only who holds the cards every side
still depends on, and who saw the magician (scorer.werewolf.inquiry). An answer the deck or an
earlier answer rules out is refused with the reason and asked again. A vote total the cards
make impossible is said with the verdict and logged with it; the verdict stands (HW-R8).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from gm.night.context import NightContext
from gm.text.verdicts import verdict_key
from scorer.werewolf.cards import Card
from scorer.werewolf.inquiry import HandOf, Question, WhoHolds, answered, next_question, verdict
from scorer.werewolf.sides import JudgeError, Side, decided_side
from scorer.werewolf.known import Known, SeerRefused
from scorer.werewolf.miscount import TRAITOR, Miscount, miscount
from scorer.werewolf.tally import GRAVEYARD, Outcome

@dataclass(frozen=True)
class Reveal:
    """The night's end: the winning side, who won, every player's side, and the reason said."""

    executed: str | None
    winning_side: Side
    winners: tuple[str, ...]
    sides: Mapping[str, Side]
    reason: str


def _ask_hand(ctx: NightContext, owner: str) -> tuple[Card, ...]:
    """`owner`'s cards turned face up, given in one line ("werewolf villager", "人狼 村人")."""
    cards = [c for c in ctx.deck.cards if ctx.deck.count(c)]
    doubles = [c for c in cards if ctx.deck.count(c) > 1]  # a hand holds a card twice only where the deck has two
    if owner == GRAVEYARD:
        key = "werewolf.reveal.ask_graveyard_one" if ctx.deck.graveyard == 1 else "werewolf.reveal.ask_graveyard_two"
        return ctx.ask(ctx.table.hand(key, cards, owner, size=ctx.deck.graveyard, doubles=doubles)).value
    return ctx.ask(ctx.table.hand("werewolf.reveal.ask_hand", cards, owner, doubles=doubles, name=owner)).value


def _ask_holder(ctx: NightContext, known: Known, card: Card) -> str | None:
    """Who holds `card`: the question offers only the owners who still can, not a player whose
    cards were shown, nor a graveyard turned face up without it (then it does not name the graveyard).
    A "no" heard alone is the graveyard, read back for a yes: nobody holds it, and Whisper wrote a
    table's "the graveyard" as "no" in a room that echoes, asked twice, and the keyboard took it
    (bench/table_nights_bench.py --seed 5012, night 0; --seed 5013, night 8)."""
    ruled_out = [owner for owner in known.owners if not known.could_hold(owner, card)]
    graveyard = GRAVEYARD not in ruled_out
    key = "werewolf.reveal.ask_holder" if graveyard else "werewolf.reveal.ask_holder_player"
    # an owner ruled out is still taken, and refused with the reason, but never offered
    return ctx.ask(ctx.table.pick(key, known.owners, unlisted=ruled_out, none_is=GRAVEYARD if graveyard else None,
                                  card=ctx.card_line(card))).value


def _ask_seer(ctx: NightContext, known: Known, more: bool) -> str | None:
    """One player who saw the magician through an ability, or None: nobody (else)."""
    key = "werewolf.reveal.magician_more" if more else "werewolf.reveal.magician_seen"
    choices = [p for p in ctx.players if p not in known.seers]
    return ctx.ask(ctx.table.pick(key, choices, nobody="werewolf.reveal.none")).value


def _answer(ctx: NightContext, known: Known, question: Question) -> object:
    if isinstance(question, HandOf):
        return _ask_hand(ctx, question.owner)
    if isinstance(question, WhoHolds):
        return _ask_holder(ctx, known, question.card)
    return _ask_seer(ctx, known, question.more)


def _revealed(ctx: NightContext, known: Known, owner: str) -> None:
    """Say what `owner` showed, and the winning side when their cards alone decide it."""
    cards = known.hands[owner]
    ctx.say("werewolf.reveal.holds", name=ctx.label(owner), cards=[ctx.card_line(c) for c in cards])
    side = decided_side(ctx.deck, owner, cards)
    if side is not None and next_question(known) is not None:
        ctx.say("werewolf.reveal.side_wins", side=ctx.pack.line(f"werewolf.sides.{side}"))
        ctx.say("werewolf.reveal.winners_next")


def _inquire(ctx: NightContext, executed: str | None) -> Known:
    """Ask until every side is decided; a refused answer is said with its reason and asked again."""
    known = Known(tuple(ctx.players), ctx.deck, executed)
    while (question := next_question(known)) is not None:
        try:
            known = answered(known, question, _answer(ctx, known, question))
        except SeerRefused as refused:
            ctx.log("answer_refused", error=str(refused))
            ctx.say("werewolf.reveal.refused", problem=ctx.pack.error(refused))
            known = refused.then
            continue
        except JudgeError as refused:
            ctx.log("answer_refused", error=str(refused))
            ctx.say("werewolf.reveal.refused", problem=ctx.pack.error(refused))
            continue
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
