"""What Whisper's closed-set scoring of one answer costs, decoded as gm decodes it and all at once.

Answers a table gives to a 4-player count (Japanese: said by Open JTalk at three speeds and
pitches; English: by flite's voices), with a filler now and then, and talk that answers nothing,
each heard by the count question's recogniser (its Phrasebook as gm builds it, the question's text
included), after a round that is not timed, two ways, taking turns going first: as gm decodes (its
phrases BATCH at a time, a group of phrases that begin alike only where its beginning could win:
`gm.hearing.whisper`), and with every phrase decoded in one batch, as before. Per way: the median
and p95 CPU seconds (all threads) and wall seconds per answer, what was heard right, and whether
both ways heard every answer alike.

Run: .venv/bin/python bench/whisper_cost_bench.py [--langs ja,en] [--rounds 1]
(needs `pip install ".[whisper,ja]"`).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gm.hearing import whisper  # noqa: E402
from gm.hearing.utterance import levelled  # noqa: E402
from gm.hearing.listening import phrasebook  # noqa: E402
from gm.table.questions import Counting, Table  # noqa: E402
from gm.text.lines import Pack  # noqa: E402
from gm.text.vocabulary import Vocabulary  # noqa: E402

PLAYERS = {"ja": ("アキ", "ケン", "ミオ", "ソラ"), "en": ("Alice", "Noah", "Olga", "Diego")}
SAID = {  # what the table says → the count it means (None: no count)
    "ja": {"二票": "2", "三票": "3", "四票": "4", "なし": "0", "一票です": "1", "えーと、二票": "2",
           "今日はいい天気ですね": None},
    "en": {"two": "2", "three": "3", "none": "0", "one vote": "1", "um, two": "2", "two votes": "2",
           "what a nice evening": None},
}
VOICES = {"ja": [(1.0, 0), (0.9, -3), (1.1, 2)], "en": ["slt", "rms", "awb"]}
ALL_AT_ONCE = 10 ** 9  # BATCH and GROUPED that decode every phrase in one batch, as before


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def rendered(lang: str, text: str, voice: Any, folder: Path) -> bytes:
    """`text` said by the language's voice, levelled, 16 kHz PCM with 0.4 s of silence each side."""
    import numpy as np

    from gm.hearing.sphinx import _at_16k

    if lang == "ja":
        import pyopenjtalk

        audio, rate = pyopenjtalk.tts(text, speed=voice[0], half_tone=voice[1])
        pcm = (audio / max(float(np.abs(audio).max()), 1.0) * 16384).astype("<i2").tobytes()
    else:
        from virtual_table import Voice, render

        pcm, rate = render(text, Voice("flite", voice), folder), 16000
    return levelled(bytes(12800) + _at_16k(pcm, rate) + bytes(12800), 16000)


def count_book(lang: str) -> tuple[Any, Any]:
    """Whisper for `lang` and the phrasebook of a count at a 4-player table."""
    pack, players = Pack(lang), PLAYERS[lang]
    candidates = (*players, "graveyard")
    count = Table(pack).count(candidates[1:], 4, Counting(tuple(candidates), counted=1), first=False)
    model = whisper.load(lang)
    return model, phrasebook(count, model, Vocabulary.from_pack(pack), pack.spoken_word, players)


def heard(lang: str, text: str, pcm: bytes, sizes: tuple[int, int]) -> dict[str, Any]:
    """`pcm` heard by the count's recogniser with BATCH and GROUPED `sizes`, timed."""
    whisper.BATCH, whisper.GROUPED = sizes
    model, book = count_book(lang)
    start, wall = cpu(), time.perf_counter()
    answer = book.match(model.recogniser(16000, book).hear(pcm))
    return {"cpu": cpu() - start, "wall": time.perf_counter() - wall, "heard": answer,
            "right": answer == SAID[lang][text]}


def p95(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, round(0.95 * (len(values) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--langs", default="ja,en")
    parser.add_argument("--rounds", type=int, default=1, help="times each way hears every answer")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        for lang in args.langs.split(","):
            clips = [(text, voice, rendered(lang, text, voice, Path(name))) for text in SAID[lang]
                     for voice in VOICES[lang]]
            ways = {"as gm decodes": (whisper.BATCH, whisper.GROUPED), "all at once": (ALL_AT_ONCE, ALL_AT_ONCE)}
            for text, _, pcm in clips:  # not timed: the model loaded, the phrases' tokens and the contexts known
                heard(lang, text, pcm, ways["as gm decodes"])
            runs: dict[str, list[dict[str, Any]]] = {way: [] for way in ways}
            for turn, (text, _, pcm) in enumerate(clips * args.rounds):  # the ways take turns going first
                for way in sorted(ways, reverse=bool(turn % 2)):
                    runs[way].append(heard(lang, text, pcm, ways[way]))
            for way, results in runs.items():
                cpus, walls = [r["cpu"] for r in results], [r["wall"] for r in results]
                print(f"{lang} {way:14} CPU s per answer: median {statistics.median(cpus):.2f} p95 {p95(cpus):.2f}; "
                      f"wall: median {statistics.median(walls):.2f} p95 {p95(walls):.2f}; "
                      f"right {sum(r['right'] for r in results)}/{len(results)}")
            alike = sum(a["heard"] == b["heard"] for a, b in zip(*runs.values()))
            print(f"{lang} heard alike both ways: {alike}/{len(clips) * args.rounds}")
    print(f"cores {len(os.sched_getaffinity(0))}, load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
