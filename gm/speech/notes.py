"""One-line notes on stderr about speech (why it is off, which reading is missing), each said once."""

from __future__ import annotations

from typing import Protocol

from gm.files import to_stderr
from gm.text.lines import Pack


class NoteTaker(Protocol):
    """Where a note about speech goes: Notes prints it."""

    def note(self, key: str, **fields: object) -> None: ...


class Notes:
    """Prints a `[voice]` line of the pack as "gm: ..." on stderr, at most once per distinct text
    (in the language of the lines given, or of the language code)."""

    def __init__(self, lines: Pack | str) -> None:
        self._pack = lines if isinstance(lines, Pack) else Pack(lines)
        self._said: set[str] = set()

    def note(self, key: str, **fields: object) -> None:
        text = self._pack.text(key, **fields)
        if text not in self._said:
            self._said.add(text)
            to_stderr(text)
