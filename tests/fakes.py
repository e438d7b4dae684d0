"""Fakes for the ports: a clock, a recording speaker, scripted answers, scripted timer commands; a
recogniser that hears what a script says; hostile files."""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import json

from gm.hearing.phrases import Heard
from gm.ports import Answer, How, Line, Question, Refused


class FakeClock:
    """A clock that only moves when slept on or advanced: for tests."""

    def __init__(self, start: float = 0.0) -> None:
        self.scale = 1.0
        self.t = start

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self.t += seconds

    advance = sleep


class RecordingSpeaker:
    speaking = False
    last_spoken_end = -math.inf

    def __init__(self, clock: FakeClock | None = None) -> None:
        self.clock = clock
        self.lines: list[Line] = []
        self.times: list[float] = []
        self.flushed = 0

    def say(self, line: Line) -> None:
        self.lines.append(line)
        self.times.append(self.clock.now() if self.clock else 0.0)

    def flush(self) -> None:
        self.flushed += 1

    def close(self) -> None:
        """Nothing to release: the lines stay for the test to read."""

    @property
    def keys(self) -> list[str]:
        return [line.key for line in self.lines]


def key_and_fields(value):
    """A line as its key and fields, lines inside it alike: what was said, whatever the wording
    of the language (the voice packs are tested on their own)."""
    if isinstance(value, Line):
        return value.key, {name: key_and_fields(field) for name, field in value.fields.items()}
    if isinstance(value, (list, tuple)):
        return [key_and_fields(item) for item in value]
    return value


CTRL_C = "^C"
FAST = ("--time-scale", "0.001", "--discussion", "10")
"""A typed night's clock as fast as `gm werewolf play` allows: a game minute in 60 ms, the shortest discussion."""


class ScriptedAsker:
    """Answers questions from a list, each reply read by the question's own parser as if typed
    (a reply that does not parse fails the test); None lets a timed question time out on the
    fake clock, "" takes the default (Enter). A reply may be an `Answer` (as heard by voice).

    A reply may be a (key, reply) pair to assert which question it is for; the reply CTRL_C
    stands for Ctrl-C pressed at that question. A whole tally's read-back with no reply of its
    own scripted is accepted, as with Enter."""

    def __init__(self, answers, clock: FakeClock) -> None:
        self.answers = list(answers)
        self.clock = clock
        self.questions: list[Question] = []

    def ask(self, question: Question) -> Answer:
        self.questions.append(question)
        if question.key == "werewolf.vote.readback" and not self._answers_readback():
            return Answer(question.default, How.DEFAULT)  # the whole tally accepted, as with Enter
        if not self.answers:
            raise AssertionError(f"no scripted answer left for {question.key}")
        answer = self.answers.pop(0)
        if isinstance(answer, tuple):
            key, answer = answer
            assert question.key == key, f"expected question {key}, got {question.key}"
        if answer == CTRL_C:
            raise KeyboardInterrupt
        if isinstance(answer, Answer):
            return answer
        if answer is None:
            assert question.timeout is not None, f"{question.key} has no timeout"
            self.clock.sleep(question.timeout)
            return Answer(question.default, How.DEFAULT)
        if answer == "" and question.has_default:
            return Answer(question.default, How.DEFAULT)
        value = question.parse(answer)
        assert not isinstance(value, Refused), f"{answer!r} is no answer to {question.key}: {value.line.text}"
        return Answer(value)

    def close(self) -> None:
        """Nothing to let go of."""

    def _answers_readback(self) -> bool:
        first = self.answers[0] if self.answers else None
        return isinstance(first, tuple) and first[0] == "werewolf.vote.readback"


class ScriptedControls:
    """Timer commands at given clock times: [(t, "pause"), (t2, "resume"), ...]."""

    def __init__(self, clock: FakeClock, events=()) -> None:
        self.clock = clock
        self.events = sorted(events)
        self.polls = 0

    def poll(self, timeout: float) -> str | None:
        self.polls += 1
        deadline = self.clock.now() + timeout
        if self.events and self.events[0][0] <= deadline:
            t, command = self.events.pop(0)
            self.clock.t = max(self.clock.t, t)
            if command == "interrupt":
                raise KeyboardInterrupt
            return command
        self.clock.t = deadline
        return None

    def release(self) -> None:
        """No terminal to give back."""


class RecordingDisplay:
    def __init__(self) -> None:
        self.shown: list[tuple[float, bool]] = []
        self.closed = 0
        self.added: list[int] = []  # the seconds added, as each time was shown

    def show(self, remaining: float, paused: bool, added: int = 0) -> None:
        self.shown.append((remaining, paused))
        self.added.append(added)

    def close(self) -> None:
        self.closed += 1


def hostile(path: Path, kind: str) -> None:
    """Make `path` (a file gm keeps beside another) hostile: "fifo", "dangling" (a link to nowhere),
    "zero" (a link to /dev/zero), "damaged" (an index line of wrong types, then deep nesting),
    "folder"; any other kind leaves nothing there."""
    if path.is_dir() and not path.is_symlink():
        path.rmdir()
    else:
        path.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dangling":
        path.symlink_to(path.with_name("missing") / "nowhere")
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "damaged":
        path.write_text('{"match": 1, "offset": -5, "length": 1000000000000000, "line": [[[1]]]}\n' + "[" * 50_000)
    elif kind == "folder":
        path.mkdir()


