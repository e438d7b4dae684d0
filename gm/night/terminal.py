"""The terminal during the discussion: a big live countdown and single-key controls.

Keys: space or p pauses/resumes, + or a adds 30 seconds, v or e ends the discussion (vote
now), r repeats the last instruction (never an acknowledgement). Used only when stdin is a
terminal.
"""

from __future__ import annotations

import os
import select
import sys
from typing import TYPE_CHECKING, Any, TextIO

from gm.ports import Clock, Command

if TYPE_CHECKING:
    from rich.live import Live
    from rich.panel import Panel

_FONT = {
    "0": ["███", "█ █", "█ █", "█ █", "███"],
    "1": [" ██", "  █", "  █", "  █", "  █"],
    "2": ["███", "  █", "███", "█  ", "███"],
    "3": ["███", "  █", "███", "  █", "███"],
    "4": ["█ █", "█ █", "███", "  █", "  █"],
    "5": ["███", "█  ", "███", "  █", "███"],
    "6": ["███", "█  ", "███", "█ █", "███"],
    "7": ["███", "  █", "  █", "  █", "  █"],
    "8": ["███", "█ █", "███", "█ █", "███"],
    "9": ["███", "█ █", "███", "  █", "███"],
    ":": ["   ", " █ ", "   ", " █ ", "   "],
}

KEYS = {" ": Command.TOGGLE, "p": Command.TOGGLE, "+": Command.ADD, "a": Command.ADD,
        "v": Command.END, "e": Command.END, "r": Command.REPEAT}


def clock_text(remaining: float) -> str:
    """m:ss, the seconds rounded up (2:59.2 is 3:00)."""
    secs = max(0, int(remaining + 0.999))
    return f"{secs // 60}:{secs % 60:02d}"


def big_time(remaining: float, scale: int = 1, wide: int = 1) -> str:
    """m:ss in five rows of block characters; each block `scale` rows tall and `scale` × `wide`
    columns wide (a terminal's cell is about twice as tall as it is wide: `wide=2` draws it square)."""
    text = clock_text(remaining)
    across = scale * wide
    rows = ["  ".replace(" ", " " * across).join(
        "".join(cell * across for cell in _FONT[ch][row]) for ch in text) for row in range(5)]
    return "\n".join(row for row in rows for _ in range(scale))


def big_time_width(remaining: float, scale: int = 1, wide: int = 1) -> int:
    """The columns `big_time` takes."""
    glyphs = len(clock_text(remaining))
    return (3 * glyphs + 2 * (glyphs - 1)) * scale * wide


class LiveCountdown:
    """A rich Live panel with the big remaining time; restarts itself after close()."""

    def __init__(self, title: str, help_text: str) -> None:
        self.title = title
        self.help_text = help_text
        self._live: Live | None = None

    def _render(self, remaining: float, paused: bool) -> Panel:
        from rich.align import Align
        from rich.cells import cell_len
        from rich.markup import escape
        from rich.panel import Panel
        from rich.text import Text

        colour = "yellow" if paused else ("red" if remaining <= 30 else "green")
        # The block of digits is centred as a whole: centring each row would drop a row's
        # trailing blanks and shift it a column (a "5" or "6" ends its second row in blanks).
        body = Align.center(Text(big_time(remaining), style=f"bold {colour}", no_wrap=True, end=""))
        subtitle = ("⏸  " if paused else "") + self.help_text
        return Panel(body, title=escape(self.title), subtitle=escape(subtitle), width=max(24, cell_len(subtitle) + 8))

    def show(self, remaining: float, paused: bool, added: int = 0) -> None:
        """The time left (the time added is the night's screen's to show: this panel stays small)."""
        from rich.live import Live

        if self._live is None:
            self._live = Live(self._render(remaining, paused), auto_refresh=False, transient=True)
            self._live.start()
        else:
            self._live.update(self._render(remaining, paused), refresh=True)

    def close(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None


class KeyControls:
    """Single keys from a terminal, in cbreak mode while polled; `release()` restores the terminal."""

    def __init__(self, clock: Clock, stream: TextIO | None = None) -> None:
        self.clock = clock
        self.stream = stream or sys.stdin
        self._saved: list[Any] | None = None

    def _cbreak(self) -> None:
        import termios
        import tty

        if self._saved is None:
            self._saved = termios.tcgetattr(self.stream.fileno())
            tty.setcbreak(self.stream.fileno())

    def release(self) -> None:
        import termios

        if self._saved is not None:
            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None

    def poll(self, timeout: float) -> Command | None:
        self._cbreak()
        fd = self.stream.fileno()
        ready, _, _ = select.select([fd], [], [], max(0.0, timeout * self.clock.scale))
        if not ready:
            return None
        return KEYS.get(os.read(fd, 1).decode("utf-8", "ignore").lower())
