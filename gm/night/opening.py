"""Opening a night: the ports `gm werewolf play` runs an evening through, built from its options.

The command parses and checks its options into `NightOptions`; `open_night` builds the clock, the
speaker, the asker, the log, the group's file and the terminal's screen or countdown from them,
in the order that refuses bad input before anything is said, and `OpenNight` runs the evening
and closes them all. The audio edges (speech engines, recognisers, the microphone) are imported
here, when a night opens, and nowhere earlier.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gm.speech.settings import SpeechSettings
from gm.text.lines import Pack
from scorer.werewolf.decks import Deck

if TYPE_CHECKING:
    from gm.hearing.replay import Utterances
    from gm.night.context import NightContext
    from gm.night.groups import GroupFile
    from gm.night.log import NightLog
    from gm.night.terminal import KeyControls
    from gm.night.timer import TimerDisplay
    from gm.ports import Asker, Clock, Line, Speaker


@dataclass(frozen=True)
class NightOptions:
    """What a night was asked for, parsed and checked: the table, its pace, and how lines are said
    (`speech`, in `pack`'s language with the players' readings) and answers heard."""

    players: tuple[str, ...]
    deck: Deck
    pack: Pack
    speech: SpeechSettings
    discussion: int = 180
    pause: float = 20.0
    time_scale: float = 1.0
    roll_call: bool = False
    log: Path | None = None
    group: str | None = None
    screen: bool | None = None
    """True: the whole terminal (--screen); False: never (--no-screen); None: by the terminal's size."""
    listen: str = "on"
    """"off", "on" (the microphone) or a WAV file's path (--listen-from)."""
    listener: str | None = None
    vosk_model: str | None = None
    device: int | str | None = None


def read_recording(spec: str, clock: Clock) -> Utterances | None:
    """The recording `--listen-from` names, read now: a file that is no WAV is refused at once."""
    if spec in ("on", "off"):
        return None
    from gm.hearing.replay import Utterances

    return Utterances.from_wav(spec, clock)


class OpenNight:
    """A night's ports, open: `run` plays the evening, `close` releases every port (also after a
    stop), `where` says where the log is."""

    def __init__(self, options: NightOptions, speaker: Speaker, asker: Asker, night_log: NightLog,
                 keep: GroupFile, clock: Clock) -> None:
        from gm.hearing.listening import open_controls
        from gm.night.context import NightContext
        from gm.night.screen import NightScreen, wanted
        from gm.night.terminal import KeyControls, LiveCountdown

        pack = options.pack
        self.options, self.keep = options, keep
        self.speaker, self.asker, self.night_log = speaker, asker, night_log
        interactive = sys.stdin.isatty() and sys.stdout.isatty()
        self.keys: KeyControls | None = KeyControls(clock) if interactive else None
        size = shutil.get_terminal_size()
        self.shown: NightScreen | None = None
        if wanted(options.screen, interactive, sys.stdout.isatty(), size.columns, size.lines):
            self.shown = NightScreen(pack)
        elif options.screen:
            print(pack.text("werewolf.screen.no_terminal"), file=sys.stderr, flush=True)
        shown = self.shown
        self.display: TimerDisplay | None = shown or (
            LiveCountdown(pack.text("werewolf.timer.title"), pack.text("werewolf.timer.keys")) if interactive
            else None)
        self.ctx: NightContext = NightContext(
            players=list(options.players), deck=options.deck, pack=pack,
            speaker=shown.speaker(speaker) if shown else speaker, asker=shown.asker(asker) if shown else asker,
            clock=clock, controls=open_controls(asker, clock, self.keys), display=self.display,
            log=shown.log(night_log) if shown else night_log, pause=options.pause,
            discussion=options.discussion, roll_call=options.roll_call)

    def run(self, lesson: Sequence[Line] = ()) -> None:
        """The evening: the `lesson` first (as `gm werewolf rules` gives it), then night after night."""
        from gm.night.evening import run_evening

        with self.shown or contextlib.nullcontext():
            for line in lesson:
                self.ctx.speaker.say(line)
            run_evening(self.ctx, self.keep)

    def where(self) -> None:
        """Say where the night's log is (after a stop)."""
        self.night_log.where()

    def close(self, hush: bool = False) -> None:
        """The terminal gets its echo and cursor back; the microphone, the speaker (`hush`: at
        once, mid-line, as after a signal; else once it has said every line) and the log are closed."""
        if hush:
            self.speaker.hush()
        if self.display:
            self.display.close()
        if self.keys:
            self.keys.release()
        self.asker.close()
        self.speaker.close()
        self.night_log.close()


def open_night(options: NightOptions) -> OpenNight:
    """The night's ports, opened. Every refusal (a listener that is none, a recording that is no
    WAV, a log gm may not append to) comes before the speaker's notes; a port opened before a
    later one fails is closed."""
    from gm.clock import RealClock
    from gm.hearing.model_loading import listener_name
    from gm.hearing.listening import open_asker
    from gm.night.groups import GroupFile, default_group
    from gm.night.log import NightLog, check_log, new_log_path
    from gm.speech.speakers import open_speaker

    pack = options.pack
    listener = listener_name(options.listener)
    clock = RealClock(options.time_scale)
    recording = read_recording(options.listen, clock)
    if options.log is not None:
        check_log(options.log)
    with contextlib.ExitStack() as opened:
        speaker = open_speaker(options.speech)
        opened.callback(speaker.close)
        asker = open_asker(options.listen, clock, speaker, pack, options.vosk_model, players=options.players,
                           background=True, recording=recording, listener=listener, device=options.device)
        opened.callback(asker.close)
        log = options.log or new_log_path()
        keep = GroupFile(options.group or default_group(options.players), pack)
        night_log = NightLog(log, clock, pack=pack)
        opened.callback(night_log.close)
        night = OpenNight(options, speaker, asker, night_log, keep, clock)
        opened.pop_all()
    return night
