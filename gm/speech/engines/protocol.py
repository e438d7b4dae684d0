"""What gm.speech.tts needs of an engine (`Engine`), declared by every engine module's `Engine` class."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from gm.speech.audio import Audio, Samples
    from gm.speech.voices_found import FoundVoice


class Engine(Protocol):
    """Renders text in one voice. `render_parts` is None for an engine that renders what it is
    given whole (a line is then cut into clauses first); an engine that reads a line's whole
    sentences and gives them back in parts cut between phrases (Open JTalk) has it as a method."""

    @property
    def voice(self) -> FoundVoice | None: ...

    @property
    def reads_kanji(self) -> bool: ...

    @property
    def render_parts(self) -> Callable[[Sequence[str]], Iterator[Audio | Samples]] | None: ...

    def warm_up(self) -> None:
        """Load now what the first line would otherwise wait for (nothing, for most engines)."""

    def render(self, text: str) -> Audio | Samples: ...

    def close(self) -> None: ...


if TYPE_CHECKING:  # every engine declares the protocol (checked by mypy)
    from gm.speech.engines import flite, openjtalk, pyttsx3_engine

    _DECLARED: tuple[type[Engine], ...] = (flite.Engine, openjtalk.Engine, pyttsx3_engine.Engine)
