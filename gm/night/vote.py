"""The evening vote: count mode (fingers per candidate) or roll call, with runoff and panic.

In count mode each candidate's count is asked once, and once every vote there can be is
counted the rest have none (HW-R4: at most one vote per player), and where the total is exact
the last count is what it leaves, when it cannot be heard. The whole tally is then read
back once, naming only the candidates with votes ("Aki 3, Ken 1, nobody else. Right?"), and
needs a yes (Enter) before anyone is executed; a fix ("Aki 2") re-reads only the tally. A
count heard unsure (taken heard alike twice, or at its last try) is checked by that yes alone:
the tally that holds one takes its answer only heard surely or typed (`Policy.surely`).

Every vote ends (issue 37): a total the deck cannot have (HW-R4) is counted again once
(BAD_TOTALS); after a second, gm says the counts it has and asks which one is wrong; the tally is
read back by voice READBACKS times, and then typed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from gm.night.context import NightContext
from gm.ports import Answer, How, Line, PutOff
from gm.table.pairs import ByName
from gm.table.questions import Counting
from scorer.werewolf.cards import Card
from scorer.werewolf.tally import GRAVEYARD, BadTotal, Outcome, Round, TallyError, count_round, outcome, \
    roll_call_round, vote_bounds

BAD_TOTALS = 2
"""Totals of one round the vote cannot have (HW-R4) before gm stops counting again: after the
first it says "Let's count again"; after the second it reads back what it has and takes the fix
of the wrong count, by voice or typed. Counting again took a night round 8 times over 230 takes
when one count was heard wrong each time (issue 37)."""
READBACKS = 3
"""Read-backs of one round's tally by voice (each "no", fix or refused fix is one); the next is
typed: with COUNT_TRIES and TRIES per question, every vote ends within a number of questions set
by its candidates alone (tests/gm/night/test_every_night_ends.py)."""


def bounds(ctx: NightContext, first: Round | None) -> tuple[int, int]:
    """The totals this round can have (HW-R4): the deck's, or a runoff's first round's exactly."""
    return (first.total, first.total) if first is not None else vote_bounds(len(ctx.players), ctx.deck)


def votes_line(ctx: NightContext, low: int, high: int) -> Line | int:
    """ "3–4" (said "3 to 4"), or "4"."""
    return ctx.table.votes(low, high)


def _heard_unsure(answer: Answer[Any]) -> bool:
    """Whether `answer` was heard unsure (taken heard alike twice, at a count's last try, or
    read back and confirmed by a yes heard unsure twice): a count it gives is checked by the
    tally's yes alone. Two unsure hearings of the table's "no" as "yes" and "yeah" confirmed
    Grace's count of one, heard unsure at its last try where the table said "nobody"
    (bench/table_nights_bench.py --seed 5010, night 4)."""
    return answer.how is How.VOICE and not answer.sure


def _doubted(answer: Answer[Any]) -> set[str]:
    """The candidates whose counts `answer` gives heard unsure (`_heard_unsure`)."""
    return set(answer.value) if _heard_unsure(answer) else set()


def _ask_counts(ctx: NightContext, candidates: Sequence[str], totals: tuple[int, int],
                known: Mapping[str, int]) -> tuple[dict[str, int], set[str], set[str]]:
    """Each unknown candidate's count in turn, at most the votes still left. An answer may give
    others' counts too ("Ken 1", "3 1 0"); the tally said by name in one breath ("Aki 3, Ken
    1") leaves the candidates it does not name with none once its total can be the vote's
    (HW-R4), and asks only for what is still missing otherwise. Once all the votes there can be
    are counted the rest have none without being asked. Those given none unasked are returned
    apart: the tally line says "nobody else" for them, and a fix that needs them asks them; and
    those whose counts were heard unsure (`_doubted`).

    A count not heard by voice with others still to ask is put off once (`PutOff`), as a game
    master says "back to Ken later" and asks the next: asked again after the others, where an
    exact total may leave it (HW-R4) and the table has said the rest."""
    low, high = totals
    counts = dict(known)
    doubted: set[str] = set()
    first = True
    order = list(candidates)
    put_off: set[str] = set()
    while unknown := [c for c in order if c not in counts]:
        counted = sum(counts.values())
        left = high - counted
        if left <= 0:
            counts.update(dict.fromkeys(unknown, 0))
            return counts, set(unknown), doubted
        later = len(unknown) > 1 and unknown[0] not in put_off
        question = ctx.table.count(unknown, left, Counting(tuple(candidates), counted, totals),
                                   by_name=ctx.table.one_breath, first=first, later=later)
        first = False
        try:
            answer = ctx.ask(question)
        except PutOff:
            put_off.add(unknown[0])
            order.append(order.pop(order.index(unknown[0])))
            continue
        value = answer.value
        counts.update(value)
        doubted |= _doubted(answer)
        rest = [c for c in candidates if c not in counts]
        if isinstance(value, ByName) and rest and sum(counts.values()) >= low:
            counts.update(dict.fromkeys(rest, 0))
            return counts, set(rest), doubted
    return counts, set(), doubted


