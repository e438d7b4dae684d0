"""Speech benchmarks: how clearly gm's English is heard, how soon a line starts, how fast `gm voice say` is.

1. Clarity, a listener as the judge: every line of a whole English night (driven by the test
   fakes) rendered by gm with every English voice (flite's, espeak-ng's), heard by pocketsphinx
   (en-us model) two ways: with a grammar of each line's words, names and numbers (the share of
   words heard, goal ≥ 90%), and with its full language model (word error rate against the
   line, goal ≤ 22% for the default voice). `--lines FILE` measures other wording (one line each).
2. Line requested → first audio, through gm's speaking thread with each engine, on lines of one
   sentence to a paragraph (goal ≤ 50 ms), next to the time the whole line takes to render.
3. Whole process: `gm voice say TEXT --to x.wav` against `espeak-ng -w` and `flite -o` on the
   same text (goal ≤ 3×), with the floor of `python -c pass` and `gm --help`.
4. The discussion timer's cues spoken to a WAV sink playing in real time: lateness (≤ 50 ms).
5. A whole Japanese night (4 players, driven by the test fakes) spoken by Open JTalk through the
   loudspeaker path, each part captured as the device is handed it, and rendered whole as
   `--speech wav:DIR` writes it: peak, clipped samples, the line-to-line loudness spread (goal
   ±1.5 dB, countdown numbers included) and the level at each joint of the parts against the
   whole sentence (goal ≤ 1.5 dB), next to Open JTalk's own output before the loudness stage.

Timings are medians of --runs runs. Run: .venv/bin/python bench/speech_bench.py [--runs 7] [--parts 2,3]
[--voices slt,rms] [--rates 150,170] [--lines FILE] (part 1 takes ten minutes; --parts runs only the parts named).
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy  # noqa: E402

from gm.clock import RealClock  # noqa: E402
from gm.night.timer import Discussion  # noqa: E402
from gm.ports import Line  # noqa: E402
from gm.speech.audio import Audio, joined  # noqa: E402
from gm.speech.notes import Notes  # noqa: E402
from gm.speech.output import open_speech_speaker, spoken_form  # noqa: E402
from gm.speech.settings import DEFAULT_RATE, SpeechSettings  # noqa: E402
from gm.speech.speakers import PrintSpeaker  # noqa: E402
from gm.speech.speaking import SpeechSpeaker  # noqa: E402
from gm.speech.tts import Renderer, engine_for  # noqa: E402
from gm.text.lines import Pack  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GM = ROOT / ".venv" / "bin" / "gm"
_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen " \
        "sixteen seventeen eighteen nineteen".split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
HOMOPHONES = {"for": "four"}  # no listener can tell these apart: either counts as the other


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


# -- the lines -----------------------------------------------------------------------------------
NIGHT_PLAYERS = ["Ken", "Mike", "Kate", "Alice"]  # names the listener's dictionary has


def night_answers(players: list[str]) -> list:
    """A 4-player night's answers for the test fakes: every count asked (2, 1, 0, 0, 0), the first
    player's hand shown, the traitor's holder named."""
    return [("werewolf.deal", "done"), ("werewolf.pass_right", None), ("werewolf.lay_down", "done"),
            ("werewolf.seer_one", None), *[("werewolf.vote.ask_count", str(n)) for n in (2, 1, 0, 0, 0)],
            ("werewolf.reveal.ask_hand", "werewolf villager"), ("werewolf.reveal.ask_holder", players[1])]


def english_night_lines() -> list[str]:
    """What gm says in a whole 4-player English night (driven by the test fakes), spoken forms, each once."""
    sys.path.insert(0, str(ROOT / "tests"))
    from fakes import FakeClock, RecordingSpeaker, ScriptedAsker, ScriptedControls

    from gm.night.context import NightContext
    from gm.night.runner import run_night
    from scorer.werewolf.decks import standard_deck

    answers = night_answers(NIGHT_PLAYERS)
    clock = FakeClock()
    speaker = RecordingSpeaker(clock)
    run_night(NightContext(players=NIGHT_PLAYERS, deck=standard_deck(4), pack=Pack("en"), speaker=speaker,
                           asker=ScriptedAsker(answers, clock), clock=clock, controls=ScriptedControls(clock),
                           pause=20, discussion=180))
    return list(dict.fromkeys(line.spoken for line in speaker.lines if any(c.isalnum() for c in line.spoken)))


def number_words(n: int) -> str:
    if n < 20:
        return _ONES[n]
    return _TENS[n // 10] + ("" if n % 10 == 0 else " " + _ONES[n % 10])


def words_of(text: str) -> list[str]:
    """The words a listener should hear: lower case, numbers as words."""
    text = re.sub(r"\d+", lambda m: f" {number_words(int(m.group()))} ", text.lower())
    return re.findall(r"[a-z']+", text)


# -- the listeners ------------------------------------------------------------------------------
class Listeners:
    """pocketsphinx's en-us model (inside its wheel) two ways: with a grammar for each line (any
    sequence of its words, the players' names and the numbers zero to twenty: what a word is
    most easily taken for), and with its full language model, as a listener that knows nothing
    of what was said."""

    def __init__(self, names: list[str]) -> None:
        from pocketsphinx import Decoder

        self.others = {n.lower() for n in names} | {number_words(n) for n in range(21)}
        self.full = Decoder(samprate=16000, logfn=os.devnull)
        self.grammar = Decoder(samprate=16000, logfn=os.devnull)
        self.known = dictionary()
        self._grammars = 0

    def with_grammar(self, audio: Audio, words: list[str]) -> list[str]:
        self._grammars += 1
        name = f"line{self._grammars}"
        vocabulary = " | ".join(sorted((set(words) | self.others) & self.known))
        self.grammar.add_jsgf_string(name, f"#JSGF V1.0;\ngrammar {name};\npublic <line> = <word>+;\n"
                                           f"<word> = {vocabulary};\n")
        self.grammar.activate_search(name)
        return decoded(self.grammar, audio)

    def with_full_model(self, audio: Audio) -> list[str]:
        return decoded(self.full, audio)


def dictionary() -> set[str]:
    """The words pocketsphinx's en-us model can hear."""
    import pocketsphinx

    path = Path(pocketsphinx.get_model_path()) / "en-us" / "cmudict-en-us.dict"
    return {line.split(" ", 1)[0] for line in path.read_text(encoding="utf-8").splitlines() if "(" not in line[:40]}


