"""One question asked by voice, as a small state machine, with the keyboard racing it:

    listen ─► judge ─┬─► taken: a count or a yes heard surely, a step's "done", a typed answer
                     ├─► confirm (`Confirming`): read back ─► yes: taken · no: ask again
                     ├─► ask the rest: a part of an answer heard alone (one card of a hand)
                     ├─► ask again: a try spent (`Policies.tries_for`), the question said again
                     ├─► keyboard: the tries spent (or what an exact total implies, said; the
                     │   likeliest answer under a read-back's floor, read back; a count put off)
                     └─► listen on: a step waiting through talk, a timed step until its deadline

Each state is one method of `Asking`; the rules that choose between them are named methods and
`Policies`. The question's listening session (`Listening`) opens the windows, says the lines
and owns the turn log (`gm.hearing.turns.TurnLog`) that goes back with the answer."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from collections.abc import Callable, Mapping, Sequence

from gm.files import printable
from gm.hearing.keyboard import AnswersExhausted
from gm.hearing.phrases import Heard, Phrasebook
from gm.hearing.turns import TurnLog
from gm.ports import Answer, Clock, How, Kind, Line, Policy, PutOff, Question, Refused, Slot, Speaker, TurnKind
from gm.text.words import fold, words_of

YES, NO = "yes", "no"  # the answer ids of yes and no in the packs' [listen.hear]
YES_OR_NO = "listen.yes_or_no"
"""What gm asks when it heard a reply that may be yes or no (`Asking.unsure_yes_or_no`: a yes
heard unsure, "right" after "… Right?", うん): the question is not said again, the table says yes or no."""
DONE_YET = "listen.done_yet"
"""What gm asks when a step that waits (the deal) hears a yes (`Asking.done_yet`)."""
DONE_ASKS = 3
"""Times a step that waits asks DONE_YET unanswered before the keyboard takes its "done". Told
"Say 完了 when dealt." in a room of chatter 5 dB below the table's speech, with reverb, a table said
完了, 終わった, できた or 終わり every 20 s, and Whisper wrote each as はい (34 and 44 times:
bench/table_nights_bench.py --lang ja --seed 4817, nights 4 and 9; 3 to 34 times in each such night
of seeds 4814–4816): the deal listened on, saying nothing, until the bench stopped it after 15 minutes. In
that room, Open JTalk's and Kokoro's 完了 and 終わった were heard as はい 27 times in 28, at 0.42–0.88:
Whisper's likeliest reply to a request where it hears nothing clearly."""
NAME_AS_NO = 60.0
"""rapidfuzz ratio from which the asked player's name heard at its count is "no" (`Asking.sounds_like_no`):
noah, nora, noel and noa are (67–86); ken, nina, mona, anna, zoe, diego and olga are not (≤ 57)."""

if TYPE_CHECKING:
    from gm.hearing.keyboard import KeyboardAsker
    from gm.hearing.session import Listener, Session
    from gm.text.lines import Pack

T = TypeVar("T")

SLICE = 0.05  # clock seconds between looks at the keyboard while listening
LISTEN_SECONDS = 8.0  # how long (real seconds) one try by voice waits for an answer
CONFIRM_SECONDS = 4.0  # how long (real seconds) a read-back waits for "yes"
SURE_CONFIDENCE = 0.9  # every word heard at least this surely: taken without a read-back where the question allows
SURE_YES = 0.95
"""How surely a yes must be heard to confirm what was heard unsure (`Confirming.surely`, a doubted
tally's `Policy.surely`), unless two yeses in a row are each heard at SURE_CONFIDENCE
(`pairs`). In a room of chatter 5 dB below the table's speech Whisper heard the table's
no to a read-back as a yes at 0.898 (a hand), 0.901 (a tally holding a count heard unsure) and
0.916 (another night?), and each was taken at 0.9 (bench/table_nights_bench.py --seed 5018, night
14). Of 180 noes ("no", "nah", "nope") said to a tally in five rooms and heard on fresh
draws (bench/noisy_answers_bench.py --listeners whisper --kinds readback --seed 6301 to 6312), 3
were heard as a yes at 0.9 or more, 1 at 0.95 ("nah" at 0.959, in a quiet room); of the yeses
heard as a yes, 80% were heard at 0.95 (87% at 0.9): the others are asked "Yes or no, please?".
With a yes at 0.95 alone, a table's "yes", "yes", "yes" to "The graveyard. Is that right?" heard
at 0.80, 0.93 and 0.94 in a room of chatter went to the keyboard (--seed 5019, night 8)."""
TRIES = 2  # hearings of a question before the keyboard takes it (a "no" at its read-back is one)
CORRECTIONS = 2  # answers said instead of "yes" at one read-back, each read back; the next is typed
READBACKS = 3
"""Replies a read-back hears: met by silence or an unclear reply it is said again, and after the last
the keyboard takes the answer. With two, pocketsphinx heard flite's "yes" over a fan's hiss unsure
and then as the card "death" (one in four, one in ten: tests/gm/night/test_virtual_table.py went to
the keyboard at the Traitor's holder), as the tally's read-back had (`Policies.tries_for`)."""
COUNT_TRIES = 3
"""Hearings of a count (`Policies.tries_for`). With two, 13 of 20 English nights finished by voice
(bench/voice_nights_bench.py --lang en, seeds 2126 and 3), with three 17: "one" said again
slower was heard unsure twice after a seated player's name. A try is one more chance for talk to
be taken: of counts asked of a table saying only other words, 14% took one with two tries, 20%
with three (bench/asking_bench.py), and the whole tally is still read back (HW-R4)."""
LEAD_FLOOR, LEAD = 0.6, 0.2
"""At a count's last try, counts heard unsure that disagree: the one heard at LEAD_FLOOR or more
and LEAD above every other is taken (`Asking.clear_lead`), the whole tally still read back for a
yes (HW-R4). In the kept English nights of bench/table_nights_bench.py (seeds 5009–5014), 18
counts went to the keyboard after two counts heard unsure; the lead took 7 of them, the one said
at 6 (Whisper heard "two", "three" as two at 0.70, three at 0.45), and the keyboard the other 11.
A lead of 0.14 would have taken "one" at 0.89 over "two votes" at 0.75 where "nobody" was said. On
nights nobody had drawn (seed 5015) it took one count, the one said; of 120 counts asked of fresh
renders of answers and non-answers (bench/asking_bench.py --listener whisper --recipe 3762), none."""
LIKELIEST_FLOOR = 0.3
"""At the last try of a question whose every answer is read back (a hand, a card's holder:
`Policy.read_back`), the answer heard most surely under the read-back's own floor, if at this or
more, is read back for a yes heard surely (`Asking.likeliest`) before the keyboard takes it, as a
game master who half caught it asks "The graveyard?". Whisper heard a Japanese table's 墓地 for a
card's holder at 0.44, under the 0.5 a read-back needs, at every try, and the keyboard took it
(bench/table_nights_bench.py --lang ja --seed 4813); the wrong hands it heard in a room of chatter
5 dB below the table's speech came at 0.25–0.32 (seed 5015) and 0.45 (seed 5018)."""


