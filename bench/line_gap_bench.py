"""The silence between two lines gm says back to back, as at a re-ask ("Sorry, I did not catch
that." then the question again): a player who answers as soon as gm pauses speaks into it.

gm's speaking speaker (`gm.speech.speaking.SpeechSpeaker`) with the real default renderer of each
language (English: flite; Japanese: Open JTalk) says the two lines of a hand's re-ask to a
loudspeaker stand-in that plays in real time (it sleeps each part's length) and records when each
part starts and ends (time.monotonic). Printed per language: the median, lowest and highest gap
between the end of the first line's last part and the start of the second line's first part,
over `--pairs` re-asks (a stream's start on a real device comes on top).

Run: .venv/bin/python bench/line_gap_bench.py [--pairs 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gm.speech.audio import Audio  # noqa: E402
from gm.speech.notes import Notes  # noqa: E402
from gm.speech.output import spoken_form  # noqa: E402
from gm.speech.settings import SpeechSettings  # noqa: E402
from gm.speech.speakers import PrintSpeaker  # noqa: E402
from gm.speech.speaking import SpeechSpeaker  # noqa: E402
from gm.speech.tts import Renderer, engine_for  # noqa: E402
from gm.text.lines import Pack  # noqa: E402

NAMES = {"en": "Kate", "ja": "健"}
READINGS = {"健": "けん"}


class TimedLoudspeaker:
    """Plays each part in real time (a sleep as long as the audio) and records its start and end."""

    realtime = True
    streams = True

    def __init__(self) -> None:
        self.parts: list[tuple[str, float, float]] = []  # (line key, start, end)

    def play(self, audio: Audio, key: str, cut: threading.Event) -> bool:
        start = time.monotonic()
        cut.wait(audio.seconds)
        self.parts.append((key, start, time.monotonic()))
        return not cut.is_set()

    def close(self) -> None:
        """Nothing opened."""


def gaps(lang: str, pairs: int) -> tuple[str, list[float]]:
    """The engine's name and the gap in seconds between the two lines of each of `pairs` re-asks."""
    settings = SpeechSettings(lang, readings=READINGS)
    pack = Pack(lang, READINGS)
    sorry, prompt = pack.line("listen.not_understood"), pack.line("werewolf.reveal.ask_hand", name=NAMES[lang])
    sink = TimedLoudspeaker()
    notes = Notes(lang)
    speaker = SpeechSpeaker(PrintSpeaker(lambda _: None), lambda: Renderer(settings).warmed(), lambda: sink, notes,
                            spoken_form(settings, notes, engine_for(settings).Engine.reads_kanji))
    found = []
    for _ in range(pairs):
        sink.parts.clear()
        speaker.say(sorry)
        speaker.say(prompt)
        speaker.flush()
        first_end = max(end for key, _, end in sink.parts if key == sorry.key)
        second_start = min(start for key, start, _ in sink.parts if key == prompt.key)
        found.append(second_start - first_end)
    speaker.close()
    return speaker.renderer.engine_name, found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=10)
    options = parser.parse_args()
    for lang in ("en", "ja"):
        engine, found = gaps(lang, options.pairs)
        print(f"{lang} {engine:<9} gap between two lines (ms, {len(found)} pairs): median "
              f"{statistics.median(found) * 1000:6.1f}, lowest {min(found) * 1000:6.1f}, "
              f"highest {max(found) * 1000:6.1f}")


if __name__ == "__main__":
    main()
