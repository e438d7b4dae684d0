"""Runs a whole night's script through the ports: speaker, asker, clock (and controls)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gm.night.context import NightContext, NightStopped
from gm.night.reveal import Reveal, run_reveal
from gm.night.vote import run_vote
from gm.night.timer import Discussion, DiscussionResult
from scorer.werewolf.script import Kind, NightStep, build_script
from scorer.werewolf.tally import Outcome

DONE = "done"


@dataclass
class NightResult:
    discussion: DiscussionResult | None = None
    vote: Outcome | None = None
    reveal: Reveal | None = None


def _interrupt_choice(ctx: NightContext) -> str:
    answers = ("resume", "vote", "quit")
    labels = {a: ctx.pack.line(f"werewolf.timer.choice_{a}") for a in answers}
    choice = ctx.ask(ctx.table.choice("werewolf.timer.interrupted", answers, labels)).value
    if choice == "quit":
        raise NightStopped
    return choice


def _fields(ctx: NightContext, step: NightStep) -> dict[str, Any]:
    """The step's fields in the night's language: card ids and pass pairs become lines."""
    fields = dict(step.fields)
    if "card" in fields:
        fields["card"] = ctx.card_line(fields["card"])
    if "others" in fields:
        fields["others"] = [ctx.card_line(card) for card in fields["others"]]
    if "pairs" in fields:
        fields["pairs"] = [ctx.pack.line("werewolf.pass_pair", giver=giver, taker=taker)
                           for giver, taker in fields["pairs"]]
    return fields


def _step(ctx: NightContext, step: NightStep, result: NightResult,
          judged: Callable[[Reveal], None] = lambda reveal: None) -> None:
    if step.kind == Kind.SAY:
        ctx.say(step.key, **_fields(ctx, step))
    elif step.kind in (Kind.ACTION, Kind.WAIT):
        # A step goes on by itself after `pause` seconds, unless it waits (the deal) or pause is 0
        timeout = ctx.pause if step.kind == Kind.ACTION and ctx.pause > 0 else None
        ctx.ask(ctx.table.step(step.key, timeout, **_fields(ctx, step)))
    elif step.kind == Kind.DISCUSSION:
        day = None
        try:
            day = ctx.say(step.key, **step.fields)
        except KeyboardInterrupt:  # Ctrl-C as the discussion starts: pause and ask, as at a question
            ctx.paused()
        discussion = Discussion(ctx.discussion, ctx.clock, ctx.say, ctx.pack.line,
                                ctx.controls, ctx.display, lambda: _interrupt_choice(ctx))
        discussion.last = day  # "repeat" at once says the day's line again
        result.discussion = discussion.run()
        ctx.log("discussion", how=result.discussion.how, seconds=result.discussion.ended - result.discussion.started,
                added=result.discussion.added, pauses=result.discussion.pauses)
    elif step.kind == Kind.VOTE:
        result.vote = run_vote(ctx)
    elif step.kind == Kind.REVEAL:
        assert result.vote is not None
        result.reveal = run_reveal(ctx, result.vote, judged)


def run_night(ctx: NightContext, judged: Callable[[Reveal], None] = lambda reveal: None) -> NightResult:
    """Play the whole night: deal, morning, discussion, vote with runoff, verdict (given to
    `judged` before it is said)."""
    script = build_script(ctx.players, ctx.deck, ctx.discussion, ctx.roll_call)
    ctx.log("setup", players=list(ctx.players), deck=dict(ctx.deck.cards), variant=ctx.deck.variant,
            graveyard=ctx.deck.graveyard, discussion=ctx.discussion, roll_call=ctx.roll_call)
    result = NightResult()
    phase = None
    for step in script:
        if step.phase != phase:
            phase = step.phase
            ctx.log("phase", name=phase)
        _step(ctx, step, result, judged)
    ctx.say("werewolf.goodnight")
    ctx.speaker.flush()
    return result
