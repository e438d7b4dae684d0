"""The night's JSON-lines log: one object per line with `t` (seconds since start) and `type`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from gm.ports import Clock


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
