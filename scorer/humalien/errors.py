"""Precise errors of the Humalien score keeper: each names the bad input and the state it met."""

from __future__ import annotations

from scorer.values import Refusal


class ScoreError(Refusal):
    """An event the score sheet cannot take; the message names the input and the state (its
    key is under the voice packs' `errors.score`)."""

    prefix = "score"


class NoMatch(ScoreError):
    """A scoring event before any match was started."""


class BadPlayers(ScoreError):
    """A new match without exactly two distinct, non-empty player names."""


class UnknownPlayer(ScoreError):
    """A name that is neither player of the match (nor a unique prefix of one)."""


class CountOutOfRange(ScoreError):
    """A count (empty piles, cards in a play, cards left) outside what the game allows."""


class Impossible(ScoreError):
    """An event the cards cannot produce (HU-R6): the message gives the reason."""


class SecondSixSixSix(Impossible):
    """A 666 beyond what the boxes in play allow in one game (HU digest: one box → one)."""


class MatchOver(ScoreError):
    """A scoring event after game 3 ended."""


class MatchInProgress(ScoreError):
    """A new match while the current one is unfinished (and not explicitly abandoned)."""


class NothingToUndo(ScoreError):
    """Undo with no event left to take back."""


class NothingToRedo(ScoreError):
    """Redo with nothing undone since the last scoring event."""


class BadRecord(ScoreError):
    """A stored event record that does not describe an event."""