@dataclass(frozen=True)
class Policies:
    """The listener's own numbers: how long a window waits (clock seconds), how many tries a
    question has, how many corrections and unclear replies a read-back takes."""

    listen_seconds: float = LISTEN_SECONDS
    confirm_seconds: float = CONFIRM_SECONDS
    tries: int = TRIES
    count_tries: int = COUNT_TRIES
    corrections: int = CORRECTIONS
    readbacks: int = READBACKS

    def tries_for(self, policy: Policy) -> int:
        """How many times a question is heard before the keyboard takes it: as it says, else
        `count_tries` for a count, which the table answers once per candidate and whose whole
        tally is read back (HW-R4), so a count taken at its last hearing is still confirmed with
        the others, and for that read-back: its "yes" ends the vote, and pocketsphinx heard
        flite's "yes" over a fan's hiss unsure one time in four, and as the card "death" one in
        ten (tests/gm/night/test_virtual_table.py went to the keyboard on that pair); likewise for
        a question whose every answer is read back (`Policy.read_back`), where talk heard as an
        answer is not taken without a yes: Whisper heard the table's "yep" to "The graveyard. Is
        that right?" as "no" after a try lost to "the medium" (bench/table_nights_bench.py --seed
        5004, night 11); `tries` for the others."""
        if policy.tries is not None:
            return policy.tries
        return self.count_tries if policy.count is not None or policy.tally or policy.read_back else self.tries


@dataclass
class Channels:
    """What every question asked by voice goes through: the listener, the keyboard racing it
    (`typing`: while lines can still be read), the speaker and the clock; a replayed recording
    (`replay`) gives each window one utterance."""

    listener: Listener
    keyboard: KeyboardAsker
    speaker: Speaker
    pack: Pack
    clock: Clock
    typing: bool
    replay: bool

    def typed(self) -> str | None:
        """A line typed by now, if any (the keyboard stops being looked at once its input ends)."""
        if not self.typing:
            return None
        try:
            return self.keyboard.read_line(0.0)
        except AnswersExhausted:
            self.typing = False
            return None


