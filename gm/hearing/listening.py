"""The game master listens: spoken answers (ask → hear → confirm) and voice commands, always
racing the keyboard. `open_asker` / `open_controls` build them for a night.

Voice commands map to `Controls` commands: "pause", "resume", "end" (vote now), "repeat", and
"add_minute" (one more minute; the keyboard's "add" adds 30 seconds).
"""

from __future__ import annotations

import sys
import threading
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TextIO, TypeVar
from collections.abc import Callable, Mapping, Sequence

from gm.hearing.phrases import (Heard, Phrasebook, alike, command_phrases, like_a_name, numbered,
                                other_phrases, said_as_phrases, slot_phrases, unhearable)
from gm.hearing.asking import CONFIRM_SECONDS, LISTEN_SECONDS, SLICE, Asking, Channels, Listening, Policies
from gm.hearing.asking import (CORRECTIONS as CORRECTIONS, COUNT_TRIES as COUNT_TRIES,  # the listener's numbers,
                               SURE_CONFIDENCE as SURE_CONFIDENCE, SURE_YES as SURE_YES,  # named where it is made
                               TRIES as TRIES)
from gm.hearing.keyboard import AnswersExhausted, KeyboardAsker
from gm.hearing.sources import Recording
from gm.ports import Answer, Asker, Clock, Command, Controls, Kind, Question, Slot, Speaker, TurnKind
from gm.files import printable
from gm.text.words import Words
from gm.text.lines import Pack
from gm.text.vocabulary import Vocabulary

if TYPE_CHECKING:
    from gm.hearing.recognition import Model
    from gm.hearing.session import Listener, Session
    from gm.hearing.sources import Recording, Source
    from gm.hearing.replay import Utterances

T = TypeVar("T")

ANSWER_CONFIDENCE = 0.6
STEP_CONFIDENCE = 0.4  # a step's one answer ("done"): nothing to mix it up with, and the grammar's
# other phrases catch what else is said (bench/voice_nights_bench.py: 됐어요 heard 0.55–1.0, no
# other word or sentence heard as done at any confidence)
READ_BACK_CONFIDENCE = 0.5
"""How surely an answer that is always read back for a yes (a hand, a card, the holder of a card:
`Policy.read_back`) must be heard to be read back. The table's "werewolf and seer" was heard so
at 0.6 and 0.59 of the share (an English night in pink noise, a Japanese one in a clean room:
bench/table_nights_bench.py), "the graveyard" for a card's holder at 0.57 (pink noise), under
ANSWER_CONFIDENCE: not read back, asked again and then typed, though the yes would have settled it."""
NAME_CONFIDENCE = SURE_CONFIDENCE
"""How surely an answer must hear a player's name (their seat number, which gm told the table to
say, is heard at ANSWER_CONFIDENCE, as the graveyard is). No grammar holds every name, so
the model (the Korean one has no [unk]) forces a name of someone not at the table onto the nearest
player's, and heard that way it is sure less often than a player's own name: on espeak-ng's names
of people not at the table (bench/listen_bench.py's players, seeds 9-12, none of the bench's own
names), names taken fell from 48 to 38 of 432 tries at 0.9 instead of ANSWER_CONFIDENCE, players'
names heard right from 78 to 75 of 180."""
COMMAND_CONFIDENCE = 0.8


def phrasebook(question: Question[Any], model: Model, vocabulary: Vocabulary, spoken: Callable[[str], str],
               seats: Sequence[str] = ()) -> Phrasebook:
    """The phrases `model` can hear that answer `question` (`slots_book` of its slots)."""
    floor = READ_BACK_CONFIDENCE if question.policy.read_back else None
    return slots_book(question.slots, question.label, question.prompt.text, model, vocabulary, spoken, seats, floor)


