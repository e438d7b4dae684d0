"""Audio sources a listener reads: 16-bit mono PCM at the source's rate, in small blocks
(`Source`), or a recording replayed utterance by utterance (`Recording`)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

BLOCK_SECONDS = 0.1
MIN_RATE, MAX_RATE = 8000, 48000  # Hz a recording may have (vosk resamples it to the model's rate)


class Source(Protocol):
    rate: float
    ended: bool

    def read(self, timeout: float) -> bytes | None:
        """The next block, waiting up to `timeout` clock seconds; None when none came."""

    def drain(self) -> None:
        """Drop audio that arrived before now."""

    def close(self) -> None: ...


@runtime_checkable
class Recording(Protocol):
    """A recording replayed utterance by utterance (`gm.hearing.replay.Utterances`)."""

    rate: float

    @property
    def ended(self) -> bool: ...

    @property
    def position(self) -> int: ...

    def peek(self) -> Source | None: ...

    def skip(self) -> None: ...

    def window(self) -> Source: ...

    def close(self) -> None: ...
