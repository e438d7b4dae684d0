"""A whole English night by voice from one recording (`gm werewolf play --listen-from`), with the
real voices/en.toml vocabulary and pocketsphinx's en-us model (no vosk model needed), and no
keyboard: the recording is said by flite and espeak-ng (tests/fixtures/listen_en/night.py)."""

import importlib.util
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.hearing import sphinx

pytestmark = [
    pytest.mark.espeak,
    pytest.mark.skipif(not sphinx.available(), reason="pocketsphinx is not installed"),
    pytest.mark.skipif(shutil.which("flite") is None or shutil.which("espeak-ng") is None,
                       reason="flite and espeak-ng make the recording"),
]

PLAYERS = ["Alice", "Mike", "Kate", "Tom"]


def night_script():
    path = Path(__file__).parent / "fixtures" / "listen_en" / "night.py"
    spec = importlib.util.spec_from_file_location("en_night", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_english_night_runs_by_voice_from_one_recording_without_a_vosk_model(tmp_path, monkeypatch):
    monkeypatch.delenv("GM_VOSK_MODEL", raising=False)
    monkeypatch.setattr("gm.hearing.models.default_model", lambda lang: None)
    recording = night_script().record(tmp_path / "night.wav")
    log = tmp_path / "night.jsonl"
    result = CliRunner().invoke(app, [
        "werewolf", "play", "--players", ",".join(PLAYERS), "--listen-from", str(recording),
        "--speech", "off", "--time-scale", "0.01", "--discussion", "10", "--log", str(log)], input="")
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    answers = [e for e in events if e["type"] == "answer"]
    assert {e["by"] for e in answers} == {"voice"}  # every answer spoken and heard, none typed

    def answered(key):
        return [e["answer"] for e in answers if e["key"] == key]

    assert [answered(f"werewolf.{step}") for step in ("deal", "pass_right", "lay_down", "seer_one")] == [["done"]] * 4
    assert answered("werewolf.vote.ask_count") == [{"Alice": 1}, {"Mike": 2}, {"Kate": 0}, {"Tom": 0},
                                                   {"graveyard": 0}]
    assert "Sorry, I did not catch that." in result.stdout  # "whatever" is a decoy: no count
    tally = [e["answer"] for e in answers if e["key"] in ("werewolf.vote.readback", "werewolf.vote.which")]
    assert [a for a in tally if isinstance(a, dict)] == [{"graveyard": 1}] and tally[-1] is True
    assert [e["counts"] for e in events if e["type"] == "vote"] == [
        {"Alice": 1, "Mike": 2, "Kate": 0, "Tom": 0, "graveyard": 1}]
    assert answered("werewolf.reveal.ask_first") + answered("werewolf.reveal.ask_second") == ["werewolf", "seer"]
    verdict = next(e for e in events if e["type"] == "verdict")
    assert (verdict["executed"], verdict["winning_side"]) == ("Mike", "villagers")
    assert answered("werewolf.evening.ask_winner") == ["Alice", "Kate", "done"]
    assert answered("werewolf.evening.again") == [False]