class Listening:
    """The listening session of one question: its windows on the listener raced by the
    keyboard, the lines it says, and its turn log (`log`)."""

    def __init__(self, channels: Channels) -> None:
        self.channels = channels
        self.log = TurnLog(channels.clock)

    def listen(self, book: Phrasebook, seconds: float, deadline: float | None = None,
               tick: Callable[[float], None] | None = None, typing: bool = True,
               fresh: bool = True) -> str | Heard | None:
        """A typed line, what was heard (`Heard`), or None for silence after `seconds` clock seconds
        (at the `deadline` instead, when there is one) or when a recording's utterance or the
        whole recording has run out; `tick(seconds left)` is called while waiting for the
        deadline. An utterance under way at the end is heard to its end (it was lost, and the
        question asked again over it). Lines are read only with `typing`. A window that is not
        `fresh` goes on from the last one (nothing was said between them): nothing is dropped."""
        channels = self.channels
        if book.phrases:
            channels.listener.expect(book)
        channels.speaker.flush()  # the window opens once the question or read-back has been said (typing waits)
        session = channels.listener.session(book, fresh) if book.phrases else None
        until = channels.clock.now() + seconds if deadline is None else deadline
        while self._open(session, until):
            if tick is not None:
                tick(max(0.0, until - channels.clock.now()))
            typed = channels.typed() if typing else None
            if typed is not None:
                return typed
            heard = self._hear(session, until)
            if heard is not None:
                return heard
        return None

    def _open(self, session: Session | None, until: float) -> bool:
        """Whether the window is still open: before `until`, or while an utterance is under way."""
        if session is None:
            return self.channels.clock.now() < until
        return not session.done and (self.channels.clock.now() < until or session.under_way)

    def _hear(self, session: Session | None, until: float) -> Heard | None:
        """What one slice of the window heard (kept as a turn), or None."""
        clock = self.channels.clock
        wait = min(SLICE, max(0.0, until - clock.now())) or SLICE  # past `until`: an utterance's end
        if session is None:  # nothing the model can hear: only the keyboard counts
            clock.sleep(wait)
            return None
        heard = session.step(wait)
        if heard is None or not heard.text:
            return None
        self.channels.keyboard.echo("  " + self.channels.pack.text("listen.heard", text=heard.text))
        self.log.note(TurnKind.HEARD, heard.text, sure=heard.sure(SURE_CONFIDENCE), confidence=heard.least())
        return heard

    def say(self, key: str) -> None:
        self.speak(self.channels.pack.line(key), TurnKind.REASK)

    def speak(self, line: Line, kind: TurnKind) -> None:
        """Say `line`, kept as a turn of the question asked."""
        self.log.note(kind, line.text, line.key)
        self.channels.speaker.say(line)


