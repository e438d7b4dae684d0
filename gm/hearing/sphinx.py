"""Listening in English out of the box (edge): pocketsphinx, whose en-us model ships inside its
wheel, behind the same recogniser port as vosk, with the same grammar rules and guards.

pocketsphinx is imported inside functions only. One grammar decoder is loaded per process; each
question's grammar is a finite-state search on it (one of the book's phrases, decoys and the table's
other phrases included, so table talk lands on something that is no answer). Three of its
defaults are wrong for one closed question at a time, each found by bench/listen_bench.py:

- its lattice's best path (`bestpath`) leaves the grammar: half a phrase came out ("the" of "the
  graveyard", "game" of "game master") and took a fifth of the right answers;
- its noise removal learns the noise from one utterance into the next: the same audio was heard
  otherwise after other audio (39 of 40 utterances scored otherwise, one heard as another word),
  so the front end starts afresh for each utterance;
- an answer that is merely the likeliest phrase of the grammar is often no answer at all.

So an answer must also beat a loop of free phones (`second_opinion`): the same audio is decoded
once more with the phrase heard and, as its rival, any sequence of the model's phones weighted by
GARBAGE; talk, other words and names nobody at the table has sound more like free phones than
like the phrase. The phrase must also span half the utterance's speech (SPAN), or it was heard
in a part of something longer ("four" in "of course"), and leave no hiss of a fricative it does
not have to silence (HISS: noise buries the S of "six" by loudness, and "two" took it), in the
grammar's decode (else the loop is not run) and in the loop's. That costs
a fraction of the first decode, where pocketsphinx's full language model cost fifteen times as
much and heard right answers as other words ("done" as "ten").
The full language model is loaded only to hear without a grammar (`gm voice test`).
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gm.hearing.cannot_listen import NoModel
from gm.hearing.recognition import UtteranceRecogniser
from gm.hearing.phrases import UNK, Heard, Phrasebook

RATE = 16000  # the en-us acoustic model's rate
PASS_HZ, STOP_HZ = 7200.0, 8000.0  # audio at a higher rate keeps what lies under PASS_HZ (`_at_16k`)
FULL = "_default"  # the search pocketsphinx makes of its own language model
NOT_WORDS = ("<", "[", "(", "+")  # <s>, </s>, <sil>, [NOISE], (NULL), +SPN+: silences and noises, no words
PHONES = ("AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y "
          "Z ZH").split()
"""The en-us model's phones: the loop of free phones that an answer must beat."""
NEAR = 2.5
"""Phones (`phone_distance`) from which another phrase sounds unlike a step's answer: espeak-ng's
"done" comes out D AA N or Z AA, and "nah" (N AA, 2.5 off) took it at most steps."""
PHONE_WORD = "gm-phone-"  # the loop's words, one per phone (no English word is spelt so)
DECOY_NEAR = 2.0
"""Phones (`phone_distance`) within which a decoy of the language's list sounds like an answer and
is left out of the question's grammar: "liar" took espeak-ng's "one" (W AH N, 2 off), "know" and
"sarah" took "zero" and "two". The pack's own decoys (`Phrasebook.kept`) stay unless said the same:
each is there because the model cannot tell it from an answer."""
REPLY_NEAR = 1.5
"""Phones (`phone_distance`) within which a way of saying yes or no ("wrong", "yeah") is no rival
at a count: "wrong" (R AO NG) took espeak-ng's and flite's "one" at the night's counts; "yes" and
"no" themselves stay ("no" for "no votes" must never be heard as a count)."""
PHONE_CLASSES = {phone: kind for kind, phones in {
    "vowel": "AA AE AH AO AW AY EH ER EY IH IY OW OY UH UW", "stop": "B D G K P T",
    "fricative": "CH DH F HH JH S SH TH V Z ZH", "nasal": "M N NG", "glide": "L R W Y"}.items()
    for phone in phones.split()}
