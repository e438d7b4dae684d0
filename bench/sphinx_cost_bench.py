"""What hearing one English answer costs: CPU time per try, gm against the bare pocketsphinx loop.

    .venv/bin/python bench/sphinx_cost_bench.py [--seeds 7 11] [--variants 2] [--out DIR]
        [--decisions FILE] [--against FILE] [--profile N] [--set KIND:KEY=VALUE ...]

The tries are bench/listen_bench.py's English ones (its recordings, made there with flite and
espeak-ng under its conditions, for every seed): each in-set answer against its own question,
each non-answer against the questions it does not answer. Every try is decoded by the bare loop
(`listen_bench.bare_sphinx`: a JSGF search of the question's phrases, pocketsphinx's defaults)
and by gm (`Listener.hear_once` over the question's phrasebook, the phone loop and the card's
second hearing included), each timed with `time.process_time` (this process's CPU time, so a
machine busy with other work changes the figure little). Printed: the median CPU milliseconds a
try, bare and gm, their ratio, the ratio of the sums, and the decodes gm ran a try by kind
with their CPU time.
Goal: gm's cost at most 1.5x the bare loop's.

`--decisions FILE` writes what gm decided at every try (the text heard, every word sure or not,
the answer it names) as JSON lines; `--against FILE` counts and lists the tries decided otherwise
than in FILE (written by another checkout or an earlier run). `--profile N` prints cProfile's
top N functions of gm's tries. `--set KIND:KEY=VALUE` tries a pocketsphinx setting for one kind
of gm's decodes (`grammar` or `loop`), in force while such a search is made (its beams) and
decoded (`maxhmmpf`): with `--against`, whether a cheaper setting keeps every decision. Decisions
kept at the bench's seeds are not kept in general until they are kept at other seeds too
(`--seeds 3 5 --decisions` on main, then `--against` here).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import json
import pstats
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import listen_bench  # noqa: E402
from listen_bench import ENGLISH, bare_sphinx  # noqa: E402

from fakes import FakeClock  # noqa: E402
from gm.hearing import sphinx  # noqa: E402
from gm.hearing.phrases import question_phrases  # noqa: E402
from gm.text.vocabulary import Vocabulary  # noqa: E402
from gm.hearing.recorded import PcmSource, read_wav  # noqa: E402
from gm.hearing.session import Listener  # noqa: E402
from gm.hearing.listening import phrasebook  # noqa: E402


def tries(out: Path, variants: int, seeds: list[int]) -> list[tuple[Path, str]]:
    """(recording, question key) of every try of listen_bench's English set, for every seed."""
    t = ENGLISH
    expected = {w: q.key for q, _, w in t.in_set}
    kind_of = {w: k for k, ws in t.non_answers.items() for w in ws}
    asked = {"numbers not asked": ("count",), "names not at the table": ("who",)}
    every = [q.key for q in t.questions()]
    made = []
    for seed in seeds:
        for path, phrase, _ in listen_bench.recordings(t, out, variants, seed):
            keys = [expected[phrase]] if phrase in expected else asked.get(kind_of[phrase], every)
            made += [(path, key) for key in keys]
    return made


@contextlib.contextmanager
def settings(decoder, changes: dict[str, object]):
    """pocketsphinx's `changes` (key: value) in force on `decoder`, its own settings again after."""
    kept = {key: decoder.config[key] for key in changes}
    for key, value in changes.items():
        decoder.config[key] = value
    try:
        yield
    finally:
        for key, value in kept.items():
            decoder.config[key] = value


def parsed_settings(given: list[str], decoder) -> dict[str, dict[str, object]]:
    """`--set` arguments (`loop:maxhmmpf=150`) as {kind: {key: value}}, each a setting of `decoder`
    with a value of its type."""
    kinds: dict[str, dict[str, object]] = {"grammar": {}, "loop": {}}
    for item in given:
        kind, _, change = item.partition(":")
        key, _, value = change.partition("=")
        try:
            kinds[kind][key] = type(decoder.config[key])(value)
        except (KeyError, ValueError):
            raise SystemExit(f"--set {item}: give grammar:KEY=VALUE or loop:KEY=VALUE, "
                             "KEY a pocketsphinx setting and VALUE of its type") from None
    return kinds


class Counted:
    """Counts the decodes gm runs by kind: the question's grammar, a phone loop, another grammar;
    each kind's searches are made and decoded with its `changes` (`settings`)."""

    def __init__(self, model: sphinx.SphinxModel, changes: dict[str, dict[str, object]]) -> None:
        self.model = model
        self.changes = changes
        self.kinds: Counter[str] = Counter()
        self.ms: Counter[str] = Counter()
        self.decode = model.decode_in
        search, guard = model.search, model.guard
        model.search = lambda phrases: self.made("grammar", search, phrases)  # type: ignore[method-assign]
        model.guard = lambda phrase: self.made("loop", guard, phrase)  # type: ignore[method-assign]

    def made(self, kind: str, make, *args) -> str:
        with settings(self.model._decoder, self.changes[kind]):
            return make(*args)

    def __call__(self, search: str, audio: bytes):
        kind = self.kind(search)
        self.kinds[kind] += 1
        with settings(self.model._decoder, self.changes["loop" if kind == "phone loop" else "grammar"]):
            start = time.process_time()
            heard = self.decode(search, audio)
            self.ms[kind] += 1000 * (time.process_time() - start)
        return heard

    def restore(self) -> None:
        for name in ("decode_in", "search", "guard"):
            vars(self.model).pop(name, None)

    def kind(self, search: str) -> str:
        key = next((k for k, name in self.model._searches.items() if name == search), ("",))
        loop = key[0] == "guard" if isinstance(key, tuple) else sphinx.PHONE_WORD in key  # JSGF rules, as once
        return "phone loop" if loop else "grammar"


