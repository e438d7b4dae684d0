"""Writers killed at random moments, forked from this small process rather than from pytest: a fork of
the test process (hundreds of MB once speech models are loaded) cost about 75 ms, most of a SIGKILL
test's time.

`python killed_writers.py WRITER` reads requests "PATH ACKS DELAY", one a line: it forks WRITER on
PATH, waits for its first ACKS acknowledgements, kills it (SIGKILL) DELAY seconds later and answers
with one JSON line, every line the writer acknowledged. `KilledWriters` runs it for a test.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

Writer = Callable[[Path, int], None]
"""Appends to a file until killed, writing one line to a pipe (its fd) once each append is on disk."""


def journal_writer() -> Writer:
    """A Humalien journal's appends: skull plays, each undone by the next line (a game's box never
    runs out of 6s); "ack LINE VALUE" once each is on disk."""
    from gm.score.journal import Journal
    from scorer.humalien.events import NewMatch, Skull, Undo

    def write(path: Path, out_fd: int) -> None:
        journal = Journal(path, warn=lambda note: None)
        while True:
            lines = path.read_bytes().count(b"\n") if path.exists() else 0
            if lines == 0:
                journal.append(lambda state: NewMatch(("Alice", "Bob")))
                os.write(out_fd, b"ack 1 new\n")
                continue
            if lines % 2 == 0:
                journal.append(lambda state: Undo())
                os.write(out_fd, f"ack {lines + 1} undo\n".encode())
                continue
            cards = (lines * 7) % 6 + 1
            journal.append(lambda state, cards=cards: Skull("Alice", cards))
            os.write(out_fd, f"ack {lines + 1} {cards}\n".encode())
    return write


def group_writer() -> Writer:
    """A group's nights kept one by one (gm.night.groups), each winner in turn; its number once on disk."""
    from gm.night.groups import GroupFile
    from gm.text.lines import Pack
    from scorer.werewolf.evening import night

    players, pack = ("Aki", "Ken", "Mio", "Sora"), Pack("en")

    def write(path: Path, out_fd: int) -> None:
        keep = GroupFile("Friday", pack, path)
        for n in range(10_000):
            winner = players[n % 4]
            keep(night(players, "traitor_werewolf", [winner], {p: "villagers" for p in players if p != winner}))
            os.write(out_fd, b"%d\n" % n)
    return write


WRITERS = {"journal": journal_writer, "group": group_writer}


def run_and_kill(write: Writer, path: Path, acks_first: int, delay: float) -> list[str]:
    """Fork a writer, let it acknowledge `acks_first` lines, SIGKILL it `delay` seconds later, and
    return every line it acknowledged (bounded by count, so a busy machine changes nothing)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child never returns
        os.close(read_fd)
        try:
            write(path, write_fd)
        finally:
            os._exit(1)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as acks:
        lines = [acks.readline() for _ in range(acks_first)]
        time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        lines += acks.read().splitlines()
    return [line.decode().strip() for line in lines if line.strip()]


class KilledWriters:
    """This file run beside a test: `run` kills one writer and returns what it acknowledged."""

    def __init__(self, writer: str) -> None:
        root = str(Path(__file__).resolve().parent.parent)  # gm's own package, not tests/gm beside this file
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
        self.process = subprocess.Popen([sys.executable, __file__, writer], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env=env)

    def run(self, path: Path, acks_first: int, delay: float = 0.0) -> list[str]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{path} {acks_first} {delay!r}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer, "the writers' process ended"
        return json.loads(answer)

    def __enter__(self) -> KilledWriters:
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(60)


def main() -> None:
    write = WRITERS[sys.argv[1]]()
    for request in sys.stdin:
        path, acks_first, delay = request.rsplit(" ", 2)
        print(json.dumps(run_and_kill(write, Path(path), int(acks_first), float(delay))), flush=True)


if __name__ == "__main__":
    main()
