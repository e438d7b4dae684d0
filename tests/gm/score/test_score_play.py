"""`gm score play`: short commands during a game, piped in as a player would type them."""

import json

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.score.entry import BadEntry, build, resolve_verb
from gm.score.play import completions
from scorer.humalien import fold
from scorer.humalien.events import AngelCut, Flow, NewMatch, Skull

runner = CliRunner()


def play(path, typed, *options):
    return runner.invoke(app, ["score", "play", "--file", str(path), "--speech", "off", *options], input=typed)


def test_a_game_typed_in_short_commands(tmp_path):
    path = tmp_path / "m.jsonl"
    result = play(path, "new Alice Bob\n")
    assert result.stdout.startswith("No match yet")
    assert "score> new Alice Bob\nNew match: Alice v Bob. Game 1 of 3.\n" in result.stdout
    result = play(path, "f al 2\ns b\nfi a 7\nshow\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Scoring Alice v Bob, game 1. Type help for the commands.\n")
    assert "score> f al 2\nAlice +2 (flow: 2 empty piles) → 2\n" in out
    assert "score> s b\nBob +1 (skull: 1 card × game 1) → 1\n" in out
    assert "Alice +12 (finish: 5 + 7 left) → 14\nEnd of game 1: Alice 14, Bob 1. Next: game 2.\n" in out
    assert "│ Total │    14 │   1 │" in out
    assert out.endswith("Good game.\n")
    kinds = [json.loads(line)["kind"] for line in path.read_text().splitlines()]
    assert kinds == ["new", "flow", "skull", "finish"]


def test_mistakes_are_reported_and_the_loop_goes_on(tmp_path):
    path = tmp_path / "m.jsonl"
    runner.invoke(app, ["score", "new", "Aki", "Ami", "--file", str(path)])
    result = play(path, "f a 2\nflow aki 9\nzap\nfi aki\nr\nfl aki 1\nu\nr\nsay\n")
    out = result.stdout
    assert result.exit_code == 0
    assert "? player 'a' could be Aki or Ami" in out
    assert "? empty piles 9 is out of range 0–5 (Aki, game 1)" in out
    assert "? unknown command 'zap' (try help)" in out
    assert "? usage: finish PLAYER LEFT" in out
    assert "? nothing to redo" in out
    assert "Aki +1 (flow: 1 empty pile) → 1" in out
    assert "score> u\nUndone: Aki −1 (flow) → 0\nGame 1: Aki 0, Ami 0.\n" in out
    assert "score> r\nRedone:\nAki +1 (flow: 1 empty pile) → 1\n" in out
    assert "Game 1: Aki 1, Ami 0.\nAki leads by 1.\n" in out
    assert [json.loads(line)["kind"] for line in path.read_text().splitlines()] == ["new", "flow", "undo", "redo"]


def test_help_lists_every_verb(tmp_path):
    out = play(tmp_path / "m.jsonl", "help\n").stdout
    for verb in ("new ALICE BOB [--remote]", "flow PLAYER [PILES]", "skull", "666", "god-island", "angel-cut",
                 "finish", "foul",
                 "undo", "redo", "show", "say", "quit"):
        assert verb in out


def test_play_speaks_japanese(tmp_path):
    path = tmp_path / "m.jsonl"
    runner.invoke(app, ["score", "new", "健", "美緒", "--file", str(path)])
    out = play(path, "6 健\n", "--lang", "ja").stdout
    assert "健 +3（ロクロクロク：3枚 × 第1戦、上がりの点は3倍）→ 3" in out
    assert out.endswith("お疲れさまでした。\n")


@pytest.mark.parametrize("typed, verb", [
    ("f", "flow"), ("fl", "flow"), ("fi", "finish"), ("fo", "foul"), ("6", "666"), ("g", "god-island"),
    ("a", "angel-cut"), ("angel-cut", "angel-cut"), ("SK", "skull"), ("u", "undo"), ("sh", "show"),
    ("sa", "say"), ("?", "help"), ("q", "quit"), ("re", "redo"), ("fin", "finish"),
])
def test_verbs_by_alias_and_unique_prefix(typed, verb):
    assert resolve_verb(typed) == verb


def test_unknown_verbs_are_refused_by_name():
    with pytest.raises(BadEntry, match="unknown command 'x'"):
        resolve_verb("x")
    with pytest.raises(BadEntry, match="unknown command 'flows'"):
        resolve_verb("flows")


def test_flow_defaults_to_the_last_recorded_piles_and_5_after_angel_cut():
    state = fold([NewMatch(("Alice", "Bob")), Flow("Alice", 3)])
    assert build("flow", ["a"], state) == Flow("Alice", 3)
    assert build("flow", ["b"], state) == Flow("Bob", 0)
    after_cut = fold([AngelCut("Bob")], state)
    assert build("flow", ["bob"], after_cut) == Flow("Bob", 5)
    assert build("skull", ["b"], state) == Skull("Bob", 1)


def test_tab_completion_of_verbs_and_names():
    players = ("Alice", "Bob")
    assert completions("f", "f", players) == ["flow", "finish", "foul"]
    assert completions("go", "go", players) == ["god-island"]
    assert completions("flow a", "a", players) == ["Alice"]
    assert completions("flow ", "", players) == ["Alice", "Bob"]
    assert completions("flow alice ", "", players) == []


def test_show_in_a_japanese_game_prints_the_japanese_sheet(tmp_path):
    path = tmp_path / "m.jsonl"
    out = play(path, "new Alice Bob\nf a 2\nshow\nq\n", "--lang", "ja").stdout
    assert "Alice 対 Bob — 第1戦（全3戦）" in out
    assert "│   合計 │     2 │   0 │    │ Aliceがリード" in out
    assert "Total" not in out
