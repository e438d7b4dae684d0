"""Why gm cannot listen, or listens poorly, said once in the night's language; bad recordings
and microphones are one line, and the keyboard goes on."""

import io
import re
import struct
import sys

import pytest
from typer.testing import CliRunner

from fakes import FakeClock
from gm.cli import app
from gm.hearing.keyboard import KeyboardAsker
from gm.hearing.cannot_listen import NoAudio
from gm.hearing.microphone import EchoGate, MicSource
from gm.hearing.recorded import BadWav, read_wav
from gm.hearing.replay import Utterances
from gm.hearing.utterance import CLIPPED_BLOCKS, SILENT_BLOCKS, MicCheck
from gm.hearing.listening import open_asker
from gm.text.lines import Pack
from test_listening import fake_sounddevice  # noqa: F401  (a fixture)

LATIN_WORDS = re.compile(r"[A-Za-z]{3,}")


def notes_of(lang, listen="on", monkeypatch=None, model=None):
    notes = []
    asker = open_asker(listen, FakeClock(), None, Pack(lang), model_path=model, stream=io.StringIO(),
                       note=notes.append)
    return asker, notes


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_no_model_is_said_in_the_nights_language(lang, monkeypatch):
    monkeypatch.delenv("GM_VOSK_MODEL", raising=False)
    monkeypatch.setattr("gm.hearing.models.default_model", lambda lang: None)
    asker, notes = notes_of(lang)
    assert isinstance(asker, KeyboardAsker) and len(notes) == 1
    from gm.hearing.model_loading import _get_command

    said = notes[0].replace("GM_VOSK_MODEL", "").replace(_get_command(lang), "").replace("--vosk-model", "")
    assert not LATIN_WORDS.findall(said), notes[0]  # only the option, the variable and the command are as typed


def test_no_portaudio_is_said_in_korean(monkeypatch):
    monkeypatch.setattr("gm.hearing.model_loading.model_loader", lambda option, lang=None, *rest, **kw: lambda: None)
    monkeypatch.setitem(sys.modules, "sounddevice", None)
    asker, notes = notes_of("ko")
    assert notes == ["gm: 듣지 않아요: PortAudio가 없어요: libportaudio2를 설치하세요. 대답은 입력해 주세요"]


def test_no_microphone_is_said_in_korean(fake_sounddevice, monkeypatch):  # noqa: F811
    monkeypatch.setattr("gm.hearing.model_loading.model_loader", lambda option, lang=None, *rest, **kw: lambda: None)
    fake_sounddevice.devices = fake_sounddevice.devices[1:]
    asker, notes = notes_of("ko")
    assert notes == ["gm: 듣지 않아요: 들을 마이크가 없어요. 대답은 입력해 주세요"]


def test_a_microphone_at_a_rate_that_cannot_be_heard_is_no_microphone(fake_sounddevice, monkeypatch):  # noqa: F811
    monkeypatch.setattr("gm.hearing.model_loading.model_loader", lambda option, lang=None, *rest, **kw: lambda: None)
    fake_sounddevice.devices[0]["default_samplerate"] = 192000.0
    with pytest.raises(NoAudio, match="192000 Hz"):
        MicSource(FakeClock(), EchoGate(None))
    asker, notes = notes_of("en")
    assert isinstance(asker, KeyboardAsker)
    assert notes == ["gm: not listening: the microphone records at 192000 Hz, which cannot be heard "
                     "(8000–48000 Hz); answers are typed"]


def test_a_microphone_that_sends_silence_or_clips_is_said_once(fake_sounddevice):  # noqa: F811
    told = []
    mic = MicSource(FakeClock(), EchoGate(None), trouble=told.append)
    callback = fake_sounddevice.streams[0].kw["callback"]
    for _ in range(3 * SILENT_BLOCKS):
        callback(bytes(9600), 4800, None, None)
        assert mic.read(0) == bytes(9600)  # the audio still comes: the keyboard races it as ever
    clipped = struct.pack("<h", 32767) * 100 + struct.pack("<h", 1000) * 4700
    for _ in range(3 * CLIPPED_BLOCKS):
        callback(clipped, 4800, None, None)
        mic.read(0)
    assert told == ["mic_silent", "mic_clipping"]


def test_speech_is_neither_silence_nor_clipping():
    import numpy as np

    check = MicCheck()
    t = np.arange(4800) / 48000
    speech = (8000 * np.sin(2 * np.pi * 220 * t)).astype("<i2").tobytes()
    assert [check.look(speech) for _ in range(2 * SILENT_BLOCKS)] == [None] * (2 * SILENT_BLOCKS)


def lying_wav(path, fmt_size=0x7FFFFFF0):
    data = b"\0\0" * 100
    fmt = struct.pack("<HHIIHH", 1, 1, 16000, 32000, 2, 16)
    path.write_bytes(b"RIFF" + struct.pack("<I", 4 + 8 + len(fmt) + 8 + len(data)) + b"WAVE"
                     + b"fmt " + struct.pack("<I", fmt_size) + fmt + b"data" + struct.pack("<I", len(data)) + data)
    return path


def test_a_wav_whose_header_lies_is_a_bad_wav(tmp_path):
    path = lying_wav(tmp_path / "lying.wav")
    with pytest.raises(BadWav, match="not a WAV file"):
        read_wav(path)
    with pytest.raises(BadWav, match="not a WAV file"):
        Utterances.from_wav(path, FakeClock())


@pytest.mark.parametrize("command", [["voice", "hear", "{wav}", "--answers", "yes,no"],
                                     ["werewolf", "play", "--players", "A,B,C,D", "--listen-from", "{wav}",
                                      "--speech", "off"]])
def test_gm_refuses_a_lying_wav_in_one_line(tmp_path, command):
    path = lying_wav(tmp_path / "lying.wav")
    result = CliRunner().invoke(app, [str(path) if a == "{wav}" else a for a in command], input="")
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and "not a WAV file (its header does not fit the file)" in result.output
