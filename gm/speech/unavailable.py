"""The one error every speech engine raises when it cannot start."""

from __future__ import annotations


class SpeechUnavailable(RuntimeError):
    """Text-to-speech cannot start here; `note` is the [voice] line that says why."""

    def __init__(self, note: str, detail: str = "") -> None:
        super().__init__(detail or note)
        self.note = note
