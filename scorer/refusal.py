"""A refusal the app can say in the player's language: its English message, plus a key and fields."""

from __future__ import annotations

from scorer.errors import ScorerError


class Refusal(ScorerError):
    """A precise ValueError whose message names the bad input; `key` (under the voice packs'
    `errors` table) and `fields` let the app say it in another language."""

    prefix = ""

    def __init__(self, message: str, key: str = "", **fields: object) -> None:
        super().__init__(message)
        self.key = f"{self.prefix}.{key}" if key and self.prefix else key
        self.fields = fields
