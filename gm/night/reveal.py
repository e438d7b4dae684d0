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
        graveyard = _ask_cards(ctx, GRAVEYARD, ctx.deck.graveyard)
        seen = _ask_magician_seen(ctx) if ctx.deck.has("magician") else []
        try:
            return judge(list(ctx.players), hands, graveyard, executed, seen, ctx.deck)
        except JudgeError as error:
            ctx.log("judge_refused", error=str(error))
            ctx.say("werewolf.reveal.inconsistent", problem=str(error))
            known = {}


def run_reveal(ctx: NightContext, vote: Outcome) -> Reveal:
    """Find out who won, asking only the cards the verdict depends on."""
    executed = None if vote.panic else vote.executed
    ctx.say("werewolf.reveal.intro")
    known: dict[str, list[str]] = {}
    if executed and executed != GRAVEYARD:
        known[executed] = _ask_cards(ctx, executed, 2)
        ctx.say("werewolf.reveal.holds", name=executed,
                cards=[ctx.card_label(c) for c in known[executed]])
    side = decided_side(ctx.deck, executed, known.get(executed) if executed else None)
    if side is not None:
        side_name = ctx.voice.line(f"werewolf.sides.{side}")
        line = ctx.say("werewolf.reveal.side_wins", side=side_name)
        if side == "traitor_werewolf" and executed:
            winners, known_all = (executed,), True
            ctx.say("werewolf.reveal.winners", winners=[executed])
        else:
            winners, known_all = (), False
            ctx.say("werewolf.reveal.turn_over")
        result = Reveal(executed, side, winners, known_all, line.text)
    else:
        verdict = _judge_table(ctx, executed, known)
        side_name = ctx.voice.line(f"werewolf.sides.{verdict.winning_side}")
        reason = ctx.say(verdict.reason, **verdict.fields)
        ctx.say("werewolf.reveal.side_wins", side=side_name)
        if verdict.winners:
            ctx.say("werewolf.reveal.winners", winners=list(verdict.winners))
        else:
            ctx.say("werewolf.reveal.no_winners")
        result = Reveal(executed, verdict.winning_side, tuple(verdict.winners), True, reason.text)
    ctx.log("verdict", executed=executed, winning_side=result.winning_side, winners=list(result.winners),
            winners_known=result.winners_known, reason=result.reason)
    return result
