"""English nights by voice at held-out tables, through the real microphone path (bench/virtual_table.py).

A recipe fixed before the run (RECIPE_SEED) draws 15 nights: 4 or 6 players from a pool of
names (some that sound like numbers: Noah, Olga, Diego), the vote (bench/voice_nights_bench.py's
`vote`), and the room: its noise bed (clean, pink or babble, at 15 or 5 dB below the speech),
reverberation, a device at 48 kHz, one quiet speaker 6 dB down; and for every answer its speaker
(flite, espeak-ng or Piper's joe at a drawn speed and pitch) and habits: "two votes", "um, two",
"none" / "nobody" / "no votes" for zero, "yeah" / "sure" / "nah" / "nope" for yes and no, "werewolf
and seer", and talk over the end of gm's question. Nobody picks a voice or a habit so that it is heard.

`--lang ja` draws 10 Japanese nights from their own recipe (JA_RECIPE_SEED) in the same rooms: katakana
names (ニコ sounds like 二), speakers Open JTalk (speed and half-tone drawn) and Kokoro's five voices
(speed drawn), and a Japanese table's habits: なし / ゼロ / いない / 誰も for none, 二 or えーと、二票 or
二票です for 二票, ええ / そう / うん for はい, いや / 違う / ううん for いいえ, 終わり / できた / 終わった for
完了, 人狼と占い師です. Heard by Whisper (Japanese listens with nothing to download).

Each night is played once per listener (`--listeners`, default pocketsphinx and whisper), the
same table in the same room. Per night: finished by voice or where it fell to the keyboard (or to
a step going on by itself, its "done" lost: a night with nothing typed), counts confirmed that
were not said, hands and holders taken by voice that were not said, table answers and seconds of
gm's speech in the vote (from the vote's first question to its last answer); per listener the
totals and medians.

Run: .venv/bin/python bench/table_nights_bench.py [--nights 15] [--first 0] [--stop N]
     [--listeners pocketsphinx,whisper] [--seed N]
     .venv/bin/python bench/table_nights_bench.py --lang ja [--nights 10] [--listeners whisper]
(needs PulseAudio as tests/gm/night/test_virtual_table.py does, and `pip install ".[bench]"` for Piper).
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from collections.abc import Callable
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from virtual_table import (  # noqa: E402
    NIGHT_TIMEOUT, QUIET_SECONDS, Microphone, PulseRoom, Script, SpeakerWatch, Table, Voice, babble,
    pulseaudio_missing,
)
from spoken_length_bench import rendered_seconds  # noqa: E402
from voice_nights_bench import vote  # noqa: E402

RECIPE_SEED = 1203  # fixed before the first run
JA_RECIPE_SEED = 1204  # fixed before the first Japanese run
NAMES = ["Alice", "Mike", "Kate", "Tom", "Ben", "Lucy", "Sam", "Emma", "Noah", "Olga", "Diego", "Priya", "Omar",
         "Grace"]
NUMBERS = ["zero", "one", "two", "three", "four", "five", "six"]
ROOMS = [("clean", None), ("pink", 15), ("pink", 5), ("babble", 15), ("babble", 5)]
FLITE = ["slt", "rms", "awb", "kal"]
ESPEAK = ["en-us", "en", "en-us+f2", "en-us+m3", "en+f4", "en-us+m5"]
TALK_OVER = 0.05  # seconds of gm's silence a table that talks over waits (gm's echo gate is 0.3 s)
JA_NAMES = ["アキ", "ケン", "ミオ", "ソラ", "ユイ", "ハル", "リン", "タク", "ナオ", "エマ", "レン", "サキ", "ニコ",
            "マイ"]
JA_NUMBERS = ["なし", "一票", "二票", "三票", "四票", "五票", "六票"]
KOKORO = ["jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"]


@dataclass
class HeldOutScript(Script):
    """A table with habits: each answer's words drawn from `rng` as it is said."""

    seed: int = 0
    talk_over: list[bool] = field(default_factory=list)
    tongue: Tongue | None = None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def quiet_before(self, answer: int) -> float:
        return TALK_OVER if self.talk_over[answer % len(self.talk_over)] else QUIET_SECONDS

    def reply(self, event: dict[str, Any], taken: dict[str, int]) -> str | None:
        plain = super().reply(event, taken)
        if plain is None or event.get("plain"):  # asked for a plain yes or no, it says one
            return plain
        tongue = self.tongue or TONGUES["en"]
        rng, words = self.rng, plain.split()
        if plain in tongue.habits:
            return rng.choice(tongue.habits[plain])
        if words and words[-1] in tongue.numbers:
            return " ".join([*words[:-1], tongue.count(rng, words[-1])])
        return plain


