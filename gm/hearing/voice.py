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
from collections.abc import Callable, Sequence

from gm.hearing.phrases import (Heard, Phrasebook, Vocabulary, alike, command_phrases, like_a_name, numbered,
                                other_phrases, question_phrases, unhearable)
from gm.hearing.keyboard import AnswersExhausted, KeyboardAsker
from gm.hearing.sources import Recording
from gm.ports import Answer, Asker, Clock, Command, Controls, How, Line, Question, Refused, Speaker, TurnKind
from gm.table.questions import CORRECTION, Count, Step, YesNo
from gm.files import printable
from gm.table.words import Words
from gm.text.lines import Voice

if TYPE_CHECKING:
    from gm.hearing.recognition import Model
    from gm.hearing.session import Listener, Session
    from gm.hearing.sources import Recording, Source
    from gm.hearing.replay import Utterances

T = TypeVar("T")

SLICE = 0.05  # clock seconds between looks at the keyboard while listening
LISTEN_SECONDS = 8.0  # how long (real seconds) one try by voice waits for an answer
CONFIRM_SECONDS = 4.0  # how long (real seconds) a read-back waits for "yes"
ANSWER_CONFIDENCE = 0.6
STEP_CONFIDENCE = 0.4  # a step's one answer ("done"): nothing to mix it up with, and the grammar's
# other phrases catch what else is said (bench/voice_nights_bench.py: 됐어요 heard 0.55–1.0, no
# other word or sentence heard as done at any confidence)
SURE_CONFIDENCE = 0.9  # every word heard at least this surely: taken without a read-back where the question allows
NAME_CONFIDENCE = SURE_CONFIDENCE
"""How surely an answer must hear a player's name (their seat number, which gm told the table to
say, is heard at ANSWER_CONFIDENCE, as the graveyard is). No grammar holds every name, so
the model (the Korean one has no [unk]) forces a name of someone not at the table onto the nearest
player's, and heard that way it is sure less often than a player's own name: on espeak-ng's names
of people not at the table (bench/listen_bench.py's players, seeds 9-12, none of the bench's own
names), names taken fell from 48 to 38 of 432 tries at 0.9 instead of ANSWER_CONFIDENCE, players'
names heard right from 78 to 75 of 180."""
COMMAND_CONFIDENCE = 0.8
TRIES = 2  # hearings of a question before the keyboard takes it (a "no" at its read-back is one)
CORRECTIONS = 2  # answers said instead of "yes" at one read-back, each read back; the next is typed
COUNT_TRIES = 3
"""Hearings of a count (`VoiceAsker._tries`). With two, 13 of 20 English nights finished by voice
(bench/voice_nights_bench.py --lang en, seeds 2126 and 3), with three 17: "one" said again
slower was heard unsure twice after a seated player's name. A try is one more chance for talk to
be taken: of counts asked of a table saying only other words, 14% took one with two tries, 20%
with three (bench/asking_bench.py), and the whole tally is still read back (HW-R4)."""


def phrasebook(question: Question[Any], model: Model, vocabulary: Vocabulary, spoken: Callable[[str], str],
               seats: Sequence[str] = ()) -> Phrasebook:
    """The phrases `model` can hear that answer `question` (`gm.hearing.phrases.question_phrases`),
    with every other phrase of the table as no answer (`other_phrases`) and the decoys of the
    kinds of answer it takes (`answer_kinds`: but a given name like a player's, which would take
    that player's name); a question with one answer (a step's "done") takes it heard less surely,
    and a player's name (not their seat number) only heard surely (NAME_CONFIDENCE).
    A player's seat number answers for them only where the table was told to say it
    (`gm.hearing.phrases.numbered`)."""
    phrases = question_phrases(question, vocabulary, spoken, seats, numbered(seats, model.hears, spoken))
    kinds = answer_kinds(question.answers, seats)
    confidence = STEP_CONFIDENCE if len(question.answers) == 1 else ANSWER_CONFIDENCE
    numbers = {p for key, forms in vocabulary.hear.items() if key.isdigit() for p in forms}
    by_name = frozenset(p for p, answer in phrases.items() if answer in seats and p not in numbers)
    names = vocabulary.kinds.get("player", ())
    kept = tuple(d for d in vocabulary.decoys_of(kinds)
                 if d not in names or not like_a_name(d, seats, spoken))
    return Phrasebook(phrases, confidence, model.unk, decoys=tuple(dict.fromkeys(kept + vocabulary.decoys)),
                      others=other_phrases(vocabulary, spoken, seats), kept=kept, names=by_name,
                      name_confidence=NAME_CONFIDENCE, context=question.prompt.text).only(model.hears)


