"""The Half Werewolf rules' refusals: a precise English message naming the bad input, plus a key
(under the voice packs' `errors.werewolf`) and fields that let the app say it in another language."""

from __future__ import annotations

from scorer.values import Refusal


class WerewolfRefusal(Refusal):
    """Input the Half Werewolf rules cannot take; `key` and `fields` word it in every voice pack."""

    prefix = "werewolf"
