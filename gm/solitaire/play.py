"""`gm solitaire play`: the pyramid in the terminal, short typed commands, the reading at the end."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console

from gm.text.lines import Pack
from gm.ports import Line, Speaker
from gm.solitaire.talk import reading_lines
from gm.solitaire.board import describe, legend_text, pyramid_text, table_text
from scorer.solitaire.cards import EYE, HUMALIEN, OWL, rank
from scorer.solitaire.deal import Deal
from scorer.solitaire.engine import GameState, IllegalMove, apply, start
from scorer.solitaire.moves import Eye, Forgo, Humalien, Move, Owl, Pair, PairFlip, Special, Turn
from scorer.solitaire.policies import smart
from scorer.values import Refusal
from gm.files import read_line
from gm.text.numbers import whole_number
from gm.text.parse import fold

# The help line for each turned special card (the voice packs' `solitaire.board`).
EFFECT_HELP = {HUMALIEN: "humalien", EYE: "eye", OWL: "owl"}


class BadCommand(Refusal):
    """A typed command that cannot be read."""


def _number(word: str) -> int:
    """A typed number: ASCII or full-width digits (ValueError otherwise)."""
    number = whole_number(word)
    if number is None:
        raise ValueError(word)
    return number


COMMANDS = ("pair", "flip", "special", "hint", "quit", "help", "skip", "keep")
"""The commands `play` takes: each by the pack's word (`solitaire.commands`), which its help
lines show, and by its English name in every language."""


def command_words(pack: Pack) -> dict[str, str]:
    """Command → the word the pack shows and takes for it (ペア, めくる, 힌트)."""
    return {command: pack.text(f"solitaire.commands.{command}") for command in COMMANDS}


def _command(word: str, pack: Pack) -> str | None:
    """The command a typed word names: the pack's word or the English name (any case or width)."""
    said = fold(word)
    return next((c for c, w in command_words(pack).items() if said in (fold(w), c)), None)


def _usage(state: GameState, pack: Pack) -> str:
    """The commands that fit now: the turned special card's, else the game's."""
    key = EFFECT_HELP[state.pending] if state.pending else "help"
    return pack.text(f"solitaire.board.{key}", **command_words(pack))


def parse_command(text: str, state: GameState, pack: Pack) -> Move | str:
    """The move typed, or "hint" / "quit" / "help"; a BadCommand (one line, nothing changed)
    says why not in `pack`'s language. After a special card is turned only its answer is
    taken: the numbers it asks for ("keep" with the Eye's), or skip; "pair 24" at the Humalien
    is refused, not read as its number."""
    words = text.split()
    if not words:
        raise BadCommand(_usage(state, pack))
    named = [_command(w, pack) for w in words]
    head, args = named[0], words[1:]
    if head in ("hint", "quit", "help") and not args:
        return head
    if state.pending is not None:
        return _answer(state, pack, words, named)
    if head is None or head in ("hint", "quit", "help", "skip", "keep"):
        raise BadCommand(pack.text("solitaire.board.unknown_command", text=text.strip(), help=_usage(state, pack)))
    try:
        numbers = [_number(w) for w in args]
    except ValueError as error:
        raise BadCommand(pack.text("solitaire.board.numbers_expected", head=words[0], text=text)) from error
    if head == "pair" and len(numbers) == 2:
        return Pair(numbers[0] - 1, numbers[1] - 1)
    if head == "pair" and len(numbers) == 1:
        return PairFlip(numbers[0] - 1)
    if head == "flip" and not numbers:
        return Turn()
    if head == "special" and not numbers:
        return Special()
    raise BadCommand(pack.text("solitaire.board.unknown_command", text=text.strip(), help=_usage(state, pack)))


def _answer(state: GameState, pack: Pack, words: list[str], named: list[str | None]) -> Move:
    """The answer to the special card turned (SS rules: the Humalien discards one face-up card,
    the Eye guesses a face-down one, the Owl pairs a set-aside card): skip, or exactly its numbers."""
    if named == ["skip"]:
        return Forgo()
    keep = named[-1] == "keep" and state.pending == EYE
    values = [whole_number(w) for w in (words[:-1] if keep else words)]
    if any(v is None for v in values):
        raise BadCommand(_usage(state, pack))
    numbers = [v for v in values if v is not None]
    if len(numbers) == 1 and state.pending == HUMALIEN:
        return Humalien(numbers[0] - 1)
    if len(numbers) == 2 and state.pending == EYE:
        return Eye(numbers[0] - 1, numbers[1], discard=not keep)
    if len(numbers) == 2 and state.pending == OWL:
        if not 1 <= numbers[0] <= len(state.set_aside):
            raise BadCommand(pack.text("solitaire.board.no_set_aside", index=numbers[0],
                                        count=len(state.set_aside)))
        return Owl(state.set_aside[numbers[0] - 1], numbers[1] - 1)
    raise BadCommand(_usage(state, pack))


