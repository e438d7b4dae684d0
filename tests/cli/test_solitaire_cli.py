"""`gm solitaire` from the command line: the reading, simulate, solve and play."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.text.lines import Pack
from scorer.solitaire.deal import deal_from_seed
from scorer.solitaire.engine import replay
from scorer.solitaire.moves import move_from_json
from scorer.solitaire.reading import BadLeft, reading, standing

runner = CliRunner()

JA = {
    0: "場札の残り0枚：イメージしたことは、ほぼ間違いなくうまくいくでしょう。見通しは明るいといえます。",
    1: "場札の残り1枚：うまくいく確率は90%程度でしょう。",
    5: "場札の残り5枚：うまくいく確率は50%程度でしょう。",
    9: "場札の残り9枚：うまくいく確率は10%程度でしょう。",
    10: "場札の残り10枚：見通しは非常に暗いでしょう。",
}


@pytest.mark.parametrize("left", range(0, 14))
@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_the_reading_for_every_number_left_in_every_language(left, lang):
    expected = None if left == 0 or left >= 10 else (10 - left) * 10  # words only for 0 and 10+
    result = runner.invoke(app, ["solitaire", "reading", str(left), "--json", "--lang", lang])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["left"] == left and data["percent"] == expected
    assert data["outlook"] in data["text"]
    if lang == "ja" and left in JA:
        assert data["text"] == JA[left]
    if lang == "en":
        word = "bright" if left == 0 else "very dark" if left >= 10 else f"about {expected}% likely"
        assert word in data["text"]
    spoken = Pack(lang).line(f"solitaire.{reading(left).key}", left=left, percent=expected).spoken
    if lang == "ja" and 1 <= left <= 9:
        assert "ぱーせんと" in spoken and "%" not in spoken


def test_the_reading_is_spoken_and_printed():
    result = runner.invoke(app, ["solitaire", "reading", "1", "--speech", "off"])
    assert result.exit_code == 0 and result.output.strip() == "1 card left: about 90% likely to go well."


def test_the_odds_of_a_reading_among_games_played_well():
    assert standing(2, {0: 5, 2: 1, 4: 4}) == (0.4, 0.1)
    result = runner.invoke(app, ["solitaire", "reading", "0", "--odds", "--speech", "off"])
    assert "better than 60% of 10000 games played well on 7 rows" in result.output  # 40.16% of smart games clear
    data = json.loads(runner.invoke(app, ["solitaire", "reading", "12", "--odds", "--json"]).output)
    from scorer.solitaire.odds import SMART_DISTRIBUTION

    worse = sum(n for left, n in SMART_DISTRIBUTION.items() if left > 12)
    assert data["odds"] == {"better_than": worse / 10000, "same_as": SMART_DISTRIBUTION[12] / 10000, "games": 10000,
                            "rows": 7}


def test_bad_numbers_are_refused_in_one_line():
    with pytest.raises(BadLeft, match="-1"):
        reading(-1)
    result = runner.invoke(app, ["solitaire", "reading", "--", "-1"])
    assert result.exit_code == 2 and "whole number" in result.output
    result = runner.invoke(app, ["solitaire", "simulate", "--deals", "3", "--policy", "lucky"])
    assert result.exit_code == 2 and "'lucky'" in result.output
    result = runner.invoke(app, ["solitaire", "solve", "--rows", "12"])
    assert result.exit_code == 2 and "rows must be 3–9, not 12" in result.output


def test_simulate_reports_the_distribution_as_json():
    result = runner.invoke(app, ["solitaire", "simulate", "--deals", "20", "--seed", "5", "--policy", "greedy",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"deals", "policy", "rows", "distribution", "mean_left", "clear_rate", "clear_rate_ci95"}
    assert data["deals"] == 20 and data["policy"] == "greedy" and data["rows"] == 7
    assert sum(data["distribution"].values()) == 20
    low, high = data["clear_rate_ci95"]
    assert low <= data["clear_rate"] <= high


def test_simulate_with_workers_gives_the_same_result_and_draws_a_histogram():
    args = ["solitaire", "simulate", "--deals", "12", "--policy", "smart", "--rows", "5"]
    one = runner.invoke(app, args + ["--json"]).stdout
    two = runner.invoke(app, args + ["--json", "--workers", "2"]).stdout
    assert one == two
    text = runner.invoke(app, args).output
    assert "smart: 12 deals, 5 rows" in text and "█" in text


@pytest.mark.solver
def test_solve_prints_moves_that_replay_to_the_best_result():
    result = runner.invoke(app, ["solitaire", "solve", "--seed", "7", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["seed"] == 7
    end = replay(deal_from_seed(7), [move_from_json(m) for m in data["moves"]])
    assert end.over and end.left == data["best_left"]


def test_play_in_the_terminal_to_the_spoken_reading():
    # seed 3: the bottom row shows 1 wind (22) and 12 fire (24); then turn through the stock and past its last
    # card (SS-R4)
    commands = ["hint", "pair 22 24", "pair 1 2", "special", "skip", "dance"] + ["flip"] * 25
    result = runner.invoke(app, ["solitaire", "play", "--seed", "3", "--speech", "off"],
                           input="\n".join(commands) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Think of your question. 28 cards in the pyramid, 24 cards in the stock." in out
    assert "hint: pair 22 24   (pair 22 (1 wind) with 24 (12 fire))" in out
    assert "the card at position 1 is face down" in out
    assert "unknown command 'dance'" in out
    assert "The last stock card is set aside: the stock is spent. The game is over." in out
    assert "likely to go well" in out or "very dark" in out or "bright" in out


def test_play_with_the_eye_and_japanese_lines():
    result = runner.invoke(app, ["solitaire", "play", "--seed", "1", "--speech", "off", "--lang", "ja"],
                           input="special\n1 8\nquit\n")
    assert result.exit_code == 0, result.output
    assert "プロビデンスの目" in result.output
    assert "はずれです：13でした。" in result.output  # position 1 held a 13: turned face up, it leaves (SS-R2)
    assert "場札 26" in result.output and "left" not in result.output  # the status line in Japanese too


def test_play_in_japanese_shows_its_board_hints_and_errors_in_japanese():
    result = runner.invoke(app, ["solitaire", "play", "--seed", "3", "--speech", "off", "--lang", "ja"],
                           input="bogus\npair 1 1\npair 99 22\nhint\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "山札 24" in out and "めくり札 --" in out and "置き札:" in out and "属性:" in out and "F  火" in out
    assert "「bogus」というコマンドはありません" in out
    assert "1 番は自分自身とペアにできません" in out
    assert "ピラミッドに 99 番はありません (1〜28)" in out
    assert "ヒント: ペア " in out  # the hint in the commands the help line shows (and takes)
    for english in ("stock", "specials", "set aside", "elements", "unknown command", "hint:", "cannot"):
        assert english not in out, english


@pytest.mark.solver
def test_simulate_lists_the_deals_the_solver_cannot_settle_in_budget():
    args = ["solitaire", "simulate", "--deals", "12", "--policy", "omniscient", "--max-states", "60"]
    data = json.loads(runner.invoke(app, args + ["--json"]).stdout)
    assert data["unresolved"] and all(set(u) == {"seed", "at_least", "at_most"} for u in data["unresolved"])
    assert data["deals"] + len(data["unresolved"]) == 12
    assert "unresolved within 60 states: seed" in runner.invoke(app, args).stdout


@pytest.mark.solver
def test_the_first_solve_on_a_machine_says_it_compiles_the_solver(monkeypatch):
    import gm.solitaire.solver_cache as solver_cache

    monkeypatch.setattr(solver_cache, "compiled", lambda: False)
    out = runner.invoke(app, ["solitaire", "solve", "--seed", "3", "--json"])
    assert out.exit_code == 0
    assert out.stderr == "gm: compiling the pyramid solver first: once on this machine, about a minute\n"
    assert json.loads(out.stdout)["best_left"] == 0
    monkeypatch.setattr(solver_cache, "compiled", lambda: True)
    assert runner.invoke(app, ["solitaire", "solve", "--seed", "3", "--json"]).stderr == ""


@pytest.mark.solver
def test_the_compiled_solver_is_found_in_the_machine_s_cache():
    from gm.solitaire.compiled import compiled_search
    from gm.solitaire.solver_cache import cache_dir, compiled
    from scorer.solitaire.solver import least_left

    least_left(deal_from_seed(3), search=compiled_search())
    assert compiled() and list(cache_dir().glob("*/search.run-*.nbi"))


@pytest.mark.slow
def test_the_cache_is_in_the_user_cache_dir_and_the_same_for_every_copy_of_the_code(tmp_path):
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    import scorer

    for package in ("gm", "scorer"):
        shutil.copytree(Path(scorer.__file__).parent.parent / package, tmp_path / "copy" / package)
    code = "from gm.solitaire.solver_cache import cache_dir, compiled; print(cache_dir()); print(compiled())"
    env = {"PATH": "", "XDG_CACHE_HOME": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    wheres = (tmp_path / "copy", Path(scorer.__file__).parent.parent)
    seen = [subprocess.run([sys.executable, "-c", code], cwd=where, env=env, capture_output=True, text=True,
                           check=True).stdout.split() for where in wheres]
    assert seen[0] == seen[1]
    assert seen[0][0].startswith(str(tmp_path / "cache" / "gm" / "numba" / "solver-")) and seen[0][1] == "False"



@pytest.mark.slow
@pytest.mark.parametrize("numba_first", [False, True])
@pytest.mark.parametrize("users", [None, "mine"])
def test_numba_caches_the_solver_in_the_machine_s_cache_unless_the_user_chose_a_folder(tmp_path, numba_first, users):
    import subprocess
    import sys

    code = ("import numba\n" if numba_first else "") + (
        "from gm.solitaire.compiled import caching_numba\n"
        "from gm.solitaire.solver_cache import cache_dir\n"
        "numba = caching_numba()\n"
        "print(numba.config.CACHE_DIR == str(cache_dir()), numba.config.CACHE_DIR)")
    env = {"PATH": "", "XDG_CACHE_HOME": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    if users:
        env["NUMBA_CACHE_DIR"] = str(tmp_path / users)
    same, where = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                 check=True).stdout.split()
    assert same == str(users is None) and where.startswith(str(tmp_path / (users or "cache")))


WITHOUT_NUMBA = """
import sys
sys.modules["numba"] = None  # as if not installed: importing it fails
from gm.cli import app
app(sys.argv[1:], prog_name="gm")
"""


@pytest.mark.slow
@pytest.mark.parametrize("args", [["solve", "--seed", "3"], ["simulate", "--deals", "2", "--policy", "omniscient"]])
def test_without_numba_the_solver_says_in_one_line_how_to_get_it(args):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", WITHOUT_NUMBA, "solitaire", *args], capture_output=True, text=True)
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr == ("gm: the pyramid solver needs numba: pip install 'gm-card-nights[solver]' "
                          "(./setup.sh installs it)\n")


@pytest.mark.slow
def test_without_numba_everything_else_works():
    import subprocess
    import sys

    for args in (["solitaire", "simulate", "--deals", "3", "--policy", "smart", "--json"],
                 ["solitaire", "reading", "3", "--odds", "--json"]):
        out = subprocess.run([sys.executable, "-c", WITHOUT_NUMBA, *args], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)


@pytest.mark.parametrize("lang, words, pair", [("ja", "をペアにする", "ペア"), ("ko", "짝", "짝")])
def test_a_hint_says_its_move_in_words_in_every_language(lang, words, pair):
    result = runner.invoke(app, ["solitaire", "play", "--seed", "42", "--speech", "off", "--lang", lang],
                           input="hint\nquit\n")
    hint = next(line for line in result.stdout.splitlines() if f"{pair} 22 23" in line)
    assert words in hint and "fire" not in hint, hint
