"""The verdict in words: which voice-pack line says a judge's reason."""

from __future__ import annotations

from scorer.werewolf.judge import Reason, Verdict


def reason_key(reason: Reason, nobody_wins: bool = False) -> str:
    """The line for `reason`; the `_nobody` lines say plainly that no player is on the winning side."""
    return f"werewolf.verdict.{reason}" + ("_nobody" if nobody_wins else "")


def verdict_key(verdict: Verdict) -> str:
    """The line that announces `verdict` (rendered with `verdict.fields`)."""
    return reason_key(verdict.reason, nobody_wins=not verdict.winners)
