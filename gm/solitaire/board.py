"""Drawing 7th Sense Training with rich: the pyramid in the elements' colours, moves, histograms."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.text import Text

from gm.text.lines import Voice
from scorer.solitaire.cards import element, label, rank
from scorer.solitaire.deal import Deal
from scorer.solitaire.engine import GameState, apply, start
from scorer.solitaire.moves import Eye, Forgo, Humalien, Move, Owl, Pair, PairFlip, Special, Turn
from scorer.solitaire.reading import reading
from scorer.solitaire.stats import Summary, wilson

COLOURS = {"fire": "bold white on red", "water": "bold white on blue", "wind": "bold black on green",
           "earth": "bold black on yellow"}
# A letter per element as well as its colour: readable with NO_COLOR=1 and by colour-blind players.
MARKS = {"fire": "F", "water": "W", "wind": "A", "earth": "E"}
BACK = "white on grey23"
CELL = 7  # characters per card in the drawing


def card_text(card: int) -> Text:
    """A number card as its number and its element's letter, in the element's colour: "12F"."""
    return Text(f"{rank(card):>2}{MARKS[element(card)]}", style=COLOURS[element(card)])


def legend_text(voice: Voice | None = None) -> Text:
    """What the element letters stand for, each in its colour (words in `voice`'s language)."""
    words = _board_words(voice)
    out = Text(f"{words('elements')}:")
    for name, mark in MARKS.items():
        out.append(" ").append(f" {mark} ", style=COLOURS[name]).append(f" {words(name)}")
    return out


def _board_words(voice: Voice | None):
    voice = voice or Voice("en")
    return lambda word: voice.text(f"solitaire.board.{word}")


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


def table_text(state: GameState, voice: Voice | None = None) -> Text:
    """Stock, flip card, set-aside pile and specials under the pyramid (words in `voice`'s language)."""
    words = _board_words(voice)
    out = Text(f"{words('stock')} {state.stock_left}   {words('flip')} ")
    out.append(card_text(state.flip) if state.flip is not None else Text("--"))
    out.append(f"   {words('specials')} {state.specials_left}   {words('left')} {state.left}\n{words('set_aside')}: ")
    for index, card in enumerate(state.set_aside, 1):
        out.append(f"{index}:").append(card_text(card)).append(" ")
    return out


def describe(state: GameState, move: Move) -> str:
    """One move in words, in the state it is played from."""
    if isinstance(move, Pair):
        return f"pair {move.a + 1} ({label(state.card_at(move.a))}) with {move.b + 1} ({label(state.card_at(move.b))})"
    if isinstance(move, PairFlip) and state.flip is not None:  # a flip pair needs the flip card
        flip, card = label(state.flip), label(state.card_at(move.position))
        return f"pair the flip card ({flip}) with {move.position + 1} ({card})"
    if isinstance(move, Turn):
        return "turn the next stock card" if state.stock_left else "set the flip card aside: the end"
    if isinstance(move, Special):
        return f"turn a special card: {state.deal.specials[state.specials_used]}"
    if isinstance(move, Humalien):
        return f"humalien discards {move.position + 1} ({label(state.card_at(move.position))})"
    if isinstance(move, Eye):
        verb = "discard it" if move.discard else "keep it face up"
        return f"eye on {move.position + 1}, predicting {move.guess} ({label(state.card_at(move.position))}): {verb}"
    if isinstance(move, Owl):
        index = state.set_aside.index(move.card) + 1
        card = label(state.card_at(move.position))
        return f"owl pairs set-aside {index} ({label(move.card)}) with {move.position + 1} ({card})"
    assert isinstance(move, Forgo)
    return f"forgo the {state.pending}"


def describe_move(deal: Deal, moves: Iterable[Move]) -> list[str]:
    """Each move of a game from the start of `deal`, in words."""
    state, out = start(deal), []
    for move in moves:
        out.append(describe(state, move))
        state = apply(state, move)
    return out


def histogram(summary: Summary, console: Console | None = None, voice: Voice | None = None) -> None:
    """The distribution of readings as bars, with each share's 95 % interval (words in `voice`'s language)."""
    console = console or Console()
    voice = voice or Voice("en")
    words = _board_words(voice)  # the readings without a percentage: "bright", "dark" (SS digest)
    lo, hi = summary.clear_rate_ci95
    console.print(voice.text(
        "solitaire.simulate.summary", policy=summary.policy, deals=summary.deals, rows=summary.rows,
        mean=f"{summary.mean_left:.2f}", cleared=f"{summary.clear_rate:.1%}", low=f"{lo:.1%}", high=f"{hi:.1%}"))
    top = max(summary.distribution.values())
    for left, count in sorted(summary.distribution.items()):
        share = count / summary.deals
        low, high = wilson(count, summary.deals)
        bar = "█" * max(1, round(40 * count / top))
        result = reading(left, summary.rows)
        said = f"{result.percent}%" if result.percent is not None else words(result.key)
        console.print(voice.text("solitaire.simulate.row", left=f"{left:>3}", said=f"{said:>6}", bar=f"{bar:<40}",
                                 share=f"{share:6.1%}", low=f"{low:.1%}", high=f"{high:.1%}"))
