"""How long each listener takes, and how much memory a night by voice holds.

- **Latency**: answers a table gives (counts, "yes", "no", "done", the graveyard) rendered by
  flite and espeak-ng voices drawn from `--seed` (not the recipe's), each fed to a count
  question's recogniser (its Phrasebook as gm builds it, the question's text included) block by
  block as the microphone gives them, with the silence after it. Timed: the `accept` call of the
  block at which the cutter ends the utterance, up to the heard result (the cut, levelling and
  hearing) — the time from the end of an utterance, as gm's cutter sees it, to what gm heard.
  The cutter sees the end once SPLIT_SECONDS (0.5 s) of silence has followed the last word: from
  the last word to gm's next line is that, plus this, plus the speaker's start. Median and p95
  per listener, with what was heard right; and the process's CPU seconds per answer (all its
  threads), which depend less on what else the machine runs than the wall clock does.
- **Load**: the model's load time in a fresh process per listener (`--listener` of gm), with
  that process's peak resident memory (VmHWM) while loading and its resident memory after.
- **Weight**: the peak resident memory (VmHWM, read from /proc while it runs) of a process that plays one
  whole English night by voice (`gm werewolf play --listen-from`) on a recording of
  bench/voice_nights_bench.py's first night of `--night-seed` (made first, with the same
  listener: a night that falls to the keyboard still ends, typed answers running out).
- **First hearings** (`--first LANG`, instead of the above): the first answer to count questions
  of their own, in real time, each question said by gm's speaking thread, with the recogniser
  made as the question is handed to it (as gm does) and once it has been said
  (`first_hearings`): what a question's own work before hearing anything (Whisper's priors)
  costs the table's answer, and what it costs the question's speech.
- The machine's load average before and after, and its cores.

Run: PYTHONPATH=.:bench .venv/bin/python bench/listener_latency_bench.py [--answers 24]
     [--listeners whisper,pocketsphinx] [--first ja]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SAID = ["zero", "one", "two", "three", "four", "two votes", "none", "yes", "no", "done", "the graveyard"]
PLAYERS = ("Tom", "Lucy", "Kate", "Emma")


def _peak_kb(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM, kB); 0 once it has ended."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), 0)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def load_seconds(listener: str) -> tuple[float, int, int]:
    """Seconds to load `listener`'s English model in a fresh process, its peak resident MB while
    loading and its resident MB after."""
    code = ("import os, time; t = time.perf_counter(); from gm.hearing.model_loading import model_loader; "
            f"model_loader(None, 'en', {listener!r})(); s = time.perf_counter() - t; "
            "status = open(f'/proc/{os.getpid()}/status').read().splitlines(); "
            "kb = lambda key: next(line.split()[1] for line in status if line.startswith(key)); "
            "print(s, kb('VmHWM:'), kb('VmRSS:'))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    seconds, peak, resident = out.stdout.split()[-3:]
    return float(seconds), int(peak) // 1024, int(resident) // 1024


def latencies(listener: str, answers: int, seed: int) -> tuple[list[float], int, list[float]]:
    """Seconds from the cutter's end of each answer to its heard result, how many were heard
    right, and the CPU seconds of each."""
    import voice_nights_bench as nights

    from gm.hearing.model_loading import model_loader
    from gm.text.vocabulary import Vocabulary
    from gm.hearing.sources import BLOCK_SECONDS
    from gm.hearing.listening import phrasebook
    from gm.table.questions import Counting, Table
    from gm.text.lines import Pack

    pack = Pack("en")
    model = model_loader(None, "en", listener)()
    question = Table(pack, PLAYERS).count(PLAYERS, 4, Counting((*PLAYERS, "graveyard")))
    book = phrasebook(question, model, Vocabulary.from_pack(pack), pack.spoken_word, PLAYERS)
    book = book.with_phrases({p: p for p in ("yes", "no", "done", "the graveyard") if model.hears(p.split()[-1])})
    rng = random.Random(f"latency-{seed}")
    block = 2 * int(BLOCK_SECONDS * 16000)
    seconds, right, cpu = [], 0, []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(answers):
            said = rng.choice(SAID)
            audio = bytes(block * 3) + nights.say(said, nights.speaker(rng, "en"), Path(folder), 16000)
            audio += bytes(block * 15)  # the silence after it: the cutter ends the utterance in it
            recogniser = model.recogniser(16000, book)
            for at in range(0, len(audio), block):
                start, used = time.perf_counter(), time.process_time()
                heard = recogniser.accept(audio[at:at + block])
                if heard is not None:
                    seconds.append(time.perf_counter() - start)
                    cpu.append(time.process_time() - used)
                    right += book.match(heard) == book.phrases.get(said)
                    break
    return seconds, right, cpu


@functools.cache
def _answer(text: str, voice: Any) -> bytes:
    """`text` said by `voice` (bench/virtual_table.py), rendered once a process: both ways of
    `first_hearings` hear the same audio (Piper draws noise as it speaks)."""
    from virtual_table import render

    with tempfile.TemporaryDirectory() as folder:
        return render(text, voice, Path(folder))


def first_hearings(listener: str, lang: str, answers: int, seed: int, said_first: bool) -> dict:
    """The first answer to count questions of their own (four names drawn anew for each, so that
    none was worked out before: Whisper's priors are a question's own; a quarter of them a vote's
    first count, asked in full, the others by name alone). Each question is said as gm says it:
    its line handed to gm's speaking thread and the language's default renderer (flite, Open
    JTalk), played to a loudspeaker stand-in in real time (bench/line_gap_bench.py). Its
    recogniser is made as the line is handed over (`said_first`: as gm does, Listener.expect) or
    once it has been said. Then the table's answer at the microphone's pace: after a pause of
    0.3–0.8 s, a count as bench/table_nights_bench.py's table says it (its habits and voices),
    then silence. Per answer: seconds from the cutter's end of it to what was heard; seconds from
    the line handed over to its first sound, and the longest silence between its parts (what
    the recogniser's work costs the speech beside it); the CPU seconds of the whole question
    (every thread: the line rendered, the recogniser made, the answer heard); heard right."""
    import table_nights_bench as tables
    from line_gap_bench import TimedLoudspeaker

    from gm.hearing.listening import phrasebook
    from gm.hearing.model_loading import model_loader
    from gm.hearing.sources import BLOCK_SECONDS
    from gm.speech.notes import Notes
    from gm.speech.output import spoken_form
    from gm.speech.settings import SpeechSettings
    from gm.speech.speakers import PrintSpeaker
    from gm.speech.speaking import SpeechSpeaker
    from gm.speech.tts import Renderer, engine_for
    from gm.table.questions import Counting, Table
    from gm.text.lines import Pack
    from gm.text.vocabulary import Vocabulary

    tongue = tables.TONGUES[lang]
    pack = Pack(lang)
    model = model_loader(None, lang, listener)()
    priors = getattr(type(model), "_priors", None)
    if priors is not None:  # worked out once per process and question: none is left from a run before
        priors.cache_clear()
    settings, notes, sink = SpeechSettings(lang), Notes(lang), TimedLoudspeaker()
    speaker = SpeechSpeaker(PrintSpeaker(lambda _: None), lambda: Renderer(settings).warmed(), lambda: sink, notes,
                            spoken_form(settings, notes, engine_for(settings).Engine.reads_kanji))
    rng = random.Random(f"first-{lang}-{seed}")
    block = 2 * int(BLOCK_SECONDS * 16000)
    seconds, cpu, right, starts, gaps = [], [], 0, [], []
    for index in range(answers + 1):  # the first one warms the model up, and is not counted
        players = rng.sample(tongue.names, 4)
        number = rng.randrange(5)
        said = tongue.count(rng, tongue.numbers[number])
        answer = _answer(said, tongue.speaker(rng, False))
        first = rng.random() < 0.25  # a vote's first count is asked in full, the next ones by name alone
        question = Table(pack, players).count(players, 4, Counting((*players, "graveyard")), first=first)
        book = phrasebook(question, model, Vocabulary.from_pack(pack), pack.spoken_word, players)
        audio = bytes(2 * int(rng.uniform(0.3, 0.8) * 16000)) + answer + bytes(block * 15)
        sink.parts.clear()
        used, handed = time.process_time(), time.monotonic()
        speaker.say(question.prompt)
        recogniser = model.recogniser(16000, book) if said_first else None
        speaker.flush()
        recogniser = recogniser or model.recogniser(16000, book)
        opened = time.perf_counter()
        for k, at in enumerate(range(0, len(audio), block)):
            time.sleep(max(0.0, opened + k * BLOCK_SECONDS - time.perf_counter()))
            start = time.perf_counter()
            heard = recogniser.accept(audio[at:at + block])
            if heard is not None and index:
                seconds.append(time.perf_counter() - start)
                cpu.append(time.process_time() - used)
                right += book.match(heard) == str(number)
                starts.append(sink.parts[0][1] - handed)
                gaps.append(max((b[1] - a[2] for a, b in zip(sink.parts, sink.parts[1:])), default=0.0))
            if heard is not None:
                break
    speaker.close()
    return {"median_s": round(statistics.median(seconds), 3), "p95_s": round(_p95(seconds), 3),
            "cpu_median_s": round(statistics.median(cpu), 3), "heard_right": f"{right}/{len(seconds)}",
            "speech_start_median_s": round(statistics.median(starts), 3), "speech_start_p95_s": round(_p95(starts), 3),
            "longest_gap_s": round(max(gaps), 3)}


def night_peak_rss(listener: str, seed: int) -> tuple[float, str]:
    """Peak resident MB of `gm werewolf play` playing one night by voice, and how it ended."""
    import voice_nights_bench as nights

    os.environ["GM_LISTENER"] = listener
    night = nights.recipe("en", 1, seed)[0]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        result = nights.play(night, folder)
        recording = folder / "night.wav"
        command = [sys.executable, "-m", "gm", "werewolf", "play", "--lang", "en", "--players",
                   ",".join(night.players), "--listen-from", str(recording), "--speech", "off", "--time-scale",
                   "0.01", "--discussion", "10", "--listener", listener]
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, env={**os.environ, "GM_LISTENER": listener})
        peak = 0  # VmHWM of the process itself (a forked child's ru_maxrss counts its parent's pages)
        while process.poll() is None:
            peak = max(peak, _peak_kb(process.pid))
            time.sleep(0.05)
    return peak / 1024, result["fell_at"] or "by voice"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers", type=int, default=24)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--night-seed", type=int, default=3)
    parser.add_argument("--listeners", default="whisper,pocketsphinx")
    parser.add_argument("--no-night", action="store_true", help="skip the night's peak memory")
    parser.add_argument("--first", metavar="LANG", help="only the first hearings of count questions of their "
                        "own in LANG (en, ja), the recogniser made as the line is handed over and once it is said")
    options = parser.parse_args()
    from gm.launch import vad_on_one_thread

    vad_on_one_thread()  # as the gm program starts: the voice-activity detector on one thread
    before = os.getloadavg()
    figures = {}
    if options.first:
        for listener in options.listeners.split(","):
            for said_first in (False, True):
                row = first_hearings(listener, options.first, options.answers, options.seed, said_first)
                made = "as the line is handed over" if said_first else "once the line is said"
                figures[f"{listener} made {made}"] = row
                print(f"{listener} {said_first}: {row}", flush=True)
        print(json.dumps({"first_hearings": figures, "lang": options.first, "loadavg_before": before,
                          "loadavg_after": os.getloadavg(), "cores": os.cpu_count()}))
        return
    for listener in options.listeners.split(","):
        load, peak, resident = load_seconds(listener)
        row: dict = {"load_s": round(load, 2), "load_peak_mb": peak, "loaded_rss_mb": resident}
        seconds, right, cpu = latencies(listener, options.answers, options.seed)
        row |= {"median_s": round(statistics.median(seconds), 3), "p95_s": round(_p95(seconds), 3),
                "cpu_median_s": round(statistics.median(cpu), 3), "heard_right": f"{right}/{len(seconds)}"}
        if not options.no_night:
            rss, ended = night_peak_rss(listener, options.night_seed)
            row |= {"night_peak_rss_mb": round(rss), "night": ended}
        figures[listener] = row
        print(f"{listener}: {row}", flush=True)
    print(json.dumps({"listeners": figures, "loadavg_before": before, "loadavg_after": os.getloadavg(),
                      "cores": os.cpu_count()}))


if __name__ == "__main__":
    main()