# -- listening: a recogniser that hears exactly what a script says ---------------------------
def said(text, conf=1.0):
    """One utterance as the recogniser reports it at its end."""
    return json.dumps({"text": text, "result": [{"word": w, "conf": conf} for w in text.split()]})


class FakeRecogniser:
    under_way = False  # a scripted utterance comes whole, in one block

    def accept(self, block):
        return Heard.from_result(json.loads(block)) if block else None

    def finish(self):
        return Heard("")


class FakeModel:
    def __init__(self, words=None, unk=False):
        self.words, self.unk, self.grammars = words, unk, []

    def hears(self, word):
        return self.words is None or word in self.words

    def recogniser(self, rate, book=None):
        self.grammars.append(json.loads(book.grammar()) if book else None)
        return FakeRecogniser()


class ScriptSource:
    """A block every 0.1 clock seconds, like a microphone: a scripted utterance or silence ("");
    after the script, silence forever (a microphone) or the end (a file)."""

    rate = 16000.0

    def __init__(self, clock, items=(), endless=True):
        self.clock, self.items, self.endless, self.ended = clock, list(items), endless, False
        self.next_at = clock.now() + 0.1

    def read(self, timeout):
        if not (self.items or self.endless):
            self.ended = True
            self.clock.sleep(timeout)
            return None
        wait = self.next_at - self.clock.now()
        if wait > timeout:
            self.clock.sleep(timeout)
            return None
        self.clock.sleep(wait)
        self.next_at += 0.1
        return self.block()

    def block(self):
        """The next block: the script's next utterance, or silence."""
        return self.items.pop(0) if self.items else ""

    def drain(self):
        """No backlog: the next block is the one recorded from now on."""
        self.next_at = max(self.next_at, self.clock.now() + 0.1)

    def close(self):
        """Nothing to release: the blocks are in memory."""


class FakeSpeaker:
    """A speaker (the `Speaker` port) that keeps the lines; `on_say(line)` runs as each is said."""

    speaking = False
    last_spoken_end = -math.inf

    def __init__(self, on_say=None):
        self.lines, self.on_say = [], on_say

    def say(self, line):
        self.lines.append(line)
        if self.on_say:
            self.on_say(line)

    def keys(self):
        return [line.key for line in self.lines]

    def texts(self):
        return [line.text for line in self.lines]

    def flush(self):
        """Every line is said at once."""

    def hush(self):
        """Nothing is still being said."""

    def close(self):
        """Nothing to release."""


def listening_asker(clock, items=(), keyboard="", model=None, endless=True, speaker=None, seats=(), pack=None):
    """A real `ListeningAsker` over a `ScriptSource` of `items` (see `said`), with the keyboard reading
    `keyboard`; returns it and the lines the keyboard printed."""
    import io

    from gm.hearing.keyboard import KeyboardAsker
    from gm.hearing.session import Listener
    from gm.hearing.listening import ListeningAsker
    from gm.text.lines import Pack

    stream = io.StringIO(keyboard) if isinstance(keyboard, str) else keyboard
    out = []
    listener = Listener(model or FakeModel(), ScriptSource(clock, items, endless))
    kb = KeyboardAsker(clock, stream, echo=out.append)
    return ListeningAsker(listener, kb, speaker or FakeSpeaker(), pack or Pack("en"), clock, seats=seats), out


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[int]:
    """An HTTP server on 127.0.0.1 answering with `handler`, in a thread: its port. It stops
    within 10 ms of the block's end."""
    http = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    http.daemon_threads = True
    thread = threading.Thread(target=http.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield http.server_port
    finally:
        http.shutdown()
        http.server_close()
        thread.join()


def file_handler(files: dict[str, tuple[bytes, bool, float]], cut: list[str],
                 served: threading.Semaphore | None = None) -> type[BaseHTTPRequestHandler]:
    """An HTTP handler serving `files[path] = (body, with_length, pause)`: the body in 64 KB
    pieces, `pause` seconds after each; without a length it ends with the connection (HTTP/1.0).
    A path not in `files` is a 404; `cut` lists the paths whose reader hung up before the end
    (the server finds that out on its own thread: `served` is released as each request is done)."""
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            try:
                self._serve()
            finally:
                if served is not None:
                    served.release()

        def _serve(self) -> None:
            if self.path not in files:
                self.send_error(404)
                return
            body, with_length, pause = files[self.path]
            self.send_response(200)
            if with_length:
                self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                for at in range(0, len(body), 1 << 16):
                    self.wfile.write(body[at:at + (1 << 16)])
                    time.sleep(pause)
            except OSError:
                cut.append(self.path)

        def log_message(self, *args: object) -> None:
            """Results are read from the client, not from the server's log."""

    return Handler


def count_calls(monkeypatch, module, name: str) -> list[int]:
    """Counts the calls of `module.name` (the work a command does) in the list's one item."""
    count = [0]
    real = getattr(module, name)

    def counting(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return count