def _count(rng: random.Random, number: str) -> str:
    """A count as a table says it."""
    if number == "zero":
        return rng.choice(["zero", "none", "nobody", "no votes"])
    habit = rng.random()
    if habit < 0.25:
        return f"{number} vote" if number == "one" else f"{number} votes"
    if habit < 0.4:
        return f"um, {number}"
    return number


def _count_ja(rng: random.Random, number: str) -> str:
    """A count as a Japanese table says it."""
    if number == "なし":
        return rng.choice(["なし", "ゼロ", "いない", "誰も"])
    habit = rng.random()
    if habit < 0.2:
        return number.removesuffix("票")
    if habit < 0.35:
        return f"えーと、{number}"
    if habit < 0.45:
        return f"{number}です"
    return number


@dataclass(frozen=True)
class Room:
    noise: str
    snr_db: float | None
    reverb_seconds: float
    rate: int

    def __str__(self) -> str:
        noise = "clean" if self.snr_db is None else f"{self.noise} {self.snr_db:g} dB"
        return f"{noise}{', reverb' if self.reverb_seconds else ''}{', 48 kHz' if self.rate != 16000 else ''}"


def speaker(rng: random.Random, quiet: bool) -> Voice:
    gain = -6.0 if quiet else 0.0
    engine = rng.choice(["flite", "espeak-ng", "piper"])
    if engine == "flite":
        return Voice("flite", rng.choice(FLITE), round(rng.uniform(0.85, 1.25), 2), 0, gain)
    if engine == "espeak-ng":
        return Voice("espeak-ng", rng.choice(ESPEAK), rng.randint(130, 200), rng.randint(30, 70), gain)
    return Voice("piper", "joe", round(rng.uniform(0.85, 1.2), 2), 0, gain)


def speaker_ja(rng: random.Random, quiet: bool) -> Voice:
    gain = -6.0 if quiet else 0.0
    if rng.random() < 0.5:
        return Voice("jtalk", "", round(rng.uniform(0.85, 1.2), 2), rng.randint(-3, 3), gain)
    return Voice("kokoro", rng.choice(KOKORO), round(rng.uniform(0.9, 1.15), 2), 0, gain)


@dataclass(frozen=True)
class Tongue:
    """How one language's table talks: its names, its counts, its plain words and its habits
    (a plain word → the ways a table says it, drawn), its speakers and its own recipe."""

    lang: str
    seed: int
    names: list[str]
    numbers: list[str]
    words: dict[str, str]
    habits: dict[str, list[str]]
    count: Callable[[random.Random, str], str]
    speaker: Callable[[random.Random, bool], Voice]
    night_seconds: float = NIGHT_TIMEOUT
    """Real seconds a night may take before gm is stopped: a hang fails, never blocks. A Japanese
    night's lines take longer to say: seed 4806's clean night, every answer heard at once, took
    401 s against about 300 s in English, and two of its nights ended by voice at 600 s, stopped
    at "another night?"."""


