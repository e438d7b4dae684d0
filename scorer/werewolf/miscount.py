"""After the reveal: a vote total the cards shown make impossible (HW-R4's voters).

Who had no vote: with 4 players the traitor's holder, unless they are the Traitor Werewolf
(「※4人プレイ時に裏切り人狼が登場した場合、そのプレイヤーは投票権を持つ」); every player turned by the
magician; a revealed angel (not asked, so it only widens the range).

HW-R8: the verdict stands. The book ends the game with the vote (「…処刑され…、ゲームは終了と
なります」) and holds no vote again once the cards are face up; a total is counted again only while
the vote is open (HW-R4). The miscount is said with the verdict, and the verdict is kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.werewolf.cards import Card
from scorer.werewolf.known import Known
from scorer.werewolf.tally import GRAVEYARD

TRAITOR = Card.TRAITOR.value  # a reason: the 4-player traitor had no vote
TURNED = "turned"    # a reason: this player saw the magician
RULING = "HW-R8"     # a miscount found at the reveal leaves the verdict as it is


@dataclass(frozen=True)
class Miscount:
    """`counted` votes where the cards allow `low`..`high`; `no_vote`: (reason, player) surely without one."""

    counted: int
    low: int
    high: int
    no_vote: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, object]:
        return {"counted": self.counted, "low": self.low, "high": self.high,
                "no_vote": [{"reason": reason, "name": name} for reason, name in self.no_vote],
                "verdict_stands": True, "ruling": RULING}


def _traitor_without_vote(known: Known) -> tuple[bool, bool]:
    """(surely, maybe) the 4-player traitor held back a vote."""
    if known.deck.players != 4 or not known.deck.has(TRAITOR):
        return False, False
    holder = known.holder(TRAITOR)
    if holder == GRAVEYARD:
        return False, False
    wolf = known.holder(Card.WEREWOLF)
    if holder is None or wolf is None:
        return False, True
    return wolf != holder, False


def miscount(known: Known, counted: int) -> Miscount | None:
    """The miscount when `counted` votes cannot be with the cards known, else None."""
    surely, maybe = _traitor_without_vote(known)
    no_vote = [(TRAITOR, known.holder(TRAITOR) or "")] if surely else []
    no_vote += [(TURNED, name) for name in known.seers]
    unsure = int(maybe) + int(known.deck.has(Card.ANGEL))
    high = len(known.players) - len(no_vote)
    low = max(1, high - unsure)
    if low <= counted <= high:
        return None
    return Miscount(counted, low, high, tuple(no_vote))
