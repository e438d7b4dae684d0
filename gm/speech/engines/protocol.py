"""What gm.speech.tts needs of an engine (`Engine`), declared by every engine module's `Engine` class."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from gm.speech.audio import Audio, Samples
    from gm.speech.settings import SpeechSettings
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


class EngineClass(Protocol):
    """An engine module's `Engine` class: whether its engines read kanji, known before one is made."""

    @property
    def reads_kanji(self) -> bool: ...

    def __call__(self, settings: SpeechSettings) -> Engine: ...


class EngineModule(Protocol):
    """An engine module: its NAME, whether it is installed, the voices it offers, its `Engine`."""

    @property
    def NAME(self) -> str: ...  # the module's constant

    @property
    def Engine(self) -> EngineClass: ...  # the module's class

    def available(self) -> bool: ...

    def voices(self) -> list[FoundVoice]: ...


if TYPE_CHECKING:  # every engine declares the protocols (checked by mypy)
    from gm.speech.engines import flite, openjtalk, pyttsx3_engine

    _DECLARED: tuple[type[Engine], ...] = (flite.Engine, openjtalk.Engine, pyttsx3_engine.Engine)
    _MODULES: tuple[EngineModule, ...] = (flite, openjtalk, pyttsx3_engine)
