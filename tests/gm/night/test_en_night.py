"""A whole English night by voice from one recording (`gm werewolf play --listen-from`), with the
real voices/en.toml vocabulary and pocketsphinx's en-us model (no vosk model needed), and no
keyboard: the recording is said by flite and espeak-ng (tests/fixtures/listen_en/night.py)."""

import shutil

import pytest

import voice_nights
from voice_nights import play_recorded_night
from gm.hearing import sphinx

pytestmark = [
    pytest.mark.espeak,
    pytest.mark.skipif(not sphinx.available(), reason="pocketsphinx is not installed"),
    pytest.mark.skipif(shutil.which("flite") is None or shutil.which("espeak-ng") is None,
                       reason="flite and espeak-ng make the recording"),
]

PLAYERS = ["Alice", "Mike", "Kate", "Tom"]


def test_an_english_night_runs_by_voice_from_one_recording_without_a_vosk_model(tmp_path, monkeypatch):
    monkeypatch.delenv("GM_VOSK_MODEL", raising=False)
    monkeypatch.setenv("GM_LISTENER", "pocketsphinx")  # the recording pocketsphinx was tuned on
    monkeypatch.setattr("gm.hearing.models.default_model", lambda lang: None)
    result, events, answers = play_recorded_night(tmp_path, "en", PLAYERS)

    def answered(key):
        return voice_nights.answered(answers, key)

    assert [answered(f"werewolf.{step}") for step in ("deal", "pass_right", "lay_down", "seer_one")] == [["done"]] * 4
    assert answered("werewolf.vote.ask_count") == [{"Alice": 1}, {"Mike": 2}, {"Kate": 0}, {"Tom": 0},
                                                   {"graveyard": 0}]
    assert "Sorry, I did not catch that." in result.stdout  # "whatever" is a decoy: no count
    tally = voice_nights.answered(answers, "werewolf.vote.readback", "werewolf.vote.which")
    assert [a for a in tally if isinstance(a, dict)] == [{"graveyard": 1}] and tally[-1] is True
    assert [e["counts"] for e in events if e["type"] == "vote"] == [
        {"Alice": 1, "Mike": 2, "Kate": 0, "Tom": 0, "graveyard": 1}]
    assert answered("werewolf.reveal.ask_hand") == [["werewolf", "seer"]]  # said in one line
    verdict = next(e for e in events if e["type"] == "verdict")
    assert (verdict["executed"], verdict["winning_side"]) == ("Mike", "villagers")
    assert answered("werewolf.reveal.ask_holder") == ["graveyard"]  # the traitor, so everyone voted
    assert verdict["winners"] == ["Alice", "Kate", "Tom"]
    assert answered("werewolf.evening.again") == [False]
