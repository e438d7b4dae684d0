"""`gm werewolf play` end to end with piped answers, a compressed clock and a log file."""

import json
import wave

import pytest

from typer.testing import CliRunner

from fakes import FAST
from gm.cli import app

runner = CliRunner()

# deal, pass right, lay down, seer (Enter = done); fingers at Aki and Ken (every vote counted: the
# rest have none), Enter at the tally; Aki's cards
ANSWERS = "\n\n\n\n" + "3\n1\n" + "\n" + "werewolf traitor\n"


def play(*args, answers=ANSWERS):
    return runner.invoke(app, ["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", *FAST,
                               "--speech", "off", *args], input=answers)


def test_a_piped_night_ends_with_a_verdict_and_a_log(tmp_path):
    log = tmp_path / "night.jsonl"
    result = play("--log", str(log))
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in log.read_text().splitlines()]
    said = [e["key"] for e in events if e["type"] == "say"]
    assert said.index("werewolf.timer.up") < said.index("werewolf.vote.executed")
    assert all(isinstance(e["t"], (int, float)) and e["type"] for e in events)
    assert [e["counts"] for e in events if e["type"] == "vote"] == [
        {"Aki": 3, "Ken": 1, "Mio": 0, "Sora": 0, "graveyard": 0}]
    verdict = [e for e in events if e["type"] == "verdict"][0]
    assert verdict["executed"] == "Aki" and verdict["winning_side"] == "traitor_werewolf"
    assert verdict["winners"] == ["Aki"]
    says = [e for e in events if e["type"] == "say"]
    assert says[0]["key"] == "werewolf.intro" and says[0]["text"].startswith("Half Werewolf for 4 players")
    assert events[-1]["t"] >= 10  # the clock is game time: the discussion lasted its ten seconds (--discussion 10)


def test_a_typed_correction_at_the_tally_changes_one_count_and_a_count_out_of_range_is_refused(tmp_path):
    log = tmp_path / "night.jsonl"
    tally = "no\nKen 0\nKen=9\nAki=4\n\n"  # Ken 0 leaves 3 votes, Ken=9 is no answer: Aki 4, Ken 0
    result = play("--log", str(log), answers=ANSWERS.replace("3\n1\n\n", "3\n1\n" + tally))
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in log.read_text().splitlines()]
    said = [e["key"] for e in events if e["type"] == "say"]
    assert said.count("werewolf.vote.which") == 1 and said.count("werewolf.vote.readback") == 3
    readbacks = [e["answer"] for e in events if e["type"] == "answer" and e["key"] == "werewolf.vote.readback"]
    assert readbacks == [False, {"Aki": 4}, True]  # Ken=9 (out of range) was refused and answered nothing
    assert "“Ken=9”" in result.stdout
    assert [(e["candidate"], e["votes"]) for e in events if e["type"] == "vote_corrected"] == [("Ken", 0), ("Aki", 4)]
    assert [e["counts"] for e in events if e["type"] == "vote"] == [
        {"Aki": 4, "Ken": 0, "Mio": 0, "Sora": 0, "graveyard": 0}]


def test_japanese_night_with_readings():
    result = runner.invoke(app, ["werewolf", "play", "--players", "健=けん,美緒=みお,空=そら,愛=あい", "--lang", "ja",
                                 *FAST, "--speech", "off"], input=ANSWERS.replace("Aki", "健"))
    assert result.exit_code == 0, result.output
    assert "健さんが処刑されます。" in result.output


def test_too_few_answers_is_a_one_line_error():
    result = play(answers="\n\n")
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1].startswith("gm: standard input ended")


def test_bad_player_lists_are_refused():
    for players in ("Aki,Ken,Mio", "Aki,Ken,Mio,Sora,Yui,Rin,Kai", "Aki,aki,Mio,Sora"):
        result = runner.invoke(app, ["werewolf", "play", "--players", players, "--speech", "off"], input="")
        assert result.exit_code == 2, players
        assert result.output.startswith("gm: ")


@pytest.mark.slow
@pytest.mark.espeak
def test_a_night_spoken_to_wav_files_leaves_one_file_per_line(tmp_path):
    out, log = tmp_path / "wav", tmp_path / "night.jsonl"
    result = play("--speech", f"wav:{out}", "--log", str(log))
    assert result.exit_code == 0, result.output
    said = [json.loads(line) for line in log.read_text().splitlines() if '"type": "say"' in line]
    files = sorted(out.glob("*.wav"))
    assert len(files) == len(said)
    # the countdown's lines depend on how fast the machine keeps up with the compressed clock
    assert len([s for s in said if not s["key"].startswith("werewolf.timer.")]) > 24
    assert files[0].name == "0001-werewolf.intro.wav" and files[-1].name.endswith("werewolf.evening.tally.wav")
    with wave.open(str(files[0])) as intro:
        assert intro.getnframes() / intro.getframerate() > 2.0  # a long sentence, really rendered


def test_play_takes_swap_ins_in_either_language():
    # one card parser for every command: `play --with ゴリラ` like `deck --with ゴリラ`
    result = play("--with", "ゴリラ")
    assert result.exit_code == 0, result.output
    assert "Gorilla" in result.output


@pytest.mark.parametrize("name", ["graveyard", "墓地"])
def test_play_refuses_a_player_named_like_the_graveyard(name):
    result = runner.invoke(app, ["werewolf", "play", "--players", f"Aki,Ken,Mio,{name}", "--speech", "off"], input="")
    assert result.exit_code == 2
    assert result.stderr.strip() == f"gm: a player cannot be named {name!r}: that is the graveyard's name"
