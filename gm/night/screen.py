"""The night on a whole screen (`gm werewolf play --screen`), to be read from across the room:
the phase, the discussion's time in big digits (paused, time added), the question asked with its
answers, the tally as bars as the counts come in, and the verdict.

The screen decides nothing: it watches the night at its edges — the night log's events (phase,
vote, verdict), the questions the asker is given and their answers, the lines the speaker says,
the time the timer shows — and draws them. `Watch` keeps what is shown (a `View`), `layout` lays
a view out for a width and height (rich), and `NightScreen` draws it on the terminal's alternate
screen, above a strip of bottom rows where the lines are printed and answers typed as without it
(the prompt stays where it was). It follows the terminal's size, and on leaving it prints the
night's lines and the answers given on the ordinary screen, where they stay in the scroll-back.
"""

from __future__ import annotations

import io
import os
import shutil
import signal
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import FrameType, TracebackType
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from gm.night.terminal import big_time, big_time_width, clock_text
from gm.ports import Answer, Asker, Line, PutOff, Question, Speaker, Turn, TurnKind
from gm.table.asked import NONE
from gm.table.counting import Count, Tally
from gm.text.lines import Pack
from scorer.werewolf.tally import GRAVEYARD

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.layout import Layout
    from rich.text import Text

T = TypeVar("T")
Log = Callable[..., None]

WIDE, TALL = 100, 30
"""A terminal at least this size (columns, rows), with the keyboard and the screen both on it,
shows the night's screen without --screen."""
FIRST_COUNT = "werewolf.vote.ask_count"  # the line of a round's first count (the next ones say the name alone)
VOTER = "werewolf.vote.ask_voter"  # a roll call's question
ALTERNATE_ON, ALTERNATE_OFF = "\x1b[?1049h", "\x1b[?1049l"
SAVE, RESTORE = "\x1b7", "\x1b8"  # the cursor (in the strip) is kept while the view is drawn
BAR = "█"


def wanted(choice: bool | None, keyboard: bool, screen: bool, columns: int, lines: int) -> bool:
    """Whether the night is shown on the whole screen: as chosen (--screen / --no-screen) where
    the output is a terminal (`screen`), else by itself where the keyboard is one too and the
    terminal is at least WIDE × TALL."""
    if choice is not None:
        return choice and screen
    return keyboard and screen and columns >= WIDE and lines >= TALL


