"""Non-answers taken per question, not per try: the English vote's count asked of a table that
says no answer, heard by gm's own asking flow with two tries and with three
(`gm.hearing.listening.COUNT_TRIES`).

    .venv/bin/python bench/asking_bench.py [--variants 2] [--seed 7] [--out DIR]

The recordings are bench/listen_bench.py's English ones (made there, or here when missing:
flite and espeak-ng voices; clean, pink 10 dB, -32 dBFS, 8 kHz), every kind of non-answer said
at a count of 0-4 at a 4-player table: talk sentences, other words, numbers not asked, natural
yes/no and names not at the table. Each question is answered by three recordings of one phrase
in a row (every recording of it starts one such question, the next two following it), and
`ListeningAsker.ask` hears them as a night does, with no keyboard behind it: a question that ends
with an answer by voice took a non-answer. The same questions are heard with two tries and with
three; printed per kind: the questions that took a non-answer, for each.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import listen_bench  # noqa: E402
from fakes import FakeClock, FakeSpeaker  # noqa: E402
from gm.hearing import sphinx  # noqa: E402
from gm.hearing.keyboard import AnswersExhausted, KeyboardAsker  # noqa: E402
from gm.hearing.recorded import read_wav  # noqa: E402
from gm.hearing.replay import Utterances  # noqa: E402
from gm.hearing.session import Listener  # noqa: E402
from gm.hearing.listening import ListeningAsker  # noqa: E402
from gm.ports import How  # noqa: E402
from gm.table.questions import Counting, Table  # noqa: E402

TRIES = (2, 3)


def asked(model, utterances: list[bytes], tries: int) -> bool:
    """Whether a count asked of a table saying `utterances` (16 kHz) ends with an answer by voice."""
    night = listen_bench.ENGLISH
    players = night.players
    question = Table(night.pack).count(players, 4, Counting((*players, "graveyard")))
    clock = FakeClock()
    recording = Utterances(sphinx.RATE, [*utterances, b""], clock)  # silence after: the recording goes on
    keyboard = KeyboardAsker(clock, io.StringIO(""), echo=lambda _: None)
    asker = ListeningAsker(Listener(model, recording), keyboard, FakeSpeaker(), night.pack, clock, seats=players,
                       count_tries=tries)
    try:
        return asker.ask(question).how == How.VOICE
    except AnswersExhausted:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "gm_listen_bench_v2",
                        help="bench/listen_bench.py's recordings (made when missing)")
    parser.add_argument("--variants", type=int, default=2, help="voice variants per phrase and condition")
    parser.add_argument("--seed", type=int, default=7, help="draws the voice variants and the noise")
    args = parser.parse_args()
    night, model = listen_bench.ENGLISH, sphinx.load()
    kind_of = {w: k for k, ws in night.non_answers.items() for w in ws}
    said: dict[str, list[bytes]] = defaultdict(list)
    for path, phrase, _ in listen_bench.recordings(night, args.out / "en", args.variants, args.seed):
        if phrase in kind_of:
            rate, audio = read_wav(path)
            said[phrase].append(sphinx._at_16k(audio, rate))
    taken = {tries: defaultdict(int) for tries in TRIES}
    questions: dict[str, int] = defaultdict(int)
    for phrase, recordings in said.items():
        kind = kind_of[phrase]
        for at in range(len(recordings)):
            table = [recordings[(at + i) % len(recordings)] for i in range(max(TRIES))]
            questions[kind] += 1
            for tries in TRIES:
                taken[tries][kind] += asked(model, table[:tries], tries)
    print(f"en: a count (0-4) asked of a table saying no answer, {sum(questions.values())} questions "
          f"(each three recordings of one phrase); questions that took a non-answer")
    print(f"  {'tries':8} " + " ".join(f"{k[:12]:>12}" for k in night.non_answers) + f" {'all':>8}")
    for tries in TRIES:
        row = taken[tries]
        print(f"  {tries:<8} " + " ".join(f"{listen_bench.pct(row[k], questions[k]):>12}" for k in night.non_answers)
              + f" {listen_bench.pct(sum(row.values()), sum(questions.values())):>8}")


if __name__ == "__main__":
    main()
