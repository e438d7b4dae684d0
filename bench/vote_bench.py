"""The vote by voice when everything is heard: table answers and seconds of gm's speech.

    .venv/bin/python bench/vote_bench.py                 # English, this tree
    .venv/bin/python bench/vote_bench.py --lang ja,ko    # the other packs (Open JTalk, espeak-ng)
    .venv/bin/python bench/vote_bench.py --tree DIR      # another checkout (e.g. main), same figures
    .venv/bin/python bench/vote_bench.py --lines         # also each line said, with its seconds

A table of 4 and of 6 players votes by voice through the real `ListeningAsker` (the recogniser is
a fake that hears exactly what the table says; every word sure). The table answers what gm
asks in the words of gm's own grammar for the question: a count when asked for one, "yes" at a
read-back; with `one_breath`, the whole tally by name at the first count question ("aki three
ken one") where gm hears it there (`gm.table.questions.ONE_BREATH_AT_COUNT`). Every line gm
says from the vote's first line to the execution is rendered to WAV with the language's
default voice (the speaker of `--speech wav:DIR`) and the durations are summed. Two tallies
per table size: the votes on the first candidates, and a vote on the last candidate (the
graveyard) too. The table says yes to a read-back of its own tally and no to any other, and
at "which count is wrong?" fixes the first wrong count. Goal (issue 37): at most 25 s of gm's
speech (median), and table answers at most the candidates (the players and the graveyard) + 2.

    .venv/bin/python bench/vote_bench.py --drawn 200    # votes drawn as the cards fall

`--drawn N` draws N votes per table size from `--seed`, as the rules make them: the standard
deck dealt two cards a player, each passing one of them (drawn) to the right; everyone votes
but, with 4 players, the traitor's holder (a Traitor Werewolf, holding the werewolf too, votes:
so a 4-player vote has 4 votes when the traitor lies in the graveyard or goes with the werewolf,
else 3); each voter points at another player or the graveyard, drawn alike; votes with a tie are
drawn again (the bench answers no runoff). Prints the median and largest table answers and
seconds of gm's speech per table size.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import tempfile
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TALLIES = {
    4: [{0: 3, 1: 1}, {0: 2, "graveyard": 1}],
    6: [{0: 3, 1: 2, 2: 1}, {0: 3, 1: 2, "graveyard": 1}],
}
"""Votes by seat (0 is the first player) or the graveyard."""
PLAYERS = {"en": ["Aki", "Ken", "Mio", "Sora", "Yui", "Rin"],
           "ja": ["アキ", "ケン", "ミオ", "ソラ", "ユイ", "リン"],
           "ko": ["민수", "지훈", "서연", "지민", "하은", "도윤"]}


class Clock:
    scale = 1.0

    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += max(0.0, seconds)


class Recogniser:
    under_way = False  # an answer comes whole, in one block

    def __init__(self, source: Source) -> None:
        self.source = source

    def accept(self, block: bytes):
        if not block:
            return None
        from gm.hearing.phrases import Heard as GmHeard

        text = block.decode()
        return GmHeard(text, tuple((w, 1.0) for w in text.split()))

    def finish(self):
        from gm.hearing.phrases import Heard as GmHeard

        return GmHeard("")


class Model:
    unk = False

    def __init__(self, source: Source) -> None:
        self.source = source

    def hears(self, word: str) -> bool:
        return True

    def recogniser(self, rate: float, book=None) -> Recogniser:
        return Recogniser(self.source)


class Source:
    """The table's voice: what it says next, once gm has asked; silence otherwise."""

    rate = 16000.0

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.queue: list = []  # what the table says next, made once gm listens
        self.ended = False
        self.answers = 0

    def read(self, timeout: float) -> bytes | None:
        self.clock.sleep(min(timeout, 0.1))
        if self.queue:
            self.answers += 1
            return self.queue.pop(0)().encode()  # said once gm listens: to the question asked
        return b""

    def drain(self) -> None:
        """Nothing is recorded before gm asks."""

    def close(self) -> None:
        """Nothing to release."""


