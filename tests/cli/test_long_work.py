"""Long work says what it is doing: simulate's time is labelled and Ctrl-C keeps what was
simulated; judge at a terminal says what it reads; a mistyped group is suggested."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys

import pytest
from rich.console import Console
from rich.progress import Progress
from typer.testing import CliRunner

import gm.solitaire.runs as runs
from gm.cli import app
from paths import ROOT

runner = CliRunner()
STOP_AT = 10  # the seed at which Ctrl-C comes


def stopped_at_seed_10(seed, rows, policy, max_states):
    if seed == STOP_AT:
        raise KeyboardInterrupt
    return seed % 3


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_in_simulate_prints_what_was_simulated_and_exits_130(monkeypatch, workers):
    monkeypatch.setattr(runs, "worker_limit", lambda deals: 2)
    args = ["solitaire", "simulate", "--deals", "50", "--workers", str(workers)]
    if workers == 1:
        monkeypatch.setattr(runs, "_cards_left", stopped_at_seed_10)
    else:  # Ctrl-C is the parent's (the workers ignore it): it comes as the 11th deal is read
        monkeypatch.setattr(runs, "_cards_left", lambda seed, rows, policy, max_states: seed % 3)
        real = runs._in_order

        def interrupted(blocks, connections):
            for n, left in enumerate(real(blocks, connections)):
                if n == STOP_AT:
                    raise KeyboardInterrupt
                yield left
        monkeypatch.setattr(runs, "_in_order", interrupted)
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 130, result.output
    data = json.loads(result.stdout)
    assert data["deals"] == STOP_AT and data["interrupted"] is True and data["deals_asked"] == 50
    assert sum(data["distribution"].values()) == STOP_AT
    result = runner.invoke(app, args)
    assert result.exit_code == 130
    assert result.stdout.splitlines()[-1] == "stopped by Ctrl-C after 10 of 50 deals; the figures above are of those"
    assert "smart: 10 deals" in result.stdout


def test_simulate_unstopped_says_nothing_of_an_interruption():
    data = json.loads(runner.invoke(app, ["solitaire", "simulate", "--deals", "3", "--json"]).stdout)
    assert "interrupted" not in data and data["deals"] == 3


def test_the_progress_bars_time_is_labelled():
    out = io.StringIO()
    with Progress(*runs.bar_columns("smart", "time left"), console=Console(file=out, force_terminal=True, width=100),
                  auto_refresh=False) as bar:
        task = bar.add_task("smart", total=100)
        bar.advance(task, 10)
        bar.refresh()
    assert "time left" in out.getvalue() and "10/100" in out.getvalue()


@pytest.mark.slow
def test_judge_at_a_terminal_says_what_it_reads():
    """On a pseudo-terminal with no --file, one line on stderr says what judge waits for."""
    main, child = pty.openpty()
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    process = subprocess.Popen([sys.executable, "-m", "gm", "werewolf", "judge", "--lang", "en"], stdin=child,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    os.close(child)
    os.write(main, b"{}\n\x04")
    _, stderr = process.communicate(timeout=60)
    os.close(main)
    first = stderr.decode().splitlines()[0]
    assert first.startswith("gm werewolf judge: reading the night as JSON from standard input")
    assert process.returncode == 2  # {} is no night: refused, as piped


def test_judge_piped_says_nothing_before_reading():
    result = runner.invoke(app, ["werewolf", "judge", "--lang", "en"], input="{}")
    assert "reading the night" not in result.stderr and result.exit_code == 2


@pytest.mark.parametrize("typed, meant", [("werwolf", "werewolf"), ("solitare", "solitaire"), ("voce", "voice")])
def test_a_mistyped_group_is_suggested(typed, meant):
    result = runner.invoke(app, [typed])
    assert result.exit_code == 2
    assert result.stderr.strip().startswith(f"gm: no such command '{typed}'. Did you mean '{meant}'")


def test_the_compile_progress_line_names_each_step_and_moves():
    from gm.commands.solitaire import compile_progress
    from gm.text.lines import Pack

    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100)
    with compile_progress(Pack("en"), console) as tell:
        tell("lower_bound", 17, 26)
        tell("first search", 25, 26)
    shown = out.getvalue()
    assert "compiling" in shown and "lower_bound" in shown and "17/26" in shown
    assert "first search" in shown and "25/26" in shown
    quiet = io.StringIO()
    with compile_progress(Pack("en"), Console(file=quiet)) as tell:  # not a terminal: nothing but the line said
        tell("lower_bound", 17, 26)
    assert quiet.getvalue() == ""


@pytest.mark.slow
def test_compiling_tells_every_function_then_the_first_search(tmp_path):
    """The steps `gm solitaire solve` shows the first time: every marked function in order, then a
    first search, which leaves nothing to compile at the first real one."""
    code = ("from gm.solitaire.compiled import compiled_search\n"
            "seen = []\n"
            "compiled_search(lambda name, at, total: seen.append((name, at, total)))\n"
            "print(seen)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    seen = eval(subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True,
                               check=True).stdout)
    total = seen[0][2]
    assert [at for _, at, _ in seen] == list(range(total)) + [total]
    assert {t for _, _, t in seen} == {total} and "lower_bound" in {name for name, _, _ in seen}
    assert seen[-2][0] == seen[-1][0] == "first search"