class Asking(Generic[T]):
    """One question asked by voice (the states are in the module's docstring).

    A heard answer is taken as the question says (`Question.readback`): a count heard surely is
    taken as it is, and heard unsure it is asked again (never replaced by a value before it); a
    yes or no, a step's "done" and a read-back's own answers likewise. Other answers (a card, a
    player) are read back for a yes (`Confirming`). A typed valid answer is taken as it is. A
    timeout or an unclear answer re-asks (`Policies.tries_for`: the last time for the answer
    alone at a count); the next one falls back to the keyboard. A question with a timeout and
    default listens until its deadline and then returns the default. A step that waits for
    "done" (the deal) takes silence and talk from a microphone as the table still at it: it
    listens on, saying nothing, until "done" (Enter) or something like it, which is asked again
    as any unsure answer; a yes asks whether the table is done (`done_yet`)."""

    def __init__(self, question: Question[T], book: Phrasebook, session: Listening, policies: Policies,
                 replies: Phrasebook, yes: frozenset[str], books: Callable[[Question[T]], Phrasebook] | None = None,
                 either: frozenset[str] = frozenset()) -> None:
        self.question = self.whole = question
        self.book = self.whole_book = book
        self.books = books  # the phrasebook of a question (`rest`)
        self.session = session
        self.policies = policies
        self.replies = replies  # a read-back's grammar: yes and no
        self.yes = yes  # what typed says yes
        self.either = either  # what typed says yes or no
        self.channels = session.channels
        self.policy = question.policy
        self.slots = {slot.token: slot for slot in question.slots}  # what each token of the grammar answers
        self.tries = policies.tries_for(self.policy)
        self.only = len(question.answers) == 1  # "done": nothing to mix it up with
        self.misses = 0
        self.done_asks = 0  # DONE_YET asked at a step that waits
        self.guesses: list[tuple[T, float]] = []  # each value heard unsure, and how surely
        self.weights: list[tuple[T, float, bool]] = []  # each count guessed, how surely, whether said as a count
        self.under_floor: list[tuple[T, float]] = []  # answers of a read-back question heard too unsurely, how surely
        self.denied: list[T] = []  # answers read back and refused
        self.fresh = True  # a window after a line said drops what came before it
        clock = self.channels.clock
        self.deadline = None if question.timeout is None else clock.now() + question.timeout
        # a step that goes on by itself shows its countdown at the prompt
        self.tick = (lambda left: self.channels.keyboard.prompt(question, left)) if self.deadline is not None else None

    def run(self) -> Answer[T]:
        while True:
            answer = self.judge(self.listen())
            if answer is not None:
                return answer

    # -- the states ---------------------------------------------------------------------------
    def listen(self) -> str | Heard | None:
        reply = self.session.listen(self.book, self.policies.listen_seconds, self.deadline, self.tick,
                                    fresh=self.fresh)
        self.fresh = True
        return reply

    def judge(self, reply: str | Heard | None) -> Answer[T] | None:
        """The answer `reply` settles the question with, or None to listen again."""
        if isinstance(reply, str):
            return self.channels.keyboard.take(reply, self.question, self.session.log)
        if reply is None:
            return self.unheard(reply)
        heard = self.value(reply)
        if isinstance(heard, Refused):  # said surely, but the vote cannot have it: say why, ask again
            self.session.speak(heard.line, TurnKind.REFUSED)
            return self.miss(lambda: self.reask(None))
        if heard is not None:
            line = None if self.only else self.question.readback(heard.value, heard.sure)
            if line is not None:
                return self.confirm(heard, line)
            if (heard.sure or self.only) and reply.text not in self.book.twice:
                return heard  # a count or a yes heard surely, "done" however heard (a step's "yeah": twice)
        return self.unheard(reply)

    def confirm(self, heard: Answer[T], line: Line) -> Answer[T] | None:
        """`heard` read back (`line`) for a yes; a no asks again, a try spent as an unclear answer
        is. A fix read back as the tally it makes and refused is that fix, denied: the table's no
        may be to another count still wrong, so the vote keeps it and asks which (HW-R4)."""
        confirmed = Confirming(self, heard, line).run()
        if confirmed is not None:
            return confirmed
        if self.policy.tally and not isinstance(heard.value, bool):
            return replace(heard, denied=True)
        self.denied.append(heard.value)
        self.ask_whole()  # the part heard may be what was wrong
        return self.miss(self.again)  # "no" at the read-back: a try spent, as an unclear answer is

    def unheard(self, reply: Heard | None) -> Answer[T] | None:
        """Nothing heard, or heard unsure: listened on, asked again, or taken heard alike twice."""
        if self.channels.listener.source.ended:  # a WAV file has run out of answers
            return self.channels.keyboard.answer(self.question, self.session.log)
        if self.ask_rest(reply):
            return None
        guess = self.unsure(reply)
        if reply is not None and either(reply, self.book):
            self.guesses.clear()  # it breaks a pair of unsure yeses as a "no" does
            self.weights.clear()
        if guess is not None and reply is not None and self.policy.count is not None:
            self.weights.append((guess, reply.least(), self.no_as_none(reply) is None))
        if reply is not None and self.policy.read_back:
            self.note_under_floor(reply)
        if self.deadline is not None:
            return self.timed(reply, guess)
        if guess is None and self.policy.waits and not self.channels.replay:
            self.fresh = False  # the deal takes longer than a window, and a table talks as it deals
            return self.done_yet(reply)
        twice = self.twice(guess, reply)
        if twice is not None:
            return twice
        yes_no = {YES, NO} <= set(self.question.answers)
        if reply is not None and yes_no and self.unsure_yes_or_no(reply, self.book):
            return self.miss(lambda: self.session.say(YES_OR_NO), self.last_try)
        return self.miss(lambda: self.reask("listen.not_understood" if reply is not None else "listen.again"),
                         self.last_try)

    def done_yet(self, reply: Heard | None) -> Answer[T] | None:
        """A step that waits (the deal) hearing a yes: the table may be saying it is done (a table
        told to say 完了 says はい as readily, and Whisper writes what it hears unclearly there as
        はい: DONE_ASKS), or saying yes in its talk, mid-deal. gm asks whether it is done
        (DONE_YET) and listens one read-back window: its "done" or a yes (not the line's own last
        word alone) is the step's "done", a yes heard unsure with the yes that asked as a pair, as
        a step that goes on by itself takes a yes heard at two tries; anything else (no, "not
        yet", talk, silence) listens on, saying nothing. At the DONE_ASKS-th such ask the keyboard
        takes it. In a room of chatter 5 dB below the table, Whisper heard its はい, ええ and うん to
        終わりましたか？ as はい or そう at 0.44–0.73 after a yes at 0.64–0.92; each deal went to the keyboard
        after the table had said it was done 6 to 9 times (bench/table_nights_bench.py --lang ja,
        --seed 4818 nights 4 and 9, 4819 night 4, 4821 night 3). A "no" so heard unsure after talk
        heard as a yes starts the morning mid-deal, whose steps wait for the table's "done" in turn."""
        if reply is None or self.replies.match(reply) != YES or either(reply, self.book):
            return None
        self.done_asks += 1
        line = self.channels.pack.line(DONE_YET)
        self.session.speak(line, TurnKind.REASK)
        book = replace(self.replies.with_phrases(self.book.phrases), context=line.text)
        said = self.session.listen(book, self.policies.confirm_seconds)
        if isinstance(said, str):
            return self.judge(said)
        if said is not None and not book.echoes(said):
            done = self.value(said)
            if isinstance(done, Answer):
                return done
            if self.replies.match(_as_sure(said)) == YES:  # a step's one answer, its default
                return Answer(self.question.default, How.VOICE, said.sure(SURE_CONFIDENCE), confirmed=True)
        return self.keyboard() if self.done_asks >= DONE_ASKS else None

    def timed(self, reply: Heard | None, guess: T | None) -> Answer[T] | None:
        """A step that goes on by itself: its default at its deadline (a replay's window is its
        utterance), "done" heard unsure alike twice, else listened to on."""
        if self.deadline is not None and self.channels.clock.now() >= self.deadline or self.channels.replay:
            return Answer(self.question.default, How.DEFAULT)
        twice = self.twice(guess, reply)
        if twice is not None:
            return twice
        if reply is not None:
            self.session.say("listen.not_understood")
        return None

    def keyboard(self) -> Answer[T]:
        """The keyboard's answer, but for a count the vote's exact total leaves (HW-R4): said,
        and then confirmed with the whole tally; and a question that may be put off is
        (`Policy.later`: said, and `PutOff` raised)."""
        implied = self.policy.implied
        if implied is not None:
            self.session.speak(implied, TurnKind.REASK)
            return Answer(self.question.default, How.DEFAULT)
        later = self.policy.later
        if later is not None:
            self.session.speak(later, TurnKind.REASK)
            raise PutOff(tuple(self.session.log.turns))
        self.session.say("listen.type_it")
        return self.channels.keyboard.answer(self.question, self.session.log)

    def ask_rest(self, reply: Heard | None) -> bool:
        """Whether `reply` said a part of an answer alone, as surely as the question's answers
        must be heard (one card of a hand: "werewolf" for "werewolf and seer", the rest lost in
        the room), and the rest of it was asked for at once ("Werewolf, and the other card?"):
        the question becomes the rest (`Question.rest`), whose answer is the whole, read back
        for a yes as the whole is. No try is spent on half an answer; a rest has no rest."""
        if reply is None or self.books is None or not reply.sure(self.book.min_confidence):
            return False
        rest = self.question.rest(words_of(reply.text))
        if rest is None:
            return False
        self.question, self.book = rest, self.books(rest)
        self.slots = {slot.token: slot for slot in rest.slots}
        self.under_floor.clear()
        self.session.speak(rest.prompt, TurnKind.REASK)
        return True

    def ask_whole(self) -> None:
        """Back to the whole question after its rest was read back and refused."""
        if self.question is not self.whole:
            self.under_floor.clear()
        self.question, self.book = self.whole, self.whole_book
        self.slots = {slot.token: slot for slot in self.whole.slots}

    # -- the rules between them ---------------------------------------------------------------
    def miss(self, again: Callable[[], None],
             last: Callable[[], Answer[T] | None] | None = None) -> Answer[T] | None:
        """A try spent: once they all are, what `last()` takes (the last try's answer) or the
        keyboard; else `again` (the question asked again)."""
        self.misses += 1
        if self.misses >= self.tries:
            return (last() if last is not None else None) or self.keyboard()
        again()
        return None

    def again(self) -> None:
        """The question asked again after a "no" at its read-back."""
        self.session.say("listen.again")
        self.session.speak(self.question.prompt, TurnKind.REASK)

    def reask(self, key: str | None) -> None:
        """The question asked again after a try spent (with the line `key` first): a count's last
        try asks for the number alone ("Just the number, please."), as a game master does who
        has not caught it; a step's line is not said again, only `key` (the table heard its
        instructions: gm lost its "done")."""
        if self.policy.count is not None and self.misses == self.tries - 1:
            key = "listen.number_please"
        if key is not None:
            self.session.say(key)
        if not self.only:  # a step's instructions are not said again: only its "done" was lost
            self.session.speak(self.question.prompt, TurnKind.REASK)

    def twice(self, guess: T | None, reply: Heard | None) -> Answer[T] | None:
        """The same value heard unsure at two of the question's tries, and no other value at any,
        is taken: a second hearing of other audio agrees, and the whole tally is still confirmed
        (HW-R4). A tally's "no" heard unsure at two tries is taken whatever else was heard: it
        confirms nothing, it asks which count is wrong (HW-R4). A Japanese table's no to a wrong
        tally, said three times (ううん or いや, いいえ, いいえ), was heard as はい, いいえ, いいえ, all
        unsure, and the keyboard took it, in two of the first three nights of
        bench/table_nights_bench.py --lang ja --seed 4807 (counts 一票 and 二票 written 二票 and 一票
        surely, and 三 heard unsure as the last try's one count). A question whose yes must be
        heard surely (`Policy.surely`: a tally holding a count heard unsure, another night?) takes
        a yes so only where the last two were each heard at SURE_CONFIDENCE (`SURE_YES`)."""
        if guess is None or reply is None:
            return None
        self.guesses.append((guess, reply.least()))
        values = [value for value, _ in self.guesses]
        if self.policy.tally and guess is False and sum(g is False for g in values) >= 2:
            return Answer(guess, How.VOICE, False)
        if guess is not False and not pairs(self.policy.surely, min(c for _, c in self.guesses[-2:])):
            return None
        if len(values) >= 2 and all(g == guess for g in values):
            return Answer(guess, How.VOICE, False)
        return None

    def last_try(self) -> Answer[T] | None:
        """What a count's last try takes instead of the keyboard, the whole tally still read back
        for a yes (HW-R4): the one count heard unsure at its tries when no other count was, at
        the last try or before it (a room's chatter: the table's "um, one", "one", "um, one" heard
        as "yeah", "one" unsure and nothing; the keyboard is what else there is), or the count
        heard unsure at two tries or more and more often than any other (Whisper heard "no votes",
        "nobody", "no votes" as "one", "no", "no": two hearings of none outweigh one of one), or the
        count with a clear lead (`clear_lead`). A question whose every answer is read back reads
        back the likeliest it heard (`likeliest`)."""
        if self.policy.read_back:
            return self.likeliest()
        if self.policy.count is None or not self.guesses:
            return None
        values = [value for value, _ in self.guesses]
        ranked = [(value, values.count(value)) for value in values]
        most, times = max(ranked, key=lambda pair: pair[1])
        if all(value == most for value, _ in ranked) or times >= 2 and all(n < times for value, n in ranked
                                                                            if value != most):
            return Answer(most, How.VOICE, False)
        return self.clear_lead()

    def clear_lead(self) -> Answer[T] | None:
        """The count said and heard unsure at LEAD_FLOOR or more, and LEAD more surely than any
        other count heard at the question's tries (a "no" taken as none among them, never the
        lead: it may answer something else), as its last try's answer (HW-R4: the tally is read
        back)."""
        if not self.weights:
            return None
        best, surely, counted = max(self.weights, key=lambda weight: weight[1])
        rivals = [c for value, c, _ in self.weights if value != best]
        if counted and surely >= LEAD_FLOOR and surely - max(rivals, default=0.0) >= LEAD:
            return Answer(best, How.VOICE, False)
        return None

    def note_under_floor(self, reply: Heard) -> None:
        """Keep what `reply` would answer, had it been heard surely enough to be read back, and how
        surely it was heard (`likeliest`). gm's own last word alone answers nothing (`either`)."""
        if either(reply, self.book):
            return
        said, _ = said_value(self.question, self.book, _as_sure(reply), self.slots)
        if isinstance(said, Said):
            self.under_floor.append((said.value, reply.least()))

    def likeliest(self) -> Answer[T] | None:
        """The answer heard most surely at a read-back question's tries, under the floor it must be
        heard at to be read back but at LIKELIEST_FLOOR or more, read back for a yes heard surely or
        typed (never one the table said no to at its read-back); None (the keyboard) when there is
        none or no such yes comes. Whisper heard a table's "the werewolf and the seer" as "werewolf
        gravedigger" at 0.45, read back so, and its "nope" as "yeah" at 0.77 (bench/table_nights_bench.py
        --seed 5018, night 3): an answer heard this unsurely is confirmed as a count heard unsure is
        (HW-R4)."""
        kept = [(value, surely) for value, surely in self.under_floor
                if surely >= LIKELIEST_FLOOR and value not in self.denied]
        if not kept:
            return None
        value, _ = max(kept, key=lambda pair: pair[1])
        line = self.question.readback(value, False)
        return None if line is None else Confirming(self, Answer(value, How.VOICE, False), line).run()

    def unsure_yes_or_no(self, heard: Heard, book: Phrasebook) -> bool:
        """Whether `heard` calls for "Yes or no, please?" (YES_OR_NO): a yes or a no heard unsure
        (the line is not said again for it: a Japanese table's はい heard unsure at the tally had the
        whole tally read again, twice, 8 s each; bench/table_nights_bench.py --lang ja --seed 4804,
        night 5), the last word of what gm just said alone (`Phrasebook.echoes`), or a word that
        typed is yes or no but said may be either, a decoy of `book` (うん and ううん, one sound to
        Whisper: a Japanese table said うん at a hand's read-back three times, and the night went to
        the keyboard; the same bench, night 0)."""
        return (book.match(_as_sure(heard)) in (YES, NO) or book.echoes(heard)
                or heard.text in self.either and heard.text in book.decoys)

    def value(self, heard: Heard) -> Answer[T] | Refused | None:
        """What `heard` answers (`said_value`), and whether every word was sure. A reply the
        question refuses aloud (a total the vote cannot have) is that refusal. A "no" heard alone
        where it stands for an answer (`Policy.nobody`) is that answer, heard unsure."""
        value, sure = said_value(self.question, self.book, heard, self.slots)
        if value is None and self.policy.nobody is not None:
            value, sure = self.no_as_none(heard), False
        if value is None:
            return None
        if isinstance(value, Refused):
            return value if value.aloud and sure else None
        if self.policy.surely and value.value is True:  # a doubted tally's yes (HW-R4), another night's
            sure = sure and heard.sure(SURE_YES)
        return Answer(value.value, How.VOICE, sure)

    def unsure(self, heard: Heard | None) -> T | None:
        """What `heard` would answer were it heard surely, for a count, a step or a yes or no
        (asked again when unsure, never read back); None for other questions or answers (a fix
        of the tally), a decoy, gm's own last word alone (`either`) or no answer. A "no" heard
        once breaks a pair of "yes". At the last count of an exact total (`Policy.implied`) only
        what the total leaves is: any other count would be refused with the whole round."""
        if heard is None or either(heard, self.book):
            return None
        value, _ = said_value(self.question, self.book, _as_sure(heard), self.slots)
        if value is None and self.policy.count is not None:
            value = self.no_as_none(heard)
        if value is None or isinstance(value, Refused):
            return None
        if self.policy.count is not None:
            return value.value if self.policy.implied is None or value.value == self.question.default else None
        return value.value if self.only or isinstance(value.value, bool) else None


    def no_as_none(self, heard: Heard) -> Said[T] | None:
        """At a count, "no" (the pack's "no", "nope", "nah") heard alone is the count's none, heard
        unsure: asked again, taken heard alike twice or at the count's last try, and the whole
        tally read back for a yes (HW-R4). Whisper heard a table's "none", "nobody" and "no votes"
        as "no" (bench/table_nights_bench.py, night 0: three tries, then the keyboard). So is the
        name of the player whose count is asked where it sounds like "no" (`sounds_like_no`).
        Elsewhere a "no" is the answer it stands for there (`Policy.nobody`), or none."""
        zero = self.slots.get("0" if self.policy.count is not None else self.policy.nobody or "")
        if zero is None or isinstance(zero.value, Refused):
            return None
        if self.book.others.get(heard.text) != NO and not self.sounds_like_no(heard.text):
            return None
        return Said(zero.value, (zero,))

    def sounds_like_no(self, text: str) -> bool:
        """Whether `text` is the name of the player whose count is asked, as near the pack's "no"
        as "noah" is (NAME_AS_NO): nobody answers "how many votes for Noah?" with "Noah", but
        Whisper, told the question, wrote the table's "nobody" and "no votes" as "noah" at Noah's
        count (bench/table_nights_bench.py --seed 4902, night 1: twice, then the keyboard)."""
        from rapidfuzz import fuzz

        count = self.policy.count
        if count is None or text != fold(self.question.label(count)):
            return False
        nos = [phrase for phrase, answer in self.book.others.items() if answer == NO]
        return any(fuzz.ratio(text, no) >= NAME_AS_NO for no in nos)


