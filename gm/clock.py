"""The real clock: monotonic, optionally compressed by a time scale (tests use a fake one)."""

from __future__ import annotations

import time


class RealClock:
    """Game seconds since creation; with scale 0.1 a game minute lasts six real seconds."""

    def __init__(self, scale: float = 1.0) -> None:
        if scale <= 0:
            raise ValueError(f"time scale must be positive, got {scale}")
        self.scale = scale
        self._start = time.monotonic()

    def now(self) -> float:
        return (time.monotonic() - self._start) / self.scale

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds * self.scale)