"""A phone replaced by one of its own class costs half (`phone_distance`): the model hears flite's
and espeak-ng's AH as AA, D as DH or Z, N as NG."""
SLACK = ((4, 1.5),)
"""(phones, distance): an answer of at most so many phones whose loop of free phones came out within
so much `phone_distance` of the answer's own phones still beats it (flite and espeak-ng say "done"
so that the model hears D AA N, "one" W AA N UW; talk and other words come out further off, and a
loop that need only begin so, as espeak-ng's en-us+f2 breathes out after "one", W AA N IH EY, let
half as many other words and numbers through again)."""
LONG, LONGER = 6, 1e-2
"""A phrase of more phones than LONG has more to lose to the loop: espeak-ng's en+f4 "werewolf
seer" (10 phones) lost to it at GARBAGE and beat it at a ten-thousandth of that; a hundredth a
phone let no more talk through (bench/listen_bench.py --lang en), a ten-thousandth did."""
BREATH, FRAME = 34, 320
"""dB under the loudest 20 ms frame (FRAME samples at RATE) from which the frames after the last
loud one are made silence before decoding: espeak-ng's en-us+f2 and en+f4 breathe out 35-40 dB
under the word, and the model heard the breath as phones (W AA N IH EY, which the loop won)."""
SPAN, SPEECH_FRAME = 0.5, 160
"""The share of an utterance's speech frames (10 ms, SPEECH_FRAME samples at RATE: the model's
frames) that a phrase beating the loop of free phones must span: "of course", "not really",
"definitely", "uh huh" and talk were heard as one short answer ("four", "three", "yeah", "no")
aligned to a part of them, the rest of the speech left to silence; answers said spanned 0.53 and
more of theirs at every condition (bench/listen_bench.py --lang en)."""
HISS_HZ, HISS, HISS_QUIET, HISS_FRAMES = 4000, 2.5, 20.0, 6
"""A hiss is a SPEECH_FRAME frame of an utterance whose sound above HISS_HZ is HISS times louder
(in RMS) than its quietest tenth there, and at least HISS_QUIET (`_hiss_frames`). A phrase beating
the loop of free phones must leave fewer than HISS_FRAMES frames of hiss that are no speech by
loudness (`_speech_frames`) to silence before it unless it starts with a fricative, after it
unless it ends with one: the hiss of a fricative it does not have. Pink noise at 10 dB buries a
fricative's loudness under the floor, not its hiss above 4 kHz, where a room's noise is weakest:
"six" in it was heard as "two" and "three", its last S (8-11 frames) left to silence while the
vowel spanned all of the speech by loudness; answers said left at most 3, but for those whose
own last fricative the model left out ("yes", "werewolf": up to 14; bench/listen_bench.py
--lang en)."""
MASKED = {"six": ("TH IH K S", "S IH K TH", "TH IH K TH")}
"""Pronunciations given to words besides the dictionary's, with the phones noise masks heard as
the ones it leaves: pink noise and quiet speech turn the S of "six" into TH ("TH EY TH"), which
took "three" at every count of 0-4; with these, "six" (no answer there) takes it."""
CARD = "card"  # what a card's name is among a book's other phrases (`gm.hearing.phrases.other_phrases`)
GARBAGE = 1e-22
"""The weight of the loop of free phones against the phrase's 1 (measured by
bench/listen_bench.py --lang en: heavier, more answers are lost; lighter, more non-answers pass)."""


def available() -> bool:
    """Whether pocketsphinx is installed (checked without importing it)."""
    return importlib.util.find_spec("pocketsphinx") is not None


