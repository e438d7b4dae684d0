"""Whether gm can speak and listen here, by the probes a night uses (`gm voice ready`, ./setup.sh).

Speaking needs the language's speech engine (`Renderer`, as a night builds it, with a voice for
the language) and a sound output device (`DevicePlayer`'s default output); listening needs a
microphone (the default input device `MicSource` opens). Each probe is passed in, so the logic
is tested with fakes; `probe(lang)` gives the real ones (sounddevice imported lazily).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable

from gm.speech.unavailable import SpeechUnavailable

Probe = Callable[[], str]
"""Names what it found (an engine, a device), or raises why there is none."""


@dataclass(frozen=True)
class Readiness:
    """What was found for speaking and listening: a name, or None with why not (`*_why`)."""

    engine: str | None
    output: str | None
    microphone: str | None
    engine_why: str = ""
    output_why: str = ""
    microphone_why: str = ""

    @property
    def speaks(self) -> bool:
        return self.engine is not None and self.output is not None

    @property
    def listens(self) -> bool:
        return self.microphone is not None

    def to_json(self) -> dict[str, object]:
        return {"speaking": {"ready": self.speaks, "engine": self.engine, "output": self.output,
                             "why_not": [w for w in (self.engine_why, self.output_why) if w]},
                "listening": {"ready": self.listens, "microphone": self.microphone,
                              "why_not": [self.microphone_why] if self.microphone_why else []}}


def readiness(engine: Probe, output: Probe, microphone: Probe) -> Readiness:
    """Each probe run once: what it names, or None and the first line of why not."""
    found: dict[str, str | None] = {}
    why: dict[str, str] = {}
    for name, probe in (("engine", engine), ("output", output), ("microphone", microphone)):
        try:
            found[name] = probe()
        except (SpeechUnavailable, OSError, ValueError) as error:  # NoAudio is an OSError
            found[name] = None
            why[f"{name}_why"] = (str(error).splitlines() or [type(error).__name__])[0]
    return Readiness(found["engine"], found["output"], found["microphone"], **why)


def probe(lang: str) -> Readiness:
    """This machine's readiness for `lang`, by the night's own probes."""
    return readiness(lambda: _engine(lang), _output, _microphone)


def _engine(lang: str) -> str:
    from gm.speech.settings import SpeechSettings
    from gm.speech.tts import Renderer, engine_for

    settings = SpeechSettings(lang)
    renderer = Renderer(settings)
    if renderer.missing_language:
        raise SpeechUnavailable("voice.no_lang_voice", f"no {lang} voice")
    return engine_for(settings).NAME


def _output() -> str:
    from gm.speech.player import sounddevice_with_output

    return str(sounddevice_with_output().query_devices(kind="output")["name"])


def _microphone() -> str:
    from gm.hearing.cannot_listen import NoAudio
    from gm.hearing.microphone import import_sounddevice

    sd = import_sounddevice()
    try:
        return str(sd.query_devices(kind="input")["name"])
    except (sd.PortAudioError, ValueError) as error:  # no default input device
        raise NoAudio(f"no microphone ({error})", "no_devices", detail=str(error)) from error