class Table:
    """The speaker gm talks through: each line is rendered to WAV, and the table answers the
    question being asked (`asking`) in the words of its grammar (`book`)."""

    def __init__(self, wav, folder: Path, source: Source, tally: dict[str, int], one_breath: bool) -> None:
        self.wav, self.folder, self.source, self.tally, self.one_breath = wav, folder, source, tally, one_breath
        self.seconds: list[float] = []  # each line's, in the order said
        self.zeros = 0  # counts asked whose answer is none ("none" was the count heard worst: issue 37)
        self.speaking = False
        self.last_spoken_end = -math.inf
        self.lines: list = []  # (key, text) of each line said
        self.asking = None
        self.book = None

    def say(self, line) -> None:
        self.lines.append((line.key, line.text))
        if line.text not in RENDERED:  # each line rendered once: its seconds do not change
            self.wav.say(line)
            self.wav.flush()
            RENDERED[line.text] = seconds_of(self.folder)[-1]
        self.seconds.append(RENDERED[line.text])
        if line.key in ("werewolf.vote.ask_count", "werewolf.vote.ask_next"):
            self.source.queue.append(lambda: self.count(line.key == "werewolf.vote.ask_count"))
        elif line.key.startswith("werewolf.vote.readback"):
            self.source.queue.append(lambda: self.phrase("no" if self.wrong() else "yes"))
        elif line.key.startswith("werewolf.vote.which"):
            self.source.queue.append(self.fix)
        elif line.key.startswith("listen.confirm"):
            self.source.queue.append(lambda: self.phrase("yes"))

    def wrong(self) -> list[str]:
        """The candidates whose count the tally being asked about shows wrong."""
        shown = getattr(self.asking, "shown", {})
        return [c for c in dict.fromkeys([*shown, *self.tally]) if shown.get(c, 0) != self.tally.get(c, 0)]

    def fix(self) -> str:
        """The first wrong count, said right ("Ken one")."""
        from gm.ports import fix_token

        candidate = next(iter(self.wrong()), None)
        if candidate is None:
            return self.phrase("yes")
        return self.phrase(fix_token(candidate, self.tally.get(candidate, 0)))

    def count(self, first: bool) -> str:
        """The whole tally by name at the first count, where gm hears it so; else this count."""
        if first and self.one_breath and any("=" in answer for answer in self.book.phrases.values()):
            return " ".join(self.phrase(f"{c}={self.tally[c]}") for c in self.asking.following if self.tally.get(c))
        self.zeros += not self.tally.get(self.asking.candidate, 0)
        return self.phrase(str(self.tally.get(self.asking.candidate, 0)))

    def phrase(self, token: str) -> str:
        """The first phrase of the grammar that says `token`."""
        return next(p for p, answer in self.book.phrases.items() if answer == token)

    def flush(self) -> None:
        self.wav.flush()

    def close(self) -> None:
        self.wav.close()


RENDERED: dict[str, float] = {}
"""Seconds of each line rendered so far, by its text."""


def seconds_of(folder: Path) -> list[float]:
    """Each rendered line's seconds, in the order said."""
    seconds = []
    for path in sorted(folder.glob("*.wav")):
        with wave.open(str(path)) as audio:
            seconds.append(audio.getnframes() / audio.getframerate())
    return seconds