class Readback(enum.Enum):
    """A read-back's outcome that is neither an answer nor a "no"."""

    AGAIN = "again"  # read back (once more, or a correction in its turn)


class Confirming(Generic[T]):
    """A heard answer read back for a yes: read back → listen → judge.

    Only "yes", said alone and surely (or heard unsure twice, but where `surely` only at SURE_YES
    or twice at SURE_CONFIDENCE; or typed, or Enter), accepts it; "no" asks the question again (one of its
    tries); one of the question's own answers heard instead is a correction, read back in its turn
    (taken as it is where the question takes it so; `Policies.corrections` of them, the next goes to
    the keyboard); silence or an unclear reply reads it back again, `Policies.readbacks` replies in
    all, and then the keyboard. A "yes" heard unsure at two of its read-backs confirms it, as a count
    heard alike twice is taken: flite's awb says "yes" so that the loop of free phones wins it every
    time (Y UH OW EH S); a "no" heard between them, even unsure, breaks the pair."""

    def __init__(self, asking: Asking[T], heard: Answer[T], line: Line) -> None:
        self.asking = asking
        self.session = asking.session
        self.heard = heard
        self.line = line
        self.replies = asking.replies.with_phrases(asking.book.phrases)  # the question's own: a correction
        self.misses = 0
        self.corrections = 0
        self.yes_before: float | None = None  # how surely the yes before was heard, if nothing broke the pair since
        self.asked_yes_no = False  # a reply that may be yes or no was heard: yes or no asked for, not the line

    def run(self) -> Answer[T] | None:
        """The answer once a "yes" confirms it (a typed answer counts as it is); None to ask again."""
        while True:
            if not self.asked_yes_no:
                self.session.speak(self.line, TurnKind.READBACK)
            self.asked_yes_no = False
            said = self.session.listen(self.book, self.asking.policies.confirm_seconds)
            outcome = self.typed(said) if isinstance(said, str) else self.judge(said)
            if outcome is not Readback.AGAIN:
                return outcome

    @property
    def surely(self) -> bool:
        """Whether only a yes heard at SURE_YES (or typed, or two in a row at SURE_CONFIDENCE:
        `pairs`) confirms the answer read back, never two heard unsure: it was heard unsure (a hand
        or a card's holder, a fix of the tally: a count heard unsure, HW-R4, a yes or a no). A
        Japanese table's うん to a hand read back was heard as a correction, 村人, at 0.76; its いいえ
        to that, twice, as はい at 0.46, a pair that confirmed a hand never said
        (bench/table_nights_bench.py --lang ja --seed 4815, night 8)."""
        return not self.heard.sure

    @property
    def book(self) -> Phrasebook:
        """What the read-back hears: yes, no and the question's own answers, told the line said."""
        return replace(self.replies, context=self.line.text)

    def judge(self, said: Heard | None) -> Answer[T] | Readback | None:
        reply = self.replies.match(said) if said is not None else None
        if reply == "yes" and said is not None and not self.book.echoes(said) and \
                (not self.surely or said.sure(SURE_YES)):
            return self.taken()
        if reply == "no":
            return None
        if reply == "yes":  # the read-back's own last word: a yes heard unsure, taken heard twice
            return self.unclear(said)
        again = self.asking.value(said) if reply is not None and said is not None else None
        if isinstance(again, Answer):  # the table said the answer (again): read it back
            return self.corrected(again)
        return self.unclear(said)

    def corrected(self, again: Answer[T]) -> Answer[T] | Readback | None:
        line = self.asking.question.readback(again.value, again.sure)
        if line is None:
            return again if again.sure else None
        self.corrections += 1
        if self.corrections > self.asking.policies.corrections:  # the table and gm do not agree: typed
            return self.asking.keyboard()
        self.heard, self.line, self.yes_before = again, line, None
        return Readback.AGAIN

    def unclear(self, said: Heard | None) -> Answer[T] | Readback:
        """Silence or an unclear reply: read back again, or taken at a second unsure "yes" (an unsure
        "no" between them breaks the pair, as does the line's own last word alone, which may be
        either; silence or a word that is neither does not). The table's "nope" to "Olga 5, Omar 1,
        nobody else. Right?" in a room of chatter 5 dB below it was heard as "right", then, asked
        again, as "yes" unsure, and the pair confirmed a count never said
        (bench/table_nights_bench.py --seed 5008, night 9). An answer heard unsure takes only a pair
        heard surely enough (`pairs`)."""
        self.misses += 1
        echo = said is not None and either(said, self.book)
        reply = self.replies.match(_as_sure(said)) if said is not None and not echo else None
        least = said.least() if said is not None else 0.0
        if reply == "yes" and self.yes_before is not None and pairs(self.surely, min(self.yes_before, least)):
            return self.taken(sure=False)  # heard twice, unsure, no "no" between
        if reply == "yes":
            self.yes_before = least
        elif reply == "no" or echo:
            self.yes_before = None
        if self.misses >= self.asking.policies.readbacks or self.asking.channels.listener.source.ended:
            return self.asking.keyboard()
        self.asked_yes_no = said is not None and self.asking.unsure_yes_or_no(said, self.book)
        if self.asked_yes_no:
            self.session.say(YES_OR_NO)
        elif said is not None:
            self.session.say("listen.not_understood")
        return Readback.AGAIN

    def typed(self, typed: str) -> Answer[T] | None:
        """A line typed at a read-back: Enter or yes accepts the heard answer, an answer of the
        question replaces it; anything else (no) asks again."""
        keyboard = self.asking.channels.keyboard
        if not keyboard.interactive:
            keyboard.echo(f"  > {printable(typed)}")
        self.session.log.note(TurnKind.TYPED, printable(typed))
        said = " ".join(words_of(typed))
        if not typed.strip() or said and said in self.asking.yes:
            return self.taken()
        given = self.asking.question.parse(typed)
        return None if isinstance(given, Refused) else Answer(given)

    def taken(self, sure: bool = True) -> Answer[T]:
        """The answer read back, confirmed: heard surely unless its yes was two heard unsure."""
        return Answer(self.heard.value, How.VOICE, sure, confirmed=True)