def strip_rows(rows: int) -> int:
    """The bottom rows kept for the printed lines and the prompt: a quarter of the screen, 3 to 12."""
    return max(3, min(12, rows // 4))


@dataclass
class View:
    """What the screen shows. `remaining` is None until the discussion starts; `counts` are the
    counts given so far of the `candidates` (none yet: not shown as 0), bars `most` long at most."""

    phase: str = "setup"
    said: str = ""
    question: str = ""
    answers: str = ""
    remaining: float | None = None
    paused: bool = False
    added: int = 0
    candidates: tuple[str, ...] = ()
    counts: dict[str, int] = field(default_factory=dict)
    most: int = 0
    agreed: bool = False
    runoff: bool = False
    verdict: str = ""


class Watch:
    """Keeps the view from the night's events as they come; `lines` are the night's lines as
    printed, and the answers given ("  > Aki 2") and refused ("  ? …"), in order."""

    def __init__(self) -> None:
        self.view = View()
        self.lines: list[str] = []
        self._rounds = 0  # rounds of the vote agreed tonight
        self._counted = True  # the round's counts are all in: the next count starts a round

    def event(self, kind: str, **data: Any) -> None:
        """One event of the night log (gm.night.log)."""
        if kind == "phase":
            if data["name"] == "setup":  # the next night of the evening
                self.view, self._rounds, self._counted = View(said=self.view.said), 0, True
            self.view.phase = data["name"]
        elif kind == "vote":
            self.view.counts = dict(data["counts"])
            self.view.candidates = tuple(data["counts"])
            self.view.agreed, self._counted = True, True
            self._rounds += 1
        elif kind == "vote_refused":
            self._counted = True
        elif kind == "verdict":
            self.view.verdict = data["reason"]

    def said(self, line: Line) -> None:
        self.lines.append(line.text)
        self.view.said = line.text

    def asking(self, question: Question[Any]) -> None:
        view = self.view
        view.question = question.prompt.text
        view.answers = question.hint() if isinstance(question, Tally) else question.choices().text
        if isinstance(question, Count) and question.prompt.key == FIRST_COUNT:
            self._round(question.following, question.bounds[1])
        elif question.key == VOTER and self._counted:
            choices = tuple(a for a in question.answers if a != NONE)
            self._round(choices, len([c for c in choices if c != GRAVEYARD]))
        elif isinstance(question, Tally):
            view.counts = dict(question.shown)

    def _round(self, candidates: tuple[str, ...], most: int) -> None:
        view = self.view
        view.candidates, view.counts, view.most = candidates, {}, most
        view.agreed, view.runoff, self._counted = False, self._rounds > 0, False

    def answered(self, question: Question[T], answer: Answer[T]) -> None:
        self.over(answer.turns)
        view, value = self.view, answer.value
        if isinstance(question, (Count, Tally)) and isinstance(value, Mapping):
            view.counts.update(value)
        elif isinstance(question, Tally) and value is True:
            view.agreed = True
        elif question.key == VOTER and isinstance(value, str):
            view.counts[value] = view.counts.get(value, 0) + 1

    def over(self, turns: Sequence[Turn]) -> None:
        """A question over, answered or put off (`PutOff`): what was heard and typed at it, in the strip."""
        for turn in turns:
            if turn.kind in (TurnKind.TYPED, TurnKind.HEARD):
                self.lines.append(f"  > {turn.text}")
            elif turn.kind is TurnKind.REFUSED:
                self.lines.append(f"  ? {turn.text}")
        self.view.question = self.view.answers = ""

    def timer(self, remaining: float, paused: bool, added: int) -> None:
        self.view.remaining, self.view.paused, self.view.added = remaining, paused, added


# -- the layout (rich) -----------------------------------------------------------------------------
def _height(renderable: RenderableType, width: int) -> int:
    """Rows `renderable` takes at `width` columns."""
    from rich.console import Console

    console = Console(file=io.StringIO(), width=max(1, width), legacy_windows=False)
    return len(console.render_lines(renderable, console.options.update_width(max(1, width)), pad=False))


def _now(view: View, width: int) -> tuple[RenderableType, int]:
    """The question asked and its answers, or else the last line said; with the rows it takes."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    if view.question:
        body: RenderableType = Group(Text(view.question, style="bold"), Text(view.answers, style="cyan"))
    else:
        body = Text(view.said)
    return Panel(body, border_style="cyan" if view.question else "dim"), _height(body, width - 4) + 2


def _timer(view: View, pack: Pack, width: int, height: int) -> RenderableType:
    """The time left in digits as big as the panel takes; paused and time added on its top border,
    the keys on its bottom one."""
    from rich.align import Align
    from rich.panel import Panel
    from rich.text import Text

    remaining = view.remaining or 0.0
    colour = "yellow" if view.paused else ("red" if remaining <= 30 else "green")
    rows, columns = height - 2, width - 4
    scale = max([k for k in range(1, 13) if 5 * k <= rows and big_time_width(remaining, k, 2) <= columns], default=0)
    if scale:
        digits = big_time(remaining, scale, 2)
    elif rows >= 5 and big_time_width(remaining) <= columns:
        digits = big_time(remaining)
    else:
        digits = clock_text(remaining)
    status = [pack.text("werewolf.screen.paused")] if view.paused else []
    if view.added:
        status.append(pack.text("werewolf.screen.added", secs=view.added))
    body = Align.center(Text(digits, style=f"bold {colour}", no_wrap=True, end=""), vertical="middle")
    return Panel(body, title=" · ".join(status) or None, title_align="center", border_style=colour,
                 subtitle=pack.text("werewolf.timer.keys"))


def _tally(view: View, pack: Pack, width: int, height: int) -> RenderableType:
    """One bar per candidate, as long as its count (`most` fills the bar); a count not given yet is "…"."""
    from rich.cells import cell_len
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    graveyard = pack.text("common.graveyard")
    labels = [graveyard if c == GRAVEYARD else c for c in view.candidates]
    full = max([view.most, 1, *view.counts.values()])
    label_width = max(map(cell_len, labels), default=0)
    bar_width = max(1, width - 4 - label_width - len(str(full)) - 4)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True, vertical="middle")
    grid.add_column(no_wrap=True)
    grid.add_column(justify="right", no_wrap=True, vertical="middle")
    each = max(1, min(3, (height - 1) // max(1, len(labels)) - 1))  # a bar's rows, with a blank row between
    apart = height - 2 >= (each + 1) * len(labels) - 1
    for i, (candidate, label) in enumerate(zip(view.candidates, labels)):
        if apart and i:
            grid.add_row()
        n = view.counts.get(candidate)
        bar = Text("\n".join([BAR * round((n or 0) / full * bar_width)] * each),
                   style="bold green" if view.agreed else "bold cyan")
        grid.add_row(Text(label, style="bold"), bar, Text("…" if n is None else str(n), style="bold"))
    title = pack.text("werewolf.screen.runoff" if view.runoff else "werewolf.screen.votes")
    return Panel(grid, title=title, subtitle=pack.text("werewolf.screen.agreed") if view.agreed else None,
                 border_style="green" if view.agreed else "cyan")


def _verdict(view: View, pack: Pack) -> RenderableType:
    from rich.align import Align
    from rich.panel import Panel

    return Panel(Align.center(_verdict_text(view), vertical="middle"), title=pack.text("werewolf.screen.verdict"),
                 border_style="magenta")


def _verdict_text(view: View) -> Text:
    from rich.text import Text

    return Text(view.verdict, style="bold", justify="center")


def layout(view: View, pack: Pack, width: int, height: int) -> RenderableType:
    """The view for a screen of `width` × `height`: a header with the phase; the verdict; the
    discussion's time or the tally, as big as the rest of the screen; and the question asked (or
    the last line said) below."""
    from rich.align import Align
    from rich.layout import Layout
    from rich.text import Text

    header = Text(f" {pack.text('werewolf.screen.title')} · {pack.text(f'werewolf.screen.{view.phase}')}",
                  style="bold reverse", no_wrap=True, overflow="ellipsis")
    now, now_rows = _now(view, width)
    timer = view.phase == "day" and view.remaining is not None
    tally = view.phase in ("evening", "end") and bool(view.candidates)
    verdict = view.phase == "end" and bool(view.verdict)
    sections = [Layout(header, size=1)]
    if not (timer or tally or verdict):
        sections.append(Layout(Align.center(now, vertical="middle"), ratio=1))
        return _column(sections)
    body = height - 1 - now_rows
    if verdict:
        rows = _height(_verdict_text(view), width - 4) + 2
        roomy = rows + 2 if not tally or body - rows - 2 >= len(view.candidates) + 2 else rows
        sections.append(Layout(_verdict(view, pack), size=roomy if tally else None))
        body -= roomy
    if timer:
        sections.append(Layout(_timer(view, pack, width, body), ratio=1))
    elif tally:
        sections.append(Layout(_tally(view, pack, width, body), ratio=1))
    sections.append(Layout(now, size=now_rows))
    return _column(sections)


def _column(sections: list[Layout]) -> Layout:
    from rich.layout import Layout

    root = Layout()
    root.split_column(*sections)
    return root


def render_rows(view: View, pack: Pack, width: int, height: int, colours: str | None = None) -> list[str]:
    """The view's `height` rows at `width` columns, with the terminal's colours (None: plain text)."""
    from rich.console import Console

    console = Console(file=io.StringIO(), width=width, height=height, force_terminal=colours is not None,
                      color_system=colours, legacy_windows=False, highlight=False, emoji=False)  # type: ignore[arg-type]
    with console.capture() as capture:
        console.print(layout(view, pack, width, height), end="")
    return capture.get().split("\n")[:height]


# -- the terminal ------------------------------------------------------------------------------------
class NightScreen:
    """The night's screen on the terminal `out` (see the module's doc). It is the discussion's
    timer display; `asker`, `speaker` and `log` wrap the night's ports and log so it sees the
    questions, the lines and the events. Used as a context manager: entered, the alternate screen
    shows; left (also on Ctrl-C or a signal), the terminal is as it was and the night's lines are
    printed."""

    def __init__(self, pack: Pack, out: TextIO | None = None) -> None:
        self.pack = pack
        self.watch = Watch()
        self.out = out or sys.stdout
        self._on = False
        self._size: tuple[int, int] | None = None  # the size last drawn at
        self._rows: list[str] = []  # the view's rows as last drawn
        self._prompt = ""  # the typed prompt, shown again after a resize
        self._colours: str | None = None
        self._lock = threading.Lock()
        self._drawing = False
        self._resized = False
        self._previous: Any = None

    # the ports and the log, watched
    def asker(self, asker: Asker) -> Asker:
        return WatchedAsker(asker, self)

    def speaker(self, speaker: Speaker) -> Speaker:
        return WatchedSpeaker(speaker, self)

    def log(self, log: Log) -> Log:
        def both(kind: str, **data: Any) -> None:
            log(kind, **data)
            self.watch.event(kind, **data)
            self.draw()
        return both

    def asking(self, question: Question[Any]) -> None:
        self.watch.asking(question)
        self._prompt = f"  [{question.hint()}] > "
        self.draw()

    def answered(self, question: Question[T], answer: Answer[T]) -> None:
        self.watch.answered(question, answer)
        self._prompt = ""
        self.draw()

    def put_off(self, turns: Sequence[Turn]) -> None:
        self.watch.over(turns)
        self._prompt = ""
        self.draw()

    def said(self, line: Line) -> None:
        self.watch.said(line)
        self.draw()

    # the timer display
    def show(self, remaining: float, paused: bool, added: int = 0) -> None:
        self.watch.timer(remaining, paused, added)
        self.draw()

    def close(self) -> None:
        """The discussion's time stays shown as it last was."""

    # the terminal
    def __enter__(self) -> NightScreen:
        from rich.console import Console

        self._colours = Console(file=self.out).color_system
        self._write(ALTERNATE_ON)
        self._on = True
        if hasattr(signal, "SIGWINCH") and threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGWINCH, self._on_resize)
        self.draw()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.leave()

    def leave(self) -> None:
        """Back to the ordinary screen, where the night's lines are printed."""
        if not self._on:
            return
        with self._lock:
            self._on = False
            self._write("\x1b[r" + ALTERNATE_OFF)
        if self._previous is not None:
            signal.signal(signal.SIGWINCH, self._previous)
            self._previous = None
        self._write("".join(f"{line}\n" for line in self.watch.lines))

    def _on_resize(self, signum: int, frame: FrameType | None) -> None:
        self._resized = True
        if not self._drawing:
            self.draw()

    def _terminal_size(self) -> tuple[int, int]:
        try:
            size = os.get_terminal_size(self.out.fileno())
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            size = shutil.get_terminal_size()
        return max(20, size.columns), max(8, size.lines)

    def draw(self) -> None:
        """Draw what changed in the view (all of it, and the strip, at a new size); the cursor
        stays in the strip."""
        if not self._on:
            return
        with self._lock:
            self._drawing = True
            try:
                while self._on:
                    self._resized = False
                    columns, rows = self._terminal_size()
                    parts = []
                    if (columns, rows) != self._size:
                        parts.append(self._frame(columns, rows))
                        self._size, self._rows = (columns, rows), []
                    lines = render_rows(self.watch.view, self.pack, columns, rows - strip_rows(rows), self._colours)
                    changed = [f"\x1b[{i + 1};1H{line}" for i, line in enumerate(lines)
                               if i >= len(self._rows) or self._rows[i] != line]
                    self._rows = lines
                    if changed:
                        parts += [SAVE, *changed, RESTORE]
                    self._write("".join(parts))
                    if not self._resized:
                        break
            finally:
                self._drawing = False

    def _frame(self, columns: int, rows: int) -> str:
        """The screen cleared, the strip's scrolling rows set and filled with the last lines, and
        the prompt shown again at its bottom."""
        from rich.cells import set_cell_size

        strip = strip_rows(rows)
        top = rows - strip + 1
        tail = self.watch.lines[len(self.watch.lines) - (strip - 1):] if strip > 1 else []
        shown = "\r\n".join(set_cell_size(line, columns).rstrip() for line in tail)
        return f"\x1b[r\x1b[2J\x1b[{top};{rows}r\x1b[{top};1H{shown}\x1b[{rows};1H{self._prompt}"

    def _write(self, text: str) -> None:
        if text:
            self.out.write(text)
            self.out.flush()


class WatchedAsker:
    """An asker whose questions and answers the screen sees."""

    def __init__(self, asker: Asker, screen: NightScreen) -> None:
        self._asker = asker
        self._screen = screen

    def ask(self, question: Question[T]) -> Answer[T]:
        self._screen.asking(question)
        try:
            answer = self._asker.ask(question)
        except PutOff as off:
            self._screen.put_off(off.turns)
            raise
        self._screen.answered(question, answer)
        return answer

    def close(self) -> None:
        self._asker.close()


class WatchedSpeaker:
    """A speaker whose lines the screen sees (it prints and speaks them as before)."""

    def __init__(self, speaker: Speaker, screen: NightScreen) -> None:
        self._speaker = speaker
        self._screen = screen

    @property
    def speaking(self) -> bool:
        return self._speaker.speaking

    @property
    def last_spoken_end(self) -> float:
        return self._speaker.last_spoken_end

    def say(self, line: Line) -> None:
        self._speaker.say(line)
        self._screen.said(line)

    def flush(self) -> None:
        self._speaker.flush()

    def hush(self) -> None:
        self._speaker.hush()

    def close(self) -> None:
        self._speaker.close()
