"""Speech benchmarks: rendering speed against espeak-ng, and cue lateness with speech on.

1. Render a 10-word English line and a Japanese line to audio with gm's renderer (pyttsx3
   `save_to_file`, one engine kept alive) and with `espeak-ng -w` on the same text, voice and
   rate, in the same run: median milliseconds of each and their ratio (goal: gm ≤ 1.5×).
2. The discussion timer's 3 minutes scaled to 10 seconds (RealClock): its cues (2:00, 1:00,
   0:30, the 10-second countdown and the urgent "time is up") spoken to a WAV sink that plays
   in real time: each cue's lateness against its schedule (goal ≤ 50 ms).

Run: .venv/bin/python bench/speech_bench.py [--runs 30]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gm.clock import RealClock  # noqa: E402
from gm.text.lines import Voice  # noqa: E402
from gm.speech.settings import SpeechSettings
from gm.commands.options import SpeechSettings  # noqa: E402
from gm.ports import Line  # noqa: E402
from gm.speech.speakers import PrintSpeaker  # noqa: E402
from gm.speech.output import open_speech_speaker  # noqa: E402
from gm.speech.tts import Renderer  # noqa: E402
from gm.night.timer import Discussion  # noqa: E402

TEXTS = {
    "en": "Night is over, everybody open your eyes and look around.",  # 10 words
    "ja": "よるが あけました。みなさん めを あけて、まわりを みてください。",
}
RATE = 175  # words per minute for both renderers (espeak-ng's default)


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def render_speed(runs: int) -> None:
    print(f"render a line to audio, median of {runs} runs (ms)")
    print(f"{'line':<5} {'gm (pyttsx3)':>13} {'espeak-ng -w':>13} {'ratio':>6} {'audio s':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "espeak.wav"
        for lang, text in TEXTS.items():
            renderer = Renderer(SpeechSettings(lang=lang, rate=RATE))
            renderer.render(text)  # warm up
            ours, theirs = [], []
            for _ in range(runs):
                start = time.perf_counter()
                audio = renderer.render(text)
                ours.append(time.perf_counter() - start)
                start = time.perf_counter()
                subprocess.run(["espeak-ng", "-v", renderer.voice.id if renderer.voice else lang, "-s", str(RATE),
                                "-w", str(out), text], check=True)
                theirs.append(time.perf_counter() - start)
            renderer.close()
            a, b = _median_ms(ours), _median_ms(theirs)
            print(f"{lang:<5} {a:>13.1f} {b:>13.1f} {a / b:>6.2f} {audio.seconds:>8.2f}")


def cue_lateness(seconds: float = 10.0, phase: int = 180) -> None:
    """The real discussion timer (gm.night.timer.Discussion) on a RealClock scaled so `phase` game
    seconds last `seconds`, speaking to a WAV sink that plays in real time."""
    voice = Voice("ja")
    said: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        speaker = open_speech_speaker(SpeechSettings("ja", f"wav:{tmp}"), PrintSpeaker(lambda _: None), pace=1.0)
        clock = RealClock(scale=seconds / phase)

        def say(line: Line) -> None:
            said.append((line.key, clock.now()))
            speaker.say(line)

        result = Discussion(phase, clock, say, voice.line).run()
        speaker.close()
        spoken = speaker.spoken
    schedule = [(phase - mark, when) for mark, when in result.cues] + [(phase, said[-1][1])]
    lateness = [(when - due) * clock.scale for due, when in schedule]
    print(f"\n{len(schedule)} cues of a {phase} s discussion scaled to {seconds:.0f} s, speech on (WAV sink, real time)")
    print(f"cue lateness: median {_median_ms(lateness):.2f} ms, max {max(lateness) * 1000:.2f} ms")
    print(f"lines spoken {len(spoken)} (cut by the urgent time-up: {sum(not s.completed for s in spoken)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    if not shutil.which("espeak-ng"):
        sys.exit("bench: espeak-ng is not installed")
    render_speed(args.runs)
    cue_lateness()


if __name__ == "__main__":
    main()
