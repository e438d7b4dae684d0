"""Listening in English out of the box (edge): pocketsphinx, whose en-us model ships inside its
wheel, behind the same recogniser port as vosk, with the same grammar rules and guards.

pocketsphinx is imported inside functions only. One decoder is loaded per process; each
question's grammar is a JSGF search on it (one of the book's phrases, decoys and the table's
other phrases included, so table talk lands on something that is no answer); each utterance is
decoded from the same cepstral-mean start (pocketsphinx carries it from one utterance to the
next otherwise), at 16 kHz, and an answer must also sound like what the full language model
hears (`second_opinion`).
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

from gm.hearing.cannot_listen import NoModel
from gm.hearing.recognition import UtteranceRecogniser
from gm.hearing.phrases import UNK, Heard, Phrasebook

RATE = 16000  # the en-us acoustic model's rate
FULL = "_default"  # the search pocketsphinx makes of its own language model
NOT_WORDS = ("<", "[")  # <s>, </s>, <sil>, [NOISE], [SPEECH]: silences and noises, no words
AGREE = 70.0  # rapidfuzz ratio of the two decodes' phones from which they agree


def available() -> bool:
    """Whether pocketsphinx is installed (checked without importing it)."""
    return importlib.util.find_spec("pocketsphinx") is not None


class SphinxModel:
    """pocketsphinx's en-us model: which words it knows, and recognisers over a book's grammar."""

    unk = False
    second_opinion = True
    """Whether an answer must also be in what the full language model hears (measured by
    bench/listen_bench.py --lang en: it keeps non-answers out at the cost of some answers)."""

    def __init__(self) -> None:
        try:
            import pocketsphinx
        except (ImportError, OSError) as error:
            raise NoModel(f"pocketsphinx cannot be loaded ({error})", "no_pocketsphinx") from error
        self.path = Path(pocketsphinx.get_model_path()) / "en-us"
        try:
            self._decoder = pocketsphinx.Decoder(loglevel="FATAL")
        except (RuntimeError, ValueError, OSError) as error:
            raise NoModel(f"pocketsphinx could not load its en-us model ({error})", "model_broken",
                          path=str(self.path)) from error
        self._cmn = self._decoder.get_cmn()
        self._searches: dict[str, str] = {}
        self._known: dict[str, bool] = {}

    def hears(self, word: str) -> bool:
        """Whether `word` is in the pronouncing dictionary."""
        if word not in self._known:
            self._known[word] = word != UNK and self._decoder.lookup_word(word) is not None
        return self._known[word]

    def sounds(self, word: str) -> str:
        """How `word` is said (its first pronunciation), or the word itself when unknown."""
        return self._decoder.lookup_word(word) or word

    def recogniser(self, rate: float, book: Phrasebook | None = None) -> SphinxRecogniser:
        search = self._search(book.grammar_phrases()) if book is not None and book.phrases else FULL
        return SphinxRecogniser(self, search, rate, book if search != FULL else None)

    def _search(self, phrases: list[str]) -> str:
        """The JSGF search of one of `phrases` (made once per grammar; any sequence of them
        took six times as long, and talk forced onto one phrase fails the second decode)."""
        rule = " | ".join(p for p in phrases if p != UNK)
        if rule not in self._searches:
            name = f"gm{len(self._searches)}"
            self._decoder.add_jsgf_string(name, f"#JSGF V1.0;\ngrammar gm;\npublic <said> = {rule} ;\n")
            self._searches[rule] = name
        return self._searches[rule]

    def decode(self, search: str, audio: bytes, rate: float) -> Heard:
        """What `search` hears in one utterance, from the same start as every other."""
        decoder = self._decoder
        decoder.activate_search(search)
        decoder.set_cmn(self._cmn)
        decoder.start_utt()
        decoder.process_raw(_at_16k(audio, rate), full_utt=True)
        decoder.end_utt()
        words = [s.word.split("(")[0] for s in decoder.seg() or () if not s.word.startswith(NOT_WORDS)]
        return Heard(" ".join(words), tuple((w, 1.0) for w in words))


class SphinxRecogniser(UtteranceRecogniser):
    def __init__(self, model: SphinxModel, search: str, rate: float, book: Phrasebook | None) -> None:
        super().__init__(rate, book)
        self.model = model
        self.search = search

    def hear(self, audio: bytes) -> Heard:
        return self.model.decode(self.search, audio, self.rate)

    def confirm(self, audio: bytes) -> str | None:
        if not self.model.second_opinion:
            return None
        return self.model.decode(FULL, audio, self.rate).text

    def agrees(self, heard: str, second: str) -> bool:
        """Whether what the grammar heard sounds like what the language model heard, phone by
        phone (the language model writes words it finds likelier: "seer" as "c r", "done" as
        "dan")."""
        from rapidfuzz import fuzz

        def phones(text: str) -> list[str]:
            return [p for w in text.split() for p in self.model.sounds(w).split()]

        return fuzz.ratio(phones(heard), phones(second)) >= AGREE


def _at_16k(audio: bytes, rate: float) -> bytes:
    """16-bit mono `audio` resampled to 16 kHz (linear interpolation)."""
    if rate == RATE:
        return audio
    import numpy as np

    samples = np.frombuffer(audio[: len(audio) // 2 * 2], dtype="<i2").astype(np.float32)
    count = int(len(samples) * RATE / rate)
    at = np.arange(count) * (rate / RATE)
    resampled: bytes = np.interp(at, np.arange(len(samples)), samples).astype("<i2").tobytes()
    return resampled


@functools.lru_cache(maxsize=1)
def load() -> SphinxModel:
    """The pocketsphinx model, loaded once per process."""
    return SphinxModel()