def answer_kinds(answers: Sequence[str], seats: Sequence[str] = ()) -> tuple[str, ...]:
    """The kinds of answer (`gm.hearing.decoys.decoys_for`) among `answers`: "number" (a count),
    "player" (one of `seats`), "yes_no"."""
    kinds = {"number": any(a.isdigit() for a in answers), "player": bool(set(answers) & set(seats)),
             "yes_no": bool({"yes", "no"} & set(answers))}
    return tuple(kind for kind, taken in kinds.items() if taken)


class VoiceAsker:
    """Asks by voice with the keyboard racing it (first answer wins).

    A heard answer is taken as the question says (`Question.readback`): a count heard surely is
    taken as it is, and heard unsure it is asked again (never replaced by a value before it); a
    yes or no, a step's "done" and a read-back's own answers likewise. Other answers (a card, a
    player) are read back ("Aki: Werewolf. Right?") and only "yes", said alone and surely (or
    heard unsure twice in a row, or typed, or Enter), accepts one; "no" re-asks the question
    (one of its tries); one of the question's own answers heard instead is a correction, read
    back in its turn (CORRECTIONS of them; the next one goes to the keyboard); silence or an
    unclear reply reads back once more, and the next one goes to the keyboard. A typed valid
    answer is taken as it is. A timeout or an unclear answer re-asks (`_tries`: once, twice for
    a count, the last time for the answer alone, or as the question says: none once a vote has
    spent its tries); the next one falls back to the keyboard. So every question ends within a
    bounded number of hearings (tests/gm/night/test_every_night_ends.py). A question with a
    timeout and default listens until its deadline and then returns the default. A step that
    waits for "done" (the deal) takes
    silence and talk from a microphone as the table still at it: it listens on, saying nothing,
    until "done" (Enter) or something like it, which is asked again as any unsure answer.
    """

    def __init__(self, listener: Listener, keyboard: KeyboardAsker, speaker: Speaker, voice: Voice, clock: Clock,
                 vocabulary: Vocabulary | None = None, seats: Sequence[str] = (),
                 listen_seconds: float = LISTEN_SECONDS, confirm_seconds: float = CONFIRM_SECONDS,
                 count_tries: int = COUNT_TRIES) -> None:
        self.listener = listener
        self.keyboard = keyboard
        self.speaker = speaker
        self.voice = voice
        self.clock = clock
        self.vocabulary = vocabulary or Vocabulary.from_voice(voice)
        self.seats = tuple(seats)
        # people speak in real time: with a compressed clock (--time-scale) the windows keep
        # their real length
        self.listen_seconds = listen_seconds / clock.scale
        self.confirm_seconds = confirm_seconds / clock.scale
        self.count_tries = count_tries
        self._typing = keyboard.pollable
        self._replay = isinstance(listener.source, Recording)  # replayed utterance by utterance
        self.told_wake = False  # whether the wake phrase was explained (open_controls)
        self._yes_no_question = YesNo("confirm", Line("confirm", "", ""), voice, Words.of(voice), ("yes", "no"))
        self._yes_no = self._book(self._yes_no_question)

    # -- set-up ------------------------------------------------------------------------------
    def announce(self) -> None:
        """Say which players the model cannot hear (with their seat numbers) and which names
        sound too alike."""
        hears = self.listener.model.hears
        lost = unhearable(self.seats, hears, lambda n: (n, self.voice.spoken_word(n)))
        for seat, name in enumerate(self.seats, start=1):
            if name in lost:
                self.speaker.say(self.voice.line("listen.unhearable", name=name, n=seat))
        for a, b in alike([n for n in self.seats if n not in lost], self.voice.spoken_word):
            self.speaker.say(self.voice.line("listen.alike", a=a, b=b))

    def _book(self, question: Question[Any]) -> Phrasebook:
        return phrasebook(question, self.listener.model, self.vocabulary, self.voice.spoken_word, self.seats)

    # -- asking ------------------------------------------------------------------------------
    def ask(self, question: Question[T]) -> Answer[T]:
        """The answer, with every reply heard or typed and every line said on the way (`Answer.turns`)."""
        since = len(self.keyboard.turns)
        book = self._book(question)
        if not book.phrases or self.listener.source.ended:
            return self.keyboard.answered(self.keyboard.ask(question), since)
        if question.tries == 0:  # the vote has spent its tries by voice (gm.night.vote)
            return self.keyboard.answered(self._to_keyboard(question), since)
        self.keyboard.discard_typed_ahead()
        try:
            return self.keyboard.answered(self._ask(question, book), since)
        finally:
            self.keyboard.end_prompt()

    def _ask(self, question: Question[T], book: Phrasebook) -> Answer[T]:
        deadline = None if question.timeout is None else self.clock.now() + question.timeout
        # a step that goes on by itself shows its countdown at the prompt
        tick = (lambda left: self.keyboard.prompt(question, left)) if deadline is not None else None
        misses = 0
        tries = self._tries(question)
        guesses: list[T] = []
        fresh = True  # a window after a line said drops what came before it
        while True:
            reply = self._listen(book, self.listen_seconds, deadline, tick, fresh=fresh)
            fresh = True
            if isinstance(reply, str):
                typed = self.keyboard.take(reply, question)
                if typed is not None:
                    return typed
                continue
            heard = self._value(question, book, reply) if reply is not None else None
            if isinstance(heard, Refused):  # said surely, but the vote cannot have it: say why, ask again
                misses += 1
                self._speak(heard.line, TurnKind.REFUSED)
                if misses >= tries:
                    return self._to_keyboard(question)
                self._reask(question, misses, tries)
                continue
            if heard is not None:
                only = len(question.answers) == 1  # "done": nothing to mix it up with
                line = None if only else question.readback(heard.value, heard.sure)
                if line is None and (heard.sure or only):
                    return heard  # a count or a yes heard surely, "done" however heard
                if line is not None:
                    confirmed = self._confirm(question, heard, line, book)
                    if confirmed is not None:
                        return confirmed
                    misses += 1  # "no" at the read-back: a try spent, as an unclear answer is
                    if misses >= tries:
                        return self._to_keyboard(question)
                    self._say("listen.again")
                    self._speak(question.prompt, TurnKind.REASK)
                    continue
            if self.listener.source.ended:  # a WAV file has run out of answers
                return self.keyboard.ask(question)
            guess = self._unsure(question, book, reply)
            if deadline is not None:
                if self.clock.now() >= deadline or self._replay:  # a replay's window is its utterance
                    return Answer(question.default, How.DEFAULT)
                if guess is not None:  # heard unsure alike twice ("done" at a step that goes on by itself)
                    guesses.append(guess)
                    if len(guesses) >= 2 and all(g == guess for g in guesses):
                        return Answer(guess, How.VOICE, False)
                if reply is not None:
                    self._say("listen.not_understood")
                continue
            if guess is None and isinstance(question, Step) and not self._replay:
                fresh = False  # the deal takes longer than a window, and a table talks as it deals
                continue
            misses += 1
            if guess is not None:
                guesses.append(guess)
            if guess is not None and len(guesses) >= 2 and all(g == guess for g in guesses):
                return Answer(guess, How.VOICE, False)  # heard alike twice, each time unsure, and no other value
            if misses >= tries:
                if guess is not None and isinstance(question, Count) and all(g == guess for g in guesses):
                    return Answer(guess, How.VOICE, False)  # the last try's count: the tally confirms it (HW-R4)
                return self._to_keyboard(question)
            self._reask(question, misses, tries, "listen.not_understood" if reply is not None else "listen.again")

    def _value(self, question: Question[T], book: Phrasebook, heard: Heard) -> Answer[T] | Refused | None:
        """What `heard` answers, by the question's own parser, and whether every word was sure: one
        phrase of the book, or counts said one after another ("aki three ken one"). A reply the
        question refuses aloud (a total the vote cannot have) is that refusal."""
        token, sure = _token(question, book, heard)
        if token is None:
            return None
        value = question.parse(token)
        if isinstance(value, Refused):
            return value if value.aloud and sure else None
        return Answer(value, How.VOICE, sure)

    def _unsure(self, question: Question[T], book: Phrasebook, heard: Heard | None) -> T | None:
        """What `heard` would answer were it heard surely, for a count, a step or a yes or no
        (asked again when unsure, never read back); None for other questions or answers (a fix
        of the tally), a decoy or no answer. The same value heard unsure at two of the question's
        tries, and no other value at any, is taken: a second hearing of other audio agrees, and
        the whole tally is still confirmed (HW-R4); a "no" heard once breaks a pair of "yes". A count
        heard unsure at its last try, and no other count at the tries before, is taken too: the
        keyboard is what else there is, and the table still says yes to the whole tally. At
        the last count of an exact total (`Count.implied`) only what the total leaves is: any
        other count would be refused with the whole round."""
        if heard is None:
            return None
        token, _ = _token(question, book, _as_sure(heard))
        value = None if token is None else question.parse(token)
        if value is None or isinstance(value, Refused):
            return None
        if isinstance(question, Count):
            return value if question.implied is None or dict(value) == dict(question.default) else None
        return value if len(question.answers) == 1 or isinstance(value, bool) else None

    def _tries(self, question: Question[Any]) -> int:
        """How many times `question` is heard before the keyboard takes it: `count_tries` for a
        count, which the table answers once per candidate and whose whole tally is read back
        (HW-R4), so a count taken at its last hearing is still confirmed with the others; TRIES
        for the others."""
        if question.tries is not None:
            return question.tries
        return self.count_tries if isinstance(question, Count) else TRIES

    def _reask(self, question: Question[Any], misses: int, tries: int, key: str | None = None) -> None:
        """Ask `question` again after `misses` of its `tries`: a count's last try asks for the
        number alone ("Just the number, please."), as a game master does who has not caught it."""
        if isinstance(question, Count) and misses == tries - 1:
            key = "listen.number_please"
        if key is not None:
            self._say(key)
        self._speak(question.prompt, TurnKind.REASK)

    def _to_keyboard(self, question: Question[T]) -> Answer[T]:
        """The keyboard's answer, but for a count the vote's exact total leaves (HW-R4): said,
        and then confirmed with the whole tally."""
        if isinstance(question, Count) and question.implied is not None:
            self._speak(question.implied, TurnKind.REASK)
            return Answer(question.default, How.DEFAULT)
        self._say("listen.type_it")
        return self.keyboard.ask(question)

    def _confirm(self, question: Question[T], heard: Answer[T], line: Line,
                 book: Phrasebook) -> Answer[T] | None:
        """The answer once a "yes" confirms it (a typed answer counts as it is); None to ask
        again. The read-back's grammar holds the question's own phrases: one of them heard is a
        correction, read back in its turn (taken as it is where the question takes it so). A
        "yes" heard unsure at the read-back and again when it is read back once more confirms it,
        as a count heard alike twice is taken: flite's awb says "yes" so that the loop of free
        phones wins it every time (Y UH OW EH S), and a "no" heard once breaks the pair."""
        replies = self._yes_no.with_phrases(book.phrases)
        misses = 0
        corrections = 0
        unsure_yes = False
        while True:
            self._speak(line, TurnKind.READBACK)
            said = self._listen(replace(replies, context=line.text), self.confirm_seconds)
            if isinstance(said, str):
                return self._typed_reply(said, question, heard)
            reply = replies.match(said) if said is not None else None
            if reply == "yes":
                return Answer(heard.value, How.VOICE, True, confirmed=True)
            if reply == "no":
                return None
            if reply is not None:
                again = self._value(question, book, said) if said is not None else None
                if isinstance(again, Answer):  # the table said the answer (again): read it back
                    again_line = question.readback(again.value, again.sure)
                    if again_line is None:
                        return again if again.sure else None
                    corrections += 1
                    if corrections > CORRECTIONS:  # the table and gm do not agree: typed
                        return self._to_keyboard(question)
                    heard, line = again, again_line
                    continue
            misses += 1
            yes = said is not None and replies.match(_as_sure(said)) == "yes"
            if yes and unsure_yes:  # "yes" heard twice, each time unsure, and never anything else
                return Answer(heard.value, How.VOICE, True, confirmed=True)
            unsure_yes = yes and misses == 1
            if misses >= 2 or self.listener.source.ended:
                return self._to_keyboard(question)
            if said is not None:
                self._say("listen.not_understood")

    def _typed_reply(self, typed: str, question: Question[T], heard: Answer[T]) -> Answer[T] | None:
        """A line typed at a read-back: Enter or yes accepts the heard answer, an answer of the
        question replaces it; anything else (no) asks again."""
        if not self.keyboard.interactive:
            self.keyboard.echo(f"  > {printable(typed)}")
        self.keyboard.note(TurnKind.TYPED, printable(typed))
        if not typed.strip() or self._yes_no_question.parse(typed) is True:
            return Answer(heard.value, How.VOICE, True, confirmed=True)
        given = question.parse(typed)
        return None if isinstance(given, Refused) else Answer(given)

    def confirm_command(self, command: str) -> bool:
        """Whether a spoken "yes" confirms a voice command that cannot be undone ("vote now");
        the keyboard's own controls need no read-back."""
        since = len(self.keyboard.turns)  # no question is asked: nothing to keep
        line = self.voice.line(f"listen.confirm_{command}")
        self._speak(line, TurnKind.REASK)
        heard = self._listen(replace(self._yes_no, context=line.text), self.confirm_seconds, typing=False)
        del self.keyboard.turns[since:]
        return isinstance(heard, Heard) and self._yes_no.match(heard) == "yes"

    def _listen(self, book: Phrasebook, seconds: float, deadline: float | None = None,
                tick: Callable[[float], None] | None = None, typing: bool = True,
                fresh: bool = True) -> str | Heard | None:
        """A typed line, what was heard (`Heard`), or None for silence after `seconds` clock seconds
        (at the `deadline` instead, when there is one) or when a recording's utterance or the
        whole recording has run out; `tick(seconds left)` is called while waiting for the
        deadline. An utterance under way at the end is heard to its end (it was lost, and the
        question asked again over it). Lines are read only with `typing`. A window that is not
        `fresh` goes on from the last one (nothing was said between them): nothing is dropped."""
        self.speaker.flush()  # the window opens once the question or read-back has been said (typing waits)
        session = self.listener.session(book, fresh) if book.phrases else None
        until = self.clock.now() + seconds if deadline is None else deadline
        while not (session and session.done) and (self.clock.now() < until or (session and session.under_way)):
            if tick is not None:
                tick(max(0.0, until - self.clock.now()))
            typed = self._typed() if typing else None
            if typed is not None:
                return typed
            wait = min(SLICE, max(0.0, until - self.clock.now())) or SLICE  # past `until`: an utterance's end
            if session is None:  # nothing the model can hear: only the keyboard counts
                self.clock.sleep(wait)
                continue
            heard = session.step(wait)
            if heard is not None and heard.text:
                self.keyboard.echo("  " + self.voice.text("listen.heard", text=heard.text))
                self.keyboard.note(TurnKind.HEARD, heard.text, sure=heard.sure(SURE_CONFIDENCE))
                return heard
        return None

    def _typed(self) -> str | None:
        if not self._typing:
            return None
        try:
            return self.keyboard.read_line(0.0)
        except AnswersExhausted:
            self._typing = False
            return None

    def _say(self, key: str) -> None:
        self._speak(self.voice.line(key), TurnKind.REASK)

    def _speak(self, line: Line, kind: TurnKind) -> None:
        """Say `line`, kept as a turn of the question asked."""
        self.keyboard.note(kind, line.text, line.key)
        self.speaker.say(line)

    def close(self) -> None:
        self.listener.close()