def _roll_call_round(ctx: NightContext, candidates: list[str]) -> tuple[dict[str, str], set[str]]:
    """Each voter's vote (voter → candidate), but those who have none; and the candidates of
    votes heard unsure (`_heard_unsure`)."""
    votes: dict[str, str] = {}
    doubted: set[str] = set()
    for voter in ctx.players:
        answer = ctx.ask(ctx.table.pick("werewolf.vote.ask_voter", candidates, "werewolf.vote.abstain", voter,
                                        voter=voter))
        if answer.value is not None:
            votes[voter] = answer.value
            if _heard_unsure(answer):
                doubted.add(answer.value)
    return votes, doubted


def _checked_round(ctx: NightContext, candidates: list[str], first: Round | None) -> tuple[Round | dict[str, int],
                                                                                            set[str], set[str]]:
    """The round once its total can be with this deck, and a runoff's equals the first's (HW-R4);
    a total refused is counted again once (`BAD_TOTALS`). After the last one refused, the counts
    as they are (not a round: no yes can take them), for a fix (`_confirmed`); with those given
    none unasked, and those heard unsure."""
    counts: dict[str, int] = {}
    assumed: set[str] = set()
    doubted: set[str] = set()
    for take in range(1, BAD_TOTALS + 1):
        try:
            if ctx.roll_call:
                votes, doubted = _roll_call_round(ctx, candidates)
                counts = {c: sum(1 for v in votes.values() if v == c) for c in candidates}
                result = roll_call_round(candidates, votes, list(ctx.players), ctx.deck)
            else:
                ctx.say("werewolf.vote.ready")
                counts, assumed, doubted = _ask_counts(ctx, candidates, bounds(ctx, first), {})
                result = count_round(candidates, counts, len(ctx.players), ctx.deck)
            if first is not None:
                outcome(first, result)
            return result, assumed, doubted
        except BadTotal as error:
            ctx.log("vote_refused", error=str(error))
            key = "werewolf.vote.bad_total" if take < BAD_TOTALS else "werewolf.vote.bad_fix"
            ctx.say(key, total=error.total, votes=votes_line(ctx, *bounds(ctx, first)))
    return counts, assumed, doubted


