"""Keeping the score of The Humalien (ザ・ヒューメイリアン): events, the sheet, the fold (pure)."""

from scorer.humalien.errors import ScoreError
from scorer.humalien.events import Event, from_record, to_record
from scorer.humalien.fold import Award, Change, State, apply, fold
from scorer.humalien.sheet import Match, resolve_player

__all__ = ["Award", "Change", "Event", "Match", "ScoreError", "State", "apply", "fold",
           "from_record", "resolve_player", "to_record"]
