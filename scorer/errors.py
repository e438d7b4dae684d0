"""The one base of every precise error the pure rules raise: bad input, named in the message."""

from __future__ import annotations


class ScorerError(ValueError):
    """Input the rules cannot take; the message names the input (and the state it met)."""
