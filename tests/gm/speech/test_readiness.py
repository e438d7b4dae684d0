"""`gm voice ready` (and ./setup.sh, which prints it) says whether gm can speak and listen here by
a night's own checks, naming what is missing: the engine, a sound output, a microphone."""

from __future__ import annotations

import json
import sys
import types

import pytest
from typer.testing import CliRunner

import gm.speech.readiness as readiness_module
from gm.cli import app
from gm.commands.voice import ready_lines
from gm.hearing.cannot_listen import NoAudio
from gm.speech.readiness import probe, readiness
from gm.speech.unavailable import SpeechUnavailable
from gm.text.lines import Pack
from paths import ROOT

runner = CliRunner()


def found(name):
    return lambda: name


def missing(error):
    def probe():
        raise error
    return probe


def test_each_probe_is_asked_and_what_is_missing_is_named():
    ready = readiness(found("flite"), missing(SpeechUnavailable("voice.no_device", "Error querying device -1")),
                      missing(NoAudio("no microphone", "no_devices")))
    assert (ready.engine, ready.output, ready.microphone) == ("flite", None, None)
    assert not ready.speaks and not ready.listens
    assert ready.output_why == "Error querying device -1" and ready.microphone_why == "no microphone"
    assert ready_lines(ready, Pack("en")) == ["speaking: engine yes, sound output none — gm will print its lines",
                                               "listening: microphone none — answers are typed"]
    ready = readiness(missing(SpeechUnavailable("voice.no_engine", "espeak-ng is missing")), found("Speakers"),
                      found("USB mic"))
    assert ready_lines(ready, Pack("en")) == ["speaking: engine none, sound output yes — gm will print its lines",
                                               "listening: yes (microphone yes)"]
    assert ready.to_json()["speaking"] == {"ready": False, "engine": None, "output": "Speakers",
                                           "why_not": ["espeak-ng is missing"]}


@pytest.mark.parametrize("lang, speaking, listening", [
    ("ja", "読み上げ: できます (音声エンジン あり、音の出力 あり)",
     "聞き取り: マイク なし — 答えはキーボードで入力します"),
    ("ko", "말하기: 돼요 (음성 엔진 있음, 소리 출력 있음)", "듣기: 마이크 없음 — 대답은 키보드로 입력해요"),
])
def test_readiness_is_said_in_every_language(lang, speaking, listening):
    ready = readiness(found("openjtalk"), found("Speakers"), missing(OSError("no input")))
    assert ready_lines(ready, Pack(lang)) == [speaking, listening]


def fake_sounddevice(monkeypatch, output, microphone):
    """A sounddevice whose default output and input devices are `output` and `microphone` (None: none)."""
    error = type("PortAudioError", (Exception,), {})

    def query_devices(device=None, kind=None):
        name = {"output": output, "input": microphone}[kind]
        if name is None:
            raise error("Error querying device -1")
        return {"name": name}

    monkeypatch.setitem(sys.modules, "sounddevice", types.SimpleNamespace(PortAudioError=error,
                                                                          query_devices=query_devices))


@pytest.mark.parametrize("output, microphone", [("Speakers", None), (None, "USB mic"), ("Speakers", "USB mic")])
def test_the_probes_are_the_nights_sound_output_and_microphone(monkeypatch, output, microphone):
    fake_sounddevice(monkeypatch, output, microphone)
    monkeypatch.setattr(readiness_module, "_engine", lambda lang: "flite")
    ready = probe("en")
    assert (ready.output, ready.microphone) == (output, microphone)
    result = runner.invoke(app, ["voice", "ready", "--lang", "en", "--json"])
    data = json.loads(result.stdout)
    assert data["speaking"]["ready"] is (output is not None) and data["speaking"]["output"] == output
    assert data["listening"] == {"ready": microphone is not None, "microphone": microphone,
                                 "why_not": [] if microphone else ["no microphone (Error querying device -1)"]}


def test_the_command_prints_what_is_missing(monkeypatch):
    fake_sounddevice(monkeypatch, None, "USB mic")
    monkeypatch.setattr(readiness_module, "_engine", lambda lang: "flite")
    result = runner.invoke(app, ["voice", "ready", "--lang", "en"])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["speaking: engine yes, sound output none — gm will print its lines",
                                          "listening: yes (microphone yes)"]


def test_setup_says_speaking_and_listening_by_gm_voice_ready_only():
    """setup.sh once said "speaking yes" from imports alone; now it prints the night's own checks."""
    setup = (ROOT / "setup.sh").read_text()
    assert ".venv/bin/gm voice ready" in setup
    assert "works speaking" not in setup and "works listening" not in setup
