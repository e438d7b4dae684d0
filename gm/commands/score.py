"""`gm score`: Keep a Humalien (ザ・ヒューメイリアン) match: 3 games, two players, a crash-safe score sheet."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Optional

import typer

from voices import default_language
from gm.commands.common import fail, input_errors, print_json
from gm.speech.settings import SpeechSettings
from gm.commands.options import LangOption, RateOption, SpeechOption, VoiceOption, VolumeOption

app = typer.Typer(
    help="Keep a Humalien (ザ・ヒューメイリアン) match: 3 games, two players, a crash-safe score sheet. "
         "Every entry is saved (fsync'ed) to a journal before it is reported.",
    no_args_is_help=True,
)

FileOption = typer.Option(
    None, "--file", envvar="GM_SCORE_FILE",
    help="The match journal (default: score.jsonl in the user data dir; or $GM_SCORE_FILE).")
JsonOption = typer.Option(False, "--json", help="Print the change as JSON.")
PrintLangOption = typer.Option(default_language(), "--lang", help="Language of the printed lines: en, ja or ko.")
QuietSpeechOption = typer.Option("off", "--speech", help="off (print only, the default), on, or wav:DIR.")


def _journal(file: Optional[Path]):
    from gm.score.journal import Journal, default_path

    return Journal(file or default_path())


def _speaker(lang: str, speech: str, voice: str | None = None, rate: int | None = None,
             volume: float | None = None):
    """Check the language and open the speaker before anything is written."""
    from gm.text.lines import Voice
    from gm.speech.speakers import open_speaker

    with input_errors():
        Voice(lang)
        return open_speaker(SpeechSettings(lang=lang, speech=speech, voice=voice, rate=rate, volume=volume))


def _record(file: Optional[Path], make: Callable, as_json: bool, lang: str, speech: str) -> None:
    """Append one event (built from the fresh state under the journal lock), then report it."""
    from gm.score.render import change_dict, change_lines, voice_for

    speaker = None if as_json else _speaker(lang, speech)
    with input_errors(lang):
        _, change = _journal(file).append(make)
    if as_json:
        print_json(change_dict(change))
        return
    for line in change_lines(voice_for(lang, change.match), change):
        speaker.say(line)
    speaker.close()


def _entry(verb: str, *args: str) -> Callable:
    from gm.score.entry import build

    return lambda state: build(verb, args, state)


@app.command()
def new(
    alice: str = typer.Argument(..., help="First player (NAME or NAME=reading, e.g. 健=けん)."),
    bob: str = typer.Argument(..., help="Second player."),
    remote: bool = typer.Option(False, "--remote", help="Remote play, one box each: 666 twice per game, skulls up to 10."),
    abandon: bool = typer.Option(False, "--abandon", help="Start even though the current match is unfinished."),
    file: Optional[Path] = FileOption, as_json: bool = JsonOption,
    lang: str = PrintLangOption, speech: str = QuietSpeechOption,
) -> None:
    """Start a match of three games between two players."""
    from gm.score.entry import new_match

    with input_errors(lang):
        event = new_match([alice, bob], remote=remote, abandon=abandon)
    _record(file, lambda state: event, as_json, lang, speech)


@app.command()
def flow(player: str = typer.Argument(..., help="Who made the last play before the flow."),
         piles: str = typer.Argument(..., help="How many of that player's own piles are empty (0–5)."),
         file: Optional[Path] = FileOption, as_json: bool = JsonOption,
         lang: str = PrintLangOption, speech: str = QuietSpeechOption) -> None:
    """場が流れる: a flow scores the player's empty piles (HU-R2)."""
    _record(file, _entry("flow", player, piles), as_json, lang, speech)


@app.command()
def skull(player: str = typer.Argument(...),
          cards: str = typer.Argument(..., help="6s plus Humaliens in the play (1–6; remote 1–10)."),
          file: Optional[Path] = FileOption, as_json: bool = JsonOption,
          lang: str = PrintLangOption, speech: str = QuietSpeechOption) -> None:
    """ドクロ: game number × cards in the play."""
    _record(file, _entry("skull", player, cards), as_json, lang, speech)


