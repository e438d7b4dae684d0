"""vosk (edge, imported inside functions only): a loaded model and its recognisers, one
KaldiRecognizer per utterance (one carries its online i-vector and CMVN adaptation from an
utterance to the next)."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator

from gm.c_random import Rand, drawing
from gm.hearing.cannot_listen import NoModel
from gm.hearing.phrases import Heard, Phrasebook
from gm.hearing.recognition import Recogniser, UtteranceRecogniser
from gm.hearing.sources import BLOCK_SECONDS
from gm.text.parse import norm


class VoskModel:
    """A loaded vosk model: which words it knows, and recognisers over its grammar."""

    draws_from_rand = True  # its feature dither (gm.c_random)

    def __init__(self, path: Path) -> None:
        try:
            import vosk
        except (ImportError, OSError) as error:
            raise NoModel(f"vosk cannot be loaded ({error})", "no_vosk", detail=str(error)) from error
        vosk.SetLogLevel(-1)
        self.path = path
        self._vosk = vosk
        try:  # model_path only: Model(lang=...) may download or sys.exit
            with _stderr_silenced():  # vosk's own ERROR line; ours below says it in one line
                self._model = vosk.Model(model_path=str(path))
        except (Exception, SystemExit) as error:  # vosk raises a bare Exception for a broken model
            raise NoModel(f"vosk could not load the speech model in {str(path)!r}", "model_broken",
                          path=str(path), engine="vosk") from error
        self._known: dict[str, bool] = {}
        self.unk = self.hears("[unk]")

    def hears(self, word: str) -> bool:
        """Whether `word` is in the model's vocabulary (vosk_model_find_word)."""
        if word not in self._known:
            self._known[word] = self._model.vosk_model_find_word(word) >= 0
        return self._known[word]

    def recogniser(self, rate: float, book: Phrasebook | None = None) -> Recogniser:
        """A recogniser for audio at `rate`; with a `book` holding phrases, limited to its grammar
        (vosk 0.3.45 crashes on an empty grammar, so an empty book listens without one). With
        `second_opinion`, an answer must also be in what the model hears without the grammar; with
        `rival_check`, an answer with a rival reading of the same audio is heard unsure."""
        grammar = book.grammar() if book is not None and book.phrases else None
        free = functools.partial(self._kaldi, rate, None) if grammar and self.second_opinion else None
        readings = functools.partial(self._kaldi, rate, grammar, RIVALS) if grammar and self.rival_check else None
        return VoskRecogniser(functools.partial(self._kaldi, rate, grammar), rate, book if grammar else None,
                              free, readings)

    second_opinion = False
    """Whether answers are checked by a second decode without the grammar. Off: with the small
    models it costs several times the grammar's decode and hears espeak-ng's single words as other
    words (bench/listen_bench.py measures it)."""

    rival_check = True
    """Whether an answer is heard unsure when another reading of the same audio in the same grammar
    (vosk's n-best) scores within RIVAL_MARGIN of it and names something else: another answer, or
    no answer (bench/listen_bench.py measures it)."""

    def _kaldi(self, rate: float, grammar: str | None, alternatives: int = 0) -> Any:
        kaldi = self._vosk.KaldiRecognizer(*((self._model, float(rate)) + ((grammar,) if grammar else ())))
        kaldi.SetWords(True)
        if alternatives:
            kaldi.SetMaxAlternatives(alternatives)
        return kaldi


RIVALS = 5  # the readings of an utterance looked at for a rival
RIVAL_MARGIN = 1.0
"""How near (in vosk's n-best scores, log-likelihoods) another reading naming something else makes
an answer unsure: on espeak-ng's Korean counts and names, every wrong answer had a rival within
0.7, and 10 in 100 right ones had one."""


