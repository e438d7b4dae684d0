"""The night's screen (`gm werewolf play --screen`): a whole typed night in a pseudo-terminal with a
fake clock, read through a terminal emulator (pyte) at 80×24 and at 200×60 (after a resize from
80×24), compared with the captures kept in tests/fixtures/screen_*.txt; the layout alone with
rich's recording console; and the choice of the screen where there is no terminal.

After a deliberate change to the screen, rewrite the captures with
`PYTHONPATH=.:bench:tests .venv/bin/python tests/gm/night/test_night_screen.py` and read the diff.
"""

from __future__ import annotations

import fcntl
import io
import os
import select
import signal
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fakes import FAST
from gm.cli import app
from gm.night.screen import ALTERNATE_OFF, View, layout, wanted
from gm.text.lines import Pack

HERE = Path(__file__).resolve().parents[2]  # tests/: its fixtures and screen_night.py
ROOT = HERE.parent
PLAYERS = "Aki,Ken,Mio,Sora"
DISCUSSION, HOLD = 60, 15  # the discussion's seconds; a key is awaited 15 s into it, three times
# (question key, what is typed, the capture taken at its prompt before typing)
ANSWERS = [
    ("werewolf.deal", "", None),
    ("werewolf.pass_right", "", None),
    ("werewolf.lay_down", "", None),
    ("werewolf.seer_one", "", None),
    ("werewolf.vote.ask_count", "3", None),
    ("werewolf.vote.ask_count", "1", "counting"),
    ("werewolf.vote.readback", "", "tally"),
    ("werewolf.reveal.ask_hand", "werewolf traitor", None),
    ("werewolf.evening.again", "no", "verdict"),
]
KEYS = [(" ", "countdown"), ("+", None), ("v", "paused")]  # the keys at the holds, and the capture before each
SIZES = {"80x24": ((80, 24), (80, 24)), "200x60": ((80, 24), (200, 60))}  # started at, then resized to


def fixture(size: str) -> Path:
    return HERE / "fixtures" / f"screen_{size}.txt"


def _winsize(fd: int, columns: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


IDLE_LOOKS = 2400  # looks at the night's output, 0.05 s apart, with nothing new before it is taken as hung


class Terminal:
    """The night in a pseudo-terminal, read by pyte; `until_ready` waits for the night to wait."""

    def __init__(self, start: tuple[int, int]) -> None:
        import pyte

        self.master, slave = os.openpty()
        _winsize(slave, *start)
        self.screen = pyte.Screen(*start)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        sync_read, sync_write = os.pipe()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(HERE), str(ROOT / "bench")]),
                   TERM="xterm-256color", SCREEN_NIGHT_SYNC=str(sync_write))
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        self.night = subprocess.Popen(
            [sys.executable, str(HERE / "screen_night.py"), PLAYERS, str(DISCUSSION), *[str(HOLD)] * len(KEYS)],
            stdin=slave, stdout=slave, stderr=slave, env=env, pass_fds=(sync_write,), start_new_session=True)
        os.close(slave)
        os.close(sync_write)
        self.sync = os.fdopen(sync_read)

    def _drain(self) -> None:
        while select.select([self.master], [], [], 0)[0]:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.raw += chunk
            self.stream.feed(chunk)

    def until_ready(self) -> str:
        """What the night waits for ("ask KEY", "hold"), once all it printed is on the screen; "" at its end."""
        idle = 0  # looks in a row with nothing printed: a guard against a night that hangs, not a measure
        while not select.select([self.sync], [], [], 0.05)[0]:
            before = len(self.raw)
            self._drain()
            idle = 0 if len(self.raw) > before else idle + 1
            assert idle < IDLE_LOOKS, "the night never waited for the keyboard"
        said = self.sync.readline().strip()
        self._drain()
        return said

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def resize(self, columns: int, rows: int) -> None:
        _winsize(self.master, columns, rows)
        self.screen.resize(rows, columns)
        self.night.send_signal(signal.SIGWINCH)

    def capture(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display).rstrip("\n")

    def finish(self) -> int:
        code = self.night.wait(timeout=120)
        self._drain()
        os.close(self.master)
        self.sync.close()
        return code


def play(size: str) -> dict[str, str]:
    """A whole night on the screen: the captures by name, and the scroll-back printed at its end."""
    start, end = SIZES[size]
    terminal = Terminal(start)
    captures: dict[str, str] = {}
    answers, keys = list(ANSWERS), list(KEYS)
    try:
        while said := terminal.until_ready():
            if said == "hold":
                key, name = keys.pop(0)
            else:
                expected, key, name = answers.pop(0)
                assert said == f"ask {expected}", (said, expected)
                key += "\n"
                if start != end:
                    terminal.resize(*end)
                    start = end
            if name:
                captures[name] = terminal.capture()
            terminal.type(key)
    except BaseException:
        terminal.night.kill()
        raise
    finally:
        code = terminal.finish()
    assert code == 0, terminal.raw.decode("utf-8", "replace")[-2000:]
    assert not answers and not keys
    back = terminal.raw.rpartition(ALTERNATE_OFF.encode())[2].decode().replace("\r\n", "\n")
    captures["scroll-back"] = "\n".join(line.rstrip() for line in back.strip("\n").splitlines())
    return captures


def as_text(captures: dict[str, str]) -> str:
    return "".join(f"=== {name}\n{text}\n" for name, text in captures.items())