@dataclass
class Heard:
    """What one voice's lines were heard as: words missed with the grammar, word errors with the full model."""

    words: int = 0
    missed: int = 0
    errors: int = 0
    by_line: list[tuple[str, str, int, int, int]] = field(default_factory=list)
    # each line, its full-model hypothesis, its full-model errors, its words missed with the grammar, its words

    @property
    def share(self) -> float:
        return 1 - self.missed / self.words if self.words else 0.0

    @property
    def wer(self) -> float:
        return self.errors / self.words if self.words else 0.0


def heard(render, lines: list[str], listeners: Listeners) -> Heard:
    """`lines` rendered by `render` and heard by both listeners."""
    from rapidfuzz.distance import Levenshtein

    result = Heard()
    for line in lines:
        want = [HOMOPHONES.get(w, w) for w in words_of(line)]
        audio = render(line)
        by_grammar = Counter(HOMOPHONES.get(w, w) for w in listeners.with_grammar(audio, want))
        by_model = [HOMOPHONES.get(w, w) for w in listeners.with_full_model(audio)]
        errors = Levenshtein.distance(want, by_model)
        missed = sum((Counter(want) - by_grammar).values())
        result.words += len(want)
        result.missed += missed
        result.errors += errors
        result.by_line.append((line, " ".join(by_model), errors, missed, len(want)))
    return result


def decoded(decoder, audio: Audio) -> list[str]:
    """The words `decoder` (pocketsphinx, its search set) hears in `audio`."""
    decoder.start_utt()
    decoder.process_raw(at_16k(audio).samples, full_utt=True)
    decoder.end_utt()
    hyp = decoder.hyp()
    return hyp.hypstr.split() if hyp else []


