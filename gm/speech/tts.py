"""Rendering a line to audio with the engine for its language (see gm.speech.engines).

A language's engine is its voice pack's `[language] engine` where that engine is installed, else pyttsx3:
English: flite's clearest voice (`rms`) on Linux where flite is installed, else pyttsx3 (the platform's
voice; espeak-ng's `en-us` on Linux). Japanese: Open JTalk where `gm-card-nights[ja]` is installed, else
pyttsx3 (espeak-ng's kana-only voice). A `--voice` picks the engine that has that voice. Every
engine takes the same `--rate` (words per minute) and renders a line piece by piece
(gm.speech.pieces), so no text is too long for it. An engine with `render_parts` (Open JTalk)
is handed a line's whole sentences and gives them back in parts cut where its voice moves
between phrases. Whatever the engine, a line goes through one loudness stage
(gm.speech.loudness: one level for every line, `--volume` of it, no sample clipped), whole or
part by part.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from gm.speech.audio import Audio, Samples, joined
from gm.speech.engines import flite, openjtalk, pyttsx3_engine
from gm.speech.loudness import Loudness
from gm.speech.pieces import pieces
from gm.speech.settings import SpeechSettings
from gm.speech.unavailable import SpeechUnavailable
from gm.speech.voices_found import FoundVoice, voices_for
from gm.speech.engines.protocol import Engine, EngineModule

if TYPE_CHECKING:
    from gm.text.language import Language

__all__ = ["Renderer", "SpeechUnavailable", "engine_for", "installed_voices", "used_voices"]

ENGINES: tuple[EngineModule, ...] = (flite, openjtalk, pyttsx3_engine)
_BY_NAME: dict[str, EngineModule] = {engine.NAME: engine for engine in ENGINES}


def preferred_engine(lang: str | Language) -> EngineModule:
    """The engine module a language's pack prefers (its `[language] engine`); BadPack where it names none."""
    from gm.text.language import language
    from voices import BadPack, pack_path

    table = language(lang) if isinstance(lang, str) else lang
    name = table.engine
    if name not in _BY_NAME:
        raise BadPack(f"the voice pack {str(pack_path(table.code))!r} asks for the speech engine {name!r} "
                      f"(engines: {', '.join(_BY_NAME)})")
    return _BY_NAME[name]


def engine_for(settings: SpeechSettings) -> EngineModule:
    """The engine module for `settings`: the one with the --voice asked for, else the language's best one installed."""
    if settings.voice:
        for engine in (flite, openjtalk):
            if any(v.id == settings.voice for v in engine.voices()):
                return engine
        return pyttsx3_engine
    preferred = preferred_engine(settings.lines.language)
    return preferred if preferred.available() else pyttsx3_engine


def installed_voices() -> tuple[list[FoundVoice], list[SpeechUnavailable]]:
    """Every engine's voices, and why an engine could not be asked (pyttsx3 without espeak-ng)."""
    found: list[FoundVoice] = []
    failures: list[SpeechUnavailable] = []
    for engine in ENGINES:
        try:
            found.extend(engine.voices())
        except SpeechUnavailable as error:
            failures.append(error)
    return found, failures


def used_voices(found: list[FoundVoice], langs: Sequence[str]) -> dict[str, FoundVoice]:
    """The voice each language is spoken with by default, among `found`."""
    used = {}
    for lang in langs:
        engine = engine_for(SpeechSettings(lang))
        best = voices_for([v for v in found if v.engine == engine.NAME], lang)
        if best:
            used[lang] = best[0]
    return used


class Renderer:
    """Renders text to Audio with the engine and voice chosen for `settings`."""

    def __init__(self, settings: SpeechSettings) -> None:
        self.settings = settings
        module = engine_for(settings)
        self.engine_name: str = module.NAME
        self.engine: Engine = module.Engine(settings)
        self.voice: FoundVoice | None = self.engine.voice
        self.reads_kanji: bool = self.engine.reads_kanji
        self._render_parts = self.engine.render_parts

    @property
    def missing_language(self) -> bool:
        """True when no voice speaks the language (and no --voice was given)."""
        return self.voice is None

    def render(self, text: str) -> Audio:
        """The audio of `text`, rendered piece by piece (empty audio when nothing in it is speakable)."""
        return joined(list(self._levelled(self.engine.render(piece) for piece in self._pieces(text))))

    def warmed(self) -> Renderer:
        """This renderer, its engine warmed up where it has a cost on first use (Open JTalk loads
        its voice): for a speaker, made before the first line is asked for."""
        self.engine.warm_up()
        return self

    def parts(self, text: str) -> Iterator[Audio]:
        """The audio of `text` in parts played one after the other, each given as soon as it is
        rendered, so the first plays while the next ones render."""
        sentences = self._pieces(text)
        if self._render_parts is None:
            return self._levelled(self.engine.render(piece) for piece in sentences)
        return self._levelled(self._render_parts(sentences))

    def _levelled(self, rendered: Iterable[Audio | Samples]) -> Iterator[Audio]:
        """`rendered`, one line in order, through one loudness stage: each part as soon as it is ready."""
        loudness: Loudness | None = None
        for part in rendered:
            loudness = loudness or Loudness(part.rate, self.settings.volume)
            audio = loudness.feed(part)
            if audio.frames:
                yield audio
        if loudness is not None and (rest := loudness.end()).frames:
            yield rest

    def _pieces(self, text: str) -> list[str]:
        return pieces(text, clauses=self._render_parts is None)

    def close(self) -> None:
        self.engine.close()
