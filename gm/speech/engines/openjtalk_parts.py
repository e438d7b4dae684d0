"""One Japanese sentence rendered in parts by Open JTalk, so that the first part plays while the rest renders.

Open JTalk reads the whole sentence once: its full-context labels give every phoneme its place
in the sentence (accent phrase, breath group, pitch), and the HTS voice renders those labels
part by part. Rendering costs about 45 ms a second of speech here, so a sentence's first part
is kept to its first accent phrase (今夜の|レギュレーションは); later parts run on to a pause
(a comma, 「」). Never inside a word or a phrase, never between a name and its count (健 5票).

A part after the first is rendered from the phonemes before its cut, so the voice moves into
the cut as it does in the whole sentence; it is joined to the part before by a crossfade of 10 ms
just before the cut, aligned on the voice's pitch periods: no click, and the sentence keeps its
length. Each part is one run of the HTS voice, whose global variance is fitted to that run, so
a short part can come out a few dB louder or softer than the same words in the whole sentence
(as a sentence cut at its commas into separate lines does): a part goes on at the loudness the
part before ended with, so no joint jumps in loudness, and the loudness stage
(gm.speech.loudness) brings every phrase to one level; the fewer and longer the parts, the
closer that is to the whole sentence's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

import numpy

PAUSE = "pau"
SILENT = frozenset({PAUSE, "sil"})
NUMBER = "05"  # Open JTalk's part-of-speech code of a number: a phrase starting with one is a count
DETERMINER = "07"  # 連体詞 (この, その): the one word a count may be cut from
FIRST_PART_LABELS = 3  # a first part has the silence before the sentence and at least two phonemes
PART_LABELS = 24  # a later part runs on to the first pause after this many phonemes (about 1.5 s)
GROWTH = 4  # and after this many times the phonemes before it (rendering is about 20 times as fast as speech)
BEHIND = 3  # labels before its cut a part is rendered from
LEVEL = 2  # labels before a cut on which two parts' loudness is compared
QUIET = 300.0  # a level (RMS on the 16-bit scale) below which loudness is not compared
FADE = 480  # samples over which two parts are crossfaded (10 ms at Open JTalk's 48 kHz)
SHIFT = 240  # samples a joint may move to line up the voice's pitch periods
# FADE + SHIFT stay under the 1,200 samples (5 frames of 240) HTS renders the shortest label in.

_LABEL = re.compile(r"-(?P<phoneme>[^+]+)\+.*/B:(?P<before>[^-]+)-.*/C:(?P<word>[^_]+)_.*/F:[^@]*@(?P<phrase>[^_]+)_")


def _marks(label: str) -> tuple[str, str, str, str]:
    """A label's phoneme, its word's part of speech and the previous word's, and its accent phrase's place."""
    found = _LABEL.search(label)
    if found is None:
        raise ValueError(f"not an Open JTalk full-context label: {label!r}")
    return found["phoneme"], found["word"], found["before"], found["phrase"]


def cuts(labels: Sequence[str], ahead: int = 0) -> list[int]:
    """The indices of the labels that start a part, for a sentence after `ahead` phonemes of its
    line already rendered.

    A line's first sentence (`ahead` 0) starts with a short part that ends at the sentence's first
    pause or, before it, at the start of its second accent phrase unless that phrase is a count
    after a name or a noun (健 5票, 投票結果 3票); a sentence with no such cut is cut before its
    closing silence, which takes as long to render as a short word. Every later part runs on to
    the first pause after PART_LABELS phonemes and after GROWTH times the phonemes before it in
    the line (a pause starts the part after it): it renders while those play, and the fewer the
    parts, the closer the sentence sounds to itself rendered whole. A later sentence of a line is
    one part where it is short enough."""
    marks = [_marks(label) for label in labels]
    found: list[int] = []
    for i in range(FIRST_PART_LABELS, len(marks)):
        phoneme, word, before, phrase = marks[i]
        previous, previous_phrase = marks[i - 1][0], marks[i - 1][3]
        done = found[-1] if found else 0
        if not found and not ahead:
            if phoneme == PAUSE and previous not in SILENT or (
                    phoneme not in SILENT and previous not in SILENT and phrase != previous_phrase
                    and (word != NUMBER or before == DETERMINER)):
                found.append(i)
        elif phoneme == PAUSE and previous not in SILENT and i - done >= max(PART_LABELS, GROWTH * (ahead + done)):
            found.append(i)
    if not found and not ahead and len(marks) > FIRST_PART_LABELS and marks[-1][0] in SILENT:
        found.append(len(marks) - 1)
    return found


def phonemes(labels: Sequence[str]) -> list[str]:
    """The phonemes the labels say, in order."""
    return [_marks(label)[0] for label in labels]


def _aligned(end: numpy.ndarray, samples: numpy.ndarray, start: int) -> int:
    """`start` moved by at most SHIFT samples to where the FADE samples before it in `samples`
    best match `end`, the previous part's last FADE samples: the voice's pitch periods line up."""
    low, high = max(FADE - start, -SHIFT), min(len(samples) - start, SHIFT)
    window = samples[start + low - FADE: start + high]
    scores = numpy.correlate(window, end, mode="valid")
    energy = numpy.convolve(window * window, numpy.ones(FADE), mode="valid")
    return start + low + int(numpy.argmax(scores / numpy.sqrt(energy + 1.0)))


def _level(samples: numpy.ndarray) -> float:
    return float(numpy.sqrt(numpy.mean(samples * samples))) if len(samples) else 0.0


def _gain(heard: numpy.ndarray, again: numpy.ndarray) -> float:
    """The gain that brings `again` (phonemes as a new part renders them) to the loudness of
    `heard` (the same phonemes as the part before rendered them), within ×¼ to ×4; 1 in silence."""
    loud, quiet = _level(heard), _level(again)
    return float(numpy.clip(loud / quiet, 0.25, 4.0)) if min(loud, quiet) > QUIET else 1.0


def rendered_parts(labels: Sequence[str], synthesize: Callable[[Sequence[str]], numpy.ndarray], ahead: int = 0
                   ) -> Iterator[numpy.ndarray]:
    """The audio of the sentence `labels`, part by part (see `cuts`); `synthesize` renders labels to samples.

    A part after the first is rendered from BEHIND labels before its cut, so its voice comes into
    the cut as in the whole sentence; it goes on at the loudness the part before ended with
    (compared on the LEVEL phonemes before the cut, which both render); its first FADE samples
    are crossfaded with the end of the part before (held back until then). `ahead` is the
    phonemes of the line rendered before this sentence. Played one after the other, the parts
    are the whole sentence."""
    bounds = [0, *cuts(labels, ahead), len(labels)]
    ramp = numpy.linspace(0.0, 1.0, FADE)
    end: numpy.ndarray | None = None  # the previous part's last FADE samples, held back for the joint
    previous = numpy.zeros(0)
    for first, last in zip(bounds, bounds[1:]):
        low = max(first - BEHIND, 0)
        samples = synthesize(labels[low:last])
        stop = len(samples) - FADE if last < len(labels) else len(samples)
        if end is None:
            yield samples[:stop]
        else:
            start = _aligned(end, samples, len(synthesize(labels[low:first])))
            heard = len(synthesize(labels[first - LEVEL:first]))
            samples = samples * _gain(previous[len(previous) - heard:], samples[start - heard: start])
            yield numpy.concatenate([end * (1.0 - ramp) + samples[start - FADE: start] * ramp, samples[start:stop]])
        end = samples[stop:]
        previous = samples