def command_for(state: GameState, move: Move, pack: Pack) -> str:
    """What to type for `move` in `state`, in `pack`'s command words: the inverse of
    `parse_command` (positions from 1; the Owl's set-aside card by its index in the pile)."""
    word = command_words(pack)
    if isinstance(move, Pair):
        return f"{word['pair']} {move.a + 1} {move.b + 1}"
    if isinstance(move, PairFlip):
        return f"{word['pair']} {move.position + 1}"
    if isinstance(move, Turn):
        return word["flip"]
    if isinstance(move, Special):
        return word["special"]
    if isinstance(move, Humalien):
        return str(move.position + 1)
    if isinstance(move, Eye):
        return f"{move.position + 1} {move.guess}" + ("" if move.discard else f" {word['keep']}")
    if isinstance(move, Owl):
        return f"{state.set_aside.index(move.card) + 1} {move.position + 1}"
    return word["skip"]


def hint_line(state: GameState, pack: Pack) -> str:
    """The smart player's move as the command to type, and in words where the pack's line has them."""
    move = smart(state)
    return pack.text("solitaire.board.hint_line", command=command_for(state, move, pack),
                      move=describe(state, move, pack))


def play_game(deal: Deal, pack: Pack, speaker: Speaker, stream: TextIO, console: Console | None = None) -> GameState:
    """Play `deal` with commands read from `stream`, in the pack's language; returns the last state."""
    console = console or Console(highlight=False)
    state = start(deal)
    speaker.say(pack.line("solitaire.play_start", left=state.left, stock=state.stock_left))
    redraw = True
    while not state.over:
        if redraw:
            console.print(pyramid_text(state))
            console.print(table_text(state, pack))
            console.print(legend_text(pack))
            console.print(_usage(state, pack), style="dim", markup=False)
        redraw = False
        console.print("> ", end="")
        text = read_line(stream)
        try:
            command = parse_command(text, state, pack) if text else "quit"  # end of input: as quit
        except BadCommand as error:
            console.print(str(error), style="yellow", markup=False)
            continue
        if command == "quit":
            speaker.say(pack.line("solitaire.quit", left=state.left))
            _say_reading(state, pack, speaker)
            return state
        if isinstance(command, str):  # hint or help
            console.print(hint_line(state, pack) if command == "hint" else _usage(state, pack),
                          style="cyan", markup=False)
            continue
        try:
            after = apply(state, command)
        except IllegalMove as error:
            console.print(pack.error(error), style="yellow", markup=False)
            continue
        _announce(state, command, after, pack, speaker)
        state, redraw = after, True
    speaker.say(end_line(state, pack))
    _say_reading(state, pack, speaker)
    return state


def end_line(state: GameState, pack: Pack) -> Line:
    """What ended the game: the pyramid cleared (with the stock left), the last stock card set
    aside (the manual's end), or paired away with nothing left to turn."""
    if state.ending == "cleared":
        key = "solitaire.game_over_cleared" if state.stock_left else "solitaire.game_over_cleared_all"
        return pack.line(key, stock=state.stock_left)
    return pack.line("solitaire.game_over" if state.ending == "set_aside" else "solitaire.game_over_paired")


def _say_reading(state: GameState, pack: Pack, speaker: Speaker) -> None:
    """The reading of the pyramid cards left (at the end, or so far when the player quits)."""
    for line in reading_lines(state.left, pack, state.deal.rows)[0]:
        speaker.say(line)
    speaker.flush()


def _announce(before: GameState, move: Move, after: GameState, pack: Pack, speaker: Speaker) -> None:
    if isinstance(move, Special):
        speaker.say(pack.line(f"solitaire.special_{after.pending}"))
    elif isinstance(move, Eye):
        number = rank(before.card_at(move.position))
        speaker.say(pack.line("solitaire.eye_right" if number == move.guess else "solitaire.eye_wrong", number=number))
