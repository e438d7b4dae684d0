"""The evening vote (夕フェイズ): counting, the runoff among the tied, and panic (恐慌状態).

Candidates are player names and `GRAVEYARD`. Count mode takes how many fingers point at each
candidate ("せーの", everyone at once, so nobody learns who has no vote); roll-call mode takes
each voter's choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from collections.abc import Mapping, Sequence

from scorer.werewolf.refusal import WerewolfRefusal
from scorer.werewolf.decks import PLAYER_COUNTS, Deck, standard_deck

GRAVEYARD = "graveyard"


class TallyError(WerewolfRefusal):
    """Votes that cannot be counted: an unknown name, a bad count, an impossible total."""


class BadTotal(TallyError):
    """A total of votes this deck cannot have, or a runoff with other voters than the first round (HW-R4)."""

    def __init__(self, message: str, key: str, total: int, **fields: object) -> None:
        super().__init__(message, key, total=total, **fields)
        self.total = total


def most_without_vote(players: int, deck: Deck | None = None) -> int:
    """How many players may lack a vote with `deck`.

    With 4 players the traitor has no vote (a Traitor Werewolf has one); a player turned by
    the magician has none (at most two: the seer's and the gravedigger's ability); nor has a
    revealed angel. Without a deck, the standard deck for `players` (HW-R4).
    """
    if players not in PLAYER_COUNTS:
        raise TallyError(f"Half Werewolf is for 4 to 6 players, not {players}", "players", players=players)
    if deck is not None and deck.players != players:
        raise TallyError(f"the deck is for {deck.players} players, not {players}", "deck_for",
                         deck=deck.players, players=players)
    if deck is None:
        deck = standard_deck(players)
    return sum(card.row.votes_taken(players) for card in deck.cards)


def vote_bounds(players: int, deck: Deck | None = None) -> tuple[int, int]:
    """The possible total of a vote in count mode (HW-R4).

    At most one vote per player; at least one per player who may vote (see
    `most_without_vote`): with 4 players at least 3. A total below the player count but in
    range is accepted, since someone may lack a vote. Never below 1: a vote needs a vote.
    """
    return max(1, players - most_without_vote(players, deck)), players


def votes_phrase(low: int, high: int) -> str:
    """ "exactly 5 votes" or "between 3 and 4 votes"."""
    if low == high:
        return f"exactly {low} vote{'s' if low != 1 else ''}"
    return f"between {low} and {high} votes"


def check_total(total: int, players: int, deck: Deck | None = None) -> None:
    """HW-R4: a vote's total must be possible with `deck` (one vote per player, some may lack one)."""
    low, high = vote_bounds(players, deck)
    if not low <= total <= high:
        raise BadTotal(f"HW-R4: {total} votes in all, but {players} players cast {votes_phrase(low, high)}",
                       "total_exactly" if low == high else "total_between", total, players=players, low=low, high=high)


@dataclass(frozen=True)
class Round:
    """One round of votes: every candidate's count, and those with the most."""

    counts: Mapping[str, int]
    leaders: tuple[str, ...]
    voters: frozenset[str] | None = None  # who voted, in roll-call mode

    @property
    def executed(self) -> str | None:
        """The single leader, or None on a tie."""
        return self.leaders[0] if len(self.leaders) == 1 else None

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def _round(candidates: Sequence[str], counts: Mapping[str, int], voters: frozenset[str] | None = None) -> Round:
    if len(set(candidates)) != len(candidates):
        raise TallyError(f"a candidate is named twice in {list(candidates)}", "candidate_twice",
                         candidates=list(candidates))
    full = {candidate: counts.get(candidate, 0) for candidate in candidates}
    if sum(full.values()) == 0:
        raise TallyError("no votes were cast", "no_votes")
    top = max(full.values())
    return Round(MappingProxyType(full), tuple(c for c in candidates if full[c] == top), voters)


def count_round(
    candidates: Sequence[str], counts: Mapping[str, int], players: int, deck: Deck | None = None
) -> Round:
    """Count mode: candidate → number of votes; missing candidates have none (HW-R4 bounds)."""
    for candidate, count in counts.items():
        if candidate not in candidates:
            raise TallyError(f"{candidate!r} is not a candidate (candidates: {', '.join(candidates)})",
                             "not_candidate", candidate=candidate, candidates=tuple(candidates))
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise TallyError(f"votes for {candidate!r} must be a whole number ≥ 0, not {count!r}", "bad_votes",
                             candidate=candidate, count=count)
    check_total(sum(counts.values()), players, deck)
    return _round(candidates, counts)


def roll_call_round(
    candidates: Sequence[str], votes: Mapping[str, str], voters: Sequence[str], deck: Deck | None = None
) -> Round:
    """Roll-call mode: voter → candidate. A voter with no vote is left out, only as often as
    `deck` lets players lack a vote (HW-R4; without a deck, the standard one)."""
    tally = dict.fromkeys(candidates, 0)
    for voter, candidate in votes.items():
        if voter not in voters:
            raise TallyError(f"{voter!r} is not a voter (voters: {', '.join(voters)})", "not_voter",
                             voter=voter, voters=tuple(voters))
        if candidate not in tally:
            raise TallyError(
                f"{voter} voted for {candidate!r}, not a candidate (candidates: {', '.join(candidates)})",
                "voted_not_candidate", voter=voter, candidate=candidate, candidates=tuple(candidates),
            )
        tally[candidate] += 1
    check_total(len(votes), len(voters), deck)
    return _round(candidates, tally, frozenset(votes))


@dataclass(frozen=True)
class Outcome:
    """The result of the vote.

    `runoff_candidates` is the tied set whenever the first round tied (whether or not the
    runoff was held yet); `panic` is a tie again in the runoff; `total` the votes counted (the
    runoff has the same, HW-R4).
    """

    executed: str | None
    runoff_candidates: tuple[str, ...] | None
    panic: bool
    total: int | None = None

    @property
    def needs_runoff(self) -> bool:
        return self.executed is None and not self.panic


def outcome(first: Round, runoff: Round | None = None) -> Outcome:
    """The executed candidate, the runoff still to hold, or panic (a tie after the runoff)."""
    if first.executed is not None:
        if runoff is not None:
            raise TallyError(f"no runoff: {first.executed} has the most votes in the first round", "no_runoff",
                             executed=first.executed)
        return Outcome(first.executed, None, False, first.total)
    tied = first.leaders
    if runoff is None:
        return Outcome(None, tied, False, first.total)
    for candidate, count in runoff.counts.items():
        if count and candidate not in tied:
            raise TallyError(
                f"the runoff is among {', '.join(tied)} only, but {candidate!r} got {count} votes",
                "runoff_not_tied", tied=tied, candidate=candidate, count=count,
            )
    if runoff.total != first.total:  # HW-R4: 全プレイヤーによる投票のやり直し, the same voters
        raise BadTotal(
            "HW-R4: the runoff has the same voters as the first round: "
            f"exactly {first.total} votes, not {runoff.total}",
            "runoff_total", runoff.total, first=first.total,
        )
    if first.voters is not None and runoff.voters is not None and first.voters != runoff.voters:
        changed = sorted(first.voters ^ runoff.voters)
        raise BadTotal(
            f"HW-R4: the runoff has the same voters as the first round, but {', '.join(changed)} changed",
            "runoff_voters", runoff.total, changed=changed,
        )
    if runoff.executed is None:
        return Outcome(None, tied, True, first.total)
    return Outcome(runoff.executed, tied, False, first.total)
