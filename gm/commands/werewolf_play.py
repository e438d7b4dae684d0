"""`gm werewolf play`: narrate a whole night through speaker, asker, clock and controls."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gm.commands.common import EXIT_INTERRUPTED, fail, input_errors, pack_for
from gm.commands.options import (
    LANG, Device, Lang, Listen, Listener, ListenFrom, Rate, Speech, VoiceId, Volume, VoskModel, input_device,
    listen_spec, number_in, text_up_to, whole_in,
)
from gm.speech.settings import SpeechSettings

if TYPE_CHECKING:
    from gm.text.lines import Pack


def ask_readings(names: list[str], readings: dict[str, str], pack: Pack) -> dict[str, str]:
    """Readings typed in kana for the names in kanji given without one, so every vote question
    can say them (asked in `pack`'s language); without a keyboard, a one-line error asks for
    `--players 健=けん`."""
    from gm.text import kana

    typed: dict[str, str] = {}
    for name in kana.missing_readings(names, readings):
        if not sys.stdin.isatty():
            fail(pack.text("voice.no_reading", word=name))
        reading = ""
        while not kana.is_reading(reading):
            reading = typer.prompt(pack.text("werewolf.ask_reading", name=name), err=True)
        typed[name] = reading.strip()
    return typed


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
        help="Seconds a morning step waits for 'done', once its line is said, before going on (0–600).")] = 20.0,
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
    from gm.hearing.keyboard import AnswersExhausted
    from gm.night.context import NightStopped
    from gm.night.opening import NightOptions, open_night
    from gm.commands.werewolf_rules import lesson_lines
    from gm.commands.werewolf_values import check_player_names, deck_for, parse_players

    pack = pack_for(lang)
    with input_errors(pack):
        names, readings = parse_players(players)
        check_player_names(names, pack)
        if speech != "off":
            readings.update(ask_readings(names, readings, pack))
        deck = deck_for(len(names), variant, with_cards)
        pack = pack.with_readings(readings)
        options = NightOptions(
            players=tuple(names), deck=deck, pack=pack,
            speech=SpeechSettings.of(pack, speech, voice_id, rate, volume), discussion=discussion, pause=pause,
            time_scale=time_scale, roll_call=roll_call, log=log, group=group,
            screen=False if no_screen else (True if screen else None), listen=listen_spec(listen, listen_from),
            listener=listener, vosk_model=vosk_model, device=input_device(device))
        night = open_night(options)
    ended = False
    try:
        night.run(lesson_lines(pack, deck, discussion) if teach else ())
        ended = True
    except AnswersExhausted:
        fail(pack.text("table.input_ended"))
    except (NightStopped, KeyboardInterrupt):
        typer.echo(pack.text("werewolf.stopped"), err=True)
        night.where()
        raise typer.Exit(EXIT_INTERRUPTED) from None
    except SystemExit:  # SIGTERM or SIGHUP
        night.where()
        raise
    finally:  # also on SIGTERM or SIGHUP (see gm.cli.main): the terminal gets its echo and cursor back
        night.close(hush=not ended)