def decision(heard, book) -> dict:
    if heard is None:
        return {"heard": None}
    return {"heard": heard.text, "sure": [c >= book.min_confidence for _, c in heard.words],
            "answer": book.match(heard)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "gm_listen_bench_v2" / "en")
    parser.add_argument("--variants", type=int, default=2)
    parser.add_argument("--seeds", type=int, nargs="+", default=[7, 11])
    parser.add_argument("--decisions", type=Path, help="write every try's decision here (JSON lines)")
    parser.add_argument("--against", type=Path, help="count the tries decided otherwise than in this file")
    parser.add_argument("--profile", type=int, default=0, help="print cProfile's top N functions of gm's tries")
    parser.add_argument("--set", action="append", default=[], metavar="KIND:KEY=VALUE",
                        help="a pocketsphinx setting for gm's grammar or loop decodes (loop:maxhmmpf=150)")
    args = parser.parse_args()

    model = sphinx.load()
    changes = parsed_settings(args.set, model._decoder)
    vocabulary = Vocabulary.from_pack(ENGLISH.pack)
    questions = {q.key: q for q in ENGLISH.questions()}
    books = {k: phrasebook(q, model, vocabulary, ENGLISH.pack.spoken_word, ENGLISH.players)
             for k, q in questions.items()}
    phrases = {k: question_phrases(q, vocabulary, ENGLISH.pack.spoken_word, ENGLISH.players)
               for k, q in questions.items()}
    work = tries(args.out, args.variants, args.seeds)
    audio = {path: read_wav(path) for path in dict.fromkeys(p for p, _ in work)}
    counted = Counted(model, changes)
    for key in books:  # the searches are made once per process, before anything is timed
        Listener(model, PcmSource(16000.0, bytes(3200), FakeClock())).hear_once(books[key])
        bare_sphinx(model, 16000.0, bytes(3200), phrases[key])
    model.decode_in = counted  # type: ignore[method-assign]
    profile = cProfile.Profile() if args.profile else None
    bare_ms, gm_ms, decisions = [], [], []
    seconds = 0.0
    for path, key in work:
        rate, pcm = audio[path]
        seconds += len(pcm) / 2 / rate
        start = time.process_time()
        bare_sphinx(model, rate, pcm, phrases[key])
        bare_ms.append(1000 * (time.process_time() - start))
        if profile:
            profile.enable()
        start = time.process_time()
        heard = Listener(model, PcmSource(rate, pcm, FakeClock())).hear_once(books[key])
        gm_ms.append(1000 * (time.process_time() - start))
        if profile:
            profile.disable()
        decisions.append({"file": path.name, "question": key} | decision(heard, books[key]))
    counted.restore()
    bare, gm = statistics.median(bare_ms), statistics.median(gm_ms)
    print(f"en: {len(work)} tries ({len(audio)} recordings, {seconds:.0f} s of audio, seeds "
          f"{' '.join(map(str, args.seeds))}, {args.variants} variant(s)); CPU time a try (time.process_time)")
    print(f"  bare loop  median {bare:6.1f} ms   RTF {sum(bare_ms) / 1000 / seconds:.4f}")
    print(f"  gm         median {gm:6.1f} ms   RTF {sum(gm_ms) / 1000 / seconds:.4f}")
    print(f"  gm / bare: {gm / bare:.2f}x by the medians, {sum(gm_ms) / sum(bare_ms):.2f}x by the sums (goal <= 1.5x)")
    print("  gm's decodes a try: " + ", ".join(f"{k} {n / len(work):.2f} ({counted.ms[k] / n:.1f} ms each)"
                                              for k, n in sorted(counted.kinds.items()))
          + f"; the rest {(sum(gm_ms) - sum(counted.ms.values())) / len(work):.1f} ms a try")
    if args.decisions:
        args.decisions.write_text("".join(json.dumps(d) + "\n" for d in decisions), encoding="utf-8")
    if args.against:
        before = [json.loads(line) for line in args.against.read_text(encoding="utf-8").splitlines()]
        changed = [(b, d) for b, d in zip(before, decisions, strict=True) if b != d]
        print(f"  decisions changed against {args.against}: {len(changed)} of {len(decisions)}")
        for b, d in changed:
            print(f"    {d['file']} at {d['question']}: {b} -> {d}")
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)


if __name__ == "__main__":
    main()
