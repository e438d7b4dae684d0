"""`gm voice list` and `gm voice say`."""

import json
import shutil
import subprocess
import wave

import pytest
from typer.testing import CliRunner

from gm.cli import app

runner = CliRunner()


@pytest.mark.espeak
@pytest.mark.parametrize("lang, args", [("en", ["Ken, two votes."]), ("ja", ["健とAkiに3票"]), ("ja", [])])
def test_say_to_a_file_writes_a_playable_wav(engine, pyttsx3_only, tmp_path, lang, args):
    out = tmp_path / "x.wav"
    result = runner.invoke(app, ["voice", "say", *args, "--lang", lang, "--to", str(out), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report) == {"text", "spoken", "file", "engine", "voice", "sample_rate", "seconds"}
    assert report["engine"] == "pyttsx3"
    with wave.open(str(out)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, report["sample_rate"])
        seconds = w.getnframes() / w.getframerate()
        assert seconds == pytest.approx(report["seconds"], abs=0.001) and report["seconds"] > 0.5
    if shutil.which("sox"):
        stat = subprocess.run(["sox", str(out), "-n", "stat"], capture_output=True, text=True)
        assert stat.returncode == 0 and "Length (seconds)" in stat.stderr
    if lang == "ja" and args:
        assert report["spoken"] == "とアキにさん" and "票" in result.stderr  # kanji with no reading: noted, left out


@pytest.mark.espeak
def test_say_prints_the_line_and_falls_back_to_printing_without_a_device(engine, pyttsx3_only, monkeypatch):
    import sys

    from speech_fakes import fake_sounddevice

    monkeypatch.setitem(sys.modules, "sounddevice", fake_sounddevice(devices=False))
    result = runner.invoke(app, ["voice", "say", "Hello there"])
    assert result.exit_code == 0
    assert result.stdout == "Hello there\n"
    assert result.stderr == "gm: Speech is off: there is no sound output device. Lines are printed only.\n"


@pytest.mark.espeak
def test_an_unknown_voice_is_bad_input(engine, tmp_path):
    result = runner.invoke(app, ["voice", "say", "hi", "--voice", "nobody", "--to", str(tmp_path / "x.wav")])
    assert result.exit_code == 2
    assert result.stderr.strip() == "gm: no voice 'nobody': `gm voice list` shows the voices found"
    assert not (tmp_path / "x.wav").exists()


@pytest.mark.espeak
def test_list_shows_the_voices_of_a_language_and_marks_the_one_used(engine):
    result = runner.invoke(app, ["voice", "list", "--lang", "ja", "--json"])
    assert result.exit_code == 0
    voices = json.loads(result.stdout)
    assert voices and all(v["lang"] == "ja" for v in voices)
    assert [v["default"] for v in voices].count(True) == 1
    text = runner.invoke(app, ["voice", "list", "--lang", "en"]).stdout
    assert text.splitlines()[0].split() == ["engine", "id", "name", "language", "default"]
    assert text.rstrip().endswith("voices found.")


def test_list_refuses_an_unknown_language():
    result = runner.invoke(app, ["voice", "list", "--lang", "fr"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "gm: no voice pack for language 'fr' (have: en, ja, ko)"


@pytest.mark.espeak
def test_a_wav_that_cannot_be_written_is_refused_in_the_language_asked(engine, pyttsx3_only, tmp_path):
    out = tmp_path / "no folder" / "x.wav"
    result = runner.invoke(app, ["voice", "say", "hi", "--lang", "ko", "--to", str(out)])
    assert result.exit_code == 2 and result.stderr == f"gm: ‘{out}’라는 파일이나 폴더가 없어요\n"
