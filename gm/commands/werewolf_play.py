"""`gm werewolf play`: narrate a whole night through speaker, asker, clock and controls."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from gm.commands.common import fail, input_errors, parse_players
from gm.speech.settings import SpeechSettings
from gm.commands.options import LangOption, ListenFromOption, ListenOption, RateOption, SpeechOption, VoiceOption, VolumeOption, VoskModelOption, listen_spec


def ask_readings(names: list[str], readings: dict[str, str], lang: str) -> dict[str, str]:
    """Readings typed in kana for the names in kanji given without one, so every vote question
    can say them; without a keyboard, a one-line error asks for `--players 健=けん`."""
    from gm.text import kana
    from gm.text.lines import Voice

    voice, typed = Voice(lang), {}
    for name in kana.missing_readings(names, readings):
        if not sys.stdin.isatty():
            fail(voice.text("voice.no_reading", word=name))
        reading = ""
        while not kana.is_reading(reading):
            reading = typer.prompt(voice.text("werewolf.ask_reading", name=name), err=True)
        typed[name] = reading.strip()
    return typed


def play(
    players: str = typer.Option(..., "--players", help="Names in seating order, each followed by the player on their "
                                "right; a reading may follow '=', e.g. \"健=けん,美緒=みお\"."),
    variant: Optional[str] = typer.Option(None, "--variant", help="6 players: magician (Magician's Night) or dead "
                                          "(Battle with the Dead)."),
    with_cards: str = typer.Option("", "--with", help="Swap-ins, each replacing a villager: gorilla (4-6 players), "
                                   "angel, apprentice (6)."),
    discussion: int = typer.Option(180, "--discussion", min=1, help="Discussion time in seconds."),
    pause: float = typer.Option(20.0, "--pause", min=0.0, help="Seconds a morning step waits for 'done' before going on."),
    time_scale: float = typer.Option(1.0, "--time-scale", min=0.0001, help="Compress every wait and the timer "
                                     "(0.1 = ten times faster; for demos)."),
    roll_call: bool = typer.Option(False, "--roll-call", help="Ask each voter in turn instead of counting fingers."),
    log: Optional[Path] = typer.Option(None, "--log", help="Write the JSON-lines log of the nights to this file "
                                       "(default: a new file in gm's data dir); the evening's wins go beside it."),
    lang: str = LangOption,
    speech: str = SpeechOption,
    voice_id: Optional[str] = VoiceOption,
    rate: Optional[int] = RateOption,
    volume: Optional[float] = VolumeOption,
    listen: str = ListenOption,
    listen_from: Optional[str] = ListenFromOption,
    vosk_model: Optional[str] = VoskModelOption,
) -> None:
    """Narrate a Half Werewolf night: the deal, the morning, a timed discussion, the vote, the verdict.

    Answers are spoken (with a vosk model; each is read back for a yes or no), typed (Enter =
    done), or piped on stdin one per line. During the discussion: space pauses/resumes, + adds
    30 s, v votes now, r repeats the last line, Ctrl-C pauses and asks; or say "game master,
    pause / resume / one more minute / vote now / repeat".
    """
    from gm.clock import RealClock
    from gm.hearing.keyboard import AnswersExhausted
    from gm.text.lines import Voice
    from gm.hearing.voice import open_asker, open_controls
    from gm.night.context import NightContext
    from gm.night.evening import run_evening
    from gm.night.log import EveningFile, NightLog, evening_path, new_log_path
    from gm.night.runner import NightStopped
    from gm.night.terminal import KeyControls, LiveCountdown
    from gm.speech.speakers import open_speaker
    from gm.text.inputs import check_player_names, deck_for

    with input_errors():
        names, readings = parse_players(players)
        check_player_names(names)
        if speech != "off":
            readings.update(ask_readings(names, readings, lang))
        deck = deck_for(len(names), variant, with_cards)
        voice = Voice(lang, readings)
        clock = RealClock(time_scale)
        spec = listen_spec(listen, listen_from)
        speaker = open_speaker(SpeechSettings(lang, speech, voice_id, rate, volume, readings))
        asker = open_asker(spec, clock, speaker, voice, vosk_model, players=names, background=True)
        log = log or new_log_path()
        night_log = NightLog(log, clock)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    ctx = NightContext(
        players=names, deck=deck, voice=voice, speaker=speaker, asker=asker, clock=clock,
        controls=open_controls(asker, clock, KeyControls(clock) if interactive else None),
        display=LiveCountdown(voice.text("werewolf.timer.title"), voice.text("werewolf.timer.keys"))
        if interactive else None,
        log=night_log, pause=pause, discussion=discussion, roll_call=roll_call,
    )
    try:
        run_evening(ctx, EveningFile(evening_path(log)))
    except AnswersExhausted as error:
        fail(str(error))
    except (NightStopped, KeyboardInterrupt):
        typer.echo(voice.text("werewolf.stopped"), err=True)
        raise typer.Exit(130)
    finally:
        asker.close()
        speaker.close()
        night_log.close()
