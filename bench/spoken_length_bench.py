"""How long gm's lines take to say: gm.text.spoken_length's estimate against espeak-ng's rendering.

    .venv/bin/python bench/spoken_length_bench.py             # en, ja, ko
    .venv/bin/python bench/spoken_length_bench.py --lang ja --top 10
    .venv/bin/python bench/spoken_length_bench.py --fit       # also the pace fitted to these renderings

Every line ever said (bench/pack_samples.py) is filled with sample fields twice — the samples the
tests use, and the longest likely ones (6 players, names of 6 characters, lists of two) — and
each of its parts (sentences: a line is said part by part) is rendered by espeak-ng at 150 words a
minute, given what gm's speech edge gives it (kana for Japanese). Prints per language the median
error of the estimate (seconds and share; share over the parts longer than 5 s), the median
characters a second, the parts over LONGEST_PART seconds (estimated / rendered), and the longest
lines and parts (rendered seconds, estimated seconds). A line's seconds are its parts' together, as
the speaker plays them.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import pack_samples as samples  # noqa: E402
from gm.ports import Line  # noqa: E402
from gm.speech.output import spoken_form  # noqa: E402
from gm.speech.settings import DEFAULT_RATE, SpeechSettings  # noqa: E402
from gm.text.spoken_length import LONGEST_PART, Pace, counted, pace, part_seconds, sentences  # noqa: E402

VOICES = {"en": "en-us", "ja": "ja", "ko": "ko"}


class _Quiet:
    """Notes of missing readings go nowhere: every sample name has its reading."""

    def note(self, key: str, **fields: object) -> None:
        del key, fields


def rendered_seconds(text: str, lang: str, folder: Path) -> float:
    path = folder / "part.wav"
    subprocess.run(["espeak-ng", "-v", VOICES[lang], "-s", str(DEFAULT_RATE), "-w", str(path), text],
                   check=True, capture_output=True)
    with wave.open(str(path), "rb") as audio:
        return audio.getnframes() / audio.getframerate()


def parts_of(lang: str) -> list[tuple[str, str, str]]:
    """(key, spoken part, what espeak-ng is given for it) for every part of every line said, both samples."""
    prepare = spoken_form(SpeechSettings(lang), _Quiet(), reads_kanji=False)
    lines = samples.lines(lang, said_only=True) + samples.longest_said(lang)
    seen: set[tuple[str, str]] = set()
    out = []
    for line in lines:
        for part in sentences(line.spoken):
            if (line.key, part) not in seen:
                seen.add((line.key, part))
                out.append((line.key, part, prepare(Line(line.key, part, part))))
    return out


@dataclass(frozen=True)
class Part:
    key: str
    text: str
    rendered: float
    estimated: float


def fitted(rows: list[Part], lang: str) -> Pace:
    """The pace that fits these renderings (least squares, longer parts weighing more), for the table in
    gm.text.spoken_length."""
    import numpy

    counts = numpy.array([counted(r.text, lang) for r in rows], dtype=float)
    secs = numpy.array([r.rendered for r in rows])
    weight = numpy.sqrt(secs)
    design = numpy.column_stack([numpy.ones(len(rows)), counts])
    (lead, per_char, pause), *_ = numpy.linalg.lstsq(design * weight[:, None], secs * weight, rcond=None)
    return Pace(round(lead, 2), round(1 / per_char, 1), round(pause, 2), pace(lang).digit_chars)


def report(lang: str, top: int, fit: bool, folder: Path) -> dict[str, object]:
    rows = [Part(key, part, rendered_seconds(given, lang, folder), part_seconds(part, lang))
            for key, part, given in parts_of(lang)]
    errors = [abs(r.estimated - r.rendered) for r in rows]
    by_line: dict[str, tuple[float, float]] = {}
    for line in samples.longest_said(lang):
        parts = {r.text: r for r in rows if r.key == line.key}
        said = [parts[p] for p in sentences(line.spoken)]
        by_line[line.key] = (sum(r.rendered for r in said), sum(r.estimated for r in said))
    longest_lines = sorted(by_line.items(), key=lambda item: -item[1][0])[:top]
    result: dict[str, object] = {
        "lang": lang, "parts": len(rows),
        "median_error_s": round(statistics.median(errors), 2),
        "median_error_share": round(statistics.median(e / r.rendered for e, r in zip(errors, rows)), 3),
        "median_error_share_over_5s": round(statistics.median(
            abs(r.estimated - r.rendered) / r.rendered for r in rows if r.rendered > 5), 3),
        "median_chars_per_s": round(statistics.median(len(r.text) / r.rendered for r in rows), 1),
        "parts_over_limit_estimated": sum(r.estimated > LONGEST_PART for r in rows),
        "parts_over_limit_rendered": sum(r.rendered > LONGEST_PART for r in rows),
        "longest_lines": [{"key": key, "rendered_s": round(r, 1), "estimated_s": round(e, 1)}
                          for key, (r, e) in longest_lines],
        "longest_parts": [{"key": r.key, "rendered_s": round(r.rendered, 1), "estimated_s": round(r.estimated, 1),
                           "part": r.text[:60]} for r in sorted(rows, key=lambda r: -r.rendered)[:top]],
    }
    if fit:
        result["fitted_pace"] = fitted(rows, lang).__dict__
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=sorted(VOICES), action="append")
    parser.add_argument("--top", type=int, default=5, help="longest lines and parts shown")
    parser.add_argument("--fit", action="store_true", help="also print the pace fitted to these renderings")
    args = parser.parse_args()
    if shutil.which("espeak-ng") is None:
        sys.exit("espeak-ng is not installed: nothing to render")
    with tempfile.TemporaryDirectory() as folder:
        for lang in args.lang or sorted(VOICES):
            print(json.dumps(report(lang, args.top, args.fit, Path(folder)), ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