class SphinxModel:
    """pocketsphinx's en-us model: which words it knows, and recognisers over a book's grammar."""

    unk = False
    second_opinion = True
    """Whether an answer must also beat a loop of free phones (bench/listen_bench.py --lang en
    measures both ways)."""

    def __init__(self) -> None:
        try:
            import pocketsphinx
        except (ImportError, OSError) as error:
            raise NoModel(f"pocketsphinx cannot be loaded ({error})", "no_pocketsphinx", detail=str(error)) from error
        self._pocketsphinx = pocketsphinx
        self.path = Path(pocketsphinx.get_model_path()) / "en-us"
        self._decoder = self._loaded(lm=None, bestpath=False, topn=2)  # two Gaussians a codebook: a sixth faster
        for phone in PHONES:
            self._decoder.add_word(PHONE_WORD + phone.lower(), phone, False)
        self._decoder.add_word(PHONE_WORD + "sil", "SIL", True)
        for word, prons in MASKED.items():
            for number, phones in enumerate(prons, start=len(self._spoken(word)[0]) + 1):
                self._decoder.add_word(f"{word}({number})", phones, False)
        self._full: Any = None
        self._searches: dict[tuple[str, ...], str] = {}
        self._rivals: dict[str, list[str]] = {}
        self._known: dict[str, bool] = {}

    def _loaded(self, **config: object) -> Any:
        try:
            return self._pocketsphinx.Decoder(loglevel="FATAL", **config)
        except (RuntimeError, ValueError, OSError) as error:
            raise NoModel(f"pocketsphinx could not load its en-us model ({error})", "model_broken",
                          path=str(self.path), engine="pocketsphinx") from error

    def hears(self, word: str) -> bool:
        """Whether `word` is in the pronouncing dictionary."""
        if word not in self._known:
            self._known[word] = word != UNK and self._decoder.lookup_word(word) is not None
        return self._known[word]

    def recogniser(self, rate: float, book: Phrasebook | None = None) -> SphinxRecogniser:
        search = self.search(self._rivals_of(book)) if book is not None and book.phrases else FULL
        return SphinxRecogniser(self, search, rate, book if search != FULL else None)

    def _rivals_of(self, book: Phrasebook) -> list[str]:
        """`rivals`, worked out once per book (every field of it: its repr)."""
        key = repr(book)
        if key not in self._rivals:
            self._rivals[key] = self.rivals(book)
        return self._rivals[key]

    def rivals(self, book: Phrasebook) -> list[str]:
        """`book`'s grammar without the rivals that sound like one of its answers (`phone_distance`):
        a decoy of the pack said the same ("know" took every "no"), one of the language's list
        within DECOY_NEAR, at a count a way of saying yes or no other than "yes" and "no" within
        REPLY_NEAR ("wrong" and "yeah" took "one": a table says them to a read-back), and for a
        question with one answer (a step's "done") any other phrase within NEAR (espeak-ng's
        "done" was heard as "none", a count's zero, at every deal, then as the decoy "john"; at a
        step nothing else is asked for, and the loop of free phones still catches talk)."""
        own = [self._phones(p) for p in book.phrases]
        one = len(set(book.phrases.values())) == 1
        count = any(a.isdigit() for a in book.phrases.values())
        decoys = set(book.decoy_words())

        def near(phrase: str) -> float | None:
            """Within how many phones of an answer `phrase` is no rival (None: it always is one)."""
            if one:
                return NEAR
            if phrase in decoys:
                return 0.0 if phrase in book.kept else DECOY_NEAR
            reply = book.others.get(phrase)
            return REPLY_NEAR if count and reply in ("yes", "no") and phrase != reply else None

        def rival(phrase: str) -> bool:
            most = None if phrase in book.phrases else near(phrase)
            return most is None or min(phone_distance(self._phones(phrase), o) for o in own) > most

        return [p for p in book.grammar_phrases() if rival(p)]

    def _phones(self, phrase: str) -> list[str]:
        return [p for w in phrase.split() for p in (self._decoder.lookup_word(w) or w).split()]

    def search(self, phrases: list[str]) -> str:
        """The search of one of `phrases` (made once per grammar; any sequence of them took six
        times as long, and talk forced onto one phrase is no answer anyway), each as likely as
        JSGF's `a | b | c` makes it. Of phrases spoken alike ("no" and "know") only the last is
        kept: they tie, and the JSGF search they were first heard by gave the last."""
        said = [p for p in phrases if p != UNK]

        def transitions() -> list[tuple[Any, ...]]:
            last = {self._spoken(p): p for p in said}
            return _transitions([(p, 1 / len(said)) for p in said if last[self._spoken(p)] == p])

        return self._fsg(("one of", *said), transitions)

    def guard(self, phrase: str) -> str:
        """The search of `phrase` against a loop of free phones weighted by GARBAGE, and by LONGER
        for every phone of the phrase beyond LONG: JSGF's `/1/ (phrase) | /weight/ <phone>+`
        (which prices each phone of the loop at half a phone's share) in a loop of one copy of
        the phones where JSGF's has two."""
        rounded = f"{GARBAGE * LONGER ** max(0, len(self._phones(phrase)) - LONG):.3g}"  # as the JSGF had it
        weight = float(rounded)
        return self._fsg(("guard", phrase, rounded),
                         lambda: _transitions([(phrase, 1 / (1 + weight))], weight / (1 + weight)))

    def beats_free_phones(self, phrase: str, audio: bytes, rate: float) -> bool:
        """Whether `phrase` beats the loop of free phones on `audio` (`guard`) and spans at least
        SPAN of its speech, or the loop's phones are within SLACK of the phrase's own."""
        return self.beats_free_phones_in(phrase, decodable(audio, rate))

    def beats_free_phones_in(self, phrase: str, audio: bytes) -> bool:
        """`beats_free_phones` on `decodable` audio."""
        heard = self.decode_in(self.guard(phrase), audio).text
        if heard == phrase:
            return self._spans(audio)
        own = self._phones(phrase)
        slack = next((most for phones, most in SLACK if len(own) <= phones), 0.0)
        loop = [w.removeprefix(PHONE_WORD).upper() for w in heard.split() if w != PHONE_WORD + "sil"]
        return bool(slack) and all(w.startswith(PHONE_WORD) for w in heard.split()) and (
            phone_distance(loop, own) <= slack)

    def _spans(self, audio: bytes) -> bool:
        """Whether the words of the last grammar decode span SPAN of the speech of 16 kHz `audio`
        (`_spanned`) and leave fewer than HISS_FRAMES frames of hiss to silence (`_hiss_left`)."""
        return self._spanned(audio) >= SPAN and self._hiss_left(audio) < HISS_FRAMES

    def _hiss_left(self, audio: bytes) -> int:
        """The frames of hiss (`_hiss_frames`) of 16 kHz `audio`, no speech by loudness, that the
        words of the last grammar decode leave to silence before them unless their first phone is
        a fricative and after them unless their last is one."""
        import numpy as np

        said = [s.word for s in self._decoder.seg() or () if not s.word.startswith(NOT_WORDS)]
        phones = [p for w in said for p in (self._decoder.lookup_word(w) or "").split()]
        words = self._word_frames(len(audio) // 2 // SPEECH_FRAME)
        at = np.flatnonzero(words)
        if not phones or not len(at):
            return 0
        hiss = _hiss_frames(audio) & ~_speech_frames(audio) & ~words
        before, after = (PHONE_CLASSES.get(p) != "fricative" for p in (phones[0], phones[-1]))
        return int(hiss[: at[0]].sum()) * before + int(hiss[at[-1] + 1:].sum()) * after

    def _spanned(self, audio: bytes) -> float:
        """The share of the speech frames of 16 kHz `audio` (`_speech_frames`) that the words of
        the last grammar decode span (its silences and noises span none)."""
        speech = _speech_frames(audio)
        return float((speech & self._word_frames(len(speech))).sum() / max(int(speech.sum()), 1))

    def _word_frames(self, frames: int) -> Any:
        """Which of `frames` model frames the words of the last grammar decode span."""
        import numpy as np

        words = np.zeros(frames, dtype=bool)
        for segment in self._decoder.seg() or ():
            if not segment.word.startswith(NOT_WORDS):
                words[segment.start_frame:segment.end_frame + 1] = True
        return words

    def _spoken(self, phrase: str) -> tuple[tuple[str, ...], ...]:
        """Every pronunciation of every word of `phrase`: phrases spoken alike are equal here."""
        def prons(word: str) -> tuple[str, ...]:
            found = [self._decoder.lookup_word(word)]
            while found[-1] is not None:
                found.append(self._decoder.lookup_word(f"{word}({len(found) + 1})"))
            return tuple(p for p in found if p is not None) or (word,)

        return tuple(prons(w) for w in phrase.split())

    def _fsg(self, key: tuple[str, ...], transitions: Callable[[], list[tuple[Any, ...]]]) -> str:
        """A finite-state grammar from the start state 0 to the final state 1, made once per `key`.
        Not parsed from JSGF: JSGF gives every alternative a state of its own, each with its own
        silence and noise loops and none sharing a first phone (73 states for 60 phrases) and
        its `<phone>+` two copies of the loop; the same paths at the same weights in fewer states
        are heard the same for less (bench/sphinx_cost_bench.py)."""
        if key not in self._searches:
            name = f"gm{len(self._searches)}"
            self._decoder.add_fsg(name, self._decoder.create_fsg(name, 0, 1, transitions()))
            self._searches[key] = name
        return self._searches[key]

    def decode(self, search: str, audio: bytes, rate: float) -> Heard:
        """What `search` hears in one utterance, from a fresh front end (its noise estimate
        otherwise carries over from the utterance before)."""
        return self.decode_in(search, decodable(audio, rate))

    def decode_in(self, search: str, audio: bytes) -> Heard:
        """`decode` on `decodable` audio."""
        if search == FULL:
            if self._full is None:
                self._full = self._loaded()
            decoder = self._full
        else:
            decoder = self._decoder
            decoder.activate_search(search)
        decoder.reinit_feat()
        decoder.start_utt()
        decoder.process_raw(audio, full_utt=True)
        decoder.end_utt()
        words = [s.word.split("(")[0] for s in decoder.seg() or () if not s.word.startswith(NOT_WORDS)]
        return Heard(" ".join(words), tuple((w, 1.0) for w in words))


class SphinxRecogniser(UtteranceRecogniser):
    """One utterance at a time by the model's grammar decoder; an answer of the book that does
    not beat the loop of free phones (`SphinxModel.guard`) is heard unsure (confidence 0)."""

    def __init__(self, model: SphinxModel, search: str, rate: float, book: Phrasebook | None) -> None:
        super().__init__(rate, book)
        self.model = model
        self.search = search

    def hear(self, audio: bytes) -> Heard:
        audio = decodable(audio, self.rate)  # once for every decode of the utterance
        heard = self.model.decode_in(self.search, audio)
        if not self.model.second_opinion or self.book is None or not heard.text:
            return heard
        if self.answers(heard):
            return heard if self.holds(heard, audio) else _unsure(heard)
        if self.book.others.get(heard.text) == CARD:
            return self.answers_only(audio) or heard
        return heard

    def holds(self, heard: Heard, audio: bytes) -> bool:
        """Whether the answer `heard` by the last decode of `decodable` `audio` holds: where that
        decode's own words do not span SPAN of the speech or leave a hiss (`SphinxModel._spans`),
        it never did once the loop of free phones was run too (bench/sphinx_cost_bench.py), so the
        loop is not run; else the answer must beat the loop."""
        return self.model._spans(audio) and self.model.beats_free_phones_in(heard.text, audio)

    def answers(self, heard: Heard) -> bool:
        assert self.book is not None
        return self.book.match(heard) is not None or self.book.match_run(heard) is not None

    def answers_only(self, audio: bytes) -> Heard | None:
        """An answer heard by a grammar of the question's answers alone, when it beats the loop
        of free phones: a card's name, which no table says to a question that is no card
        question, took the answer (flite's "yes" came out as the card "death" at every
        read-back, by the answers alone as "yes"). Other phrases heard are left no answer: a
        number or a name heard by the answers alone came out a wrong answer twice as often).
        `audio` is `decodable`."""
        assert self.book is not None
        heard = self.model.decode_in(self.model.search(list(self.book.phrases)), audio)
        if heard.text and self.answers(heard) and self.holds(heard, audio):
            return heard
        return None


def _transitions(phrases: list[tuple[str, float]], loop: float = 0.0) -> list[tuple[Any, ...]]:
    """A grammar's transitions from the start state 0 to the final state 1: each of `phrases` at
    its probability, word after word through states of its own; with a `loop` probability, also
    one or more free phones priced as JSGF's `<phone>+` prices them: one half before each phone
    (another phone, or the last) on a null transition, then the phone at its share of the phones.
    A search follows one null transition at a time, so none leads to another."""
    transitions: list[tuple[Any, ...]] = []
    free = 2
    for phrase, probability in phrases:
        words = phrase.split()
        states = [0, *range(free, free + len(words) - 1), 1]
        free += len(words) - 1
        transitions += [(states[i], states[i + 1], probability if i == 0 else 1.0, w) for i, w in enumerate(words)]
    if loop:
        phone, end = free, free + 1
        transitions += [(0, phone, loop / 2), *((phone, end, 1 / len(PHONES), PHONE_WORD + p.lower()) for p in PHONES),
                        (end, phone, 0.5), (end, 1, 1.0)]
    return transitions


def _unsure(heard: Heard) -> Heard:
    return Heard(heard.text, tuple((w, 0.0) for w, _ in heard.words))


def phone_distance(said: list[str], other: list[str]) -> float:
    """How far two phone sequences are apart: a phone left out or put in costs 1, one replaced by
    another of its class (PHONE_CLASSES) a half, by any other phone 1."""
    before = [float(j) for j in range(len(other) + 1)]
    for i, a in enumerate(said, start=1):
        row = [float(i)]
        for j, b in enumerate(other, start=1):
            swap = 0.0 if a == b else 0.5 if PHONE_CLASSES.get(a, a) == PHONE_CLASSES.get(b, b) else 1.0
            row.append(min(before[j] + 1, row[j - 1] + 1, before[j - 1] + swap))
        before = row
    return before[-1]


def _speech_frames(audio: bytes) -> Any:
    """Which SPEECH_FRAME frames of 16 kHz `audio` are speech: louder than the utterance's noise
    floor (its quietest tenth, its pads) by as much as an utterance is cut at
    (`gm.hearing.utterance.threshold`)."""
    import numpy as np

    from gm.hearing.utterance import frame_levels, threshold

    samples = np.frombuffer(audio[: len(audio) // 2 * 2], dtype="<i2")
    frames = len(samples) // SPEECH_FRAME
    if not frames:
        return np.zeros(0, dtype=bool)
    levels = frame_levels(samples[: frames * SPEECH_FRAME].reshape(frames, SPEECH_FRAME))
    return levels > threshold(float(np.percentile(levels, 10)))


def _hiss_frames(audio: bytes) -> Any:
    """Which SPEECH_FRAME frames of 16 kHz `audio` hiss: their sound above HISS_HZ (a Hann window's
    RMS there) HISS times that of the utterance's quietest tenth, and at least HISS_QUIET."""
    import numpy as np

    samples = np.frombuffer(audio[: len(audio) // 2 * 2], dtype="<i2").astype(np.float64)
    frames = len(samples) // SPEECH_FRAME
    if not frames:
        return np.zeros(0, dtype=bool)
    window = np.hanning(SPEECH_FRAME)
    spectrum = np.abs(np.fft.rfft(samples[: frames * SPEECH_FRAME].reshape(frames, SPEECH_FRAME) * window)) ** 2
    high = spectrum[:, np.fft.rfftfreq(SPEECH_FRAME, 1 / RATE) >= HISS_HZ]
    levels = np.sqrt(2 * high.sum(axis=1) / (SPEECH_FRAME * (window ** 2).sum()))
    return levels > max(HISS * float(np.percentile(levels, 10)), HISS_QUIET)


def decodable(audio: bytes, rate: float) -> bytes:
    """16-bit mono `audio` at `rate` as every decode takes it: at RATE, its breath hushed."""
    return _tail_hushed(_at_16k(audio, rate))


def _tail_hushed(audio: bytes) -> bytes:
    """16 kHz `audio` with the frames after its last one within BREATH dB of its loudest made
    silence: a breath after the word is no phone of it. Silence stays silence."""
    import numpy as np

    samples = np.frombuffer(audio[: len(audio) // 2 * 2], dtype="<i2")
    frames = len(samples) // FRAME
    if not frames:
        return audio
    power = (samples[: frames * FRAME].astype(np.float64).reshape(frames, FRAME) ** 2).mean(axis=1)
    if not power.max():
        return audio
    last = int(np.flatnonzero(power >= power.max() * 10 ** (-BREATH / 10))[-1])
    hushed = samples.copy()
    hushed[(last + 1) * FRAME:] = 0
    tail_hushed: bytes = hushed.tobytes()
    return tail_hushed


def _at_16k(audio: bytes, rate: float) -> bytes:
    """16-bit mono `audio` resampled to 16 kHz by linear interpolation, what lies above PASS_HZ
    first faded out by `_low_passed` where `rate` is higher: a 48 kHz microphone's hiss and the
    top of its fricatives were folded into the speech (English answers in pink noise at 10 dB,
    recorded at 48 kHz: 53.5% heard right and 5.1% wrong that way, 57.1% and 3.5% this way;
    bench/resample_bench.py)."""
    if rate == RATE:
        return audio
    import numpy as np

    samples = np.frombuffer(audio[: len(audio) // 2 * 2], dtype="<i2").astype(np.float32)
    if not len(samples):
        return b""
    if rate > RATE:
        samples = np.clip(_low_passed(samples, rate), -32768, 32767).astype(np.float32)
    count = int(len(samples) * RATE / rate)
    at = np.arange(count) * (rate / RATE)
    at_16k: bytes = np.interp(at, np.arange(len(samples)), samples).astype("<i2").tobytes()
    return at_16k


def _low_passed(samples: Any, rate: float) -> Any:
    """`samples` at `rate` with the sound from PASS_HZ to STOP_HZ faded out and all above it
    removed (one FFT of a power-of-two length: the silence padded on is cut off again)."""
    import numpy as np

    size = 1 << (len(samples) - 1).bit_length()
    return np.fft.irfft(np.fft.rfft(samples, size) * _pass_band(size, rate), size)[: len(samples)]


@functools.lru_cache(maxsize=64)
def _pass_band(size: int, rate: float) -> Any:
    """The gain of each bin of a `size`-point FFT at `rate`: 1 up to PASS_HZ, 0 from STOP_HZ (half
    of RATE), falling linearly between."""
    import numpy as np

    return np.clip((STOP_HZ - np.fft.rfftfreq(size, 1 / rate)) / (STOP_HZ - PASS_HZ), 0.0, 1.0)


@functools.lru_cache(maxsize=1)
def load() -> SphinxModel:
    """The pocketsphinx model, loaded once per process."""
    return SphinxModel()
