"""The ports a game runner talks through: something that speaks, something that asks, a clock,
and timer controls.

Implementations live at the edges (printing, speech, keyboard, microphone); tests pass fakes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar
from collections.abc import Mapping

from scorer.values import Named


@dataclass(frozen=True)
class Line:
    """One thing the game master says: printed as `text`, spoken as `spoken`."""

    key: str
    text: str
    spoken: str
    urgent: bool = False
    fields: Mapping[str, object] = field(default_factory=dict, compare=False)


class How(Named):
    """How an answer came: typed, said and heard, or the question's default (a timeout, Enter)."""

    KEYBOARD = "keyboard"
    VOICE = "voice"
    DEFAULT = "default"


T = TypeVar("T")


class TurnKind(Named):
    """What happened while a question was asked."""

    HEARD = "heard"  # words a listener heard (`sure`: every word heard surely)
    TYPED = "typed"  # a line typed
    REFUSED = "refused"  # why a reply answers nothing (the line said or printed)
    REASK = "reask"  # the question asked again, or said to go to the keyboard
    READBACK = "readback"  # an answer read back for a yes


@dataclass(frozen=True)
class Turn:
    """One step of asking, as it happened at clock time `at`: a reply heard or typed, or a line
    the asker said (`key`: its voice-pack key); a reply heard says how surely its least sure word
    was (`confidence`)."""

    kind: TurnKind
    text: str
    at: float
    key: str = ""
    sure: bool = True
    confidence: float = 1.0


@dataclass(frozen=True)
class Answer(Generic[T]):
    """A question's typed answer (`value`), how it came, and whether it was heard surely
    (typed answers and defaults are sure); `turns`: what was heard, typed and said on the way;
    `confirmed`: whether it was read back as it is and a yes took it; `denied`: whether it was
    read back and a no refused it (a fix of the tally whose tally is still wrong)."""

    value: T
    how: How = How.KEYBOARD
    sure: bool = True
    turns: tuple[Turn, ...] = field(default=(), compare=False, repr=False)
    confirmed: bool = field(default=False, compare=False)
    denied: bool = field(default=False, compare=False)


CORRECTION = "="
"""What joins a fix's candidate and count in its token ("Aki=2": said "aki two", also typed so)."""


def fix_token(candidate: str, n: int) -> str:
    """The token of a fix that sets `candidate`'s count to `n` ("Aki=2")."""
    return f"{candidate}{CORRECTION}{n}"


def fix_of(token: str) -> tuple[str, int] | None:
    """The candidate and count a fix's token sets ("Aki=2" → ("Aki", 2)); None for another token."""
    who, joined, n = token.rpartition(CORRECTION)
    return (who, int(n)) if joined and who and n.isdigit() else None


class Kind(Named):
    """What kind of answer a slot is, to a listener: what its phrases are made of, which decoys
    go into its grammar (`gm.text.decoys.decoys_for`) and whether seat numbers may name players."""

    NUMBER = "number"  # a count: "3"
    NAME = "name"  # a player, the graveyard, nobody, a card, a hand, a choice
    FIX = "fix"  # a count set by name: "Aki=2", said "aki two"
    YES_NO = "yes_no"  # "yes" or "no"
    DONE = "done"  # a step's one answer


@dataclass(frozen=True)
class Refused:
    """Why a reply answers nothing (`line`, from the voice packs, with its key and fields), and
    the answer it is near to (`near`, offered as "did you mean …?"), if any. A refusal `aloud`
    is said to a reply heard too (a total the vote cannot have: what it can have); a heard reply
    refused otherwise is "not understood"."""

    line: Line
    near: object = None
    takes: frozenset[str] = frozenset()  # replies (normalised) that take the suggestion: y, yes, はい, 네
    aloud: bool = False

    def taken_by(self, text: str) -> bool:
        return self.near is not None and " ".join(text.casefold().split()) in self.takes



@dataclass(frozen=True)
class Slot(Generic[T]):
    """One answer a question takes, typed: its `token` (its id in a grammar and in the voice
    packs' `[listen.hear]`: "3", "Aki", "Aki=2", "yes", "done"), its `kind`, and the `value` it
    answers (or why it answers nothing, should the question refuse its own token); a fix names
    its candidate (`who`), a number and a fix their count (`n`); `said_as` are the answer ids
    whose phrases say it too (a step that goes on by itself takes the table's "yes" as "done")."""

    token: str
    kind: Kind
    value: T | Refused
    who: str = ""
    n: int = 0
    said_as: tuple[str, ...] = ()


