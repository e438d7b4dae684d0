"""`gm solitaire`: 7th Sense Training: the reading, the pyramid game, its odds."""

from __future__ import annotations

from typing import Optional

import typer

from gm.commands.common import fail, input_errors, print_json
from gm.speech.settings import SpeechSettings
from gm.commands.options import LangOption, RateOption, SpeechOption, VoiceOption, VolumeOption

app = typer.Typer(help="7th Sense Training: the reading, the pyramid game, its odds.", no_args_is_help=True)

RowsOption = typer.Option(7, "--rows", help="Rows of the pyramid (3–9; SS-R1).")
SeedOption = typer.Option(0, "--seed", help="Seed of the deal (the same deal on every machine).")


@app.command()
def reading(
    left: int = typer.Argument(..., help="Pyramid cards left at the end."),
    odds: bool = typer.Option(False, "--odds", help="Also say how this reading stands among simulated games."),
    rows: int = RowsOption,
    json_out: bool = typer.Option(False, "--json", help="Print JSON instead of speaking."),
    lang: str = LangOption,
    speech: str = SpeechOption,
    voice: Optional[str] = VoiceOption,
    rate: Optional[int] = RateOption,
    volume: Optional[float] = VolumeOption,
) -> None:
    """Speak and print the reading (導きの結果) for LEFT cards left."""
    from gm.solitaire.talk import reading_lines, smart_distribution

    with input_errors():
        distribution = smart_distribution(rows) if odds else None
        lines, data = reading_lines(left, lang, rows, distribution)
    if json_out:
        print_json(data)
        return
    _speak(lines, SpeechSettings(lang, speech, voice, rate, volume))


def _speak(lines, settings: SpeechSettings) -> None:
    from gm.speech.speakers import open_speaker

    with input_errors():
        speaker = open_speaker(settings)
    try:
        for line in lines:
            speaker.say(line)
        speaker.flush()
    finally:
        speaker.close()


@app.command()
def simulate(
    deals: int = typer.Option(1000, "--deals", min=1, help="How many deals (seeds S, S+1, …)."),
    seed: int = SeedOption,
    policy: str = typer.Option("smart", "--policy", help="greedy, smart or omniscient."),
    rows: int = RowsOption,
    workers: int = typer.Option(1, "--workers", min=1, help="Worker processes (deals are independent)."),
    max_states: Optional[int] = typer.Option(
        None, "--max-states", min=1, help="omniscient: give up a deal after this many states (listed as unresolved)."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Play many deals with one policy: the distribution of readings and the clear rate.

    With --max-states, deals the solver cannot settle are left out of the distribution and
    listed under "unresolved" with the bounds known for them.
    """
    from gm.solitaire.runs import run_deals
    from gm.solitaire.board import histogram
    from scorer.solitaire.layout import pyramid
    from scorer.solitaire.simulate import POLICY_NAMES, Unresolved
    from scorer.solitaire.stats import summarize

    from scorer.solitaire.deal import check_seed

    if policy not in POLICY_NAMES:
        fail(f"policy must be greedy, smart or omniscient, not {policy!r}")
    with input_errors():
        pyramid(rows)
        check_seed(seed)
    if policy == "omniscient":
        _note_compiling()
    results = run_deals(range(seed, seed + deals), rows, policy, workers, max_states=max_states)
    unresolved = [r for r in results if isinstance(r, Unresolved)]
    summary = summarize([r for r in results if not isinstance(r, Unresolved)], policy, rows)
    if json_out:
        data = summary.to_json()
        if max_states is not None:
            data["unresolved"] = [r.to_json() for r in unresolved]
        print_json(data)
        return
    histogram(summary)
    for r in unresolved:
        typer.echo(f"unresolved within {max_states} states: seed {r.seed}, between {r.at_least} and {r.at_most} left")


def _note_compiling() -> None:
    """Say so on stderr when the solver is about to be compiled (the first time on a machine)."""
    from scorer.solitaire.search import compiled

    if not compiled():
        typer.echo("gm: compiling the pyramid solver first (once on this machine, about half a minute)", err=True)


@app.command()
def solve(
    seed: int = SeedOption,
    rows: int = RowsOption,
    max_states: Optional[int] = typer.Option(
        None, "--max-states", min=1, help="Give up after this many states and say the bounds known (SS-R6)."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The fewest cards left for one deal with perfect information, and the moves that reach it.

    Capped by --max-states, it says so and gives the bounds it knows (SS-R6).
    """
    from gm.solitaire.board import describe_move
    from gm.solitaire.solving import LONG_ROWS, ProgressLine, solve_reporting
    from scorer.solitaire.deal import deal_from_seed
    from scorer.solitaire.moves import move_to_json
    from scorer.solitaire.simulate import unresolved
    from scorer.solitaire.solver import SearchLimit

    with input_errors():
        deal = deal_from_seed(seed, rows)
    _note_compiling()
    if rows >= LONG_ROWS:
        typer.echo(f"gm: a {rows}-row pyramid may take many minutes to solve"
                   f"{'' if max_states else ' (--max-states N caps the search)'}; progress below", err=True)
    progress = ProgressLine(max_states)
    try:
        solution = solve_reporting(deal, max_states, progress)
    except SearchLimit as limit:
        bounds = unresolved(seed, deal, limit)
        if json_out:
            print_json({"seed": seed, "rows": rows, "capped": True, "max_states": max_states, "states": limit.states,
                        "best_left": None, "at_least": bounds.at_least, "at_most": bounds.at_most, "moves": []})
            return
        typer.echo(f"seed {seed}, {rows} rows: capped at {max_states} states (--max-states), not proven: "
                   f"between {bounds.at_least} and {bounds.at_most} left")
        return
    finally:
        progress.close()
    if json_out:
        print_json({"seed": seed, "rows": rows, "capped": False, "max_states": max_states, "states": solution.nodes,
                    "best_left": solution.best_left, "at_least": solution.best_left, "at_most": solution.best_left,
                    "moves": [move_to_json(m) for m in solution.moves]})
        return
    typer.echo(f"seed {seed}, {rows} rows: at best {solution.best_left} left ({len(solution.moves)} moves, {solution.nodes} states searched)")
    for number, text in enumerate(describe_move(deal, solution.moves), 1):
        typer.echo(f"{number:3}. {text}")


@app.command()
def play(
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the deal (random when left out)."),
    rows: int = RowsOption,
    lang: str = LangOption,
    speech: str = SpeechOption,
    voice: Optional[str] = VoiceOption,
    rate: Optional[int] = RateOption,
    volume: Optional[float] = VolumeOption,
) -> None:
    """Play the pyramid in the terminal; the reading is spoken at the end."""
    import random
    import sys

    from gm.solitaire.play import play_game
    from gm.speech.speakers import open_speaker
    from scorer.solitaire.deal import deal_from_seed

    with input_errors():
        deal = deal_from_seed(random.SystemRandom().randrange(10**9) if seed is None else seed, rows)
        speaker = open_speaker(SpeechSettings(lang, speech, voice, rate, volume))
    try:
        play_game(deal, lang, speaker, sys.stdin)
    finally:
        speaker.close()
