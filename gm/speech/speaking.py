"""The speaking thread: lines are printed at once, then spoken one at a time, never two together.

`SpeechSpeaker` is the Speaker the game runners get for `--speech on` and `--speech wav:DIR`:

- `say(line)` prints `line.text` in the caller's thread and queues what is said (`prepare`,
  by default `line.spoken`); it never waits for speech, so a timer loop can call it.
- On the loudspeaker a long line is rendered part by part (sentences, clauses, Open JTalk's
  phrases: Renderer.parts) and its first part plays while the rest renders.
- An urgent line (`line.urgent`, e.g. "time is up") on a real-time output (the loudspeaker)
  cuts the line being spoken within ~20 ms and drops the lines still waiting (they were
  printed already and are stale), then is spoken. With `wav:DIR` nothing plays in real time,
  so every line is written, in order.
- `speaking` is True while audio is playing; `last_spoken_end` is the `time.monotonic()` at
  which audio last stopped (-inf before any). A listener drops microphone audio while
  `speaking` and for a grace period after `last_spoken_end`, so gm does not hear itself.
- `flush()` waits until every queued line has been spoken; `close()` flushes and stops the
  thread. `spoken` records each line played (key, text, start, end, whether it was whole).
"""

from __future__ import annotations

import math
import queue
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from collections.abc import Callable, Iterable

from gm.ports import Line, Speaker
from gm.speech.audio import Audio
from gm.speech.notes import Notes
from gm.speech.pieces import speakable
from gm.speech.sink import Sink
from gm.speech.tts import Renderer

_WAIT = 0.5  # seconds between checks that the speaking thread is still alive


@dataclass(frozen=True)
class Spoken:
    """One line as it was played: monotonic start and end, and whether it played to the end."""

    key: str
    text: str
    started: float
    ended: float
    completed: bool


@dataclass
class _Item:
    line: Line
    text: str
    cut: threading.Event = field(default_factory=threading.Event)


class SpeechSpeaker:
    """Prints through `printer` and speaks through `sink` from one thread holding one Renderer.

    The renderer is made in the thread first, then the sink: the constructor raises what either
    raises (SpeechUnavailable, UnknownVoice, BadWavDir).
    """

    def __init__(self, printer: Speaker, make_renderer: Callable[[], Renderer], make_sink: Callable[[], Sink],
                 notes: Notes, prepare: Callable[[Line], str] = lambda line: line.spoken) -> None:
        self._printer = printer
        self._notes = notes
        self._prepare = prepare
        self._pending: deque[_Item] = deque()
        self._current: _Item | None = None
        self._cond = threading.Condition()
        self._closing = False
        self._closed = False
        self._broken = False
        self.speaking = False
        self.last_spoken_end = -math.inf
        self.spoken: list[Spoken] = []
        self._renderer: Renderer | None = None
        self._failure: BaseException | None = None
        self._sink_ready = threading.Event()
        ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(make_renderer, ready), name="gm-speech", daemon=True)
        self._thread.start()
        ready.wait()
        if self._failure is not None:
            self._thread.join()
            raise self._failure
        try:
            self._sink = make_sink()
        except BaseException:
            self._stop_thread()
            raise
        self._sink_ready.set()

    @property
    def renderer(self) -> Renderer:
        """The renderer the speaking thread made (the constructor raises when it could not)."""
        if self._renderer is None:
            raise RuntimeError("the speaking thread made no renderer")
        return self._renderer

    # -- the caller's side ------------------------------------------------------------------
    def say(self, line: Line) -> None:
        self._printer.say(line)
        if self._broken or self._closing:
            return
        item = _Item(line, self._prepare(line))
        with self._cond:
            if line.urgent and self._sink.realtime:
                self._pending.clear()
                if self._current is not None:
                    self._current.cut.set()
            self._pending.append(item)
            self._cond.notify_all()

    def flush(self) -> None:
        with self._cond:
            while (self._pending or self._current is not None) and self._thread.is_alive():
                self._cond.wait(_WAIT)

    def close(self) -> None:
        if self._closed:
            return
        self.flush()
        self._stop_thread()
        self._sink.close()
        self._printer.close()
        self._closed = True

    def _stop_thread(self) -> None:
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._sink_ready.set()
        self._thread.join()

    # -- the speaking thread ----------------------------------------------------------------
    def _run(self, make_renderer: Callable[[], Renderer], ready: threading.Event) -> None:
        try:
            renderer = self._renderer = make_renderer()
        except BaseException as error:  # handed to the constructor, which raises it
            self._failure = error
            ready.set()
            return
        ready.set()
        try:
            while (item := self._next()) is not None:
                try:
                    self._speak(renderer, item)
                except Exception as error:  # a broken engine or device: go on printing only
                    self._broken = True
                    reason = str(error).splitlines()[0] if str(error) else type(error).__name__
                    self._notes.note("voice.speech_failed", reason=reason)
                finally:
                    with self._cond:
                        self._current = None
                        self._cond.notify_all()
        finally:
            renderer.close()

    def _next(self) -> _Item | None:
        self._sink_ready.wait()
        with self._cond:
            while not self._pending and not self._closing:
                self._cond.wait()
            if not self._pending:
                return None
            self._current = self._pending.popleft()
            return self._current

    def _speak(self, renderer: Renderer, item: _Item) -> None:
        """Render and play one line. A sink that `streams` (the loudspeaker) plays the first part
        while the next ones render; any other sink gets the line's audio whole."""
        if self._broken or item.cut.is_set() or not speakable(item.text):
            return
        if not self._sink.streams:
            self._play(item, [renderer.render(item.text)])
            return
        rendered: queue.Queue[Audio | None] = queue.Queue()
        failure: list[BaseException] = []

        def play() -> None:
            try:
                self._play(item, iter(rendered.get, None))
            except BaseException as error:  # raised again in the speaking thread, below
                failure.append(error)
                item.cut.set()

        player = threading.Thread(target=play, name="gm-speech-player", daemon=True)
        player.start()
        try:
            for audio in renderer.parts(item.text):
                rendered.put(audio)
                if item.cut.is_set():
                    break
        finally:
            rendered.put(None)
            player.join()
        if failure:
            raise failure[0]

    def _play(self, item: _Item, audios: Iterable[Audio]) -> None:
        """Play `audios` one after the other until the line is cut; record the line as spoken."""
        started = None
        completed = True
        try:
            for audio in audios:
                if not completed or item.cut.is_set():
                    completed = False
                    continue
                if started is None:
                    started = time.monotonic()
                    self.speaking = True
                completed = self._sink.play(audio, item.line.key, item.cut)
        finally:
            if started is not None:
                self.speaking = False
                self.last_spoken_end = time.monotonic()
        if started is not None:
            self.spoken.append(Spoken(item.line.key, item.text, started, self.last_spoken_end, completed))