@dataclass(frozen=True)
class Said(Generic[T]):
    """A value heard (`value`), from the slots that said it."""

    value: T
    slots: tuple[Slot[T], ...]


def said_value(question: Question[T], book: Phrasebook, heard: Heard,
               slots: Mapping[str, Slot[T]] | None = None) -> tuple[Said[T] | Refused | None, bool]:
    """What `heard` answers at `question`, and whether it was heard surely: the value of the one
    slot it names in `book`, or of counts said one after another ("aki three ken one") read
    together by the question (or why they answer nothing); at a count, only what answers the
    count asked (`answers_count`). None: no answer. `slots`: the question's by token."""
    said, sure = _said(question, book, heard, slots or {slot.token: slot for slot in question.slots})
    if said is None:
        return None, False
    value = said[0].value if len(said) == 1 else question.together(said)
    return (value if isinstance(value, Refused) else Said(value, said)), sure


def _said(question: Question[T], book: Phrasebook, heard: Heard,
          slots: Mapping[str, Slot[T]]) -> tuple[tuple[Slot[T], ...] | None, bool]:
    said: tuple[Slot[T], ...] | None = None
    sure = False
    token = book.match(heard)
    if token is not None:
        said, sure = (slots[token],), _sure(heard, book, token) and not book.echoes(heard)
    else:
        run = book.match_run(heard)
        if run is not None:
            said, sure = tuple(slots[t] for t in run), heard.sure(SURE_CONFIDENCE)
    count = question.policy.count
    if said is None or (count is not None and not answers_count(count, said)):
        return None, False
    return said, sure


