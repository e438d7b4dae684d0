"""Cards left per deal for a policy: greedy, smart (hidden information) or omniscient (the solver)."""

from __future__ import annotations

from dataclasses import dataclass

from scorer.solitaire.deal import Deal, deal_from_seed
from scorer.solitaire.policies import greedy, play_out, policy_named, smart
from scorer.solitaire.solver import Search, SearchLimit, least_left

POLICY_NAMES = ("greedy", "smart", "omniscient")


@dataclass(frozen=True)
class Unresolved:
    """A deal the solver could not settle within its state budget: the best lies in [at_least, at_most]."""

    seed: int
    at_least: int
    at_most: int  # what the greedy or smart player reaches on the deal

    def to_json(self) -> dict[str, int]:
        return {"seed": self.seed, "at_least": self.at_least, "at_most": self.at_most}


def cards_left(seed: int, rows: int, policy: str, max_states: int | None = None,
               search: Search | None = None) -> int | Unresolved:
    """Pyramid cards left when `policy` plays the deal of `seed` (deal i of a run uses seed S + i).

    `omniscient` searches with the compiled `search` (gm/solitaire/compiled.py); with
    `max_states`, a deal it cannot settle within that many states comes back as `Unresolved`.
    """
    deal = deal_from_seed(seed, rows)
    if policy == "omniscient":
        if search is None:
            raise TypeError("the omniscient policy needs the compiled search (search=)")
        try:
            return least_left(deal, max_states, search=search)
        except SearchLimit as limit:
            return unresolved(seed, deal, limit)
    return play_out(deal, policy_named(policy)).left


def unresolved(seed: int, deal: Deal, limit: SearchLimit) -> Unresolved:
    """The bounds known for a deal the solver gave up on: its proven lower bound, and the best
    of the greedy and smart players as the upper one (SS-R6)."""
    return Unresolved(seed, limit.at_least, min(play_out(deal, greedy).left, play_out(deal, smart).left))
