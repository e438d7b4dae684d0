"""`gm solitaire`: 7th Sense Training: the reading, the pyramid game, its odds."""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any
from collections.abc import Callable, Iterator

import typer

from gm.commands.common import EXIT_INTERRUPTED, GmApp, fail, input_errors, pack_for, print_json, speak_lines
from gm.commands.options import LANG, Json, Lang, Rate, Speech, VoiceId, Volume, whole_in
from gm.files import to_stderr
from gm.speech.settings import SpeechSettings

if TYPE_CHECKING:
    from rich.console import Console

    from gm.text.lines import Pack

app = GmApp(help="7th Sense Training: the reading, the pyramid game, its odds.")

MAX_SEED = 2**32 - 1
Rows = Annotated[int, typer.Option(  # the layout checks the range (SS-R1)
    "--rows", metavar="ROWS", parser=whole_in(0, None), help="Rows of the pyramid, 3–9 (SS-R1).")]
SEED = whole_in(-MAX_SEED, MAX_SEED)  # a negative seed gets its own message (SS-R5) from the deal
Seed = Annotated[int, typer.Option(
    "--seed", metavar="SEED", parser=SEED,
    help="Seed of the deal (the same deal on every machine).")]


@app.command()
def reading(
    left: Annotated[int, typer.Argument(
        metavar="LEFT", parser=whole_in(0, None),
        help="Pyramid cards left at the end (0 up to the pyramid's size).")],
    odds: Annotated[bool, typer.Option(
        "--odds", help="Also say how this reading stands among simulated games.")] = False,
    rows: Rows = 7, json_out: Json = False, lang: Lang = LANG, speech: Speech = "on",
    voice: VoiceId = None, rate: Rate = None, volume: Volume = None,
) -> None:
    """Speak and print the reading (導きの結果) for LEFT cards left."""
    from gm.solitaire.talk import reading_lines, smart_distribution

    pack = pack_for(lang)
    with input_errors(pack):
        distribution = smart_distribution(rows) if odds else None
        lines, data = reading_lines(left, pack, rows, distribution)
    if json_out:
        print_json(data)
        return
    speak_lines(lines, SpeechSettings(pack.lang, speech, voice, rate, volume, known_lines=pack))


def _workers(asked: int, deals: int, words: Pack) -> int:
    """`asked` workers, or as many as the cores and free memory allow (said on stderr in the words' language)."""
    from gm.solitaire.runs import WORKER_BYTES, cores, free_memory, worker_limit

    workers = min(asked, worker_limit(deals))
    if workers < asked and workers < deals:
        memory = free_memory()
        room = memory // WORKER_BYTES if memory is not None else cores()
        line = words.text("solitaire.workers.fewer", workers=workers, asked=asked, cores=cores(), room=room)
        to_stderr(line)
    return workers


@app.command()
def simulate(
    deals: Annotated[int, typer.Option(
        "--deals", metavar="N", parser=whole_in(1, 10**7, "deals"),
        help="How many deals, 1–10⁷ (seeds S, S+1 and on).")] = 1000,
    seed: Seed = 0,
    policy: Annotated[str, typer.Option(
        "--policy", metavar="POLICY", help="greedy, smart or omniscient.")] = "smart",
    rows: Rows = 7,
    workers: Annotated[int, typer.Option(
        "--workers", metavar="N", parser=whole_in(1, 64), help="Worker processes, 1–64 (deals are independent).")] = 1,
    max_states: Annotated[int | None, typer.Option(
        "--max-states", metavar="N", parser=whole_in(1, 10**12),
        help="omniscient: give up a deal after this many states (listed as unresolved).")] = None,
    json_out: Json = False,
) -> None:
    """Play many deals with one policy: the readings' spread and the clear rate.

    With --max-states, deals the solver cannot settle are left out of the distribution and
    listed under "unresolved" with the bounds known for them.
    """
    from gm.solitaire.runs import Interrupted, run_deals
    from scorer.solitaire.layout import pyramid
    from scorer.solitaire.simulate import POLICY_NAMES
    from scorer.solitaire.deal import check_seed

    words = _words()
    if policy not in POLICY_NAMES:
        fail(words.text("errors.voice.policy", policy=policy))
    with input_errors(words):
        pyramid(rows)
        check_seed(seed)
    if policy == "omniscient":
        _prepare_solver(words)
    try:
        results = run_deals(range(seed, seed + deals), rows, policy, _workers(workers, deals, words),
                            max_states=max_states,
                            time_label=words.text("solitaire.simulate.time_left"))
        stopped = False
    except Interrupted as interrupted:  # Ctrl-C: what was simulated so far, then exit 130
        results, stopped = interrupted.lefts, True
    _simulated(results, deals, policy, rows, max_states, json_out, stopped, words)
    if stopped:
        raise typer.Exit(EXIT_INTERRUPTED)


