"""Opening the speaking speaker for `--speech on` or `--speech wav:DIR`, falling back to printing.

Without pyttsx3, espeak-ng (or the platform's speech engine), a voice for the language,
libportaudio2 or an output device, `open_speech_speaker` prints one note on stderr and returns the printing speaker: the
game goes on with printed lines. A wav:DIR that cannot be written and an unknown `--voice` are
bad input (ValueError). See gm.speech.speaking for the speaker's behaviour.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from gm.text import kana
from gm.speech.settings import SpeechSettings
from gm.speech.notes import Notes
from gm.speech.player import DevicePlayer, WavSink
from gm.speech.tts import Renderer, SpeechUnavailable


def spoken_form(lang: str, notes: Notes) -> Callable[[str], str]:
    """What goes to the engine: for Japanese, kana only (Latin in katakana, numbers in words);
    a run with no kana reading (a kanji name given without one) is left out with a note."""
    if lang != "ja":
        return str

    def prepare(text: str) -> str:
        text = kana.espeak_kana(text)
        for run in kana.unreadable(text):
            notes.note("voice.no_reading", word=run)
        return kana.readable(text)

    return prepare


def open_speech_speaker(settings: SpeechSettings, printer, *, pace: float = 0.0):
    """A speaker that prints through `printer` and speaks (`on`) or writes WAV files (`wav:DIR`).

    `pace` is for a WAV folder only: real seconds per second of audio (see WavSink).
    """
    from gm.speech.speaking import SpeechSpeaker

    notes = Notes(settings.lang)
    if settings.speech.startswith("wav:"):
        def make_sink():
            return WavSink(Path(settings.speech[len("wav:"):]), pace=pace)
    else:
        make_sink = DevicePlayer
    try:
        speaker = SpeechSpeaker(printer, lambda: Renderer(settings), make_sink, notes, spoken_form(settings.lang, notes))
    except SpeechUnavailable as error:
        notes.note(error.note)
        return printer
    if speaker.renderer.missing_language:  # another language's voice would only spell out the kana
        speaker.close()
        notes.note("voice.no_lang_voice")
        return printer
    return speaker
