"""`gm werewolf play`: narrate a whole night through speaker, asker, clock and controls."""

from __future__ import annotations

import contextlib
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gm.commands.common import EXIT_INTERRUPTED, fail, input_errors
from gm.commands.options import (
    LANG, Device, Lang, Listen, Listener, ListenFrom, Rate, Speech, VoiceId, Volume, VoskModel, input_device,
    listen_spec, number_in, text_up_to, whole_in,
)
from gm.speech.settings import SpeechSettings

if TYPE_CHECKING:
    from gm.hearing.replay import Utterances
    from gm.ports import Clock


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


def read_recording(spec: str, clock: Clock) -> Utterances | None:
    """The recording `--listen-from` names, read now: a file that is no WAV is refused at once."""
    if spec in ("on", "off"):
        return None
    from gm.hearing.replay import Utterances

    return Utterances.from_wav(spec, clock)


def play(
    players: Annotated[str, typer.Option(
        "--players", metavar="NAMES", parser=text_up_to(4096),
        help="Names in seating order, each followed by the player on their right; a reading may "
             "follow '=', e.g. \"健=けん,美緒=みお\".")],
    variant: Annotated[str | None, typer.Option(
        "--variant", metavar="NAME",
        help="6 players: magician (Magician's Night) or dead (Battle with the Dead).")] = None,
    with_cards: Annotated[str, typer.Option(
        "--with", metavar="CARDS",
        help="Swap-ins, each replacing a villager: gorilla (4–6 players), angel, apprentice (6).")] = "",
    teach: Annotated[bool, typer.Option(
        "--teach", help="Before the deal, explain each card in play and the night (as `gm werewolf rules`).")] = False,
    discussion: Annotated[int, typer.Option(
        "--discussion", metavar="SECONDS", parser=whole_in(10, 3600, "seconds"),
        help="Discussion time, 10–3600 seconds.")] = 180,
    pause: Annotated[float, typer.Option(
        "--pause", metavar="SECONDS", parser=number_in(0, 600, "seconds"),
        help="Seconds a morning step waits for 'done' before going on (0–600).")] = 20.0,
    time_scale: Annotated[float, typer.Option(
        "--time-scale", metavar="FACTOR", parser=number_in(0.001, 100),
        help="Scale every wait and the timer, 0.001–100 (0.1 = ten times faster; for demos).")] = 1.0,
    roll_call: Annotated[bool, typer.Option(
        "--roll-call", help="Ask each voter in turn instead of counting fingers.")] = False,
    log: Annotated[Path | None, typer.Option(
        "--log", metavar="FILE", help="Write the JSON-lines log of the nights to this file (default: a new file "
                                      "in gm's data folder); a second evening is appended. Only a log gm "
                                      "wrote, your own, is appended to (never a link); /dev/null keeps none.")] = None,
    group: Annotated[str | None, typer.Option(
        "--group", metavar="NAME", parser=text_up_to(200),
        help="Keep the results under this group, evening after evening (default: the players, in any "
             "order); see gm werewolf evening.")] = None,
    screen: Annotated[bool, typer.Option(
        "--screen",
        help="Show the night on the whole terminal, to be read from across the room: the phase, the time "
             "in big digits, the question, the tally as bars, the verdict; the lines stay in the "
             "scroll-back. On by itself on a terminal of 100×30 or more where you type; --no-screen: never.")] = False,
    no_screen: Annotated[bool, typer.Option("--no-screen", hidden=True)] = False,
    lang: Lang = LANG, speech: Speech = "on", voice_id: VoiceId = None, rate: Rate = None,
    volume: Volume = None, listen: Listen = "on", listen_from: ListenFrom = None, vosk_model: VoskModel = None,
    listener: Listener = None, device: Device = None,
) -> None:
    """Narrate a whole night: deal, morning, timed discussion, vote, verdict.

    Answers are spoken (with a vosk model: a count heard surely is taken, the whole tally is read
    back once for a yes, a card or a name is read back), typed (Enter means done or yes; ? lists
    the answers; "Aki 2" fixes a count; full-width digits, kana and readings are fine), or piped
    on standard input one per line.

    During the discussion: space pauses and resumes, + adds 30 s, v votes now, r repeats the
    last instruction, Ctrl-C pauses and asks. Or say "game master, pause / resume / one more minute /
    vote now / repeat".
    """
    from gm.clock import RealClock
    from gm.hearing.keyboard import AnswersExhausted
    from gm.text.lines import Voice
    from gm.hearing.voice import open_asker, open_controls
    from gm.night.context import NightContext, NightStopped
    from gm.night.evening import run_evening
    from gm.hearing.model_loading import listener_name
    from gm.night.groups import GroupFile, default_group
    from gm.night.log import NightLog, check_log, new_log_path
    from gm.night.screen import NightScreen, wanted
    from gm.night.terminal import KeyControls, LiveCountdown
    from gm.speech.speakers import open_speaker
    from gm.commands.werewolf_values import check_player_names, deck_for, parse_players

    with input_errors(lang):
        names, readings = parse_players(players)
        check_player_names(names, lang)
        if speech != "off":
            readings.update(ask_readings(names, readings, lang))
        deck = deck_for(len(names), variant, with_cards)
        voice = Voice(lang, readings)
        clock = RealClock(time_scale)
        spec = listen_spec(listen, listen_from)
        listener = listener_name(listener)
        recording = read_recording(spec, clock)  # every refusal comes before the speaker's notes
        if log is not None:
            check_log(log)
        speaker = open_speaker(SpeechSettings(lang, speech, voice_id, rate, volume, readings))
        asker = open_asker(spec, clock, speaker, voice, vosk_model, players=names, background=True,
                           recording=recording, listener=listener, device=input_device(device))
        log = log or new_log_path()
        keep = GroupFile(group or default_group(names), voice)
        night_log = NightLog(log, clock, voice=voice)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    keys = KeyControls(clock) if interactive else None
    size = shutil.get_terminal_size()
    shown = None
    if wanted(False if no_screen else (True if screen else None), interactive, sys.stdout.isatty(), size.columns,
              size.lines):
        shown = NightScreen(voice)
    elif screen:
        typer.echo(voice.text("werewolf.screen.no_terminal"), err=True)
    display = shown or (LiveCountdown(voice.text("werewolf.timer.title"), voice.text("werewolf.timer.keys"))
                        if interactive else None)
    ctx = NightContext(
        players=names, deck=deck, voice=voice, speaker=shown.speaker(speaker) if shown else speaker,
        asker=shown.asker(asker) if shown else asker, clock=clock, controls=open_controls(asker, clock, keys),
        display=display, log=shown.log(night_log) if shown else night_log, pause=pause, discussion=discussion,
        roll_call=roll_call,
    )
    try:
        with shown or contextlib.nullcontext():
            if teach:
                from gm.commands.werewolf_rules import lesson_lines

                for line in lesson_lines(voice, deck, discussion):
                    ctx.speaker.say(line)
            run_evening(ctx, keep)
    except AnswersExhausted:
        fail(voice.text("table.input_ended"))
    except (NightStopped, KeyboardInterrupt):
        typer.echo(voice.text("werewolf.stopped"), err=True)
        night_log.where()
        raise typer.Exit(EXIT_INTERRUPTED) from None
    except SystemExit:  # SIGTERM or SIGHUP
        night_log.where()
        raise
    finally:  # also on SIGTERM or SIGHUP (see gm.cli.main): the terminal gets its echo and cursor back
        if display:
            display.close()
        if keys:
            keys.release()
        asker.close()
        speaker.close()
        night_log.close()
