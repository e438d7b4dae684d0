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

    with input_errors(lang):
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
    from scorer.solitaire.deal import check_seed
    from scorer.solitaire.stats import summarize

    if policy not in POLICY_NAMES:
        fail(f"policy must be greedy, smart or omniscient, not {policy!r}")
    with input_errors():
        pyramid(rows)
        check_seed(seed)
    if policy == "omniscient":
        _prepare_solver()
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


def _prepare_solver() -> None:
    """Refuse in one line when numba is missing; say so on stderr when the solver is about to be
    compiled (the first time on a machine)."""
    from scorer.solitaire.solver_cache import check_available, compiled

    with input_errors():
        check_available()
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
    from gm.solitaire.solving import long_search_note, solve_json, solve_lines, solve_with_progress
    from scorer.solitaire.deal import deal_from_seed

    with input_errors():
        deal = deal_from_seed(seed, rows)
    _prepare_solver()
    if long_search_note(rows, max_states):
        typer.echo(long_search_note(rows, max_states), err=True)
    outcome = solve_with_progress(deal, seed, max_states)
    if json_out:
        print_json(solve_json(deal, seed, max_states, outcome))
        return
    for line in solve_lines(deal, seed, max_states, outcome):
        typer.echo(line)


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