def slots_book(slots: Sequence[Slot[Any]], label: Callable[[str], str], context: str, model: Model,
               vocabulary: Vocabulary, spoken: Callable[[str], str], seats: Sequence[str] = (),
               floor: float | None = None) -> Phrasebook:
    """The phrases `model` can hear that say one of `slots` (`gm.hearing.phrases.slot_phrases`),
    with every other phrase of the table as no answer (`other_phrases`) and the decoys of the
    kinds of answer it takes (`answer_kinds`: but a given name like a player's, which would take
    that player's name); a question with one answer (a step's "done") takes it heard less surely,
    as does one whose answers are all read back (`floor`), and a player's name (not their seat
    number) only heard surely (NAME_CONFIDENCE).
    A player's seat number answers for them only where the table was told to say it
    (`gm.hearing.phrases.numbered`); `context` is what gm has just said (the question)."""
    phrases = slot_phrases(slots, label, vocabulary, spoken, seats, numbered(seats, model.hears, spoken))
    kinds = answer_kinds(slots, seats)
    confidence = STEP_CONFIDENCE if len(slots) == 1 else floor if floor is not None else ANSWER_CONFIDENCE
    by_name = _by_name(phrases, vocabulary, seats)
    kept = _kept_decoys(vocabulary, kinds, seats, spoken)
    return Phrasebook(phrases, confidence, model.unk, decoys=tuple(dict.fromkeys(kept + vocabulary.decoys)),
                      others=other_phrases(vocabulary, spoken, seats), kept=kept, names=by_name,
                      name_confidence=NAME_CONFIDENCE, context=context,
                      twice=frozenset(said_as_phrases(slots, vocabulary)) & frozenset(phrases)).only(model.hears)


def _by_name(phrases: Mapping[str, str], vocabulary: Vocabulary, seats: Sequence[str]) -> frozenset[str]:
    """The phrases that name a player by name (not by their seat number)."""
    numbers = {p for key, forms in vocabulary.hear.items() if key.isdigit() for p in forms}
    return frozenset(p for p, answer in phrases.items() if answer in seats and p not in numbers)


def _kept_decoys(vocabulary: Vocabulary, kinds: Sequence[str], seats: Sequence[str],
                 spoken: Callable[[str], str]) -> tuple[str, ...]:
    """The decoys of `kinds` of answer, but a given name like a player's (it would take theirs)."""
    names = vocabulary.kinds.get("player", ())
    return tuple(d for d in vocabulary.decoys_of(kinds) if d not in names or not like_a_name(d, seats, spoken))


def answer_kinds(slots: Sequence[Slot[Any]], seats: Sequence[str] = ()) -> tuple[str, ...]:
    """The kinds of answer (`gm.text.decoys.decoys_for`) among `slots`: "number" (a count),
    "player" (one of `seats`), "yes_no"."""
    kinds = {"number": any(s.kind == Kind.NUMBER for s in slots),
             "player": any(s.token in seats for s in slots),
             "yes_no": any(s.kind == Kind.YES_NO for s in slots)}
    return tuple(kind for kind, taken in kinds.items() if taken)


YES_NO: tuple[Slot[bool], ...] = (Slot("yes", Kind.YES_NO, True), Slot("no", Kind.YES_NO, False))
"""The answers of a read-back."""


