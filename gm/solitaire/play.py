"""`gm solitaire play`: the pyramid in the terminal, short typed commands, the reading at the end."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console

from gm.text.lines import Voice
from gm.ports import Speaker
from gm.solitaire.talk import reading_lines
from gm.solitaire.board import describe, legend_text, pyramid_text, table_text
from scorer.solitaire.cards import EYE, HUMALIEN, OWL, rank
from scorer.solitaire.deal import Deal
from scorer.solitaire.engine import GameState, IllegalMove, apply, start
from scorer.solitaire.moves import Eye, Forgo, Humalien, Move, Owl, Pair, PairFlip, Special, Turn
from scorer.solitaire.policies import smart
from gm.errors import GmError
from gm.files import read_line
from gm.text.numbers import whole_number

# The help line for each turned special card (the voice packs' `solitaire.board`).
EFFECT_HELP = {HUMALIEN: "humalien", EYE: "eye", OWL: "owl"}


class BadCommand(GmError):
    """A typed command that cannot be read."""


def _number(word: str) -> int:
    """A typed number: ASCII or full-width digits (ValueError otherwise)."""
    number = whole_number(word)
    if number is None:
        raise ValueError(word)
    return number


def _usage(state: GameState, voice: Voice) -> str:
    """The commands that fit now: the turned special card's, else the game's."""
    return voice.text(f"solitaire.board.{EFFECT_HELP[state.pending] if state.pending else 'help'}")


def parse_command(text: str, state: GameState, voice: Voice | None = None) -> Move | str:
    """The move typed, or "hint" / "quit"; a BadCommand says why not in `voice`'s language."""
    voice = voice or Voice("en")
    words = text.lower().split()
    if not words:
        raise BadCommand(voice.text("solitaire.board.help"))
    head, args = words[0], words[1:]
    if head in ("hint", "quit", "help"):
        return head
    try:
        numbers = [_number(w) for w in args if w != "keep"]
    except ValueError as error:
        raise BadCommand(voice.text("solitaire.board.numbers_expected", head=head, text=text)) from error
    if state.pending is not None:
        if head == "skip":
            return Forgo()
        values = [_number(w) for w in words if w != "keep" and whole_number(w) is not None]
        if len(values) == 1 and state.pending == HUMALIEN:
            return Humalien(values[0] - 1)
        if len(values) == 2 and state.pending == EYE:
            return Eye(values[0] - 1, values[1], discard="keep" not in words)
        if len(values) == 2 and state.pending == OWL:
            if not 1 <= values[0] <= len(state.set_aside):
                raise BadCommand(voice.text("solitaire.board.no_set_aside", index=values[0],
                                            count=len(state.set_aside)))
            return Owl(state.set_aside[values[0] - 1], values[1] - 1)
        raise BadCommand(_usage(state, voice))
    if head == "pair" and len(numbers) == 2:
        return Pair(numbers[0] - 1, numbers[1] - 1)
    if head == "pair" and len(numbers) == 1:
        return PairFlip(numbers[0] - 1)
    if head == "flip" and not numbers:
        return Turn()
    if head == "special" and not numbers:
        return Special()
    raise BadCommand(voice.text("solitaire.board.unknown_command", text=text.strip(), help=_usage(state, voice)))


def command_for(state: GameState, move: Move) -> str:
    """What to type for `move` in `state`: the inverse of `parse_command` (positions from 1;
    the Owl's set-aside card by its index in the pile)."""
    if isinstance(move, Pair):
        return f"pair {move.a + 1} {move.b + 1}"
    if isinstance(move, PairFlip):
        return f"pair {move.position + 1}"
    if isinstance(move, Turn):
        return "flip"
    if isinstance(move, Special):
        return "special"
    if isinstance(move, Humalien):
        return str(move.position + 1)
    if isinstance(move, Eye):
        return f"{move.position + 1} {move.guess}" + ("" if move.discard else " keep")
    if isinstance(move, Owl):
        return f"{state.set_aside.index(move.card) + 1} {move.position + 1}"
    return "skip"


def hint_line(state: GameState, voice: Voice | None = None) -> str:
    """The smart player's move as the command to type, and in words where the pack's line has them."""
    voice = voice or Voice("en")
    move = smart(state)
    return voice.text("solitaire.board.hint_line", command=command_for(state, move), move=describe(state, move, voice))


def play_game(deal: Deal, lang: str, speaker: Speaker, stream: TextIO, console: Console | None = None) -> GameState:
    """Play `deal` with commands read from `stream`; returns the last state."""
    console = console or Console(highlight=False)
    voice = Voice(lang)
    state = start(deal)
    speaker.say(voice.line("solitaire.play_start", left=state.left, stock=state.stock_left))
    redraw = True
    while not state.over:
        if redraw:
            console.print(pyramid_text(state))
            console.print(table_text(state, voice))
            console.print(legend_text(voice))
            console.print(_usage(state, voice), style="dim", markup=False)
        redraw = False
        console.print("> ", end="")
        text = read_line(stream)
        try:
            command = parse_command(text, state, voice) if text else "quit"  # end of input: as quit
        except BadCommand as error:
            console.print(str(error), style="yellow", markup=False)
            continue
        if command == "quit":
            speaker.say(voice.line("solitaire.quit", left=state.left))
            _say_reading(state, lang, speaker)
            return state
        if isinstance(command, str):  # hint or help
            console.print(hint_line(state, voice) if command == "hint" else _usage(state, voice),
                          style="cyan", markup=False)
            continue
        try:
            after = apply(state, command)
        except IllegalMove as error:
            console.print(voice.error(error), style="yellow", markup=False)
            continue
        _announce(state, command, after, voice, speaker)
        state, redraw = after, True
    speaker.say(end_line(state, voice))
    _say_reading(state, lang, speaker)
    return state


def end_line(state: GameState, voice: Voice):
    """What ended the game: the pyramid cleared (with the stock left), the last stock card set
    aside (the manual's end), or paired away with nothing left to turn."""
    if state.ending == "cleared":
        key = "solitaire.game_over_cleared" if state.stock_left else "solitaire.game_over_cleared_all"
        return voice.line(key, stock=state.stock_left)
    return voice.line("solitaire.game_over" if state.ending == "set_aside" else "solitaire.game_over_paired")


def _say_reading(state: GameState, lang: str, speaker: Speaker) -> None:
    """The reading of the pyramid cards left (at the end, or so far when the player quits)."""
    for line in reading_lines(state.left, lang, state.deal.rows)[0]:
        speaker.say(line)
    speaker.flush()


def _announce(before: GameState, move: Move, after: GameState, voice: Voice, speaker: Speaker) -> None:
    if isinstance(move, Special):
        speaker.say(voice.line(f"solitaire.special_{after.pending}"))
    elif isinstance(move, Eye):
        number = rank(before.card_at(move.position))
        speaker.say(voice.line("solitaire.eye_right" if number == move.guess else "solitaire.eye_wrong", number=number))