@dataclass(frozen=True)
class Policy:
    """How a listener asks a question, beyond its slots: `tries` (hearings before the keyboard
    takes it: None for the listener's own number, 0 to have it typed at once), `count` (the
    candidate a count asks about: a count's tries, "just the number" at its last, and a fix heard
    at it only as part of the whole tally said by name), `implied` (the line that says what an
    exact total leaves: said and taken, as the question's default, instead of the keyboard),
    `waits` (silence and talk are the table still at it: a step such as the deal), `tally`
    (the whole tally read back, or which count is wrong: heard as many times as a count) and
    `read_back` (every answer is read back for a yes, however surely heard: a listener may take it
    heard less surely, as the yes is what settles it) and `surely` (a yes is taken heard more surely
    than other answers, a fix heard surely, either typed, never heard unsure at two tries: the
    tally of a count heard unsure, whose yes is that count's one check; a no confirms nothing)
    and `nobody` (the answer a "no" heard alone stands for, heard unsure and read back for a yes:
    the graveyard where who holds a card is asked, for nobody holds it) and `later` (the line that
    puts the question off when its tries by voice are spent, instead of the keyboard: a listener
    says it and raises `PutOff`)."""

    tries: int | None = None
    count: str | None = None
    implied: Line | None = None
    waits: bool = False
    tally: bool = False
    read_back: bool = False
    surely: bool = False
    nobody: str | None = None
    later: Line | None = None


class PutOff(Exception):
    """A question put off (`Policy.later`): not heard by voice, to be asked again after the others;
    `turns`: what was heard and said while it was asked (for the night log)."""

    def __init__(self, turns: tuple[Turn, ...] = ()) -> None:
        super().__init__("put off")
        self.turns = turns


class Question(Protocol[T]):
    """A question the night asks, with its own answer type.

    `answers` are the tokens a listener can hear for it (player names, "graveyard", "0".."6",
    "yes"/"no", card ids, "Aki=2"), each `label`led in the night's language; `slots` are the same
    answers typed (each token's kind and value), and `policy` says how a listener asks it. A
    typed line is read by `parse`; fixes heard one after another in one breath by `together`.
    With a `timeout` (clock seconds) the asker returns `default` when nobody answers in time;
    Enter takes the default where there is one (`has_default`).
    """

    @property
    def key(self) -> str: ...

    @property
    def prompt(self) -> Line: ...

    @property
    def answers(self) -> tuple[str, ...]: ...

    @property
    def timeout(self) -> float | None: ...

    @property
    def has_default(self) -> bool: ...

    @property
    def default(self) -> T: ...

    @property
    def slots(self) -> tuple[Slot[T], ...]:
        """Its answers typed, one per token, in the order of `answers`."""

    @property
    def policy(self) -> Policy: ...

    def label(self, answer: str) -> str:
        """How the token `answer` is printed and said."""

    def parse(self, text: str) -> T | Refused:
        """The value a typed reply gives, or why it gives none."""

    def together(self, slots: tuple[Slot[T], ...]) -> T | Refused:
        """The value of `slots` said one after another in one breath ("aki three ken one"), or
        why they give none (refused `aloud`: a total the vote cannot have)."""

    def readback(self, value: T, sure: bool = True) -> Line | None:
        """The line that reads a heard `value` back for a "yes"; None when it is taken as heard
        (heard unsure, such a value is asked again instead)."""

    def rest(self, words: list[str]) -> Question[T] | None:
        """The question for the rest of an answer of which `words` said only a part (one card of
        a hand: "Werewolf, and the other card?"), whose answer is the whole; None where `words`
        are no such part."""

    def hint(self, left: float | None = None) -> str:
        """The short hint shown at a typed prompt, with `left` seconds (real ones, as the table
        counts them) when it goes on by itself."""

    def choices(self) -> Line:
        """Every answer, listed when `?` is typed."""


class Speaker(Protocol):
    """Prints and (where it can) speaks lines; never blocks the caller for long.

    `speaking` is True while audio plays and `last_spoken_end` is the monotonic time audio last
    stopped (-inf: never): a listener's echo gate reads both so gm does not hear itself."""

    @property
    def speaking(self) -> bool: ...

    @property
    def last_spoken_end(self) -> float: ...

    def say(self, line: Line) -> None: ...

    def flush(self) -> None:
        """Wait until every queued line has been delivered."""

    def hush(self) -> None:
        """Stop speaking at once: the line playing is cut, those waiting are dropped (all were printed)."""

    def close(self) -> None: ...


class Asker(Protocol):
    def ask(self, question: Question[T]) -> Answer[T]:
        """The question's answer (its default on timeout), with how it came."""

    def close(self) -> None:
        """Stop listening and let go of the microphone or model (nothing for a keyboard)."""


class Clock(Protocol):
    """Monotonic game time in seconds; `scale` is real seconds per game second."""

    scale: float

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class Command(Named):
    """A command during a timed phase, typed (keys) or said (the wake phrase and a command)."""

    PAUSE = "pause"
    RESUME = "resume"
    TOGGLE = "toggle"  # pause or resume, whichever applies
    ADD = "add"  # 30 more seconds
    ADD_MINUTE = "add_minute"  # one more minute
    END = "end"  # vote now
    REPEAT = "repeat"  # say the last line again


class Controls(Protocol):
    """Commands during a timed phase."""

    def poll(self, timeout: float) -> Command | None:
        """Wait up to `timeout` clock seconds for a command; None when none came."""

    def release(self) -> None:
        """Give the terminal back (raw keys off) before anything else is asked."""