TONGUES = {
    "en": Tongue("en", RECIPE_SEED, NAMES, NUMBERS,
                 {"done": "done", "yes": "yes", "no": "no", "graveyard": "the graveyard", "hand": "werewolf seer",
                  "holder": "the graveyard", "holder_said": "graveyard"},
                 {"yes": ["yes", "yes", "yeah", "yep", "sure", "right"], "no": ["no", "no", "nah", "nope"],
                  "werewolf seer": ["werewolf seer", "werewolf and seer", "the werewolf and the seer"]},
                 _count, speaker),
    "ja": Tongue("ja", JA_RECIPE_SEED, JA_NAMES, JA_NUMBERS,
                 {"done": "完了", "yes": "はい", "no": "いいえ", "graveyard": "墓地", "hand": "人狼と占い師",
                  "hand_cards": "人狼 占い師", "holder": "墓地", "holder_said": "墓地"},
                 {"はい": ["はい", "はい", "ええ", "そう", "うん"],
                  "いいえ": ["いいえ", "いいえ", "いや", "違う", "ううん"],
                  "完了": ["完了", "完了", "終わり", "できた", "終わった"],
                  "人狼と占い師": ["人狼と占い師", "人狼と占い師", "人狼と占い師です"], "墓地": ["墓地", "墓地です"]},
                 _count_ja, speaker_ja, night_seconds=1.5 * NIGHT_TIMEOUT),
}


def recipe(nights: int, tongue: Tongue = TONGUES["en"]) -> list[tuple[Room, dict[str, Any]]]:
    """The nights, drawn before anything is heard: each its room and its table."""
    rng = random.Random(tongue.seed)
    drawn = []
    for index in range(nights):
        noise, snr = ROOMS[index % len(ROOMS)]
        room = Room(noise, snr, 0.5 if rng.random() < 0.33 else 0.0, 48000 if rng.random() < 0.33 else 16000)
        players = rng.sample(tongue.names, 4 if index % 2 == 0 else 6)
        counts = vote(rng, players)
        quiet_one = rng.randrange(4) if rng.random() < 0.5 else -1
        voices = [tongue.speaker(rng, False) for _ in range(4)]
        if quiet_one >= 0:
            voices[quiet_one] = Voice(*[getattr(voices[quiet_one], f) for f in ("engine", "name", "speed", "pitch")],
                                      gain_db=-6.0)
        table = {"players": players, "counts": counts, "voices": voices, "seed": rng.randrange(1 << 30),
                 "talk_over": [rng.random() < 0.15 for _ in range(40)]}
        drawn.append((room, table))
    return drawn


def script(table: dict[str, Any], listener: str, tongue: Tongue = TONGUES["en"]) -> HeldOutScript:
    players, counts = table["players"], table["counts"]
    executed = max((p for p in players), key=lambda p: counts[p])
    return HeldOutScript(
        lang=tongue.lang, players=players, counts=counts,
        words={**tongue.words, **{str(n): w for n, w in enumerate(tongue.numbers)}},
        voices=table["voices"], listener=listener, executed=executed, seed=table["seed"],
        talk_over=table["talk_over"], tongue=tongue)


def play(room: Room, table: dict[str, Any], listener: str, folder: Path, index: int,
         tongue: Tongue = TONGUES["en"]) -> dict[str, Any]:
    """One night at `table` in `room` heard by `listener`: its figures."""
    folder.mkdir(parents=True)
    bed = babble(20.0, index, folder) if room.noise == "babble" else None
    night_script = script(table, listener, tongue)
    with PulseRoom(folder, rate=room.rate) as pulse, \
            Microphone(pulse.fifo, room.snr_db, seed=index, rate=room.rate, bed=bed,
                       reverb_seconds=room.reverb_seconds) as microphone, SpeakerWatch(pulse.env) as watch:
        with (folder / "table.txt").open("w", encoding="utf-8") as trace:  # each cue and what the table said
            played = Table(pulse, microphone, watch, night_script, folder, timeout=tongue.night_seconds,
                           trace=lambda line: print(line, file=trace, flush=True))
            night = played.play()
        dropped = len(microphone.dropped)
    speech = _speech_seconds(night, folder, tongue.lang)
    answers = night.answers
    by_voice = bool(answers) and night.exit_code == 0 and {a["by"] for a in answers} == {"voice"}
    # nothing typed: each answer by voice, or a step that went on by itself when its "done" was lost
    untyped = bool(answers) and night.exit_code == 0 and {a["by"] for a in answers} <= {"voice", "default"}
    fell = next((a["key"] for a in answers if a["by"] != "voice"), None)
    if fell is None and not by_voice:  # gm asked for the answer typed and the table typed nothing
        fell = next((e["key"] for e in reversed(night.events) if e["type"] == "question"), None)
    vote_cues = _vote_cues([k for k, _, _ in played.times])
    unsaid = sorted(c for c, n in (night.vote or {}).items() if n != table["counts"].get(c, 0))
    cards_unsaid = [f"{key.rsplit('.', 1)[1]} {answer}" for key, by, answer in
                    ((a["key"], a["by"], a.get("answer")) for a in answers)
                    if by == "voice" and key in SAID_AT_REVEAL and _sorted(answer) != SAID_AT_REVEAL[key]]
    return {"night": index, "listener": listener, "room": str(room), "players": len(table["players"]),
            "by_voice": by_voice, "untyped": untyped, "exit_code": night.exit_code, "fell_at": fell,
            "steps_gone_on": sum(a["by"] == "default" for a in answers),
            "vote_right": night.vote == table["counts"], "counts_not_said": unsaid, "cards_not_said": cards_unsaid,
            "vote_answers": len(vote_cues), "vote_speech_seconds": speech, "seconds": round(night.seconds, 1),
            "microphone_blocks_dropped": dropped,
            "table_said": [t for _, t in night.said],
            "answers": [[a["key"], a["by"], a.get("answer")] for a in answers]}