@app.command("666")
def six_six_six(player: str = typer.Argument(...),
                piles: Optional[str] = typer.Argument(
                    None, help="The player's own empty piles at the forced flow (default: as last recorded)."),
                file: Optional[Path] = FileOption,
                as_json: bool = JsonOption, lang: str = PrintLangOption,
                speech: str = QuietSpeechOption) -> None:
    """ロクロクロク: 3 skull cards now, this game's end points ×3, and the forced flow it makes."""
    _record(file, _entry("666", player, *filter(None, [piles])), as_json, lang, speech)


@app.command("god-island")
def god_island(player: str = typer.Argument(...), file: Optional[Path] = FileOption,
               as_json: bool = JsonOption, lang: str = PrintLangOption,
               speech: str = QuietSpeechOption) -> None:
    """ゴッドアイランド: 30 points."""
    _record(file, _entry("god-island", player), as_json, lang, speech)


@app.command("angel-cut")
def angel_cut(player: str = typer.Argument(...),
              piles: Optional[str] = typer.Argument(
                  None, help="With --keep-stock: the player's own empty piles (default: as last recorded)."),
              keep_stock: bool = typer.Option(
                  False, "--keep-stock", help="The stock piles were kept: the flow scores the piles empty."),
              file: Optional[Path] = FileOption,
              as_json: bool = JsonOption, lang: str = PrintLangOption,
              speech: str = QuietSpeechOption) -> None:
    """エンジェルカット: the stock piles go; the forced flow scores 5 (record `finish` too if the hand is empty)."""
    from gm.score.entry import KEEP_STOCK

    flags = [KEEP_STOCK] if keep_stock else []
    _record(file, _entry("angel-cut", player, *flags, *filter(None, [piles])), as_json, lang, speech)


@app.command()
def finish(player: str = typer.Argument(..., help="Who went out."),
           opponent_left: str = typer.Argument(..., help="The opponent's cards left: hand + stock (0–30)."),
           file: Optional[Path] = FileOption, as_json: bool = JsonOption,
           lang: str = PrintLangOption, speech: str = QuietSpeechOption) -> None:
    """上がり: (5 + the opponent's cards left) × the game's multiplier; ends the game."""
    _record(file, _entry("finish", player, opponent_left), as_json, lang, speech)


@app.command()
def foul(player: str = typer.Argument(..., help="Who fouled (finished on a forbidden card)."),
         winner_left: str = typer.Argument(..., help="The OPPONENT's own cards left: hand + stock (0–30)."),
         file: Optional[Path] = FileOption, as_json: bool = JsonOption,
         lang: str = PrintLangOption, speech: str = QuietSpeechOption) -> None:
    """反則上がり: the opponent scores (5 + their own cards left) × the multiplier (HU-R4); ends the game."""
    _record(file, _entry("foul", player, winner_left), as_json, lang, speech)


@app.command()
def undo(file: Optional[Path] = FileOption, as_json: bool = JsonOption,
         lang: str = PrintLangOption, speech: str = QuietSpeechOption) -> None:
    """Take back the last event (recorded as an undo; nothing is erased)."""
    _record(file, _entry("undo"), as_json, lang, speech)


@app.command()
def redo(file: Optional[Path] = FileOption, as_json: bool = JsonOption,
         lang: str = PrintLangOption, speech: str = QuietSpeechOption) -> None:
    """Put back what undo took (until the next scoring event)."""
    _record(file, _entry("redo"), as_json, lang, speech)


def _loaded_match(file: Optional[Path]):
    journal = _journal(file)
    with input_errors():
        state = journal.load()
    if state.match is None:
        fail(f"no match in {journal.path} yet: start one with `gm score new ALICE BOB`")
    return state.match


