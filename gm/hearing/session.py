"""Listening: a speech model over one audio source, one session per question; a session feeds
the recogniser and hands back final results as `Heard` (what they mean is
`gm.hearing.phrases`'s job)."""

from __future__ import annotations

from collections.abc import Callable

from gm.hearing.phrases import Heard, Phrasebook
from gm.hearing.recognition import Model, Recogniser, UtteranceRecogniser
from gm.hearing.sources import BLOCK_SECONDS, Recording, Source
from gm.hearing.vad import RoomLevel


class Session:
    """One recogniser over the source: feeds it and reports final results. A voice command
    heard while a question is asked (`Phrasebook.passed_over`) is no reply: the session listens
    on (to a recording's next utterance, from `advance`)."""

    def __init__(self, source: Source, recogniser: Recogniser, book: Phrasebook | None = None,
                 advance: Callable[[], Source | None] | None = None) -> None:
        self.source = source
        self.recogniser = recogniser
        self.book = book
        self.advance = advance
        self._unfinished = False

    @property
    def done(self) -> bool:
        """The source has ended and every result was handed out."""
        return self.source.ended and not self._unfinished

    @property
    def under_way(self) -> bool:
        """Someone is speaking: the utterance's result is still to come."""
        return self.recogniser.under_way

    def step(self, wait: float) -> Heard | None:
        """Feed the audio that came within `wait` clock seconds (all of it that is waiting);
        a final result as soon as there is one. At the end of a file: its last result."""
        heard = self._step(wait)
        if heard is None or self.book is None or not self.book.passed_over(heard):
            return heard
        following = self.advance() if self.advance is not None and self.source.ended else None
        if following is not None:
            self.source = following
        return None

    def _step(self, wait: float) -> Heard | None:
        block = self.source.read(wait)
        while block is not None:
            self._unfinished = True
            heard = self.recogniser.accept(block)
            if heard is not None:
                self._unfinished = False
                return heard
            block = self.source.read(0.0)
        if self.source.ended and self._unfinished:
            self._unfinished = False
            return self.recogniser.finish()
        return None


class Listener:
    """A speech model listening to one audio source; one session per question. A replayed
    recording (`gm.hearing.replay.Utterances`) gives each session its next utterance. The room's
    level (`gm.hearing.vad.RoomLevel`) is kept from one question to the next: a question's window
    opens as the table answers, with little of the room heard before it."""

    def __init__(self, model: Model, source: Source | Recording) -> None:
        self.model = model
        self.source = source
        self.room = RoomLevel()
        self._peeked: tuple[int, Phrasebook, Heard | None] | None = None
        self._expected: tuple[Phrasebook, Recogniser] | None = None

    def expect(self, book: Phrasebook) -> None:
        """Make the recogniser of the question being said, for its session (`session`) to take:
        what the model works out before it hears anything (Whisper's priors, a grammar's search)
        is under way while the question is still said, not after it, when the table answers."""
        self._expected = (book, self._recogniser(self.source.rate, book))

    def session(self, book: Phrasebook | None, fresh: bool = True) -> Session:
        """A session for one question: a recording's next utterance, or the source from now on
        (what was said before is dropped, so nothing left over answers this question), or where
        the last left off when not `fresh` (the same question, listened to on)."""
        expected, self._expected = self._expected, None
        if expected is not None and expected[0] is book:
            recogniser = expected[1]
        else:
            recogniser = self._recogniser(self.source.rate, book)
        if isinstance(self.source, Recording):
            recording = self.source
            return Session(recording.window(), recogniser, book,
                           lambda: None if recording.ended else recording.window())
        if fresh:
            self.source.drain()
        return Session(self.source, recogniser, book)

    def _recogniser(self, rate: float, book: Phrasebook | None) -> Recogniser:
        recogniser = self.model.recogniser(rate, book)
        if isinstance(recogniser, UtteranceRecogniser):
            recogniser.in_room(self.room)
        return recogniser

    def peek(self, book: Phrasebook) -> Heard | None:
        """What the next utterance of a replayed recording says in `book`'s grammar, without
        taking it (heard once per utterance and book); None at its end."""
        recording = self.source
        if not isinstance(recording, Recording):
            raise TypeError("only a replayed recording can be heard ahead")
        at = recording.position
        if self._peeked is None or self._peeked[0] != at or self._peeked[1] is not book:
            utterance = recording.peek()
            heard = None
            if utterance is not None:
                session = Session(utterance, self._recogniser(recording.rate, book))
                heard = session.step(0.0)
                while heard is None and not session.done:
                    heard = session.step(0.0)
            self._peeked = (at, book, heard)
        return self._peeked[2]

    def transcript(self, book: Phrasebook | None = None) -> str:
        """Everything heard until the source ends (a recording)."""
        session = self.session(book)
        said = []
        while not session.done:
            heard = session.step(BLOCK_SECONDS)
            if heard is not None and heard.text:
                said.append(heard.text)
        return " ".join(said)

    def hear_once(self, book: Phrasebook | None, wait: float = BLOCK_SECONDS) -> Heard | None:
        """The first non-empty result until the source ends (a WAV file)."""
        session = self.session(book)
        while not session.done:
            heard = session.step(wait)
            if heard is not None and heard.text:
                return heard
        return None

    def close(self) -> None:
        self.source.close()