SAID_AT_REVEAL = {"werewolf.reveal.ask_hand": ["seer", "werewolf"], "werewolf.reveal.ask_holder": "graveyard"}
"""What the table says at the reveal, in either language (`Tongue.words`): the executed player
holds the werewolf and the seer, the graveyard the traitor."""


def _sorted(answer: Any) -> Any:
    return sorted(answer) if isinstance(answer, list) else answer


def _vote_cues(keys: list[str]) -> list[str]:
    """The cues of the night's first vote: from its first question to the next cue of another part."""
    first = next((i for i, k in enumerate(keys) if k.startswith("werewolf.vote.")), len(keys))
    after = next((i for i in range(first, len(keys)) if not keys[i].startswith("werewolf.vote.")
                  and keys[i] != "readback"), len(keys))
    return keys[first:after]


def _speech_seconds(night: Any, folder: Path, lang: str = "en") -> float | None:
    """Seconds of speech in what gm said from the vote's first question to its last answer, every
    line as gm prints it (re-asks, "Sorry, I did not catch that." and read-backs too) rendered
    (`said_seconds`): what gm says, not how long a loaded machine's audio path took to play it."""
    events = night.events
    first = next((e for e in events if e["type"] == "say" and e.get("key") == "werewolf.vote.ask_count"), None)
    answers = [e for e in events if e["type"] == "answer" and str(e.get("key", "")).startswith("werewolf.vote.")]
    if first is None or not answers:
        return None
    after = next((e for e in events if e["type"] == "say" and e["t"] > answers[-1]["t"]), None)
    lines = [line for line in night.stdout.splitlines() if line and not line.startswith(" ")]
    begin = next((i for i, line in enumerate(lines) if line == first["text"]), None)
    if begin is None:
        return None
    stop = next((i for i in range(begin, len(lines)) if after is not None and lines[i] == after["text"]), len(lines))
    return round(sum(said_seconds(line, lang, folder) for line in lines[begin:stop]), 1)


def said_seconds(line: str, lang: str, folder: Path) -> float:
    """How long gm takes to say a printed `line`: rendered by espeak-ng at gm's rate
    (bench/spoken_length_bench.py), but Japanese by Open JTalk, gm's Japanese voice: espeak-ng
    reads kanji one by one, and made a Japanese vote's lines twice as long as gm says them
    (「すみません、聞き取れませんでした。」 6.0 s against 2.9 s, 「どの票数が違いますか？…」 16.4 s against
    6.4 s); the Japanese figures before 2026-12-06 are espeak-ng's."""
    if lang != "ja":
        return rendered_seconds(line, lang, folder)
    audio = _japanese_voice().render(line)
    return len(audio.samples) / 2 / audio.rate


@functools.cache
def _japanese_voice() -> Any:
    """gm's renderer of Japanese (Open JTalk), loaded once."""
    from gm.speech.settings import SpeechSettings
    from gm.speech.tts import Renderer

    return Renderer(SpeechSettings("ja")).warmed()