def kept(size: str) -> dict[str, str]:
    captures, name = {}, None
    for line in fixture(size).read_text(encoding="utf-8").splitlines():
        if line.startswith("=== "):
            name = line[4:]
            captures[name] = []
        else:
            captures[name].append(line)
    return {name: "\n".join(lines) for name, lines in captures.items()}


@pytest.mark.slow
@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_typed_night_on_the_screen_looks_as_kept(size):
    pytest.importorskip("pyte")
    captures = play(size)
    assert captures == kept(size)


def test_the_kept_captures_show_what_the_table_reads():
    """The captures themselves: big digits paused with the time added, bars as the counts come,
    the verdict; the scroll-back holds every line and answer."""
    for size in SIZES:
        shown = kept(size)
        assert "Paused · 30 seconds added" in shown["paused"] and "████" in shown["paused"]
        assert "Day: the discussion" in shown["countdown"] and "Paused" not in shown["countdown"].split("\n")[1]
        counting = [line for line in shown["counting"].splitlines() if "Aki" in line and "█" in line]
        assert counting and "Ken?" in shown["counting"]
        assert "agreed" in shown["verdict"] and "Verdict" in shown["verdict"]
        assert "another night with the same players and cards?" in shown["verdict"]
        back = shown["scroll-back"].splitlines()
        assert back[0].startswith("Half Werewolf for 4 players") and "  > 3" in back and "  > werewolf traitor" in back
        assert back[-1].startswith("The evening, 1 night")


# -- the layout alone ---------------------------------------------------------------------------------
def _drawn(view: View, width: int, height: int, lang: str = "en") -> list[str]:
    from io import StringIO

    from rich.console import Console

    console = Console(record=True, width=width, height=height, file=StringIO(), color_system=None)
    console.print(layout(view, Pack(lang), width, height))
    return console.export_text().splitlines()


def test_the_layout_fills_the_screen_and_grows_the_digits_with_it():
    view = View(phase="day", remaining=75, paused=True, added=30, said="Go!")
    small, large = _drawn(view, 80, 18), _drawn(view, 200, 48)
    assert len(small) == 18 and len(large) == 48
    assert all(len(line) == 80 for line in small)
    digits = [line for line in small if "█" in line]
    bigger = [line for line in large if "█" in line]
    assert len(bigger) > len(digits) >= 5
    assert max(line.count("█") for line in bigger) > max(line.count("█") for line in digits)
    assert "Paused · 30 seconds added" in small[1] and "space pause" in small[-4]


def test_the_bars_grow_with_the_counts_and_a_count_not_given_is_not_zero():
    view = View(phase="evening", candidates=("Aki", "Ken", "graveyard"), counts={"Aki": 3, "Ken": 1}, most=4,
                question="How many votes for the graveyard?", answers="Answers: 0.")
    rows = {line.split()[1]: line for line in _drawn(view, 80, 18) if line.startswith("│ ") and line.split()[1:2]}
    assert rows["Aki"].count("█") > 2 * rows["Ken"].count("█") > 0  # 3 to 1, rounded to whole cells
    assert rows["the"].rstrip("│ ").endswith("…") and "█" not in rows["the"]


def test_the_verdict_and_the_agreed_tally_show_together_in_japanese():
    view = View(phase="end", verdict="人狼陣営の勝利です。", candidates=("健", "graveyard"),
                counts={"健": 3, "graveyard": 1}, most=4, agreed=True)
    text = "\n".join(_drawn(view, 80, 18, "ja"))
    assert "判定" in text and "人狼陣営の勝利です。" in text and "確定" in text and "墓地" in text


# -- the choice --------------------------------------------------------------------------------------
def test_the_screen_turns_itself_on_only_on_a_large_terminal_with_the_keyboard_on_it():
    assert wanted(None, True, True, 100, 30)
    assert not wanted(None, True, True, 99, 30) and not wanted(None, True, True, 100, 29)
    assert not wanted(None, False, True, 200, 60)  # answers piped
    assert wanted(True, False, True, 80, 24) and not wanted(False, True, True, 200, 60)
    assert not wanted(True, True, False, 200, 60)  # no terminal to draw on


def test_screen_without_a_terminal_is_said_in_one_line_and_the_night_is_printed():
    answers = "\n\n\n\n3\n1\n\nwerewolf traitor\n"
    result = CliRunner().invoke(app, ["werewolf", "play", "--players", PLAYERS, *FAST,
                                      "--speech", "off", "--listen", "off", "--screen"], input=answers)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines().count("--screen needs a terminal; the night is printed line by line.") == 1
    assert "\x1b[" not in result.stdout and "Half Werewolf for 4 players" in result.stdout


if __name__ == "__main__":
    for name in SIZES:
        fixture(name).write_text(as_text(play(name)), encoding="utf-8")
        print(f"wrote {fixture(name)}")


def test_a_count_put_off_shows_what_was_heard_and_leaves_its_question():
    from gm.night.screen import NightScreen
    from gm.ports import PutOff, Turn, TurnKind
    from gm.table.questions import Table

    class PuttingOff:
        def ask(self, question):
            raise PutOff((Turn(TurnKind.HEARD, "gorilla", 0.0), Turn(TurnKind.REASK, "Back to Aki later.", 0.0)))

    screen = NightScreen(Pack("en"), io.StringIO())
    question = Table(Pack("en"), ("Aki", "Ken")).count(["Aki", "Ken", "graveyard"], 2, later=True)
    with pytest.raises(PutOff):
        screen.asker(PuttingOff()).ask(question)
    assert screen.watch.lines == ["  > gorilla"] and screen.watch.view.question == ""
