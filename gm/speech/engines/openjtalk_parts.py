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
(as a sentence cut at its commas into separate lines does): a part starts at the loudness the
part before ended with and glides to its own over half a second, so no joint jumps in loudness.
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
BEHIND = 3  # labels before its cut a part is rendered from
LEVEL = 2  # labels before a cut on which two parts' loudness is compared
GLIDE = 24_000  # samples over which a part glides from the loudness of the part before to its own (0.5 s)
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


def cuts(labels: Sequence[str]) -> list[int]:
    """The indices of the labels that start a part. The first part ends at the sentence's first
    pause or, before it, at the start of its second accent phrase unless that phrase is a count
    after a name or a noun (健 5票, 投票結果 3票); a later part runs on to the first pause after
    PART_LABELS phonemes (a pause starts the part after it). A sentence with neither is cut
    before its closing silence, which takes as long to render as a short word."""
    marks = [_marks(label) for label in labels]
    found: list[int] = []
    for i in range(FIRST_PART_LABELS, len(marks)):
        phoneme, word, before, phrase = marks[i]
        previous, previous_phrase = marks[i - 1][0], marks[i - 1][3]
        if phoneme == PAUSE and previous not in SILENT and (not found or i - found[-1] >= PART_LABELS):
            found.append(i)
        elif (not found and phoneme not in SILENT and previous not in SILENT and phrase != previous_phrase
              and (word != NUMBER or before == DETERMINER)):
            found.append(i)
    if not found and len(marks) > FIRST_PART_LABELS and marks[-1][0] in SILENT:
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
    `heard` (the same phonemes as the part before rendered them), within ×½ to ×2; 1 in silence."""
    loud, quiet = _level(heard), _level(again)
    return float(numpy.clip(loud / quiet, 0.5, 2.0)) if min(loud, quiet) > QUIET else 1.0


def rendered_parts(labels: Sequence[str], synthesize: Callable[[Sequence[str]], numpy.ndarray]
                   ) -> Iterator[numpy.ndarray]:
    """The audio of the sentence `labels`, part by part (see `cuts`); `synthesize` renders labels to samples.

    A part after the first is rendered from BEHIND labels before its cut, so its voice comes into
    the cut as in the whole sentence; it starts at the loudness the part before ended with
    (compared on the LEVEL phonemes before the cut, which both render) and glides to its own over
    GLIDE samples; its first FADE samples are crossfaded with the end of the part before (held
    back until then). Played one after the other, the parts are the whole sentence."""
    bounds = [0, *cuts(labels), len(labels)]
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
            gain = _gain(previous[len(previous) - heard:], samples[start - heard: start])
            glide = numpy.ones(len(samples))
            glide[:start] = gain
            reach = min(GLIDE, len(samples) - start)
            glide[start: start + reach] = numpy.linspace(gain, 1.0, reach)
            samples = samples * glide
            yield numpy.concatenate([end * (1.0 - ramp) + samples[start - FADE: start] * ramp, samples[start:stop]])
        end = samples[stop:]
        previous = samples
