"""What gm.speech.tts needs of an engine (`Engine`), declared by every engine module's `Engine` class."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from gm.speech.audio import Audio
    from gm.speech.voices_found import FoundVoice


class Engine(Protocol):
    """Renders text in one voice. `render_parts` is None for an engine that renders what it is
    given whole (a line is then cut into clauses first); an engine that reads a whole sentence and
    gives it back in parts cut between phrases (Open JTalk) has it as a method."""

    @property
    def voice(self) -> FoundVoice | None: ...

    @property
    def reads_kanji(self) -> bool: ...

    @property
    def render_parts(self) -> Callable[..., Iterator[Audio]] | None: ...

    def warm_up(self) -> None:
        """Load now what the first line would otherwise wait for (nothing, for most engines)."""

    def render(self, text: str) -> Audio: ...

    def close(self) -> None: ...
