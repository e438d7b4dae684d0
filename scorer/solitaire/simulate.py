"""Cards left per deal for a policy: greedy, smart (hidden information) or omniscient (the solver)."""

from __future__ import annotations

from scorer.solitaire.deal import deal_from_seed
from scorer.solitaire.policies import play_out, policy_named
from scorer.solitaire.solver import solve

POLICY_NAMES = ("greedy", "smart", "omniscient")


def cards_left(seed: int, rows: int, policy: str) -> int:
    """Pyramid cards left when `policy` plays the deal of `seed` (deal i of a run uses seed S + i)."""
    deal = deal_from_seed(seed, rows)
    if policy == "omniscient":
        return solve(deal).best_left
    return play_out(deal, policy_named(policy)).left
