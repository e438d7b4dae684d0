"""A whole night played by voice from one recording made at test time (tests/fixtures/listen_*/night.py)."""

import importlib.util
import json
from pathlib import Path

from typer.testing import CliRunner

from gm.cli import app


def night_script(lang):
    """The fixture module that says `lang`'s night into a recording."""
    path = Path(__file__).parent / "fixtures" / f"listen_{lang}" / "night.py"
    spec = importlib.util.spec_from_file_location(f"{lang}_night", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_recorded_night(tmp_path, lang, players):
    """`gm werewolf play --listen-from` on `lang`'s recorded night, no keyboard: the result, the
    night log's events, and its answers by question key."""
    recording = night_script(lang).record(tmp_path / "night.wav")
    log = tmp_path / "night.jsonl"
    result = CliRunner().invoke(app, [
        "werewolf", "play", "--lang", lang, "--players", ",".join(players), "--listen-from", str(recording),
        "--speech", "off", "--time-scale", "0.01", "--discussion", "10", "--log", str(log)], input="")
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    answers = [e for e in events if e["type"] == "answer"]
    assert {e["by"] for e in answers} == {"voice"}  # every answer spoken and heard, none typed
    return result, events, answers


def answered(answers, *keys):
    """The answers given to the questions `keys`, in order."""
    return [e["answer"] for e in answers if e["key"] in keys]
