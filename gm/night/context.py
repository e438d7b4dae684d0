"""What every part of a night needs: the set-up, the lines and the ports."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar, overload
from collections.abc import Callable, Mapping, Sequence

from gm.hearing.keyboard import AnswersExhausted
from gm.table.asked import loggable
from gm.table.questions import Table
from gm.text.lines import Pack
from gm.ports import Answer, Asker, Clock, Controls, How, Line, PutOff, Question, Speaker, Turn, TurnKind
from gm.night.timer import TimerDisplay
from scorer.werewolf.cards import Card
from scorer.werewolf.decks import Deck

Log = Callable[..., None]
T = TypeVar("T")


def no_log(kind: str, **data: Any) -> None:
    """A log that keeps nothing."""


def turn_fields(key: str, turn: Turn) -> dict[str, Any]:
    """A turn of asking as the night log keeps it, at the time it happened: the question's `key`,
    the words heard (`by` voice, `sure`, the least sure word's `confidence`) or typed (`by`
    keyboard), or the `line` said and its `text`."""
    fields: dict[str, Any] = {"t": turn.at, "key": key, "text": turn.text}
    if turn.kind is TurnKind.HEARD:
        fields.update(by=How.VOICE, sure=turn.sure, confidence=turn.confidence)
    elif turn.kind is TurnKind.TYPED:
        fields.update(by=How.KEYBOARD)
    else:
        fields.update(line=turn.key)
    return fields


class NightStopped(Exception):
    """The players chose to stop the night (Ctrl-C, then quit)."""


RESUME, QUIT = "resume", "quit"


@dataclass
class NightContext:
    """A night's set-up and ports. `log(type, **data)` records an event (the time is added)."""

    players: Sequence[str]
    deck: Deck
    pack: Pack
    speaker: Speaker
    asker: Asker
    clock: Clock
    controls: Controls | None = None
    display: TimerDisplay | None = None
    log: Log = no_log
    pause: float = 20.0
    discussion: int = 180
    roll_call: bool = False
    _table: Table | None = field(default=None, init=False, repr=False)

    def say(self, key: str | Line, *, urgent: bool = False, **fields: Any) -> Line:
        """Say a line (by key with fields, or a ready Line), print it and log it."""
        line = key if isinstance(key, Line) else self.pack.line(key, urgent=urgent, **fields)
        self.speaker.say(line)
        self.log("say", key=line.key, text=line.text)
        return line

    @property
    def table(self) -> Table:
        """The night's questions, in its language and with its players."""
        if self._table is None:
            self._table = Table(self.pack, self.players)
        return self._table

    @overload
    def ask(self, question: Question[T]) -> Answer[T]: ...

    @overload
    def ask(self, question: str, answers: Sequence[str], labels: Mapping[str, str | Line] | None = None,
            default: str | None = None, timeout: float | None = None, readback: bool = True,
            **fields: Any) -> str: ...

    def ask(self, question: Question[Any] | str, answers: Sequence[str] = (),
            labels: Mapping[str, str | Line] | None = None, default: str | None = None, timeout: float | None = None,
            readback: bool = True, **fields: Any) -> Answer[Any] | str:
        """Say the question's line and return its typed answer (keyboard or voice), logged.

        Given a key and answer tokens instead (`ask("werewolf.x", ["a", "b"], labels)`), it asks
        the choice among them and returns the token chosen."""
        if isinstance(question, str):
            choice = self.table.choice(question, answers, labels, default, timeout, readback, **fields)
            return str(self.ask(choice).value)
        self.log("question", key=question.key, text=question.prompt.text)
        self.say(question.prompt)
        while True:
            try:
                if question.timeout is not None:  # a step's time runs from the end of its line, as a
                    self.speaker.flush()  # game master's does: nobody passes a card while told to whom
                answer = self.asker.ask(question)
                break
            except KeyboardInterrupt:
                self.paused()
                self.say(question.prompt)
            except (AnswersExhausted, PutOff) as ended:  # what was heard before the keyboard met the end,
                self._log_turns(question.key, ended.turns)  # or before the question was put off
                if isinstance(ended, PutOff):
                    self.log("put_off", key=question.key)
                raise
        self._log_turns(question.key, answer.turns)
        self.log("answer", key=question.key, answer=loggable(answer.value), by=answer.how, sure=answer.sure)
        return answer

    def _log_turns(self, key: str, turns: Sequence[Turn]) -> None:
        for turn in turns:
            self.log(turn.kind.value, **turn_fields(key, turn))

    def paused(self) -> None:
        """Ctrl-C at a question: ask "resume, or quit?"; quit (or Ctrl-C again) stops the night."""
        self.log("paused")
        labels = {a: self.pack.line(f"werewolf.timer.choice_{a}") for a in (RESUME, QUIT)}
        question = self.table.choice("werewolf.paused", (RESUME, QUIT), labels)
        self.say(question.prompt)
        try:
            choice = self.asker.ask(question).value
        except KeyboardInterrupt:
            choice = QUIT
        self.log("answer", key="werewolf.paused", answer=choice)
        if choice == QUIT:
            raise NightStopped

    def label(self, answer: str) -> str:
        """How a candidate is named: players by name, the graveyard in the current language."""
        return self.pack.text("common.graveyard") if answer == "graveyard" else answer

    def card_line(self, card: Card) -> Line:
        """A card's name in the night's language, printed and spoken."""
        return self.pack.line(f"werewolf.cards.{card}")

    def card_label(self, card: Card) -> str:
        return self.card_line(card).text