@contextlib.contextmanager
def _stderr_silenced() -> Iterator[None]:
    """Standard error (file descriptor 2, where vosk's C++ code writes) sent to the null device."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class VoskRecogniser(UtteranceRecogniser):
    """vosk, one utterance at a time, each by a KaldiRecognizer of its own (`kaldi()`, under a
    millisecond with a grammar): one recogniser carries its adaptation (online i-vectors, CMVN)
    from an utterance to the next, even across FinalResult, and hears the same words otherwise."""

    def __init__(self, kaldi: Callable[[], object], rate: float, book: Phrasebook | None = None,
                 free: Callable[[], object] | None = None, readings: Callable[[], object] | None = None) -> None:
        super().__init__(rate, book)
        self._kaldi = kaldi
        self._free = free
        self._readings = readings

    def hear(self, audio: bytes) -> Heard:
        """The utterance's words; an answer with a rival reading (`VoskModel.rival_check`) heard unsure."""
        results = _decoded(self._kaldi(), audio, self.rate)
        heard = Heard(" ".join(h.text for h in results if h.text), tuple(w for h in results for w in h.words))
        if self._readings is not None and heard.text and self._rivalled(audio, heard):
            return Heard(heard.text, tuple((w, 0.0) for w, _ in heard.words))
        return heard

    def _rivalled(self, audio: bytes, heard: Heard) -> bool:
        """Whether `heard`, an answer of the book, has a rival: a reading of `audio` scoring within
        RIVAL_MARGIN of the best that names another answer, or that is no answer and holds a word
        of no phrase of the question (a decoy, another phrase of the table). A reading of the
        question's own words that names nothing ("표 하나") is no rival, and a question with one
        answer (a step's "done", taken however surely heard) has none."""
        book = self.book
        if book is None or self._readings is None or len(set(book.phrases.values())) < 2:
            return False
        answer = book.match(Heard(heard.text))
        if answer is None:
            return False
        readings = _readings(self._readings(), audio, self.rate)
        words = book.answer_words()

        def rival(text: str) -> bool:
            named = book.match(Heard(text))
            return named != answer if named is not None else bool(set(text.split()) - words)

        return bool(readings) and any(readings[0][1] - score < RIVAL_MARGIN and rival(text)
                                      for text, score in readings[1:])

    def confirm(self, audio: bytes) -> str | None:
        if self._free is None:
            return None
        return " ".join(h.text for h in _decoded(self._free(), audio, self.rate) if h.text)


def _readings(kaldi: Any, audio: bytes, rate: float) -> list[tuple[str, float]]:
    """vosk's n-best readings of `audio`, best first: (text, score); none when vosk heard it as more
    than one utterance (the last one's readings are not the whole)."""
    with drawing() as rand:
        ended = list(_fed(kaldi, audio, rate, rand))
        with rand.call():
            result = json.loads(kaldi.FinalResult())
    if any(ended):
        return []
    return [(norm(str(a.get("text", ""))), float(a.get("confidence", 0.0))) for a in result.get("alternatives", ())]


def _fed(kaldi: Any, audio: bytes, rate: float, rand: Rand) -> Iterator[bool]:
    """`audio` fed to `kaldi` in whole blocks (the last one filled with silence: vosk's network
    computes blocks of another length in another way, and its results for the same words then
    differ): for each block, whether vosk ended an utterance there. Each block draws its dither
    through `rand` (the decode's own, from `drawing`)."""
    step = 2 * max(1, int(BLOCK_SECONDS * rate))
    audio += bytes(-len(audio) % step)
    for at in range(0, len(audio), step):
        with rand.call():
            ended = bool(kaldi.AcceptWaveform(audio[at:at + step]))
        yield ended


def _decoded(kaldi: Any, audio: bytes, rate: float) -> list[Heard]:
    """Every result vosk gives for `audio` (`_fed`), the last result finalised. vosk dithers
    every frame with rand(): the decode draws from its own (`drawing`), so the same audio gets
    the same words and confidences whatever ran before or meanwhile."""
    results = []
    with drawing() as rand:
        for ended in _fed(kaldi, audio, rate, rand):
            if ended:
                with rand.call():
                    results.append(Heard.from_result(json.loads(kaldi.Result())))
        with rand.call():
            final = Heard.from_result(json.loads(kaldi.FinalResult()))
    return [*results, final]