class VoiceControls:
    """Voice commands during a timed phase: the wake phrase and exactly one command phrase
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


def _token(question: Question[Any], book: Phrasebook, heard: Heard) -> tuple[str | None, bool]:
    """The answer token `heard` names in `book` (counts said one after another are their tokens
    joined: "Aki=3 Ken=1"), and whether it was heard surely; at a count, only what answers the
    count asked (`answers_count`)."""
    token = book.match(heard)
    sure = False
    if token is not None:
        sure = _sure(heard, book, token)
    else:
        run = book.match_run(heard)
        if run is not None:
            token, sure = " ".join(run), heard.sure(SURE_CONFIDENCE)
    if token is None or (isinstance(question, Count) and not answers_count(question, token)):
        return None, False
    return token, sure


def answers_count(question: Count, token: str) -> bool:
    """Whether a token heard at `question` answers it: a number, or the tally by name in one
    breath ("Aki three, Ken one": two counts or more, one of them the candidate asked). A name
    with a number alone ("Noah zero", as pocketsphinx heard "one vote") is no answer at a count:
    it pairs a name with a count by accident as often as it is said, and a fix is asked for only
    where the whole tally is read back (`gm.table.questions.Tally`, HW-R4). Typed, a count takes
    it as it is (`Count.read`)."""
    fixes = token.split(CORRECTION)[1:]  # one per count set by name
    if not fixes:
        return True
    asked = f"{question.candidate}{CORRECTION}"
    return len(fixes) >= 2 and (token.startswith(asked) or f" {asked}" in token)


def _as_sure(heard: Heard) -> Heard:
    """`heard` as if every word had been heard surely."""
    return Heard(heard.text, tuple((w, 1.0) for w, _ in heard.words))


def _sure(heard: Heard, book: Phrasebook, token: str) -> bool:
    """Whether `heard` says `token` surely: every word at SURE_CONFIDENCE, or the words heard so
    surely say it alone (영 표 with 표 unsure is still 영, 0)."""
    if heard.sure(SURE_CONFIDENCE):
        return True
    kept = tuple((w, c) for w, c in heard.words if c >= SURE_CONFIDENCE)
    return bool(kept) and book.match(Heard(" ".join(w for w, _ in kept), kept)) == token


def _command(answer: str | None) -> Command | None:
    """The command a matched command phrase names (the command book's answers are commands)."""
    return None if answer is None else Command(answer)


def _starts_with(text: str, wakes: Sequence[str]) -> bool:
    return any(text == wake or text.startswith(f"{wake} ") for wake in wakes)


# -- the factory -------------------------------------------------------------------------------
def open_asker(listen: str, clock: Clock, speaker: Speaker, voice: Voice, model_path: str | None = None,
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
        load = model_loader(model_path, voice.lang, listener, fallback=lambda missing: note(
            "gm: " + voice.text("listen.reason.whisper_fallback", **missing.fields)))  # a missing model: said at once
        source = recording or MicSource(clock, EchoGate(speaker), device=device, trouble=lambda problem: note(
            "gm: " + voice.text("listen.trouble", reason=voice.text(f"listen.reason.{problem}"))))
    except (NoModel, NoAudio) as error:
        note("gm: " + voice.text("listen.not_listening", reason=reason(error, voice)))
        return keyboard

    def listening(model: Model) -> Asker:
        return _listening_asker(model, source, keyboard, speaker, voice, clock, players, note)

    def typing(error: Exception) -> Asker:
        source.close()
        note("gm: " + voice.text("listen.not_listening", reason=reason(error, voice)))
        return keyboard

    if background:
        return PendingAsker(load, listening, typing, NoModel, discard=source.close)
    try:
        model = load()
    except NoModel as error:
        return typing(error)
    return listening(model)


def _listening_asker(model: Model, source: Source | Recording, keyboard: KeyboardAsker, speaker: Speaker,
                     voice: Voice, clock: Clock, players: Sequence[str], note: Callable[[str], None]) -> VoiceAsker:
    """The VoiceAsker over a loaded model, having said what the model cannot hear (and that
    utterances are found by loudness alone, without the voice-activity detector)."""
    from gm.hearing.cannot_listen import reason, say_unseeded
    from gm.hearing.session import Listener
    from gm.hearing.vad import unavailable

    asker = VoiceAsker(Listener(model, source), keyboard, speaker, voice, clock, seats=players)
    vocabulary = asker.vocabulary
    deaf = unhearable(vocabulary.hear, model.hears, vocabulary.phrases)
    if deaf:
        words = [(vocabulary.phrases(answer) or (answer,))[0] for answer in deaf]
        note("gm: " + voice.text("listen.deaf", words=words))
    missing = unavailable()
    if missing is not None:
        note("gm: " + voice.text("listen.trouble", reason=reason(missing, voice)))
    say_unseeded(model, voice, note)
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
    if not isinstance(asker, VoiceAsker):
        return fallback
    controls = VoiceControls(asker.listener, asker.vocabulary, clock, asker.confirm_command, fallback)
    if not controls.book.phrases:  # the model cannot hear the wake phrase or any command
        return fallback
    if not asker.told_wake:
        asker.told_wake = True
        asker.speaker.say(asker.voice.line("listen.wake_help"))
    return controls


def _stderr(text: str) -> None:
    print(printable(text), file=sys.stderr, flush=True)