def one_vote(lang: str, size: int, votes: dict[object, int], one_breath: bool,
             per_line: bool = False) -> dict[str, object]:
    from gm.hearing.keyboard import KeyboardAsker
    from gm.hearing.session import Listener
    from gm.hearing.listening import ListeningAsker
    from gm.night.context import NightContext
    from gm.night.vote import run_vote
    from gm.speech.settings import SpeechSettings
    from gm.speech.speakers import open_speaker
    from gm.text.lines import Pack
    from scorer.werewolf.decks import standard_deck
    import io

    players = PLAYERS[lang][:size]
    tally = {who if isinstance(who, str) else players[who]: n for who, n in votes.items()}

    class Asker(ListeningAsker):
        def _book(self, question):
            book = super()._book(question)
            table.asking, table.book = question, book
            return book

    with tempfile.TemporaryDirectory() as folder:
        pack = Pack(lang)
        clock = Clock()
        source = Source(clock)
        wav = open_speaker(SpeechSettings(lang, f"wav:{folder}"), echo=lambda text: None)
        table = Table(wav, Path(folder), source, tally, one_breath)
        keyboard = KeyboardAsker(clock, io.StringIO(), echo=lambda text: None)
        asker = Asker(Listener(Model(source), source), keyboard, table, pack, clock, seats=players)
        ctx = NightContext(players=players, deck=standard_deck(len(players)), pack=pack, speaker=table,
                           asker=asker, clock=clock)
        result = run_vote(ctx)
        table.flush()
        wav.close()
        seconds = table.seconds
        figures = {"lang": lang, "players": size, "tally": tally, "one_breath": one_breath,
                   "executed": result.executed, "table_answers": source.answers, "zeros_asked": table.zeros,
                   "lines": len(table.lines),
                   "characters": sum(len(text) for _, text in table.lines),
                   "speech_seconds": round(sum(seconds), 1)}
        if per_line:
            figures["per_line"] = [[key, text, round(s, 2)] for (key, text), s in zip(table.lines, seconds)]
        return figures


def drawn_votes(size: int, rng: random.Random) -> dict[object, int]:
    """One vote as the cards fall (see the module's note), by seat or "graveyard", without a tie."""
    from scorer.werewolf.decks import standard_deck

    deck = standard_deck(size)
    while True:
        cards = [card for card, n in deck.cards.items() for _ in range(n)]
        rng.shuffle(cards)
        hands = [cards[2 * seat:2 * seat + 2] for seat in range(size)]
        passed = [hand.pop(rng.randrange(2)) for hand in hands]
        for seat, hand in enumerate(hands):
            hand.append(passed[seat - 1])  # each takes the card from the left
        voters = [seat for seat, hand in enumerate(hands)
                  if size != 4 or "traitor" not in hand or "werewolf" in hand]
        votes: dict[object, int] = {}
        for seat in voters:
            target = rng.choice([*(s for s in range(size) if s != seat), "graveyard"])
            votes[target] = votes.get(target, 0) + 1
        top = max(votes.values())
        if sum(n == top for n in votes.values()) == 1:
            return votes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose gm to measure")
    parser.add_argument("--lang", default="en", help="the packs to measure, comma-separated (en,ja,ko)")
    parser.add_argument("--lines", action="store_true", help="also each line said, with its seconds")
    parser.add_argument("--drawn", type=int, default=0, help="votes drawn per table size as the cards fall")
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree))
    if args.drawn:
        for lang in args.lang.split(","):
            rng = random.Random(f"{args.seed}-{lang}")
            for size in TALLIES:
                runs = [one_vote(lang, size, drawn_votes(size, rng), False) for _ in range(args.drawn)]
                answers = [r["table_answers"] for r in runs]
                seconds = [r["speech_seconds"] for r in runs]
                print(json.dumps({"lang": lang, "players": size, "votes": args.drawn,
                                  "goal_answers": size + 1 + 2, "median_answers": statistics.median(answers),
                                  "most_answers": max(answers), "median_speech_s": statistics.median(seconds),
                                  "most_speech_s": max(seconds),
                                  "mean_answers": round(statistics.mean(answers), 2),
                                  "mean_zeros_asked": round(statistics.mean(r["zeros_asked"] for r in runs), 2),
                                  "four_votes": sum(sum(r["tally"].values()) == 4 for r in runs)}))
        return
    for lang in args.lang.split(","):
        for size, tallies in TALLIES.items():
            for votes in tallies:
                for one_breath in (False, True):
                    print(json.dumps(one_vote(lang, size, votes, one_breath, args.lines), ensure_ascii=False))


if __name__ == "__main__":
    main()
