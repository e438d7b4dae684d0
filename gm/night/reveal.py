"""The reveal: ask the cards the verdict needs, judge, announce the winners.

The game master never sees the cards. It asks the executed player's two cards; when those
alone decide the winning side it announces it, otherwise it asks everyone's cards, the
graveyard and (Magician's Night) who saw the magician, and judges the whole table.
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.night.context import NightContext
from gm.werewolf.judge import JudgeError, Verdict, decided_side, judge
from gm.werewolf.tally import GRAVEYARD, Outcome

NONE = "none"


@dataclass(frozen=True)
class Reveal:
    """The night's end: the winning side, the winners when known, and the reason said."""

    executed: str | None
    winning_side: str
    winners: tuple[str, ...]
    winners_known: bool
    reason: str


def _ask_cards(ctx: NightContext, owner: str, count: int) -> list[str]:
    cards = [c for c in ctx.deck.cards if ctx.deck.count(c)]
    labels = {c: ctx.card_label(c) for c in cards}
    keys = ["werewolf.reveal.ask_first", "werewolf.reveal.ask_second"]
    if owner == GRAVEYARD:
        return [ctx.ask("werewolf.reveal.ask_graveyard", cards, labels, n=i + 1) for i in range(count)]
    return [ctx.ask(keys[i], cards, labels, name=owner) for i in range(count)]


def _ask_magician_seen(ctx: NightContext) -> list[str]:
    seen: list[str] = []
    while len(seen) < len(ctx.players):
        choices = [p for p in ctx.players if p not in seen] + [NONE]
        labels = {NONE: ctx.voice.text("werewolf.reveal.none")}
        answer = ctx.ask("werewolf.reveal.magician_seen", choices, labels)
        if answer == NONE:
            break
        seen.append(answer)
    return seen


def _judge_table(ctx: NightContext, executed: str | None, known: dict[str, list[str]]) -> Verdict:
    """Ask every card still unknown and judge; inconsistent cards are asked again."""
    ctx.say("werewolf.reveal.everyone")
    while True:
        hands = {p: known.get(p) or _ask_cards(ctx, p, 2) for p in ctx.players}
        graveyard = known.get(GRAVEYARD) or _ask_cards(ctx, GRAVEYARD, ctx.deck.graveyard)
        seen = _ask_magician_seen(ctx) if ctx.deck.has("magician") else []
        try:
            return judge(list(ctx.players), hands, graveyard, executed, seen, ctx.deck)
        except JudgeError as error:
            ctx.log("judge_refused", error=str(error))
            ctx.say("werewolf.reveal.inconsistent", problem=str(error))
            known = {}


def _ask_executed(ctx: NightContext, executed: str) -> tuple[list[str], str | None]:
    """The executed player's (or the graveyard's) cards, and the side they alone decide."""
    size = ctx.deck.graveyard if executed == GRAVEYARD else 2
    while True:
        cards = _ask_cards(ctx, executed, size)
        try:
            side = decided_side(ctx.deck, executed, cards)
        except JudgeError as error:
            ctx.log("judge_refused", error=str(error))
            ctx.say("werewolf.reveal.inconsistent", problem=str(error))
            continue
        ctx.say("werewolf.reveal.holds", name=ctx.label(executed), cards=[ctx.card_line(c) for c in cards])
        return cards, side


def run_reveal(ctx: NightContext, vote: Outcome) -> Reveal:
    """Find out who won, asking only the cards the verdict depends on.

    After a panic the whole table is judged, since who wins then depends on everyone (HW-R5).
    """
    executed = None if vote.panic else vote.executed
    ctx.say("werewolf.reveal.intro")
    known: dict[str, list[str]] = {}
    side = None
    if executed is not None:
        known[executed], side = _ask_executed(ctx, executed)
    if side == "traitor_werewolf":
        line = ctx.say("werewolf.verdict.traitor_werewolf_executed", name=executed)
        result = Reveal(executed, side, (executed,), True, line.text)
    elif side is not None:
        line = ctx.say("werewolf.reveal.side_wins", side=ctx.voice.line(f"werewolf.sides.{side}"))
        ctx.say("werewolf.reveal.turn_over")
        result = Reveal(executed, side, (), False, line.text)
    else:
        verdict = _judge_table(ctx, executed, known)
        line = ctx.say(verdict.reason, **verdict.fields)
        result = Reveal(executed, verdict.winning_side, tuple(verdict.winners), True, line.text)
    ctx.log("verdict", executed=executed, winning_side=result.winning_side, winners=list(result.winners),
            winners_known=result.winners_known, reason=result.reason)
    return result
