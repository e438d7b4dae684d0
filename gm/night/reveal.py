"""The reveal: ask the cards the verdict needs, judge, announce the winners.

The game master never sees the cards. It asks the executed player's two cards; when those
alone decide the winning side it announces it, otherwise it asks everyone's cards, the
graveyard and (Magician's Night) who saw the magician, and judges the whole table. Cards that
do not add up are asked again for the hands involved only.
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.night.context import NightContext
from gm.text.verdicts import reason_key, verdict_key
from gm.werewolf.judge import MOST_TURNED, JudgeError, Reason, Side, Verdict, decided_side, judge, too_many
from gm.werewolf.tally import GRAVEYARD, Outcome

NONE = "none"
HAND = 2


@dataclass(frozen=True)
class Reveal:
    """The night's end: the winning side, the winners when known, and the reason said."""

    executed: str | None
    winning_side: Side
    winners: tuple[str, ...]
    winners_known: bool
    reason: str


def _ask_cards(ctx: NightContext, owner: str) -> list[str]:
    cards = [c for c in ctx.deck.cards if ctx.deck.count(c)]
    labels = {c: ctx.card_label(c) for c in cards}
    if owner == GRAVEYARD:
        return [ctx.ask("werewolf.reveal.ask_graveyard", cards, labels, n=i + 1) for i in range(ctx.deck.graveyard)]
    keys = ["werewolf.reveal.ask_first", "werewolf.reveal.ask_second"]
    return [ctx.ask(keys[i], cards, labels, name=owner) for i in range(HAND)]


def _ask_magician_seen(ctx: NightContext) -> list[str]:
    """Who saw the magician through an ability (HW-R7: however they saw it); at most the seer and
    the gravedigger."""
    seen: list[str] = []
    while len(seen) < MOST_TURNED:
        choices = [p for p in ctx.players if p not in seen] + [NONE]
        labels = {NONE: ctx.voice.text("werewolf.reveal.none")}
        answer = ctx.ask("werewolf.reveal.magician_seen", choices, labels)
        if answer == NONE:
            break
        seen.append(answer)
    return seen


def _adding_up(ctx: NightContext, known: dict[str, list[str]]) -> dict[str, list[str]]:
    """Every hand and the graveyard, asking the unknown ones; a card given too often is named and
    only the hands naming it are asked again."""
    owners = [*ctx.players, GRAVEYARD]
    table = {owner: known.get(owner) or _ask_cards(ctx, owner) for owner in owners}
    while (problem := too_many(ctx.deck, table)) is not None:
        card, count, holders = problem
        ctx.log("judge_refused", error=f"{count} × {card} but the deck has {ctx.deck.count(card)}")
        ctx.say("werewolf.reveal.too_many", card=ctx.card_line(card), count=count, limit=ctx.deck.count(card),
                owners=[ctx.label(owner) for owner in holders])
        for owner in holders:
            table[owner] = _ask_cards(ctx, owner)
    return table


def _judge_table(ctx: NightContext, executed: str | None, known: dict[str, list[str]],
                 seen: list[str] | None) -> Verdict:
    """Ask every card still unknown and judge."""
    ctx.say("werewolf.reveal.everyone")
    while True:
        table = _adding_up(ctx, known)
        if seen is None:
            seen = _ask_magician_seen(ctx) if ctx.deck.has("magician") else []
        graveyard = table.pop(GRAVEYARD)
        try:
            return judge(list(ctx.players), table, graveyard, executed, seen, ctx.deck)
        except JudgeError as error:
            ctx.log("judge_refused", error=str(error))
            ctx.say("werewolf.reveal.inconsistent", problem=ctx.voice.error(error))
            known, seen = {}, None


def _ask_executed(ctx: NightContext, executed: str) -> tuple[list[str], Side | None]:
    """The executed player's (or the graveyard's) cards, and the side they alone decide."""
    while True:
        cards = _ask_cards(ctx, executed)
        try:
            side = decided_side(ctx.deck, executed, cards)
        except JudgeError as error:
            ctx.log("judge_refused", error=str(error))
            ctx.say("werewolf.reveal.inconsistent", problem=ctx.voice.error(error))
            continue
        ctx.say("werewolf.reveal.holds", name=ctx.label(executed), cards=[ctx.card_line(c) for c in cards])
        return cards, side


def run_reveal(ctx: NightContext, vote: Outcome) -> Reveal:
    """Find out who won, asking only the cards the verdict depends on.

    After a panic the whole table is judged, since who wins then depends on everyone (HW-R5).
    In Magician's Night the side a hand decides is not enough to name its winners: who saw the
    magician is asked, and if anyone did, the whole table is judged.
    """
    executed = None if vote.panic else vote.executed
    ctx.say("werewolf.reveal.intro")
    known: dict[str, list[str]] = {}
    side, seen = None, None
    if executed is not None:
        known[executed], side = _ask_executed(ctx, executed)
    if side not in (None, Side.TRAITOR_WEREWOLF) and ctx.deck.has("magician"):
        seen = _ask_magician_seen(ctx)
        if seen:
            side = None
    if side == Side.TRAITOR_WEREWOLF and executed is not None:  # only a player's own hand decides this
        line = ctx.say(reason_key(Reason.TRAITOR_WEREWOLF_EXECUTED), name=executed)
        result = Reveal(executed, side, (executed,), True, line.text)
    elif side is not None:
        line = ctx.say("werewolf.reveal.side_wins", side=ctx.voice.line(f"werewolf.sides.{side}"))
        ctx.say("werewolf.reveal.turn_over")
        result = Reveal(executed, side, (), False, line.text)
    else:
        verdict = _judge_table(ctx, executed, known, seen)
        line = ctx.say(verdict_key(verdict), **verdict.fields)
        result = Reveal(executed, verdict.winning_side, tuple(verdict.winners), True, line.text)
    ctx.log("verdict", executed=executed, winning_side=result.winning_side, winners=list(result.winners),
            winners_known=result.winners_known, reason=result.reason)
    return result