def _simulated(results: list[Any], deals: int, policy: str, rows: int, max_states: int | None, json_out: bool,
               stopped: bool, words: Pack) -> None:
    """The figures of the deals in `results` (of `deals` asked; `stopped` by Ctrl-C before the end)."""
    from gm.solitaire.board import histogram
    from scorer.solitaire.simulate import Unresolved
    from scorer.solitaire.stats import summarize

    unresolved = [r for r in results if isinstance(r, Unresolved)]
    settled = [r for r in results if not isinstance(r, Unresolved)]
    summary = summarize(settled, policy, rows) if settled else None  # every deal may hit --max-states
    if json_out:
        data = summary.to_json() if summary else {
            "deals": 0, "policy": policy, "rows": rows, "distribution": {},
            "mean_left": None, "clear_rate": None, "clear_rate_ci95": None}
        if max_states is not None:
            data["unresolved"] = [r.to_json() for r in unresolved]
        if stopped:
            data |= {"interrupted": True, "deals_asked": deals}
        print_json(data)
        return
    if summary:
        histogram(summary, pack=words)
    else:
        typer.echo(words.text("solitaire.simulate.none_settled", limit=max_states))
    for r in unresolved:
        typer.echo(words.text("solitaire.simulate.unresolved", limit=max_states, seed=r.seed, low=r.at_least,
                              high=r.at_most))
    if stopped:
        typer.echo(words.text("solitaire.simulate.interrupted", deals=len(results), asked=deals))


def _words() -> Pack:
    """The lines of the locale's language, for the commands that have no --lang."""
    from voices import default_language

    return pack_for(default_language())


def _prepare_solver(words: Pack) -> None:
    """Refuse in one line when numba is missing. The first time on a machine, say on stderr
    that the solver is compiled and how long that takes, and compile it here, before any
    worker starts, with a line that moves on a terminal (each function, then the first search)."""
    from gm.solitaire.compiled import compiled_search
    from gm.solitaire.solver_cache import check_available, compiled

    with input_errors(words):
        check_available()
    if not compiled():
        typer.echo(f"gm: {words.text('solitaire.simulate.compiling')}", err=True)
        with compile_progress(words) as tell:
            compiled_search(tell)


@contextmanager
def compile_progress(words: Pack, console: Console | None = None) -> Iterator[Callable[[str, int, int], None]]:
    """A progress line for compiling (a rich bar with the time so far, on a terminal), as the
    `progress` of `compiled_search`; nothing where stderr is no terminal (the line said is enough)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = console or Console(stderr=True)
    if not console.is_terminal:
        yield lambda name, at, total: None
        return
    columns = (TextColumn(words.text("solitaire.simulate.compiling_step")), TextColumn("{task.description}"),
               BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("", total=None)

        def tell(name: str, at: int, total: int) -> None:
            bar.update(task, description=name, completed=at, total=total)
            bar.refresh()  # each step shown as it starts; the time so far moves in between

        yield tell


@app.command()
def solve(
    seed: Seed = 0, rows: Rows = 7,
    max_states: Annotated[int | None, typer.Option(
        "--max-states", metavar="N", parser=whole_in(1, 10**12),
        help="Give up after this many states and say the bounds known (SS-R6).")] = None,
    json_out: Json = False,
) -> None:
    """The fewest cards left for one deal seen whole, and the moves that reach it.

    Capped by --max-states, it says so and gives the bounds it knows (SS-R6).
    """
    from gm.solitaire.solving import long_search_note, solve_json, solve_lines, solve_with_progress
    from scorer.solitaire.deal import deal_from_seed

    words = _words()
    with input_errors(words):
        deal = deal_from_seed(seed, rows)
    _prepare_solver(words)
    if long_search_note(rows, max_states, words):
        typer.echo(long_search_note(rows, max_states, words), err=True)
    outcome = solve_with_progress(deal, seed, max_states, words)
    if json_out:
        print_json(solve_json(deal, seed, max_states, outcome))
        return
    for line in solve_lines(deal, seed, max_states, outcome, words):
        typer.echo(line)


@app.command()
def play(
    seed: Annotated[int | None, typer.Option(
        "--seed", metavar="SEED", parser=SEED, help="Seed of the deal (random when left out).")] = None,
    rows: Rows = 7, lang: Lang = LANG, speech: Speech = "on",
    voice: VoiceId = None, rate: Rate = None, volume: Volume = None,
) -> None:
    """Play the pyramid in the terminal; the reading is spoken at the end."""
    import random
    import sys

    from gm.solitaire.play import play_game
    from gm.speech.speakers import open_speaker
    from scorer.solitaire.deal import deal_from_seed

    pack = pack_for(lang)
    with input_errors(pack):
        deal = deal_from_seed(random.SystemRandom().randrange(10**9) if seed is None else seed, rows)
        speaker = open_speaker(SpeechSettings(pack.lang, speech, voice, rate, volume, known_lines=pack))
    try:
        play_game(deal, pack, speaker, sys.stdin)
    finally:
        speaker.close()