def at_16k(audio: Audio) -> Audio:
    """`audio` resampled to 16 kHz (a windowed-sinc low-pass, then linear interpolation)."""
    if audio.rate == 16000:
        return audio
    x = numpy.frombuffer(audio.samples, dtype="<i2").astype(float)
    if audio.rate > 16000:
        cutoff = 0.45 * 16000 / audio.rate
        taps = numpy.arange(-64, 65)
        kernel = 2 * cutoff * numpy.sinc(2 * cutoff * taps) * numpy.hamming(len(taps))
        x = numpy.convolve(x, kernel / kernel.sum(), mode="same")
    n = int(len(x) * 16000 / audio.rate)
    y = numpy.interp(numpy.arange(n) * audio.rate / 16000, numpy.arange(len(x)), x)
    return Audio(16000, numpy.clip(y, -32768, 32767).astype("<i2").tobytes())


def english_voices() -> list[str]:
    """Every English voice gm can speak with: flite's, then espeak-ng's (through pyttsx3)."""
    from gm.speech.tts import installed_voices

    found, _ = installed_voices()
    return [v.id for v in found if v.lang.startswith("en") and v.engine in ("flite", "pyttsx3")]


def clarity(lines: list[str] | None, voices: list[str] | None, rates: list[int]) -> None:
    """Words heard (grammar) and word error rate (full model) for every English voice, best first;
    for `lines` given, also each line's figures (to choose a wording)."""
    each = lines is not None
    lines = lines or english_night_lines()
    voices = voices or english_voices()
    listeners = Listeners(NIGHT_PLAYERS)
    default = Renderer(SpeechSettings("en")).voice
    words = sum(len(words_of(line)) for line in lines)
    print(f"1. clarity: {len(lines)} English lines ({words} words) of a whole night, heard by pocketsphinx en-us "
          f"with a grammar of each line's words, names and numbers, and with its full language model")
    results: dict[str, Heard] = {}
    for voice in voices:
        for rate in rates:
            label = f"--voice {voice}" + (f" --rate {rate}" if rate != DEFAULT_RATE else "")
            renderer = Renderer(SpeechSettings("en", voice=voice, rate=rate))
            results[label] = heard(renderer.render, lines, listeners)
            renderer.close()
            print(f"   {label:<34} grammar {100 * results[label].share:5.1f}% heard   "
                  f"full model WER {100 * results[label].wer:5.1f}%", file=sys.stderr, flush=True)
    if default is not None:  # what the loudness stage costs the listener, if anything
        renderer = Renderer(SpeechSettings("en"))
        label = f"--voice {default.id}, no loudness stage"
        results[label] = heard(lambda text: joined([renderer.engine.render(p) for p in renderer._pieces(text)]),
                               lines, listeners)
    print(f"   {'voice':<34} {'grammar: heard':>15} {'full model: WER':>16}")
    for label, result in sorted(results.items(), key=lambda item: item[1].wer):
        mark = "  (default)" if default is not None and label == f"--voice {default.id}" else ""
        print(f"   {label:<34} {100 * result.share:14.1f}% {100 * result.wer:15.1f}%{mark}")
    best = min(results, key=lambda label: results[label].wer)
    if each:
        for label, result in results.items():
            print(f"   each line, {label}: full-model WER, grammar heard, line → full-model hypothesis")
            for line, hypothesis, errors, missed, count in result.by_line:
                print(f"     {100 * errors / count:5.1f}% {100 * (1 - missed / count):5.1f}%  "
                      f"{line!r} → {hypothesis!r}")
        return
    print(f"   heard worst by the full model with {best}:")
    for line, hypothesis, errors, _, _ in sorted(results[best].by_line, key=lambda item: -item[2])[:6]:
        print(f"     {errors:2d} errors  {line!r} → {hypothesis!r}")


# -- first audio -------------------------------------------------------------------------------
class FirstAudio:
    """A loudspeaker stand-in that notes when each line's first audio arrives (and plays nothing)."""

    realtime = True
    streams = True

    def __init__(self) -> None:
        self.first: dict[str, float] = {}
        self.done = threading.Event()

    def play(self, audio, key, cut) -> bool:
        self.first.setdefault(key, time.monotonic())
        return True

    def close(self) -> None:
        """Nothing to release."""