def answers_count(candidate: str, said: Sequence[Slot[Any]]) -> bool:
    """Whether slots heard at the count of `candidate` answer it: a number, or the tally by name
    in one breath ("Aki three, Ken one": two counts or more, one of them the candidate asked). A
    name with a number alone ("Noah zero", as pocketsphinx heard "one vote") is no answer at a
    count: it pairs a name with a count by accident as often as it is said, and a fix is asked
    for only where the whole tally is read back (`gm.table.counting.Tally`, HW-R4). Typed, a
    count takes it as it is (`Count.read`)."""
    fixes = [slot for slot in said if slot.kind == Kind.FIX]
    if not fixes:
        return True
    return len(fixes) >= 2 and any(slot.who == candidate for slot in fixes)


def pairs(surely: bool, least: float) -> bool:
    """Whether two hearings alike in a row, the less sure heard at `least`, take a yes: any two, but
    where the yes must be heard surely (`Confirming.surely`, `Policy.surely`) two each heard at
    SURE_CONFIDENCE (`SURE_YES`)."""
    return not surely or least >= SURE_CONFIDENCE


def either(heard: Heard, book: Phrasebook) -> bool:
    """Whether `heard` is the last word of what gm just said alone, heard as a yes or a no
    (`Phrasebook.echoes`: "right" after "… Right?"): it may be either, so it is neither, and it
    breaks a pair of unsure yeses as a "no" does. Whisper wrote a table's no, nah and nope as
    "right" 7 times in 30 told "Right?" (bench/noisy_answers_bench.py --seed 5101, 5102)."""
    return book.echoes(heard) and book.match(_as_sure(heard)) in (YES, NO)


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
