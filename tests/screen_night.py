"""A typed night on the night's screen, with a fake clock, in the terminal it runs in (the
pseudo-terminal of tests/gm/night/test_night_screen.py): `python tests/screen_night.py PLAYERS SECONDS HOLD...`.

Each time it waits for the keyboard it says so on the file descriptor SCREEN_NIGHT_SYNC names ("ask KEY" at a question's
prompt, "hold" when the discussion waits for one key), after everything it printed is written, so
the test types only then and reads a screen that is still. The discussion's time passes on the
fake clock at each poll of its keys; at each HOLD (seconds into the discussion) it waits for one key.
"""

from __future__ import annotations

import os
import sys
import termios
import tty

from fakes import FakeClock
from gm.commands.werewolf_values import deck_for
from gm.hearing.keyboard import KeyboardAsker
from gm.night.context import NightContext
from gm.night.evening import run_evening
from gm.night.screen import NightScreen
from gm.night.terminal import KEYS
from gm.speech.speakers import PrintSpeaker
from gm.text.lines import Pack

SYNC = os.fdopen(int(os.environ["SCREEN_NIGHT_SYNC"]), "w")


def ready(what: str) -> None:
    sys.stdout.flush()
    SYNC.write(what + "\n")
    SYNC.flush()


class Keyboard(KeyboardAsker):
    def prompt(self, question, left=None):
        super().prompt(question, left)
        ready(f"ask {question.key}")


class HeldKeys:
    """The discussion's keys on the fake clock: each poll lets its time pass, but at the holds
    (seconds from the first poll) one key is read from the terminal, without echo."""

    def __init__(self, clock: FakeClock, holds: list[float]) -> None:
        self.clock, self.holds = clock, holds
        self.start: float | None = None
        self.saved = None

    def poll(self, timeout: float):
        self.start = self.clock.now() if self.start is None else self.start
        if self.holds and self.clock.now() - self.start >= self.holds[0]:
            self.holds.pop(0)
            if self.saved is None:
                self.saved = termios.tcgetattr(0)
                tty.setcbreak(0)
            ready("hold")
            return KEYS.get(os.read(0, 1).decode("utf-8", "ignore").lower())
        self.clock.sleep(timeout)
        return None

    def release(self) -> None:
        if self.saved is not None:
            termios.tcsetattr(0, termios.TCSADRAIN, self.saved)
            self.saved = None


def main(players: str, seconds: str, *holds: str) -> None:
    names = players.split(",")
    pack, clock = Pack("en"), FakeClock()
    screen = NightScreen(pack)
    speaker = PrintSpeaker()
    asker = Keyboard(clock, say=speaker.say)
    ctx = NightContext(players=names, deck=deck_for(len(names)), pack=pack, speaker=screen.speaker(speaker),
                       asker=screen.asker(asker), clock=clock, controls=HeldKeys(clock, [float(h) for h in holds]),
                       display=screen, log=screen.log(lambda kind, **data: None), pause=0, discussion=int(seconds))
    with screen:
        run_evening(ctx)


if __name__ == "__main__":
    main(*sys.argv[1:])