def first_audio(runs: int) -> None:
    en, ja = Pack("en"), Pack("ja", {"健": "けん"})
    texts = {
        "en": {"1 sentence": en.line("werewolf.vote.count_item", candidate="Ken", n=5),
               "3 sentences": en.line("werewolf.regulation_dead"),
               "paragraph": en.line("werewolf.side_rules")},
        "ja": {"1 sentence": ja.line("werewolf.vote.count_item", candidate="健", n=5),
               "3 sentences": ja.line("werewolf.regulation_dead"),
               "paragraph": ja.line("werewolf.side_rules")},
    }
    setups = [("en", None), ("en", "gmw/en-us"), ("ja", None), ("ja", "jpx/ja")]
    print(f"\n2. line requested → first audio (ms, median of {runs}); whole line rendered at once, for comparison")
    for lang, voice in setups:
        settings = SpeechSettings(lang, voice=voice, readings={"健": "けん"})
        engine = engine_for(settings)
        sink = FirstAudio()
        notes = Notes(lang)
        speaker = SpeechSpeaker(PrintSpeaker(lambda _: None), functools.partial(Renderer, settings),
                                lambda sink=sink: sink, notes,
                                spoken_form(settings, notes, engine.Engine.reads_kanji))
        speaker.say(Line("warm", "a", "a") if lang == "en" else Line("warm", "あ", "あ"))
        speaker.flush()
        for what, line in texts[lang].items():
            firsts, wholes = [], []
            for i in range(runs):
                key = f"{what}{i}"
                start = time.monotonic()
                speaker.say(Line(key, line.text, line.spoken))
                speaker.flush()
                firsts.append(sink.first[key] - start)
                start = time.perf_counter()
                speaker.renderer.render(speaker.spoken[-1].text)
                wholes.append(time.perf_counter() - start)
            print(f"   {lang} {engine.NAME:<9} {voice or 'default':<9} {what:<11} ({len(line.text):>3} chars): "
                  f"first audio {median_ms(firsts):6.1f}   whole line {median_ms(wholes):6.1f}")
        speaker.close()