class ListeningAsker:
    """Asks by voice with the keyboard racing it (first answer wins): each question is one
    `gm.hearing.asking.Asking` (listen → judge → confirm / ask again / keyboard) over its own
    listening session, whose turn log goes back with the answer (`Answer.turns`). So every
    question ends within a bounded number of hearings (tests/gm/night/test_every_night_ends.py)."""

    def __init__(self, listener: Listener, keyboard: KeyboardAsker, speaker: Speaker, pack: Pack, clock: Clock,
                 vocabulary: Vocabulary | None = None, seats: Sequence[str] = (),
                 listen_seconds: float = LISTEN_SECONDS, confirm_seconds: float = CONFIRM_SECONDS,
                 count_tries: int = COUNT_TRIES) -> None:
        self.listener = listener
        self.keyboard = keyboard
        self.speaker = speaker
        self.pack = pack
        self.clock = clock
        self.vocabulary = vocabulary or Vocabulary.from_pack(pack)
        self.seats = tuple(seats)
        # people speak in real time: with a compressed clock (--time-scale) the windows keep
        # their real length
        self.policies = Policies(listen_seconds / clock.scale, confirm_seconds / clock.scale, count_tries=count_tries)
        self.channels = Channels(listener, keyboard, speaker, pack, clock, typing=keyboard.pollable,
                                 replay=isinstance(listener.source, Recording))  # replayed utterance by utterance
        self.told_wake = False  # whether the wake phrase was explained (open_controls)
        words = Words.of(pack)
        self._yes, self._either = words.yes, words.yes | words.no
        self._yes_no = slots_book(YES_NO, str, "", listener.model, self.vocabulary, pack.spoken_word, self.seats)

    # -- set-up ------------------------------------------------------------------------------
    def announce(self) -> None:
        """Say which players the model cannot hear (with their seat numbers) and which names
        sound too alike."""
        hears = self.listener.model.hears
        lost = unhearable(self.seats, hears, lambda n: (n, self.pack.spoken_word(n)))
        for seat, name in enumerate(self.seats, start=1):
            if name in lost:
                self.speaker.say(self.pack.line("listen.unhearable", name=name, n=seat))
        for a, b in alike([n for n in self.seats if n not in lost], self.pack.spoken_word):
            self.speaker.say(self.pack.line("listen.alike", a=a, b=b))

    def _book(self, question: Question[Any]) -> Phrasebook:
        return phrasebook(question, self.listener.model, self.vocabulary, self.pack.spoken_word, self.seats)

    # -- asking ------------------------------------------------------------------------------
    def ask(self, question: Question[T]) -> Answer[T]:
        """The answer, with every reply heard or typed and every line said on the way (`Answer.turns`)."""
        session = Listening(self.channels)
        book = self._book(question)
        if not book.phrases or self.listener.source.ended:
            return session.log.answered(self.keyboard.answer(question, session.log))
        asking = Asking(question, book, session, self.policies, self._yes_no, self._yes, books=self._book,
                        either=self._either)
        if question.policy.tries == 0:  # the vote has spent its tries by voice (gm.night.vote)
            return session.log.answered(asking.keyboard())
        self.keyboard.discard_typed_ahead()
        try:
            return session.log.answered(asking.run())
        except AnswersExhausted as ended:  # the turns before it go into the night log all the same
            ended.turns = tuple(session.log.turns)
            raise
        finally:
            self.keyboard.end_prompt()

    def confirm_command(self, command: str) -> bool:
        """Whether a spoken "yes" confirms a voice command that cannot be undone ("vote now");
        the keyboard's own controls need no read-back. No question is asked: its session's turns
        are let go of."""
        session = Listening(self.channels)
        line = self.pack.line(f"listen.confirm_{command}")
        session.speak(line, TurnKind.REASK)
        heard = session.listen(replace(self._yes_no, context=line.text), self.policies.confirm_seconds, typing=False)
        return isinstance(heard, Heard) and self._yes_no.match(heard) == "yes"

    def close(self) -> None:
        self.listener.close()


class SpokenControls:
    """Spoken commands during a timed phase: the wake phrase and exactly one command phrase
    ("game master, pause"), every word heard with at least `min_confidence`; anything else in
    the utterance makes it no command. Pause, resume, repeat and one more minute act at once
    (another command undoes each); "vote now" ends the discussion, so it needs a "yes" first
    (`confirm`). Keyboard `fallback` controls race it. From a recording, only an utterance heard
    as starting with the wake phrase is taken; any other is left for the next question."""

    def __init__(self, listener: Listener, vocabulary: Vocabulary, clock: Clock, confirm: Callable[[str], bool],
                 fallback: Controls | None = None, min_confidence: float = COMMAND_CONFIDENCE) -> None:
        model = listener.model
        self.book = Phrasebook(command_phrases(vocabulary), min_confidence, model.unk,
                               decoys=vocabulary.decoys, others=other_phrases(vocabulary)).only(model.hears)
        self.wakes = tuple(vocabulary.phrases("wake"))
        self.listener = listener
        self.clock = clock
        self.confirm = confirm
        self.fallback = fallback
        self._session: Session | None = None

    def release(self) -> None:
        """Give the terminal back (the keyboard controls' raw mode)."""
        if self.fallback is not None:
            self.fallback.release()

    def poll(self, timeout: float) -> Command | None:
        until = self.clock.now() + timeout
        while True:
            left = max(0.0, until - self.clock.now())
            if self.fallback is not None:
                command = self.fallback.poll(min(SLICE, left))
                if command is not None:
                    return command
            command = self._hear(0.0 if self.fallback is not None else min(SLICE, left))
            if command == Command.END and not self.confirm(command):
                command = None
            if command is not None:
                return command
            if self.clock.now() >= until:
                return None

    def _hear(self, wait: float) -> Command | None:
        if isinstance(self.listener.source, Recording):
            heard = self.listener.peek(self.book)
            if heard is None or not _starts_with(heard.text, self.wakes):
                self.clock.sleep(wait)
                return None  # not said to the game master: left for the next question
            self.listener.source.skip()
            return _command(self.book.match(heard))
        if self._session is None or self._session.done:
            if self._session is not None:  # a WAV file has run out: nothing more to hear
                self.clock.sleep(wait)
                return None
            self._session = self.listener.session(self.book)
        heard = self._session.step(wait)
        command = _command(self.book.match(heard)) if heard is not None else None
        if command == Command.END:
            self._session = None  # the read-back listens on its own; then listen afresh
        return command