def print_sheet(match, lang: str) -> None:
    """The sheet with its words in `lang` (the voice pack's `score.sheet` table)."""
    from rich.console import Console

    from gm.score.render import sheet, voice_for

    with input_errors():
        voice = voice_for(lang, match)
    Console(highlight=False).print(sheet(match, voice))


@app.command()
def show(file: Optional[Path] = FileOption,
         as_json: bool = typer.Option(False, "--json", help="Print the sheet as JSON."),
         lang: str = PrintLangOption,
         number: Optional[int] = typer.Option(None, "--match", help="An earlier match, by its number in `gm score matches`.")) -> None:
    """The score sheet: games × players, multipliers, totals, and a bar per game."""
    match = _loaded_match(file) if number is None else _kept_match(file, number).sheet
    if as_json:
        print_json(match.to_dict())
    else:
        print_sheet(match, lang)


def _kept_match(file: Optional[Path], number: int):
    from gm.score.matches import one

    with input_errors():
        return one(_journal(file).matches(), number)


@app.command()
def matches(file: Optional[Path] = FileOption,
            as_json: bool = typer.Option(False, "--json", help="Print the list as JSON.")) -> None:
    """The matches kept in the journal: number, players, date, result; * marks the current one."""
    from rich.console import Console
    from rich.markup import escape

    journal = _journal(file)
    with input_errors():
        kept = journal.matches()
    if as_json:
        print_json([m.to_json() for m in kept])
        return
    if not kept:
        fail(f"no match in {journal.path} yet: start one with `gm score new ALICE BOB`")
    console = Console(highlight=False)
    for m in kept:
        console.print(escape(f"{'*' if m.current else ' '} {m.number:3}  {(m.at or '')[:16].replace('T', ' '):16}  "
                             f"{m.players[0]} v {m.players[1]}: {m.result}"))


@app.command()
def say(file: Optional[Path] = FileOption, lang: str = LangOption, speech: str = SpeechOption,
        voice: Optional[str] = VoiceOption, rate: Optional[int] = RateOption,
        volume: Optional[float] = VolumeOption) -> None:
    """Read the totals and the leader aloud (numbers as words in Japanese)."""
    from gm.score.render import totals_lines, voice_for

    match = _loaded_match(file)
    speaker = _speaker(lang, speech, voice, rate, volume)
    for line in totals_lines(voice_for(lang, match), match):
        speaker.say(line)
    speaker.close()


@app.command()
def export(csv_format: bool = typer.Option(False, "--csv", help="Write the sheet as CSV."),
           output: Optional[Path] = typer.Option(None, "--output", "-o", help="File to write (default: stdout)."),
           file: Optional[Path] = FileOption) -> None:
    """Export the score sheet (one row per game, then the totals)."""
    from gm.score.render import write_csv

    if not csv_format:
        fail("choose an export format: --csv")
    match = _loaded_match(file)
    if output is None:
        write_csv(match, sys.stdout)
        return
    with input_errors(), open(output, "w", encoding="utf-8", newline="") as out:
        write_csv(match, out)


@app.command()
def play(file: Optional[Path] = FileOption, lang: str = LangOption, speech: str = SpeechOption,
         voice: Optional[str] = VoiceOption, rate: Optional[int] = RateOption,
         volume: Optional[float] = VolumeOption) -> None:
    """Score during a game with short commands: `f alice 2`, `s bob 3`, `fi alice 7`, `u`, `show`, `help`.

    Tab completes verbs and names; player names match by unique prefix. Each entry is saved
    before it is said.
    """
    from gm.score.play import run, typed_lines

    journal = _journal(file)
    speaker = _speaker(lang, speech, voice, rate, volume)
    echo = lambda text: print(text, flush=True)  # noqa: E731
    try:
        with input_errors():
            run(journal, speaker, lang, typed_lines(sys.stdin, echo, journal), echo,
                show=lambda state: print_sheet(state.match, lang) if state.match else echo("? no match yet"))
    finally:
        speaker.close()


