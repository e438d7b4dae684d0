"""Opening the speaking speaker for `--speech on` or `--speech wav:DIR`, falling back to printing.

Without a speech engine (flite, Open JTalk, pyttsx3 with espeak-ng or the platform's), a voice for the language,
libportaudio2 or an output device, `open_speech_speaker` prints one note on stderr and returns the printing speaker: the
game goes on with printed lines. A wav:DIR that cannot be written and an unknown `--voice` are
bad input (ValueError). See gm.speech.speaking for the speaker's behaviour.
"""

from __future__ import annotations

import re
from pathlib import Path
from collections.abc import Callable, Mapping

from gm.ports import Line, Speaker
from gm.speech.sink import Sink
from gm.text import kana
from gm.text.lines import name_kana
from gm.speech.settings import SpeechSettings
from gm.speech.notes import NoteTaker, Notes
from gm.speech.player import DevicePlayer, WavSink
from gm.speech.tts import Renderer, SpeechUnavailable, engine_for


def with_readings(text: str, readings: Mapping[str, str]) -> str:
    """`text` with every name that has a reading replaced by it (健に3票 → けんに3票), longest names first."""
    names = sorted((n for n in readings if n and readings[n]), key=len, reverse=True)
    if not names:
        return text
    return re.sub("|".join(map(re.escape, names)), lambda m: readings[m.group(0)], text)


_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def spoken_form(settings: SpeechSettings, notes: NoteTaker, reads_kanji: bool) -> Callable[[Line], str]:
    """What goes to the engine for a line. An engine that reads kanji (Open JTalk) gets the printed
    text with the players' readings put in and Latin names in katakana (it would spell them
    letter by letter); espeak-ng's Japanese voice gets kana only (Latin in katakana, numbers in
    words), and a run with no kana reading (a kanji name given without one) is left out with a note.
    Other languages (whose reading module does not speak in kana) get the line's spoken form."""
    if not settings.lines.language.reading.SPOKEN_IN_KANA:
        return lambda line: line.spoken
    if reads_kanji:
        return lambda line: _LATIN_WORD.sub(lambda m: name_kana(m.group()), with_readings(line.text, settings.readings))

    def prepare(line: Line) -> str:
        text = kana.espeak_kana(line.spoken)
        for run in kana.unreadable(text):
            notes.note("voice.no_reading", word=run)
        return kana.readable(text)

    return prepare


def open_speech_speaker(settings: SpeechSettings, printer: Speaker, *, pace: float = 0.0) -> Speaker:
    """A speaker that prints through `printer` and speaks (`on`) or writes WAV files (`wav:DIR`).

    `pace` is for a WAV folder only: real seconds per second of audio (see WavSink).
    """
    from gm.speech.speaking import SpeechSpeaker

    notes = Notes(settings.lines)
    if settings.speech.startswith("wav:"):
        def make_sink() -> Sink:
            return WavSink(Path(settings.speech[len("wav:"):]), pace=pace)
    else:
        make_sink = DevicePlayer
    try:
        prepare = spoken_form(settings, notes, engine_for(settings).Engine.reads_kanji)
        speaker = SpeechSpeaker(printer, lambda: Renderer(settings).warmed(), make_sink, notes, prepare)
    except SpeechUnavailable as error:
        notes.note(error.note)
        return printer
    if speaker.renderer.missing_language:  # another language's voice would only spell out the kana
        speaker.close()
        notes.note("voice.no_lang_voice")
        return printer
    return speaker