def _command(answer: str | None) -> Command | None:
    """The command a matched command phrase names (the command book's answers are commands)."""
    return None if answer is None else Command(answer)


def _starts_with(text: str, wakes: Sequence[str]) -> bool:
    return any(text == wake or text.startswith(f"{wake} ") for wake in wakes)


# -- the factory -------------------------------------------------------------------------------
def open_asker(listen: str, clock: Clock, speaker: Speaker, pack: Pack, model_path: str | None = None,
               stream: TextIO | None = None, players: Sequence[str] = (),
               note: Callable[[str], None] | None = None, background: bool = False,
               recording: Utterances | None = None, listener: str | None = None,
               device: int | str | None = None) -> Asker:
    """The asker for a night. `listen` is "off" (keyboard only), "on" (the microphone) or the
    path of a WAV file (--listen-from); `listener` names the recogniser (`gm.hearing.model_loading`,
    the language's default when None). Falls back to the keyboard, with one note on stderr,
    when vosk, the speech model, PortAudio or an input device is missing. `players` in seating
    order give seat numbers for names the model cannot hear. With `background`, the model loads
    while the night's first lines are spoken (a `PendingAsker`). A `recording` already read from
    the WAV file (so that a bad file is refused before anything opens) is used as it is. `device`
    is the microphone's input device (index or name; None: the system's default)."""
    keyboard = KeyboardAsker(clock, stream, say=None if speaker is None else speaker.say)
    if listen == "off":
        return keyboard
    note = note or _stderr
    from gm.hearing.cannot_listen import NoAudio, NoModel, reason
    from gm.hearing.microphone import EchoGate, MicSource
    from gm.hearing.model_loading import model_loader
    from gm.hearing.replay import Utterances

    if recording is None and listen != "on":
        recording = Utterances.from_wav(listen, clock)  # a bad file is bad input
    try:
        load = model_loader(model_path, pack.lang, listener, fallback=lambda missing: note(
            "gm: " + pack.text("listen.reason.whisper_fallback", **missing.fields)))  # a missing model: said at once
        source = recording or MicSource(clock, EchoGate(speaker), device=device, trouble=lambda problem: note(
            "gm: " + pack.text("listen.trouble", reason=pack.text(f"listen.reason.{problem}"))))
    except (NoModel, NoAudio) as error:
        note("gm: " + pack.text("listen.not_listening", reason=reason(error, pack)))
        return keyboard

    def listening(model: Model) -> Asker:
        return _listening_asker(model, source, keyboard, speaker, pack, clock, players, note)

    def typing(error: Exception) -> Asker:
        source.close()
        note("gm: " + pack.text("listen.not_listening", reason=reason(error, pack)))
        return keyboard

    if background:
        return PendingAsker(load, listening, typing, NoModel, discard=source.close)
    try:
        model = load()
    except NoModel as error:
        return typing(error)
    return listening(model)


