"""On disk: the night's JSON-lines log (one object per line with `t`, seconds since start, and
`type`), and beside it the evening's tally of wins."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, TextIO

from gm.ports import Clock
from gm.werewolf.evening import Evening

EVENING_SUFFIX = ".evening.json"


def data_dir() -> Path:
    """Where nights and evenings are kept by default (e.g. ~/.local/share/gm/werewolf)."""
    import platformdirs

    return platformdirs.user_data_path("gm") / "werewolf"


def new_log_path() -> Path:
    """A fresh night log in the data dir, named by the local time it starts."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
    path, n = folder / f"{stamp}.jsonl", 1
    while path.exists():
        n += 1
        path = folder / f"{stamp}_{n}.jsonl"
    return path


def evening_path(log: Path) -> Path:
    """The evening's tally beside its night log: night.jsonl → night.evening.json."""
    return log.with_name(log.stem + EVENING_SUFFIX)


def latest_evening() -> Path | None:
    """The most recently written evening in the data dir, if any."""
    folder = data_dir()
    found = sorted(folder.glob(f"*{EVENING_SUFFIX}"), key=lambda p: p.stat().st_mtime) if folder.is_dir() else []
    return found[-1] if found else None


class EveningFile:
    """Keeps the evening's tally in one JSON file, replaced whole after every night."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __call__(self, evening: Evening) -> None:
        temporary = self.path.with_name(self.path.name + ".tmp")
        temporary.write_text(json.dumps(evening.to_json(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        os.replace(temporary, self.path)


class NightLog:
    """Appends events to a file as they happen, each line flushed, so a crash keeps the night."""

    def __init__(self, path: Path, clock: Clock) -> None:
        self.clock = clock
        self._file: TextIO = open(path, "w", encoding="utf-8")

    def __call__(self, kind: str, **data: Any) -> None:
        event = {"t": round(self.clock.now(), 3), "type": kind, **data}
        self._file.write(json.dumps(event, ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()
