"""An evening: nights in a row with the same players and deck, "again?" after each verdict, and
the tally of wins said at the end."""

from __future__ import annotations

from collections.abc import Callable

from gm.night.context import NightContext
from gm.night.reveal import Reveal
from gm.night.runner import run_night
from scorer.werewolf.evening import Evening, Night

YES, NO = "yes", "no"


def say_tally(ctx: NightContext, evening: Evening) -> None:
    """The evening's wins per side and per player, printed and spoken."""
    sides = [ctx.pack.line("werewolf.evening.side_item", side=ctx.pack.line(f"werewolf.sides.{side}"), n=n)
             for side, n in evening.sides().items()]
    players = [ctx.pack.line("werewolf.evening.player_item", name=name, n=n) for name, n in evening.wins().items()]
    ctx.say("werewolf.evening.tally", nights=len(evening.nights), sides=sides, players=players)


def run_evening(ctx: NightContext, keep: Callable[[Night], None] = lambda night: None) -> Evening:
    """Play nights until the table says no more; `keep` stores each night as soon as it is judged,
    before its verdict is said: what the table heard is on disk, whenever gm stops after it."""
    evening = Evening(tuple(ctx.players))

    def judged(reveal: Reveal) -> None:
        nonlocal evening
        evening = evening.add(reveal.winning_side, reveal.winners, reveal.sides)
        ctx.log("evening", **evening.to_json())
        keep(evening.nights[-1])

    while True:
        run_night(ctx, judged)
        try:
            again = ctx.ask(ctx.table.yes_no("werewolf.evening.again")).value
        except EOFError:  # piped answers ran out after a verdict: the evening is over
            again = False
        if not again:
            break
    say_tally(ctx, evening)
    ctx.speaker.flush()
    return evening
