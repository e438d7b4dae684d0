"""The speaking thread: lines are printed at once, then spoken one at a time, never two together.

`SpeechSpeaker` is the Speaker the game runners get for `--speech on` and `--speech wav:DIR`:

- `say(line)` prints `line.text` in the caller's thread and queues what is said (`prepare`,
  by default `line.spoken`); it never waits for speech, so a timer loop can call it.
- One thread renders (engines are not thread-safe), another plays. While a line plays, the
  next line queued is rendered, so it starts as soon as the line before it ends: a player who
  answers at gm's pause between two lines ("Sorry, I did not catch that." … "Kate?") would
  otherwise speak into a silence as long as a render and be talked over.
- On the loudspeaker a long line is rendered part by part (sentences, clauses, Open JTalk's
  phrases: Renderer.parts) and its first part plays while the rest renders.
- An urgent line (`line.urgent`, e.g. "time is up") on a real-time output (the loudspeaker)
  cuts the line being spoken within ~20 ms and drops the lines still waiting, rendered or not
  (they were printed already and are stale), then is spoken. With `wav:DIR` nothing plays in
  real time, so every line is written, whole and in order.
- `speaking` is True while audio is playing; `last_spoken_end` is the `time.monotonic()` at
  which audio last stopped (-inf before any). A listener drops microphone audio while
  `speaking` and for a grace period after `last_spoken_end`, so gm does not hear itself.
- `flush()` waits until every queued line has been spoken; `close()` flushes and stops the
  threads. `spoken` records each line played (key, text, start, end, whether it was whole).
- A broken engine or device stops speech with one note on stderr; lines go on being printed.
"""

from __future__ import annotations

import math
import queue
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from collections.abc import Callable, Iterator

from gm.ports import Line, Speaker
from gm.speech.audio import Audio
from gm.speech.notes import Notes
from gm.speech.pieces import speakable
from gm.speech.sink import Sink
from gm.speech.tts import Renderer

_WAIT = 0.5  # seconds between checks that the speaking thread is still alive
LINES_AHEAD = 1  # lines rendered ahead of the line playing


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
    """A line to speak and its audio, part by part as it is rendered (None after the last)."""

    line: Line
    text: str
    cut: threading.Event = field(default_factory=threading.Event)
    parts: queue.Queue[Audio | None] = field(default_factory=queue.Queue)

    def rendered(self) -> Iterator[Audio]:
        """The line's parts, each as soon as it is rendered, until the last."""
        return iter(self.parts.get, None)


class SpeechSpeaker:
    """Prints through `printer`, renders in one thread holding one Renderer and plays through
    `sink` in another.

    The renderer is made in the speaking thread first, then the sink: the constructor raises
    what either raises (SpeechUnavailable, UnknownVoice, BadWavDir).
    """

    def __init__(self, printer: Speaker, make_renderer: Callable[[], Renderer], make_sink: Callable[[], Sink],
                 notes: Notes, prepare: Callable[[Line], str] = lambda line: line.spoken) -> None:
        self._printer = printer
        self._notes = notes
        self._prepare = prepare
        self._pending: deque[_Item] = deque()  # said, not yet rendered
        self._handed: deque[_Item] = deque()  # being rendered or rendered, not yet played to the end
        self._cond = threading.Condition()
        self._closing = False
        self._rendering_over = False
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
                for stale in self._handed:
                    stale.cut.set()
            self._pending.append(item)
            self._cond.notify_all()

    def hush(self) -> None:
        """The line playing cut within ~20 ms on a real-time output, the lines waiting dropped (a
        night stopped by a signal: closing the terminal mid-line left gm speaking to the end of
        its line, up to 20 s of a Japanese one)."""
        with self._cond:
            self._pending.clear()
            for item in self._handed:
                item.cut.set()
            self._cond.notify_all()

    def flush(self) -> None:
        with self._cond:
            while (self._pending or self._handed) and self._thread.is_alive():
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

    def _stop_speech(self, error: Exception) -> None:
        """Speech stops for good (a broken engine or device), with one note: lines are printed only."""
        with self._cond:
            if self._broken:
                return
            self._broken = True
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        self._notes.note("voice.speech_failed", reason=reason)

    # -- the speaking thread: renders -------------------------------------------------------
    def _run(self, make_renderer: Callable[[], Renderer], ready: threading.Event) -> None:
        try:
            renderer = self._renderer = make_renderer()
        except BaseException as error:  # handed to the constructor, which raises it
            self._failure = error
            ready.set()
            return
        ready.set()
        player = threading.Thread(target=self._play_lines, name="gm-speech-player", daemon=True)
        player.start()
        try:
            while (item := self._next()) is not None:
                try:
                    self._render(renderer, item)
                except Exception as error:  # a broken engine: go on printing only
                    self._stop_speech(error)
        finally:
            with self._cond:
                self._rendering_over = True
                self._cond.notify_all()
            player.join()
            renderer.close()

    def _next(self) -> _Item | None:
        """The next line to render, handed to the player at once; it waits while LINES_AHEAD
        lines are rendered ahead of the one playing. None once closing with nothing left."""
        self._sink_ready.wait()
        with self._cond:
            while True:
                if self._pending and len(self._handed) <= LINES_AHEAD:
                    item = self._pending.popleft()
                    self._handed.append(item)
                    self._cond.notify_all()
                    return item
                if not self._pending and self._closing:
                    return None
                self._cond.wait()

    def _render(self, renderer: Renderer, item: _Item) -> None:
        """Render one line into its parts. A sink that `streams` (the loudspeaker) gets each part
        as soon as it is rendered, so the first plays while the next ones render; any other sink
        gets the line's audio whole."""
        try:
            if self._broken or item.cut.is_set() or not speakable(item.text):
                return
            if not self._sink.streams:
                item.parts.put(renderer.render(item.text))
                return
            for audio in renderer.parts(item.text):
                item.parts.put(audio)
                if item.cut.is_set():
                    break
        finally:
            item.parts.put(None)

    # -- the player thread: plays -----------------------------------------------------------
    def _play_lines(self) -> None:
        """Play the lines handed over, in order, each as its parts come."""
        while (item := self._next_rendered()) is not None:
            parts = item.rendered()
            try:
                self._play(item, parts)
            except Exception as error:  # a broken device: go on printing only
                item.cut.set()
                self._stop_speech(error)
            finally:
                for _ in parts:  # what the renderer gives of a line cut or broken off
                    continue
                with self._cond:
                    self._handed.popleft()
                    self._cond.notify_all()

    def _next_rendered(self) -> _Item | None:
        with self._cond:
            while not self._handed and not self._rendering_over:
                self._cond.wait()
            return self._handed[0] if self._handed else None

    def _play(self, item: _Item, audios: Iterator[Audio]) -> None:
        """Play `audios` one after the other until the line is cut; record the line as spoken.
        A line not started when speech stops is not played."""
        started = None
        completed = True
        try:
            for audio in audios:
                if not completed or item.cut.is_set() or (started is None and self._broken):
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