def _listening_asker(model: Model, source: Source | Recording, keyboard: KeyboardAsker, speaker: Speaker,
                     pack: Pack, clock: Clock, players: Sequence[str], note: Callable[[str], None]) -> ListeningAsker:
    """The ListeningAsker over a loaded model, having said what the model cannot hear (and that
    utterances are found by loudness alone, without the voice-activity detector)."""
    from gm.hearing.cannot_listen import reason, say_unseeded
    from gm.hearing.session import Listener
    from gm.hearing.vad import unavailable

    asker = ListeningAsker(Listener(model, source), keyboard, speaker, pack, clock, seats=players)
    vocabulary = asker.vocabulary
    deaf = unhearable(vocabulary.hear, model.hears, vocabulary.phrases)
    if deaf:
        words = [(vocabulary.phrases(answer) or (answer,))[0] for answer in deaf]
        note("gm: " + pack.text("listen.deaf", words=words))
    missing = unavailable()
    if missing is not None:
        note("gm: " + pack.text("listen.trouble", reason=reason(missing, pack)))
    say_unseeded(model, pack, note)
    asker.announce()
    return asker


class PendingAsker:
    """A night's asker while its speech model loads on another thread (vosk's loading releases
    the interpreter, so the first lines are spoken meanwhile). The first question waits only
    if the model is still loading; then the listening asker is built (`listening(model)`), or,
    when the model fails to load with `failure`, the keyboard takes over (`typing(error)`). A
    night closed before its first question does not wait for the model: `discard()` releases
    the audio source."""

    def __init__(self, load: Callable[[], object], listening: Callable[[Any], Asker],
                 typing: Callable[[Exception], Asker], failure: type[Exception],
                 discard: Callable[[], None] = lambda: None) -> None:
        self._listening = listening
        self._typing = typing
        self._failure = failure
        self._discard = discard
        self._outcome: list[tuple[str, Any]] = []
        self._asker: Asker | None = None
        self._thread = threading.Thread(target=self._load, args=(load,), name="gm-model-load", daemon=True)
        self._thread.start()

    def _load(self, load: Callable[[], object]) -> None:
        try:
            self._outcome.append(("model", load()))
        except BaseException as error:  # handed to the night's thread, which raises or falls back
            self._outcome.append(("error", error))

    def ready(self) -> Asker:
        """The asker to use, once the model has loaded (waiting for it if need be)."""
        if self._asker is None:
            self._thread.join()
            kind, value = self._outcome[0]
            if kind == "model":
                self._asker = self._listening(value)
            elif isinstance(value, self._failure):
                self._asker = self._typing(value)
            else:
                raise value
        return self._asker

    def ask(self, question: Question[T]) -> Answer[T]:
        return self.ready().ask(question)

    def close(self) -> None:
        if self._asker is None:
            self._discard()
        else:
            self._asker.close()


class PendingControls:
    """Voice commands for a `PendingAsker`, decided at the first poll (in the discussion, long
    after the first question) by `open_controls` on the asker it became."""

    def __init__(self, asker: PendingAsker, clock: Clock, fallback: Controls | None) -> None:
        self._asker = asker
        self._clock = clock
        self._fallback = fallback
        self._controls: Controls | None = None
        self._resolved = False

    def poll(self, timeout: float) -> Command | None:
        if not self._resolved:
            self._controls = open_controls(self._asker.ready(), self._clock, self._fallback)
            self._resolved = True
        if self._controls is None:
            self._clock.sleep(timeout)
            return None
        return self._controls.poll(timeout)

    def release(self) -> None:
        controls = self._controls if self._resolved else self._fallback
        if controls is not None:
            controls.release()


def open_controls(asker: Asker, clock: Clock, fallback: Controls | None = None) -> Controls | None:
    """Voice commands sharing a listening asker's microphone (or file), raced by the keyboard's
    `fallback` controls; just `fallback` when the asker does not listen."""
    if isinstance(asker, PendingAsker):
        return PendingControls(asker, clock, fallback)
    if not isinstance(asker, ListeningAsker):
        return fallback
    controls = SpokenControls(asker.listener, asker.vocabulary, clock, asker.confirm_command, fallback)
    if not controls.book.phrases:  # the model cannot hear the wake phrase or any command
        return fallback
    if not asker.told_wake:
        asker.told_wake = True
        asker.speaker.say(asker.pack.line("listen.wake_help"))
    return controls


def _stderr(text: str) -> None:
    print(printable(text), file=sys.stderr, flush=True)
