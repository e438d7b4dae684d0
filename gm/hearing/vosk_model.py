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

from gm.c_random import seeded_rand
from gm.hearing.cannot_listen import NoModel
from gm.hearing.phrases import Heard, Phrasebook
from gm.hearing.recognition import Recogniser, UtteranceRecogniser
from gm.hearing.sources import BLOCK_SECONDS


class SpeechModel:
    """A loaded vosk model: which words it knows, and recognisers over its grammar."""

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
        except Exception as error:  # vosk raises a bare Exception for a broken model
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
        `second_opinion`, an answer must also be in what the model hears without the grammar."""
        grammar = book.grammar() if book is not None and book.phrases else None
        return VoskRecogniser(functools.partial(self._kaldi, rate, grammar), rate, book if grammar else None,
                              functools.partial(self._kaldi, rate, None) if grammar and self.second_opinion else None)

    second_opinion = False
    """Whether answers are checked by a second decode without the grammar. Off: with the small
    models it costs several times the grammar's decode and hears espeak-ng's single words as other
    words (bench/listen_bench.py measures it)."""

    def _kaldi(self, rate: float, grammar: str | None) -> Any:
        kaldi = self._vosk.KaldiRecognizer(*((self._model, float(rate)) + ((grammar,) if grammar else ())))
        kaldi.SetWords(True)
        return kaldi


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
                 free: Callable[[], object] | None = None) -> None:
        super().__init__(rate, book)
        self._kaldi = kaldi
        self._free = free

    def hear(self, audio: bytes) -> Heard:
        results = _decoded(self._kaldi(), audio, self.rate)
        return Heard(" ".join(h.text for h in results if h.text), tuple(w for h in results for w in h.words))

    def confirm(self, audio: bytes) -> str | None:
        if self._free is None:
            return None
        return " ".join(h.text for h in _decoded(self._free(), audio, self.rate) if h.text)


def _decoded(kaldi: Any, audio: bytes, rate: float) -> list[Heard]:
    """Every result vosk gives for `audio` fed in whole blocks (the last one filled with silence:
    vosk's network computes blocks of another length in another way, and its results for the same
    words then differ), the last result finalised. rand() is seeded first: vosk dithers every
    frame with it, so the same audio gets the same words and confidences whatever ran before."""
    step = 2 * max(1, int(BLOCK_SECONDS * rate))
    audio += bytes(-len(audio) % step)
    with seeded_rand():
        results = [Heard.from_result(json.loads(kaldi.Result()))
                   for at in range(0, len(audio), step) if kaldi.AcceptWaveform(audio[at:at + step])]
        return [*results, Heard.from_result(json.loads(kaldi.FinalResult()))]
