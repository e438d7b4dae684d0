"""`gm score`: Keep a Humalien (ザ・ヒューメイリアン) match: 3 games, two players, a crash-safe score sheet."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, NoReturn
from collections.abc import Callable

import typer

from gm.commands.common import GmApp, GmCommand, fail, input_errors, pack_for, print_json, said_in
from gm.commands.options import COUNT, LANG, Json, Lang, Rate, Speech, VoiceId, Volume, whole_in
from gm.files import write_new_file
from gm.text.numbers import whole_number
from gm.speech.settings import SpeechSettings

if TYPE_CHECKING:
    from gm.ports import Speaker
    from gm.score.journal import Journal
    from gm.text.lines import Pack
    from scorer.humalien import Event, Match, State

MakeEvent = Callable[["State"], "Event"]
"""An event made from the fresh state under the journal lock."""

app = GmApp(
    help="Keep a Humalien (ザ・ヒューメイリアン) match: 3 games, two players.\n\n"
         "A crash-safe score sheet: every entry is saved (fsync'ed) to a journal before it is reported.")

File = Annotated[Path | None, typer.Option(
    "--file", metavar="FILE", envvar="GM_SCORE_FILE", show_envvar=False,
    help="The match journal (default: score.jsonl in the user data folder, or $GM_SCORE_FILE).")]
Player = Annotated[str, typer.Argument(metavar="PLAYER", help="A player's name, or its first letters.")]


class CountCommand(GmCommand):
    """A command taking counts: -1 is a count out of range (said with its range), not an unknown
    option (it reaches the count's parser as −1, the minus sign click does not take for an option)."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, ["−" + arg[1:] if _negative(arg) else arg for arg in args])


def _negative(arg: str) -> bool:
    return arg.startswith("-") and whole_number(arg[1:]) is not None
LEFT_RANGE = "1–30: 10 in hand + 20 in stock, less the cards they played; at most 10 once their stock is gone"
LISTING_LANG = "en"
"""The language of `matches` and `export`, which take no --lang: the journal's results are listed in
English ("Aki won"), and so are their refusals (`input_errors()`) and the line counting the matches
not shown; its pack is read only when one of those lines is said."""


def _journal(file: Path | None) -> Journal:
    """The journal `--file` (or $GM_SCORE_FILE, which a shell leaves as written: "~/score.jsonl" is
    in the home folder) names, else the default one."""
    from gm.score.journal import Journal, default_path

    return Journal(file.expanduser() if file else default_path())


def _speaker(pack: Pack, speech: str, voice: str | None = None, rate: int | None = None,
             volume: float | None = None) -> Speaker:
    """Open the speaker before anything is written."""
    from gm.speech.speakers import open_speaker

    with input_errors(pack):
        return open_speaker(SpeechSettings(pack.lang, speech, voice, rate, volume, known_lines=pack))


def _record(file: Path | None, make: MakeEvent, as_json: bool, pack: Pack, speech: str) -> None:
    """Append one event (built from the fresh state under the journal lock), then report it."""
    from gm.score.render import change_dict, change_lines, pack_for_match

    speaker = None if as_json else _speaker(pack, speech)
    with input_errors(pack):
        _, change = _journal(file).append(make)
    if speaker is None:  # --json
        print_json(change_dict(change))
        return
    for line in change_lines(pack_for_match(pack, change.match), change):
        speaker.say(line)
    speaker.close()


def _scored(verb: str, player: str, count: int | None = None, keep_stock: bool = False,
            won: int | None = None) -> MakeEvent:
    """The event of a scoring verb, made from the fresh state under the journal lock."""
    from gm.score.entry import scored

    return lambda state: scored(verb, state, player, count, keep_stock=keep_stock, won=won)


def _taken_back(verb: str) -> MakeEvent:
    """An undo or a redo (the journal's fold says what it takes back or puts back)."""
    from gm.score.entry import build

    return lambda state: build(verb, (), state)


@app.command()
def new(
    alice: Annotated[str, typer.Argument(metavar="ALICE", help="First player: NAME, or NAME=reading (健=けん).")],
    bob: Annotated[str, typer.Argument(metavar="BOB", help="Second player, the same way.")],
    remote: Annotated[bool, typer.Option(
        "--remote", help="Remote play, one box each: 666 twice per game, skull plays up to 12 cards.")] = False,
    abandon: Annotated[bool, typer.Option(
        "--abandon", help="Start even though the current match is unfinished.")] = False,
    file: File = None, as_json: Json = False, lang: Lang = LANG, speech: Speech = "on",
) -> None:
    """Start a match of three games between two players."""
    from gm.score.entry import new_match

    pack = pack_for(lang)
    with input_errors(pack):
        event = new_match([alice, bob], remote=remote, abandon=abandon)
    _record(file, lambda state: event, as_json, pack, speech)


@app.command(cls=CountCommand)
def flow(player: Player,
         piles: Annotated[int, typer.Argument(
             metavar="PILES", parser=COUNT, help="How many of that player's own piles are empty (0–5).")],
         file: File = None, as_json: Json = False, lang: Lang = LANG, speech: Speech = "on") -> None:
    """場が流れる: a flow scores the player's empty piles (HU-R2).

    PLAYER made the last play before the flow.
    """
    _record(file, _scored("flow", player, piles), as_json, pack_for(lang), speech)


@app.command(cls=CountCommand)
def skull(player: Player,
          cards: Annotated[int, typer.Argument(
              metavar="CARDS", parser=COUNT,
              help="6s plus Humaliens in the play (1–6; remote 1–12); a game holds four 6s and two Humaliens "
                   "per box.")],
          file: File = None, as_json: Json = False, lang: Lang = LANG, speech: Speech = "on") -> None:
    """ドクロ: game number × cards in the play."""
    _record(file, _scored("skull", player, cards), as_json, pack_for(lang), speech)


@app.command("666", cls=CountCommand)
def six_six_six(player: Player,
                piles: Annotated[int | None, typer.Argument(
                    metavar="PILES", parser=COUNT,
                    help="The player's own empty piles at the forced flow (default: as last recorded).")] = None,
                file: File = None, as_json: Json = False, lang: Lang = LANG, speech: Speech = "on") -> None:
    """ロクロクロク: 3 skull cards now, end points ×3, and the forced flow.

    This game's end points count three times; the 666 forces a flow.
    """
    _record(file, _scored("666", player, piles), as_json, pack_for(lang), speech)


@app.command("god-island")
def god_island(player: Player, file: File = None, as_json: Json = False, lang: Lang = LANG,
               speech: Speech = "on") -> None:
    """ゴッドアイランド: 30 points."""
    _record(file, _scored("god-island", player), as_json, pack_for(lang), speech)


@app.command("angel-cut", cls=CountCommand)
def angel_cut(player: Player,
              piles: Annotated[int | None, typer.Argument(
                  metavar="PILES", parser=COUNT,
                  help="With --keep-stock: the player's own empty piles (default: as last recorded).")] = None,
              keep_stock: Annotated[bool, typer.Option(
                  "--keep-stock", help="The stock piles were kept: the flow scores the piles empty.")] = False,
              won: Annotated[int | None, typer.Option(
                  "--won", metavar="LEFT", parser=COUNT,
                  help="The hand was empty: the cut wins the game at once, the opponent holding LEFT cards "
                       f"({LEFT_RANGE}).")] = None,
              file: File = None, as_json: Json = False, lang: Lang = LANG, speech: Speech = "on") -> None:
    """エンジェルカット: the stock piles go; the forced flow scores 5.

    With an empty hand the cut wins at once (「その時点で勝利」): add --won LEFT to record the
    finish with it, one entry.
    """
    _record(file, _scored("angel-cut", player, piles, keep_stock, won), as_json, pack_for(lang), speech)


@app.command(cls=CountCommand)
def finish(player: Annotated[str, typer.Argument(metavar="PLAYER", help="Who went out.")],
           opponent_left: Annotated[int, typer.Argument(
               metavar="LEFT", parser=COUNT, help=f"The opponent's cards left: hand + stock ({LEFT_RANGE}).")],
           file: File = None, as_json: Json = False, lang: Lang = LANG, speech: Speech = "on") -> None:
    """上がり: 5 + the opponent's cards left, × the multiplier.

    Ends the game.
    """
    _record(file, _scored("finish", player, opponent_left), as_json, pack_for(lang), speech)


@app.command(cls=CountCommand)
def foul(player: Annotated[str, typer.Argument(metavar="PLAYER", help="Who fouled (went out on a forbidden card).")],
         winner_left: Annotated[int, typer.Argument(
             metavar="LEFT", parser=COUNT, help=f"The OPPONENT's own cards left: hand + stock ({LEFT_RANGE}).")],
         file: File = None, as_json: Json = False, lang: Lang = LANG, speech: Speech = "on") -> None:
    """反則上がり: the opponent scores 5 + their cards left, × the multiplier.

    Ends the game (HU-R4).
    """
    _record(file, _scored("foul", player, winner_left), as_json, pack_for(lang), speech)


@app.command()
def undo(file: File = None, as_json: Json = False, lang: Lang = LANG, speech: Speech = "on") -> None:
    """Take back the last event (recorded as an undo; nothing is erased)."""
    _record(file, _taken_back("undo"), as_json, pack_for(lang), speech)


@app.command()
def redo(file: File = None, as_json: Json = False, lang: Lang = LANG, speech: Speech = "on") -> None:
    """Put back what undo took (until the next scoring event)."""
    _record(file, _taken_back("redo"), as_json, pack_for(lang), speech)


def _loaded_match(file: Path | None, pack: Pack | None) -> Match:
    """The journal's current match; a one-line refusal in the pack's language (without one, in the
    listing language) when it cannot be read or holds none."""
    journal = _journal(file)
    with input_errors(pack):
        state = journal.load()
    if state.match is None:
        _no_match(journal.path, pack)
    return state.match


def _no_match(path: Path, pack: Pack | None) -> NoReturn:
    from scorer.humalien.errors import NoMatch

    error = NoMatch(f"no match in {path} yet: start one with `gm score new ALICE BOB`", "no_match_in", path=str(path))
    fail(said_in(pack or pack_for(LISTING_LANG), error))


def print_sheet(match: Match, pack: Pack) -> None:
    """The sheet with its words in the pack's language (its `score.sheet` table)."""
    from rich.console import Console

    from gm.score.render import pack_for_match, sheet

    shown = sheet(match, pack_for_match(pack, match))
    Console(highlight=False, emoji=False).print(shown)  # names and words as they are


@app.command()
def show(file: File = None, as_json: Json = False, lang: Lang = LANG,
         number: Annotated[int | None, typer.Option(
             "--match", metavar="N", parser=whole_in(1, None),
             help="An earlier match, by its number in `gm score matches`.")] = None) -> None:
    """The score sheet: games × players, multipliers, totals, a bar per game."""
    pack = pack_for(lang)
    match = _loaded_match(file, pack) if number is None else _kept_sheet(file, number, pack)
    if as_json:
        print_json(match.to_dict())
    else:
        print_sheet(match, pack)


def _kept_sheet(file: Path | None, number: int, pack: Pack) -> Match:
    """The last sheet of match `number` (every match `one` gives was played, and has one)."""
    from gm.score.matches import one

    with input_errors(pack):
        sheet = one(_journal(file).matches(sheets=True), number).sheet
    if sheet is None:
        raise LookupError(f"match {number} has no sheet")  # a bug: the fold gives each match played its sheet
    return sheet


LISTED = 50  # the most recent matches `gm score matches` lists unless given --all


@app.command()
def matches(file: File = None, as_json: Json = False, every: Annotated[bool, typer.Option(
        "--all", help=f"List every match (default: the last {LISTED}).")] = False) -> None:
    """The most recent matches in the journal: number, players, date, result; * marks the current one."""
    from gm.files import print_or_end_quietly, printable

    journal = _journal(file)
    with input_errors():
        kept = journal.matches(sheets=as_json)
    earlier = 0 if every else max(0, len(kept) - LISTED)
    kept = kept[earlier:]
    if as_json:
        print_json([m.to_json() for m in kept])
        return
    if not kept:
        _no_match(journal.path, None)
    rows = [f"{'*' if m.current else ' '} {m.number:3}  {(m.at or '')[:16].replace('T', ' '):16}  "
            f"{m.players[0]} v {m.players[1]}: {m.result}" for m in kept]
    if earlier:
        rows.insert(0, pack_for(LISTING_LANG).text("score.sheet.earlier", n=earlier))
    text = "\n".join(rows)
    print_or_end_quietly(text if "".join(rows).isprintable() else "\n".join(map(printable, rows)))


@app.command()
def say(file: File = None, lang: Lang = LANG, speech: Speech = "on", voice: VoiceId = None,
        rate: Rate = None, volume: Volume = None) -> None:
    """Read the totals and the leader aloud (numbers as words in Japanese)."""
    from gm.score.render import pack_for_match, totals_lines

    pack = pack_for(lang)
    match = _loaded_match(file, pack)
    speaker = _speaker(pack, speech, voice, rate, volume)
    for line in totals_lines(pack_for_match(pack, match), match):
        speaker.say(line)
    speaker.close()


@app.command()
def export(output: Annotated[Path | None, typer.Option(
               "--output", "-o", metavar="FILE", help="File to write (default: standard output).")] = None,
           as_json: Json = False, file: File = None) -> None:
    """Write the score sheet as CSV: one row per game, then the totals.

    With --json, the sheet as JSON (as `show --json`).
    """
    from gm.score.render import write_csv

    match = _loaded_match(file, None)
    write: Callable[[IO[str]], object]
    if as_json:
        text = json.dumps(match.to_dict(), ensure_ascii=False, indent=2) + "\n"
        write = lambda out: out.write(text)  # noqa: E731
    else:
        write = lambda out: write_csv(match, out)  # noqa: E731
    if output is None:
        write(sys.stdout)
        return
    with input_errors():
        write_new_file(output, write)


@app.command()
def play(file: File = None, lang: Lang = LANG, speech: Speech = "on", voice: VoiceId = None,
         rate: Rate = None, volume: Volume = None) -> None:
    """Score during a game with short commands: `f alice 2`, `u`, `show`, `help`.

    Also `s bob 3`, `fi alice 7`. Tab completes verbs and names; player names match by unique
    prefix. Each entry is saved before it is said.
    """
    from gm.score.play import run, typed_lines

    pack = pack_for(lang)
    journal = _journal(file)
    speaker = _speaker(pack, speech, voice, rate, volume)
    echo: Callable[[str], None] = lambda text: print(text, flush=True)  # noqa: E731
    try:
        with input_errors(pack):
            run(journal, speaker, pack, typed_lines(sys.stdin, echo, journal), echo,
                show=lambda state: print_sheet(state.match, pack) if state.match else echo("? no match yet"))
    finally:
        speaker.close()
