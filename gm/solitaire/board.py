"""Drawing 7th Sense Training with rich: the pyramid in the elements' colours, moves, histograms."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from gm.files import rich_ends_quietly
from gm.text.lines import Pack
from scorer.solitaire.cards import element, rank
from scorer.solitaire.deal import Deal
from scorer.solitaire.engine import GameState, apply, start
from scorer.solitaire.moves import Eye, Forgo, Humalien, Move, Owl, Pair, PairFlip, Special, Turn
from scorer.solitaire.reading import Reading, reading
from scorer.solitaire.stats import Summary, wilson

COLOURS = {"fire": "bold white on red", "water": "bold white on blue", "wind": "bold black on green",
           "earth": "bold black on yellow"}
# A letter per element as well as its colour: readable with NO_COLOR=1 and by colour-blind players.
MARKS = {"fire": "F", "water": "W", "wind": "A", "earth": "E"}
BACK = "white on grey23"
BAR = 40  # cells of the longest bar of a histogram, where the terminal has room
CELL = 7  # characters per card in the drawing


def card_text(card: int) -> Text:
    """A number card as its number and its element's letter, in the element's colour: "12F"."""
    return Text(f"{rank(card):>2}{MARKS[element(card)]}", style=COLOURS[element(card)])


def legend_text(pack: Pack) -> Text:
    """What the element letters stand for, each in its colour (words in `pack`'s language)."""
    words = _board_words(pack)
    out = Text(f"{words('elements')}:")
    for name, mark in MARKS.items():
        out.append(" ").append(f" {mark} ", style=COLOURS[name]).append(f" {words(name)}")
    return out


def _board_words(pack: Pack) -> Callable[[str], str]:
    return lambda word: pack.text(f"solitaire.board.{word}")


def pyramid_text(state: GameState) -> Text:
    """The pyramid, one line of numbers (positions) over one line of cards per row."""
    layout = state.layout
    face_up = state.face_up
    out = Text()
    for row in range(layout.rows):
        indent = " " * ((layout.rows - row - 1) * CELL // 2)
        numbers, cards = Text(indent), Text(indent)
        for col in range(row + 1):
            p = layout.position(row, col)
            numbers.append(f"{p + 1:^{CELL}}", style="dim")
            if not state.present >> p & 1:
                cards.append(" " * CELL)
            elif face_up >> p & 1:
                cards.append("  ").append(card_text(state.card_at(p))).append("  ")
            else:
                cards.append("  ").append("▒▒▒", style=BACK).append("  ")
        out.append(numbers).append("\n").append(cards).append("\n")
    return out


def table_text(state: GameState, pack: Pack) -> Text:
    """Stock, flip card, set-aside pile and specials under the pyramid (words in `pack`'s language)."""
    words = _board_words(pack)
    out = Text(f"{words('stock')} {state.stock_left}   {words('flip')} ")
    out.append(card_text(state.flip) if state.flip is not None else Text("--"))
    out.append(f"   {words('specials')} {state.specials_left}   {words('left')} {state.left}\n{words('set_aside')}: ")
    for index, card in enumerate(state.set_aside, 1):
        out.append(f"{index}:").append(card_text(card)).append(" ")
    return out


def card_name(card: int, pack: Pack) -> str:
    """A number card as `pack` names it: "7 fire", "7火"."""
    return pack.text("solitaire.moves.card", rank=rank(card),
                      element=pack.text(f"solitaire.moves.names.{element(card)}"))


def describe(state: GameState, move: Move, pack: Pack) -> str:
    """One move in words, in the state it is played from (in `pack`'s language)."""

    def said(key: str, **fields: object) -> str:
        return pack.text(f"solitaire.moves.{key}", **fields)

    def card(position: int) -> str:
        return card_name(state.card_at(position), pack)

    if isinstance(move, Pair):
        return said("pair", a=move.a + 1, card_a=card(move.a), b=move.b + 1, card_b=card(move.b))
    if isinstance(move, PairFlip) and state.flip is not None:  # a flip pair needs the flip card
        return said("pair_flip", flip=card_name(state.flip, pack), position=move.position + 1,
                    card=card(move.position))
    if isinstance(move, Turn):
        return said("turn" if state.stock_left else "last_turn")
    if isinstance(move, Special):
        return said("special", special=said(f"names.{state.deal.specials[state.specials_used]}"))
    if isinstance(move, Humalien):
        return said("humalien", position=move.position + 1, card=card(move.position))
    if isinstance(move, Eye):
        return said("eye_discard" if move.discard else "eye_keep", position=move.position + 1, guess=move.guess,
                    card=card(move.position))
    if isinstance(move, Owl):
        return said("owl", index=state.set_aside.index(move.card) + 1, set_aside=card_name(move.card, pack),
                    position=move.position + 1, card=card(move.position))
    assert isinstance(move, Forgo)
    return said("forgo", special=said(f"names.{state.pending}"))


def describe_move(deal: Deal, moves: Iterable[Move], pack: Pack) -> list[str]:
    """Each move of a game from the start of `deal`, in words."""
    state, out = start(deal), []
    for move in moves:
        out.append(describe(state, move, pack))
        state = apply(state, move)
    return out


def histogram(summary: Summary, pack: Pack, console: Console | None = None) -> None:
    """The distribution of readings as bars, with each share's 95 % interval (words in `pack`'s language)."""
    rich_ends_quietly()
    console = console or Console()
    words = _board_words(pack)  # the readings without a percentage: "bright", "dark" (SS digest)
    lo, hi = summary.clear_rate_ci95
    console.print(pack.text(
        "solitaire.simulate.summary", policy=summary.policy, deals=summary.deals, rows=summary.rows,
        mean=f"{summary.mean_left:.2f}", cleared=f"{summary.clear_rate:.1%}", low=f"{lo:.1%}", high=f"{hi:.1%}"))
    top = max(summary.distribution.values())
    counts = sorted(summary.distribution.items())
    saids = [_said(reading(left, summary.rows), words) for left, _ in counts]
    column = max(6, *map(cell_len, saids))
    rows = []
    for (left, count), said in zip(counts, saids):
        low, high = wilson(count, summary.deals)
        fields = {"left": f"{left:>3}", "said": " " * (column - cell_len(said)) + said,
                  "share": f"{count / summary.deals:6.1%}", "low": f"{low:.1%}", "high": f"{high:.1%}"}
        rows.append((count, fields))
    widest = max(cell_len(pack.text("solitaire.simulate.row", bar="", **fields)) for _, fields in rows)
    room = max(10, min(BAR, console.width - widest))  # a row stays one line on the terminal
    for count, fields in rows:
        bar = "█" * max(1, round(room * count / top))
        console.print(pack.text("solitaire.simulate.row", bar=bar + " " * (room - len(bar)), **fields),
                      soft_wrap=True)


def _said(result: Reading, words: Callable[[str], str]) -> str:
    """A reading as the histogram names it: its percentage, else its word ("bright")."""
    return f"{result.percent}%" if result.percent is not None else words(result.key)
