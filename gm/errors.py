"""The errors the CLI reports as bad input: one line on stderr, exit code 2, nothing changed.

`GmError` is the base of gm's own narrow errors; `BAD_INPUT` adds the rules' base
(`scorer.errors.ScorerError`), so the edge catches every narrow error with one name.
"""

from __future__ import annotations

from scorer.errors import ScorerError


class GmError(ValueError):
    """Input gm cannot take (a name, count, file or setting); the message names it."""


BAD_INPUT: tuple[type[Exception], ...] = (GmError, ScorerError)