# -- whole process -------------------------------------------------------------------------------
def whole_process(runs: int, folder: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")  # compiled once, as in an installed gm
    out = str(folder / "x.wav")
    text = "Ken: 5 votes."
    commands = {
        "python -c pass": [str(ROOT / ".venv/bin/python"), "-c", "pass"],
        "gm --help": [str(GM), "--help"],
        "gm voice say --to (en)": [str(GM), "voice", "say", text, "--to", out],
        "gm voice say --to (ja)": [str(GM), "voice", "say", "健に5票", "--lang", "ja", "--to", out],
        "espeak-ng -w": ["espeak-ng", "-w", out, text],
    }
    if shutil.which("flite"):
        commands["flite -o"] = ["flite", "-voice", "slt", "-t", text, "-o", out]
    times = {}
    for label, command in commands.items():
        subprocess.run(command, env=env, capture_output=True, check=True)  # warm up (and compile)
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(command, env=env, capture_output=True, check=True)
            samples.append(time.perf_counter() - start)
        times[label] = median_ms(samples)
    base = times["espeak-ng -w"]
    print(f"\n3. whole process, {text!r} to a WAV file (ms, median of {runs}; ratio to espeak-ng -w)")
    for label, ms in times.items():
        print(f"   {label:<24} {ms:7.1f}  {ms / base:5.1f}×")


# -- cue lateness ---------------------------------------------------------------------------------
def cue_lateness(seconds: float = 10.0, phase: int = 180) -> None:
    """The real discussion timer on a RealClock scaled so `phase` game seconds last `seconds`,
    speaking Japanese to a WAV sink that plays in real time."""
    pack = Pack("ja")
    said: list[tuple[Line, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        speaker = open_speech_speaker(SpeechSettings("ja", f"wav:{tmp}"), PrintSpeaker(lambda _: None), pace=1.0)
        clock = RealClock(scale=seconds / phase)

        def say(line: Line) -> None:
            said.append((line, clock.now()))
            speaker.say(line)

        Discussion(phase, clock, say, pack.line).run()
        speaker.close()
        spoken = speaker.spoken
    marks = [(line.fields.get("secs", line.fields.get("n")), when) for line, when in said
             if line.key in ("werewolf.timer.left", "werewolf.timer.count")]
    schedule = [(phase - mark, when) for mark, when in marks] + [(phase, said[-1][1])]
    lateness = [(when - due) * clock.scale for due, when in schedule]
    print(f"\n4. {len(schedule)} cues of a {phase} s discussion scaled to {seconds:.0f} s, "
          "speech on (WAV sink, real time)")
    print(f"   cue lateness: median {median_ms(lateness):.2f} ms, max {max(lateness) * 1000:.2f} ms; "
          f"lines spoken {len(spoken)} (cut by the urgent time-up: {sum(not s.completed for s in spoken)})")


# -- Japanese levels -------------------------------------------------------------------------------
class CapturedLoudspeaker:
    """A streaming sink that keeps each part it is handed, by line (nothing plays, nothing is cut)."""

    streams = True
    realtime = False

    def __init__(self) -> None:
        self.lines: list[list[numpy.ndarray]] = []
        self.spoken: list = []  # the speaker's record of lines spoken, set once the speaker is made
        self.rate = 0

    def play(self, audio: Audio, key: str, cut) -> bool:
        while len(self.lines) <= len(self.spoken):  # a line is recorded as spoken after its last part
            self.lines.append([])
        self.lines[len(self.spoken)].append(numpy.frombuffer(audio.samples, dtype="<i2").astype(float))
        self.rate = audio.rate
        return True

    def close(self) -> None:
        """Nothing opened."""


def japanese_night(settings: SpeechSettings):
    """A 4-player Japanese night driven by the test fakes and spoken through the loudspeaker
    path: the speaker's record of lines and the parts of each line as the device got them."""
    sys.path.insert(0, str(ROOT / "tests"))
    from fakes import FakeClock, ScriptedAsker, ScriptedControls

    from gm.night.context import NightContext
    from gm.night.runner import run_night
    from scorer.werewolf.decks import standard_deck

    answers = night_answers(list(settings.readings))
    sink = CapturedLoudspeaker()
    notes = Notes("ja")
    speaker = SpeechSpeaker(PrintSpeaker(lambda _: None), lambda: Renderer(settings).warmed(), lambda: sink, notes,
                            spoken_form(settings, notes, reads_kanji=True))
    sink.spoken = speaker.spoken
    clock = FakeClock()
    run_night(NightContext(players=list(settings.readings), deck=standard_deck(4),
                           pack=Pack("ja", dict(settings.readings)), speaker=speaker,
                           asker=ScriptedAsker(answers, clock), clock=clock, controls=ScriptedControls(clock),
                           pause=20, discussion=180))
    speaker.close()
    return speaker.spoken, sink.lines, sink.rate


def level_db(samples: numpy.ndarray) -> float:
    return 10 * float(numpy.log10(numpy.mean(samples * samples) + 1e-9))


def joint_lag(line: numpy.ndarray, whole: numpy.ndarray, at: int, rate: int, reach_s: float = 0.5,
              shift_ms: int = 100) -> int:
    """Where `line` around `at` is in `whole`, as an offset (parts join where the pitch periods
    line up, a few ms off the whole): the best match of the log envelopes (1 ms steps) ± reach_s."""
    step, reach = rate // 1000, int(reach_s * rate)

    def envelope(x: numpy.ndarray, start: int) -> numpy.ndarray:
        blocks = x[start - reach: start + reach].reshape(-1, step)
        return numpy.log1p(numpy.sqrt(numpy.mean(blocks * blocks, axis=1)))

    if not reach <= at <= len(line) - reach:
        return 0
    here = envelope(line, at)
    lags = [lag for lag in range(-shift_ms * step, shift_ms * step + 1, step)
            if reach <= at + lag <= len(whole) - reach]
    misfit = [float(numpy.abs(here - envelope(whole, at + lag)).sum()) for lag in lags]
    return lags[int(numpy.argmin(misfit))] if lags else 0


def spread(levels: list[float]) -> str:
    return f"{min(levels):6.1f} … {max(levels):6.1f} dBFS (spread {max(levels) - min(levels):4.1f} dB)"


def japanese_levels() -> None:
    from gm.speech.engines import openjtalk
    from gm.speech.loudness import speech_level

    if not openjtalk.available():
        print("\n5. Japanese levels: Open JTalk is not installed (gm-card-nights[ja])")
        return
    settings = SpeechSettings("ja", readings={"Aki": "あき", "Ken": "けん", "Mio": "みお", "Sora": "そら"})
    spoken, streamed, rate = japanese_night(settings)
    renderer = Renderer(settings)
    wholes = [numpy.frombuffer(renderer.render(s.text).samples, dtype="<i2").astype(float) for s in spoken]
    raws = [numpy.concatenate([numpy.asarray(renderer.engine.render(p).values) for p in renderer._pieces(s.text)])
            for s in spoken]
    streams = [numpy.concatenate(parts) for parts in streamed]
    numbers = [i for i, s in enumerate(spoken) if s.key == "werewolf.timer.count"]
    print(f"\n5. a whole Japanese night, {len(spoken)} lines ({len(numbers)} countdown numbers), "
          f"Open JTalk at {rate} Hz")
    for label, lines in (("Open JTalk's own output", raws), ("whole sentences (wav:DIR)", wholes),
                         ("streamed parts (loudspeaker)", streams)):
        peak = max(float(numpy.abs(x).max()) for x in lines)
        clipped = sum(int((numpy.abs(x) >= 32767).sum()) for x in lines)
        reaching = sum(bool((numpy.abs(x) >= 32767).any()) for x in lines)
        levels = [speech_level(x, rate) for x in lines]
        steps = numpy.abs(numpy.diff([levels[i] for i in numbers]))
        print(f"   {label:<29} peak {20 * numpy.log10(peak / 32768):+5.1f} dBFS ({peak:7.0f}), samples at or past "
              f"full scale {clipped:5d} in {reaching:2d} lines; speech levels {spread(levels)}; "
              f"countdown steps ≤ {steps.max():.1f} dB")
    joints = []
    for line, parts, whole in zip(streams, streamed, wholes):
        for at in numpy.cumsum([len(p) for p in parts])[:-1]:
            around = int(0.25 * rate)
            there = at + joint_lag(line, whole, at, rate)
            if around <= at <= len(line) - around and around <= there <= len(whole) - around:
                joints.append(abs(level_db(line[at - around: at + around])
                                  - level_db(whole[there - around: there + around])))
    print(f"   {len(joints)} joints between parts: level over ±0.25 s against the whole sentence: median "
          f"{statistics.median(joints):.2f} dB, worst {max(joints):.2f} dB, "
          f"over 1.5 dB: {sum(j > 1.5 for j in joints)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--parts", type=lambda s: {int(p) for p in s.split(",")}, default={1, 2, 3, 4, 5},
                        help="the parts to run, e.g. 2,3 (default: all)")
    parser.add_argument("--voices", type=lambda s: s.split(","), help="part 1's voices (default: every English one)")
    parser.add_argument("--rates", type=lambda s: [int(r) for r in s.split(",")], default=[DEFAULT_RATE],
                        help="part 1's rates in words per minute")
    parser.add_argument("--lines", type=Path, help="part 1 hears these lines (one a line) instead of a night's")
    args = parser.parse_args()
    lines = None
    if args.lines:
        lines = [line.strip() for line in args.lines.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not shutil.which("espeak-ng"):
        sys.exit("bench: espeak-ng is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        parts = {1: lambda: clarity(lines, args.voices, args.rates), 2: lambda: first_audio(args.runs),
                 3: lambda: whole_process(args.runs, folder), 4: cue_lateness, 5: japanese_levels}
        for number in sorted(args.parts & parts.keys()):
            parts[number]()


if __name__ == "__main__":
    main()
