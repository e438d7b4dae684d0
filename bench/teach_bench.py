"""How long `gm werewolf rules` (and `play --teach`) speaks, per language and deck: each line rendered
to WAV with the language's default voice (`--speech wav:DIR`), durations summed. Goal: ≤ 60 s.

    .venv/bin/python bench/teach_bench.py [--lang en,ja,ko]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

GM = str(Path(sys.executable).with_name("gm"))
DECKS = [
    ("4", []), ("5", []), ("6", []),
    ("6", ["--variant", "magician"]), ("6", ["--variant", "dead"]),
    ("6", ["--with", "gorilla,angel,apprentice"]),
    ("6", ["--variant", "magician", "--with", "gorilla,angel,apprentice"]),
    ("6", ["--variant", "dead", "--with", "gorilla,angel,apprentice"]),
]


def spoken_seconds(lang: str, players: str, options: list[str]) -> tuple[float, int]:
    """Seconds of speech and lines of the lesson, rendered by the real default voice."""
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([GM, "werewolf", "rules", "--players", players, *options, "--lang", lang,
                        "--speech", f"wav:{folder}"], check=True, stdout=subprocess.DEVNULL)
        seconds = 0.0
        files = sorted(Path(folder).glob("*.wav"))
        for path in files:
            with wave.open(str(path)) as wav:
                seconds += wav.getnframes() / wav.getframerate()
        return seconds, len(files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="en,ja,ko")
    args = parser.parse_args()
    print(f"{'lang':4}  {'deck':62}  lines  seconds")
    worst = 0.0
    for lang in args.lang.split(","):
        for players, options in DECKS:
            seconds, lines = spoken_seconds(lang, players, options)
            worst = max(worst, seconds)
            deck = " ".join([f"{players} players", *options])
            print(f"{lang:4}  {deck:62}  {lines:5}  {seconds:7.1f}{'  over 60 s' if seconds > 60 else ''}")
    print(f"longest: {worst:.1f} s (goal ≤ 60 s)")


if __name__ == "__main__":
    main()
