"""An evening: nights in a row with the same players and deck, "again?" after each verdict, and
the tally of wins said at the end."""

from __future__ import annotations

from collections.abc import Callable

from gm.night.context import NightContext
from gm.night.runner import DONE, run_night
from gm.werewolf.evening import Evening

YES, NO = "yes", "no"


def _ask_winners(ctx: NightContext) -> list[str]:
    """Who won, when the verdict named only the side: each winner in turn, then done."""
    winners: list[str] = []
    labels = {DONE: ctx.voice.text("werewolf.done")}
    while len(winners) < len(ctx.players):
        answer = ctx.ask("werewolf.evening.ask_winner", [*(p for p in ctx.players if p not in winners), DONE], labels,
                         default=DONE)
        if answer == DONE:
            break
        winners.append(answer)
    return winners


def say_tally(ctx: NightContext, evening: Evening) -> None:
    """The evening's wins per side and per player, printed and spoken."""
    sides = [ctx.voice.line("werewolf.evening.side_item", side=ctx.voice.line(f"werewolf.sides.{side}"), n=n)
             for side, n in evening.sides().items()]
    players = [ctx.voice.line("werewolf.evening.player_item", name=name, n=n) for name, n in evening.wins().items()]
    ctx.say("werewolf.evening.tally", nights=len(evening.nights), sides=sides, players=players)


def run_evening(ctx: NightContext, keep: Callable[[Evening], None] = lambda evening: None) -> Evening:
    """Play nights until the table says no more; `keep` stores the evening after every night."""
    evening = Evening(tuple(ctx.players))
    while True:
        reveal = run_night(ctx).reveal
        assert reveal is not None
        winners = reveal.winners if reveal.winners_known else _ask_winners(ctx)
        evening = evening.add(reveal.winning_side, winners)
        ctx.log("evening", **evening.to_json())
        keep(evening)
        try:
            again = ctx.ask(ctx.table.yes_no("werewolf.evening.again")).value
        except EOFError:  # piped answers ran out after a verdict: the evening is over
            again = False
        if not again:
            break
    say_tally(ctx, evening)
    ctx.speaker.flush()
    return evening
