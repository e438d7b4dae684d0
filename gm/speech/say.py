"""`gm voice say TEXT --to WAV`: a line rendered by the language's engine and written to a WAV file.

The command's work apart from its command line: the file, and the report it prints.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from gm.files import json_text
from gm.ports import Line
from gm.speech.notes import NoteTaker
from gm.speech.settings import SpeechSettings


@dataclass(frozen=True)
class Said:
    """What was written: the printed and spoken text, the file, the engine and voice, the audio's length."""

    text: str
    spoken: str
    file: str
    engine: str
    voice: str | None
    sample_rate: int
    seconds: float

    def report(self, json_out: bool, saved: str) -> str:
        """What the command prints: the JSON object, or the line and `saved` ("Saved the speech to …")."""
        return json_text(asdict(self)) if json_out else f"{self.text}\n{saved}"


def say_to_wav(settings: SpeechSettings, line: Line, to: Path, notes: NoteTaker) -> Said:
    """Render `line` for `settings` and write it to `to`.

    `notes` hears which reading is missing. Raises SpeechUnavailable without an engine, NothingToSay
    when nothing speakable is left (a kanji name with no reading), OSError when `to` cannot be written.
    """
    from gm.speech.audio import write_wav
    from gm.speech.output import spoken_form
    from gm.speech.pieces import check_speakable
    from gm.speech.tts import Renderer

    renderer = Renderer(settings)
    try:
        spoken = check_speakable(spoken_form(settings, notes, renderer.reads_kanji)(line), settings.wpm)
        audio = renderer.render(spoken)
    finally:
        renderer.close()
    write_wav(to, audio)
    return Said(line.text, spoken, str(to), renderer.engine_name, renderer.voice.id if renderer.voice else None,
                audio.rate, round(audio.seconds, 3))
