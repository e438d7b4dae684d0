"""The 7th Sense Training rules' refusals: a precise English message naming the bad input, plus a
key (under the voice packs' `errors.solitaire`) and fields that let the app say it in another language."""

from __future__ import annotations

from scorer.values import Refusal


class SolitaireRefusal(Refusal):
    """Input the 7th Sense Training rules cannot take; `key` and `fields` word it in every voice pack."""

    prefix = "solitaire"
