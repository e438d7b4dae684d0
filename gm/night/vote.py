"""The evening vote: count mode (fingers per candidate) or roll call, with runoff and panic.
Every round's whole tally is read back and needs a "yes" before anyone is executed."""

from __future__ import annotations

from gm.hearing.phrases import correction
from gm.night.context import NightContext
from gm.werewolf.tally import GRAVEYARD, BadTotal, Outcome, Round, TallyError, count_round, outcome, roll_call_round

YES, NO = "yes", "no"

ABSTAIN = "none"


def _ask_counts(ctx: NightContext, candidates: list[str]) -> dict[str, int]:
    numbers = [str(n) for n in range(len(ctx.players) + 1)]
    counts = {}
    for candidate in candidates:
        answer = ctx.ask("werewolf.vote.ask_count", numbers, candidate=ctx.label(candidate))
        counts[candidate] = int(answer)
    return counts


def _count_mode_round(ctx: NightContext, candidates: list[str]) -> Round:
    """Everyone points at once; the fingers per candidate."""
    ctx.say("werewolf.vote.ready")
    return count_round(candidates, _ask_counts(ctx, candidates), len(ctx.players), ctx.deck)


def _roll_call_round(ctx: NightContext, candidates: list[str]) -> Round:
    labels = {c: ctx.label(c) for c in candidates}
    labels[ABSTAIN] = ctx.voice.text("werewolf.vote.abstain")
    votes = {}
    for voter in ctx.players:
        answer = ctx.ask("werewolf.vote.ask_voter", [*candidates, ABSTAIN], labels, voter=voter)
        if answer != ABSTAIN:
            votes[voter] = answer
    return roll_call_round(candidates, votes, list(ctx.players), ctx.deck)


def _checked_round(ctx: NightContext, candidates: list[str], first: Round | None) -> Round:
    """Ask the round until its total can be with this deck, and a runoff's equals the first's (HW-R4)."""
    while True:
        try:
            result = (_roll_call_round if ctx.roll_call else _count_mode_round)(ctx, candidates)
            if first is not None:
                outcome(first, result)
            return result
        except BadTotal as error:
            ctx.log("vote_refused", error=str(error))
            ctx.say("werewolf.vote.bad_total", total=error.total)


def _confirmed(ctx: NightContext, candidates: list[str], result: Round, first: Round | None) -> Round:
    """The round once the table says "yes" to its whole tally ("The votes: Aki: 3 votes, ...
    Right?"). On "no", or straight away, one candidate's count is corrected ("Aki two", typed
    `Aki=2`) and the tally read back again; a correction the HW-R4 bounds refuse (a runoff's total
    must equal the first round's) is asked again. Typed yes, or Enter, accepts."""
    numbers = range(len(ctx.players) + 1)
    fixes = [correction(c, n) for c in candidates for n in numbers]
    labels = {YES: ctx.voice.text("werewolf.vote.yes"), NO: ctx.voice.text("werewolf.vote.no"),
              **{c: ctx.label(c) for c in candidates},
              **{correction(c, n): correction(ctx.label(c), n) for c in candidates for n in numbers}}
    while True:
        items = [ctx.voice.line("werewolf.vote.count_item", candidate=ctx.label(c), n=result.counts.get(c, 0))
                 for c in candidates]
        answer = ctx.ask("werewolf.vote.readback", [YES, NO, *fixes], labels, default=YES, readback=False,
                         counts=items)
        while answer == NO:
            answer = ctx.ask("werewolf.vote.which", fixes, labels, readback=False,
                             name=ctx.label(candidates[0]), n=result.counts.get(candidates[0], 0))
        if answer == YES:
            return result
        who, _, count = answer.rpartition("=")
        counts = {**result.counts, who: int(count)}
        try:
            fixed = count_round(candidates, counts, len(ctx.players), ctx.deck)
            if first is not None:
                outcome(first, fixed)
        except TallyError as error:
            ctx.log("vote_refused", counts=counts, error=str(error))
            ctx.say("werewolf.vote.bad_fix", total=sum(counts.values()))
            continue
        result = fixed
        ctx.log("vote_corrected", candidate=who, votes=int(count))


def _round(ctx: NightContext, candidates: list[str], number: int, first: Round | None = None) -> Round:
    result = _confirmed(ctx, candidates, _checked_round(ctx, candidates, first), first)
    ctx.log("vote", round=number, mode="roll_call" if ctx.roll_call else "count", counts=dict(result.counts))
    return result


def run_vote(ctx: NightContext) -> Outcome:
    """Run the vote and its runoff; announce the execution, the graveyard, or the panic."""
    four = len(ctx.players) == 4 and ctx.deck.has("traitor")
    if ctx.roll_call:
        ctx.say("werewolf.vote.roll_call_intro")
        if four:
            ctx.say("werewolf.vote.roll_call_four")
    else:
        ctx.say("werewolf.vote.intro")
        if four:
            ctx.say("werewolf.vote.four_players")
    if four:  # 4人プレイ時に裏切り人狼が登場した場合、そのプレイヤーは投票権を持つ
        ctx.say("werewolf.vote.four_traitor_werewolf")
    if ctx.deck.has("magician"):  # 魔術師によって人狼陣営に変わったプレイヤーは、投票権を持ちません
        ctx.say("werewolf.vote.magician_turned")
    candidates = [*ctx.players, GRAVEYARD]
    first = _round(ctx, candidates, 1)
    result = outcome(first)
    if result.runoff_candidates:
        tied = list(result.runoff_candidates)
        ctx.say("werewolf.vote.tie", candidates=[ctx.label(c) for c in tied])
        if four:  # 裏切り者は決選投票でも投票権を持たない
            ctx.say("werewolf.vote.runoff_four")
        result = outcome(first, _round(ctx, tied, 2, first))
    if result.panic:
        ctx.say("werewolf.vote.panic")
    elif result.executed == GRAVEYARD:
        ctx.say("werewolf.vote.graveyard_chosen")
    else:
        ctx.say("werewolf.vote.executed", name=result.executed)
    return result
