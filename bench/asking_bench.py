"""Non-answers taken per question, not per try: the English vote's count asked of a table that
says no answer, heard by gm's own asking flow with two tries and with three
(`gm.hearing.listening.COUNT_TRIES`), and which of them its last try's lead took
(`gm.hearing.asking.LEAD`).

    .venv/bin/python bench/asking_bench.py [--listener pocketsphinx] [--variants 2] [--seed 7] [--out DIR]
    .venv/bin/python bench/asking_bench.py --listener whisper --recipe 3761

The recordings are bench/listen_bench.py's English ones (made there, or here when missing:
flite and espeak-ng voices; clean, pink 10 dB, -32 dBFS, 8 kHz), every kind of non-answer said
at a count of 0-4 at a 4-player table: talk sentences, other words, numbers not asked, natural
yes/no and names not at the table. With `--recipe SEED` they are bench/non_answers_bench.py's
renders instead, drawn by SEED (a speaker and a room per render, three renders of each phrase),
its answers among them. Each question is answered by three recordings of one phrase in a row
(every recording of it starts one such question, the next two following it), and
`ListeningAsker.ask` hears them as a night does, with no keyboard behind it: a question that ends
with an answer by voice took that answer. The same questions are heard with two tries and with
three; printed per kind: the questions that took an answer (for the answers: the one said), and
how many of them the lead took (at three tries).
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import listen_bench  # noqa: E402
import non_answers_bench  # noqa: E402
from fakes import FakeClock, FakeSpeaker  # noqa: E402
from gm.hearing import asking, sphinx  # noqa: E402
from gm.hearing.keyboard import AnswersExhausted, KeyboardAsker  # noqa: E402
from gm.hearing.model_loading import load_model  # noqa: E402
from gm.hearing.recorded import read_wav  # noqa: E402
from gm.hearing.replay import Utterances  # noqa: E402
from gm.hearing.session import Listener  # noqa: E402
from gm.hearing.listening import ListeningAsker  # noqa: E402
from gm.ports import Answer, How  # noqa: E402
from gm.table.questions import Counting, Table  # noqa: E402

TRIES = (2, 3)
LEADS: list[Answer[object] | None] = []  # what each last-try lead of the question asked gave


def _traced_lead(lead):
    def traced(self):
        LEADS.append(lead(self))
        return LEADS[-1]
    return traced



def asked(model, utterances: list[bytes], tries: int) -> tuple[int | None, bool]:
    """The count a question asked of a table saying `utterances` (16 kHz) takes by voice (None:
    none), and whether its last try's lead took it."""
    night = listen_bench.ENGLISH
    players = night.players
    question = Table(night.pack).count(players, 4, Counting((*players, "graveyard")))
    clock = FakeClock()
    recording = Utterances(sphinx.RATE, [*utterances, b""], clock)  # silence after: the recording goes on
    keyboard = KeyboardAsker(clock, io.StringIO(""), echo=lambda _: None)
    asker = ListeningAsker(Listener(model, recording), keyboard, FakeSpeaker(), night.pack, clock, seats=players,
                           count_tries=tries)
    LEADS.clear()
    try:
        answer = asker.ask(question)
    except AnswersExhausted:
        return None, False
    if answer.how != How.VOICE:
        return None, False
    return answer.value[players[0]], any(lead is answer for lead in LEADS)


def recorded(args: argparse.Namespace) -> tuple[dict[str, list[bytes]], dict[str, str], dict[str, int]]:
    """The recordings of each phrase (16 kHz), each phrase's kind, and the count each answer says."""
    said: dict[str, list[bytes]] = defaultdict(list)
    if args.recipe is None:
        night = listen_bench.ENGLISH
        kind_of = {w: k for k, ws in night.non_answers.items() for w in ws}
        for path, phrase, _ in listen_bench.recordings(night, args.out / "en", args.variants, args.seed):
            if phrase in kind_of:
                rate, audio = read_wav(path)
                said[phrase].append(sphinx._at_16k(audio, rate))
        return said, kind_of, {}
    kind_of = {w: k for k, ws in non_answers_bench.NON_ANSWERS.items() for w in ws}
    kind_of |= {w: "answers" for w in non_answers_bench.ANSWERS}
    rng = random.Random(args.recipe)
    with tempfile.TemporaryDirectory() as tmp:
        for take in range(3):
            for index, phrase in enumerate(kind_of):
                path = Path(tmp) / f"{take}_{index:03d}.wav"
                non_answers_bench.render(phrase, rng, path)
                said[phrase].append(read_wav(path)[1])
    return said, kind_of, {w: int(c) for w, c in non_answers_bench.ANSWERS.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "gm_listen_bench_v2",
                        help="bench/listen_bench.py's recordings (made when missing)")
    parser.add_argument("--variants", type=int, default=2, help="voice variants per phrase and condition")
    parser.add_argument("--seed", type=int, default=7, help="draws the voice variants and the noise")
    parser.add_argument("--recipe", type=int, help="hear bench/non_answers_bench.py's renders drawn by this seed")
    parser.add_argument("--listener", default="pocketsphinx")
    args = parser.parse_args()
    asking.Asking.clear_lead = _traced_lead(asking.Asking.clear_lead)  # which answers the lead gave
    said, kind_of, counts = recorded(args)
    model = load_model(None, "en", args.listener)
    kinds = list(dict.fromkeys(kind_of.values()))
    taken = {tries: defaultdict(int) for tries in TRIES}
    led: dict[str, int] = defaultdict(int)
    questions: dict[str, int] = defaultdict(int)
    for phrase, recordings in said.items():
        kind = kind_of[phrase]
        for at in range(len(recordings)):
            table = [recordings[(at + i) % len(recordings)] for i in range(max(TRIES))]
            questions[kind] += 1
            for tries in TRIES:
                count, by_lead = asked(model, table[:tries], tries)
                if count is not None and count == counts.get(phrase, count):
                    taken[tries][kind] += 1
                    led[kind] += by_lead and tries == max(TRIES)
                if count is not None and tries == max(TRIES) and (by_lead or count != counts.get(phrase, count)):
                    print(f"  {'the lead' if by_lead else 'gm'} took {count} from {phrase!r}")
    print(f"en, {args.listener}: a count (0-4) asked, {sum(questions.values())} questions "
          f"(each three recordings of one phrase); questions that took it (answers: the count said; the others: "
          f"any count), and how many of those the lead took at three tries")
    print(f"  {'tries':8} " + " ".join(f"{k[:12]:>12}" for k in kinds))
    for tries in TRIES:
        row = taken[tries]
        print(f"  {tries:<8} " + " ".join(f"{listen_bench.pct(row[k], questions[k]):>12}" for k in kinds))
    print(f"  {'lead':<8} " + " ".join(f"{led[k]:>12}" for k in kinds))


if __name__ == "__main__":
    main()
