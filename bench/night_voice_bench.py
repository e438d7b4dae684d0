"""A whole night rendered to WAV, judged by a listener: the "done" test of gm's voice.

English: `gm werewolf play` for 4 players with piped answers and `--speech wav:DIR`; every WAV
is heard by pocketsphinx (en-us model) with a grammar of any sequence of the line's words, the
players' names and the numbers zero to twenty (what a word is most easily taken for), against the
line the night log says was spoken: the share of words heard (goal ≥ 90%), with the lines heard
worst. (One grammar of all the night's words would take pocketsphinx hours.)

Japanese: the same night with `--lang ja` and kanji names with readings: one WAV for every
spoken line, by the engine gm uses for Japanese (goal: Open JTalk, where `gm-card-nights[ja]` is installed).
What Open JTalk is given for each line is checked by bench/ja_reading_bench.py.

Run: .venv/bin/python bench/night_voice_bench.py
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from typer.testing import CliRunner  # noqa: E402

from gm.cli import app  # noqa: E402
from gm.speech.audio import read_audio  # noqa: E402
from gm.speech.settings import SpeechSettings  # noqa: E402
from gm.speech.tts import engine_for  # noqa: E402
from speech_bench import HOMOPHONES, decoded, number_words, words_of  # noqa: E402

# deal, pass right, lay down, seer (Enter = done); fingers at each player and the graveyard; the first player's cards
ANSWERS = "\n\n\n\n" + "3\n1\n0\n0\n0\n" + "\n" + "werewolf\ntraitor\n"
ANSWERS_JA = "\n\n\n\n" + "3\n1\n0\n0\n0\n" + "\n" + "人狼\n裏切り者\n"


def night(folder: Path, players: str, answers: str, *args: str) -> list[tuple[dict, Path]]:
    """Play a night to WAV files in `folder`; each spoken line of the log with its WAV, in order."""
    log = folder / "night.jsonl"
    wavs = folder / "wav"
    result = CliRunner().invoke(app, ["werewolf", "play", "--players", players, "--time-scale", "0.001",
                                      "--listen", "off", "--speech", f"wav:{wavs}", "--log", str(log), *args],
                                input=answers)
    if result.exit_code != 0:
        sys.exit(f"bench: the night did not end well:\n{result.output[-2000:]}")
    said = [e for e in map(json.loads, log.read_text(encoding="utf-8").splitlines()) if e["type"] == "say"]
    files = sorted(wavs.glob("*.wav"))
    spoken = [e for e in said if any(c.isalnum() for c in e["text"])]
    keys = [f.stem.split("-", 1)[1] for f in files]
    if keys != [e["key"].replace("/", "_") for e in spoken]:
        sys.exit(f"bench: {len(files)} WAVs for {len(spoken)} spoken lines, or out of order")
    return list(zip(spoken, files))


def dictionary() -> set[str]:
    """The words pocketsphinx's en-us model can hear."""
    import pocketsphinx

    path = Path(pocketsphinx.get_model_path()) / "en-us" / "cmudict-en-us.dict"
    return {line.split(" ", 1)[0] for line in path.read_text(encoding="utf-8").splitlines() if "(" not in line[:40]}


class LineListener:
    """pocketsphinx's en-us model, given a grammar for each line: any sequence of its words and the `others`."""

    def __init__(self, others: set[str]) -> None:
        import os

        from pocketsphinx import Decoder

        self.others = others
        self.decoder = Decoder(samprate=16000, logfn=os.devnull)
        self.heard = 0

    def hear(self, audio, words: list[str]) -> list[str]:
        self.heard += 1
        vocabulary = " | ".join(sorted(set(words) | self.others))
        name = f"line{self.heard}"
        grammar = f"#JSGF V1.0;\ngrammar {name};\npublic <line> = <word>+;\n<word> = {vocabulary};\n"
        self.decoder.add_jsgf_string(name, grammar)
        self.decoder.activate_search(name)
        return decoded(self.decoder, audio)


def english(folder: Path) -> None:
    players = ["Ken", "Mike", "Kate", "Alice"]
    lines = night(folder, ",".join(players), ANSWERS)
    known = dictionary()
    every = [words_of(e["text"]) for e, _ in lines]
    expected = [[w for w in words if w in known] for words in every]
    unknown = sorted({w for words in every for w in words} - known)
    listener = LineListener({p.lower() for p in players} | {number_words(n) for n in range(21)})
    engine = engine_for(SpeechSettings("en"))
    missed_by_line = []
    start = time.perf_counter()
    for (event, wav), want in zip(lines, expected):
        heard = Counter(HOMOPHONES.get(w, w) for w in listener.hear(read_audio(wav), want))
        missed = sum((Counter(HOMOPHONES.get(w, w) for w in want) - heard).values())
        missed_by_line.append((missed, len(want), event["key"]))
        print(f"   {len(missed_by_line):3d}/{len(lines)} {event['key']}: {len(want) - missed}/{len(want)} "
              f"({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    total = sum(n for _, n, _ in missed_by_line)
    share = 1 - sum(m for m, _, _ in missed_by_line) / total
    print(f"English night: {len(lines)} lines, {total} words, voice {engine.NAME} "
          f"(heard in {time.perf_counter() - start:.0f} s)")
    if unknown:
        print(f"   left out, not in the listener's dictionary: {', '.join(unknown)}")
    median = statistics.median(1 - m / n for m, n, _ in missed_by_line if n)
    print(f"   words heard: {100 * share:.1f}% (goal ≥ 90%); median line {100 * median:.0f}%")
    worst = sorted((m / n, key, m, n) for m, n, key in missed_by_line if n and m)[::-1][:5]
    print("   heard worst: " + ", ".join(f"{key} {n - m}/{n}" for _, key, m, n in worst))


def japanese(folder: Path) -> None:
    lines = night(folder, "健=けん,美緒=みお,Aki,空=そら", ANSWERS_JA, "--lang", "ja")
    engine = engine_for(SpeechSettings("ja"))
    seconds = sum(read_audio(wav).seconds for _, wav in lines)
    print(f"\nJapanese night: {len(lines)} of {len(lines)} spoken lines written to WAV by {engine.NAME}, "
          f"{seconds:.0f} s of speech (goal: every line by openjtalk)")
    if engine.NAME != "openjtalk":
        print("   Open JTalk is not installed (pip install 'gm-card-nights[ja]'): the lines were spoken as kana "
              "by espeak-ng")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "en").mkdir()
        (Path(tmp) / "ja").mkdir()
        english(Path(tmp) / "en")
        japanese(Path(tmp) / "ja")


if __name__ == "__main__":
    main()