def report(results: list[dict[str, Any]]) -> None:
    for listener in dict.fromkeys(r["listener"] for r in results):
        mine = [r for r in results if r["listener"] == listener]
        four = [r for r in mine if r["players"] == 4 and r["vote_speech_seconds"] is not None]
        unsaid = sum(bool(r["counts_not_said"]) for r in mine)  # however the night ended after its vote
        cards = sum(len(r.get("cards_not_said", [])) for r in mine)
        print(f"{listener}: {sum(r['by_voice'] for r in mine)}/{len(mine)} nights by voice; "
              f"nothing typed {sum(r.get('untyped', False) for r in mine)}/{len(mine)} "
              f"(steps gone on by themselves: {sum(r.get('steps_gone_on', 0) for r in mine)}); "
              f"votes right {sum(r['vote_right'] for r in mine)}/{len(mine)}; "
              f"counts confirmed that were not said: {unsaid}; hands and holders taken that were not said: {cards}; "
              f"every answer by voice but stopped at the bound: {sum(_past_bound(r) for r in mine)}; "
              f"4-player vote: median {_median([r['vote_answers'] for r in four])} table answers, "
              f"{_median([r['vote_speech_seconds'] for r in four])} s of gm speech")
        for r in mine:
            unsaid_here = f"; counts not said: {', '.join(r['counts_not_said'])}" if r["counts_not_said"] else ""
            unsaid_here += "".join(f"; not said: {taken}" for taken in r.get("cards_not_said", []))
            end = ("by voice" if r["by_voice"] else f"every answer by voice, stopped at the bound at {r['fell_at']}"
                   if _past_bound(r) else f"fell at {r['fell_at']}")
            print(f"  {r['night']:2} {r['players']}p {r['room']:28} {end} "
                  f"(vote {r['vote_answers']} answers, {r['vote_speech_seconds']} s speech; {r['seconds']} s"
                  f"{unsaid_here})")


def _past_bound(result: dict[str, Any]) -> bool:
    """Whether gm was stopped at the night's bound (no exit code) with every answer heard by voice:
    a long night, not one that fell to the keyboard."""
    answers = result["answers"]
    return result["exit_code"] is None and bool(answers) and all(by == "voice" for _, by, _ in answers)


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", choices=sorted(TONGUES), default="en")
    parser.add_argument("--nights", type=int, help="nights in the recipe (en: 15, ja: 10)")
    parser.add_argument("--first", type=int, default=0, help="the first night of the recipe to play")
    parser.add_argument("--stop", type=int, help="the night of the recipe to stop before (default: its last)")
    parser.add_argument("--listeners", help="en: pocketsphinx,whisper; ja: whisper")
    parser.add_argument("--json", type=Path, help="append every night's figures to this JSON-lines file")
    parser.add_argument("--keep", type=Path, help="keep each night's folder (gm's output, its night log) here")
    parser.add_argument("--seed", type=int, help="a recipe of its own, fixed before the run (default: the language's)")
    options = parser.parse_args()
    missing = pulseaudio_missing()
    if missing:
        sys.exit(f"no virtual table: {missing}")
    results = []
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        kept = options.keep or Path(tmp)
        tongue = TONGUES[options.lang]
        if options.seed is not None:
            tongue = replace(tongue, seed=options.seed)
        nights = options.nights or (15 if options.lang == "en" else 10)
        listeners = options.listeners or ("pocketsphinx,whisper" if options.lang == "en" else "whisper")
        for index, (room, table) in enumerate(recipe(nights, tongue)):
            if index < options.first or options.stop is not None and index >= options.stop:
                continue
            for listener in listeners.split(","):
                result = play(room, table, listener, kept / f"{index}-{listener}", index, tongue)
                results.append(result)
                print(f"   {index} {listener} {room}: {'by voice' if result['by_voice'] else result['fell_at']} "
                      f"({time.monotonic() - start:.0f} s)", file=sys.stderr, flush=True)
                if options.json:
                    with options.json.open("a", encoding="utf-8") as file:
                        file.write(json.dumps(result) + "\n")
    report(results)


if __name__ == "__main__":
    main()