def _confirmed(ctx: NightContext, candidates: list[str], result: Round | dict[str, int], first: Round | None,
               assumed: set[str], doubted: set[str]) -> Round:
    """The round once the table says yes to its whole tally; a fix ("Aki 2", typed `Aki 2` or
    `Aki=2`, several at once) re-reads the tally; "no" asks which count is wrong. Counts whose
    total the vote cannot have (`_checked_round` gave up counting them again) are read back
    for a fix, never a yes. A fix the HW-R4 bounds refuse is said with the totals this vote
    can have; one that leaves too few votes while some counts were never asked (all votes
    seemed counted) asks those. A fix heard unsure and confirmed as the tally it makes (read
    back for a yes) is not read again. While the tally holds a count heard unsure (`doubted`),
    its yes or fix is taken only heard surely or typed. A fix whose tally was read back and
    refused (`Answer.denied`: the no may be to another count still wrong) is kept, heard unsure,
    and which count is wrong is asked at once. A fix refused for its total leaves the tally as
    it was, its counts heard unsure still doubted (a sure "Aki zero" refused so let two unsure
    yeses confirm the "Aki 3" heard unsure that it had not replaced). The tally is read back by
    voice READBACKS times at most; then it is typed, so that every vote ends (a table and a
    listener that do not agree would otherwise go round for ever)."""
    low, high = bounds(ctx, first)
    readbacks = 0
    denied = False  # the tally the last fix made was read back and refused: which count is wrong
    while True:
        readbacks += 1
        tries = 0 if readbacks > READBACKS else None
        if not denied:  # a denied fix's tally was just read back: not again
            tally = (ctx.table.tally(result.counts, candidates, high) if isinstance(result, Round)
                     else ctx.table.fix(result, candidates, high, counted=True))
            answer = ctx.ask(replace(tally, tries=tries, doubted=bool(doubted)))
        if denied or answer.value is False:
            answer = ctx.ask(replace(ctx.table.fix(_counts(result), candidates, high), tries=tries,
                                     doubted=bool(doubted)))
        value = answer.value
        denied = answer.denied
        if value is True and isinstance(result, Round):
            return result
        shown = _counts(result)
        if isinstance(value, bool):  # yes (or no) to counts whose total cannot be: say so again
            ctx.say("werewolf.vote.bad_fix", total=sum(shown.values()), votes=votes_line(ctx, low, high))
            continue
        counts = {**shown, **value}
        fixed_assumed = assumed - set(value)
        fixed_doubted = doubted - set(value) | _doubted(answer)
        done = answer.confirmed  # the tally this fix makes was read back and a yes took it
        if sum(counts.values()) < low and fixed_assumed:
            done = False
            counts, fixed_assumed, asked = _ask_counts(ctx, candidates, (low, high),
                                                       {c: n for c, n in counts.items() if c not in fixed_assumed})
            fixed_doubted |= asked
        try:
            fixed = count_round(candidates, counts, len(ctx.players), ctx.deck)
            if first is not None:
                outcome(first, fixed)
        except TallyError as error:  # the tally read back stays as it was, and so does its doubt
            ctx.log("vote_refused", counts=counts, error=str(error))
            ctx.say("werewolf.vote.bad_fix", total=sum(counts.values()), votes=votes_line(ctx, low, high))
            continue
        assumed, doubted = fixed_assumed, fixed_doubted
        for candidate in candidates:
            if fixed.counts[candidate] != shown[candidate]:
                ctx.log("vote_corrected", candidate=candidate, votes=fixed.counts[candidate])
        result = fixed
        if done:
            return result


def _counts(result: Round | Mapping[str, int]) -> dict[str, int]:
    return dict(result.counts if isinstance(result, Round) else result)


def _round(ctx: NightContext, candidates: list[str], number: int, first: Round | None = None) -> Round:
    result, assumed, doubted = _checked_round(ctx, candidates, first)
    result = _confirmed(ctx, candidates, result, first, assumed, doubted)
    ctx.log("vote", round=number, mode="roll_call" if ctx.roll_call else "count", counts=dict(result.counts))
    return result


def run_vote(ctx: NightContext) -> Outcome:
    """Run the vote and its runoff; announce the execution, the graveyard, or the panic."""
    four = len(ctx.players) == 4 and ctx.deck.has(Card.TRAITOR)
    # 4人プレイの場合、裏切り者に投票権はない; 4人プレイ時に裏切り人狼が登場した場合、そのプレイヤーは
    # 投票権を持つ: both are said, in one short line when everyone points at once
    if ctx.roll_call:
        ctx.say("werewolf.vote.roll_call_intro")
        if four:
            ctx.say("werewolf.vote.roll_call_four")
            ctx.say("werewolf.vote.four_traitor_werewolf")
    else:
        ctx.say("werewolf.vote.intro")
        if four:
            ctx.say("werewolf.vote.four_players")
    if ctx.deck.has(Card.MAGICIAN):  # 魔術師によって人狼陣営に変わったプレイヤーは、投票権を持ちません
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
