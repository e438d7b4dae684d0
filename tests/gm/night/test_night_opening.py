"""Opening a night from its options (gm.night.opening): the command parses, the night opens its
ports, runs the evening and closes them; the language is looked up once, by the command."""

from __future__ import annotations

import io
import json
import sys

import pytest
from typer.testing import CliRunner

from fakes import FAST
from gm.cli import app
from gm.hearing.model_loading import NoListener
from gm.night.opening import NightOptions, open_night
from gm.speech.settings import SpeechSettings
from gm.text import lines
from gm.text.lines import Pack
from scorer.werewolf.decks import standard_deck

# deal, pass right, lay down, seer (Enter = done); fingers at Aki and Ken, Enter at the tally;
# Aki's cards; no second night
ANSWERS = "\n\n\n\n" + "3\n1\n" + "\n" + "werewolf traitor\n" + "no\n"
PLAYERS = ("Aki", "Ken", "Mio", "Sora")


def options(tmp_path, pack: Pack, **more) -> NightOptions:
    return NightOptions(players=PLAYERS, deck=standard_deck(4), pack=pack, speech=SpeechSettings.of(pack, "off"),
                        time_scale=0.001, listen="off", log=tmp_path / "night.jsonl", **more)


def test_a_night_opened_from_its_options_plays_an_evening_and_keeps_its_log(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(ANSWERS))
    night = open_night(options(tmp_path, Pack("ja").with_readings({"Aki": "あき"}), group="tuesday"))
    try:
        night.run()
    finally:
        night.close()
    events = [json.loads(line) for line in (tmp_path / "night.jsonl").read_text(encoding="utf-8").splitlines()]
    verdict = next(e for e in events if e["type"] == "verdict")
    assert verdict["executed"] == "Aki" and verdict["winning_side"] == "traitor_werewolf"
    assert "人狼" in capsys.readouterr().out  # said in the language of the pack it was given


def test_a_listener_that_is_none_is_refused_before_the_log_is_made(tmp_path):
    with pytest.raises(NoListener):
        open_night(options(tmp_path, Pack("en"), listener="nobody"))
    assert not (tmp_path / "night.jsonl").exists()


def test_werewolf_play_looks_its_language_up_once(tmp_path, monkeypatch):
    """--lang is read into the night's lines once, by the command: the checks of the names, the
    speaker and the night all take those lines (they each looked the language up again)."""
    made: list[str] = []
    real = lines.Pack.__init__

    def counted(self, lang="en", readings=None):
        made.append(lang)
        real(self, lang, readings)

    monkeypatch.setattr(lines.Pack, "__init__", counted)
    result = CliRunner().invoke(app, ["werewolf", "play", "--players", ",".join(PLAYERS), "--lang", "ko",
                                      *FAST, "--speech", "off", "--listen", "off",
                                      "--log", str(tmp_path / "night.jsonl")], input=ANSWERS)
    assert result.exit_code == 0, result.output
    assert made == ["ko"]
