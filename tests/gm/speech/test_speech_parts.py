"""Voice choice by language tag, and reading/writing rendered audio."""

import struct
import wave

import pytest

from gm.speech.audio import Audio, BadAudio, read_audio, write_wav
from gm.speech.voices_found import UnknownVoice, choose_voice, found_voice, language_of


@pytest.mark.parametrize("tag, lang", [
    ("ja", "ja"), ("ja_JP", "ja"), ("ja-JP", "ja"), (b"\x05ja", "ja"), ("en-gb-x-rp", "en"),
    ("en_US", "en"), ("EN-us", "en"), ("Unknown Locale: 1234", ""), ("", ""), (None, ""),
])
def test_language_tags_of_espeak_nsss_and_sapi5_reduce_to_the_language(tag, lang):
    assert language_of(tag) == lang


VOICES = [
    found_voice("gmw/en-029", "English (Caribbean)", ["en-029"]),
    found_voice("gmw/en", "English (Great Britain)", ["en-gb"]),
    found_voice("gmw/en-us", "English (America)", ["en-us"]),
    found_voice("com.apple.voice.compact.ja-JP.Kyoko", "Kyoko", ["ja_JP"]),
    found_voice(r"HKEY_LOCAL_MACHINE\SOFTWARE\Microsoft\Speech\Voices\Tokens\TTS_MS_JA-JP_HARUKA_11.0",
                "Microsoft Haruka Desktop", ["ja-JP"]),
]


def test_the_voice_is_chosen_by_language_best_region_first():
    assert choose_voice(VOICES, "en").id == "gmw/en-us"
    assert choose_voice(VOICES, "ja").name == "Kyoko"
    assert choose_voice(VOICES[:3], "ja") is None
    assert VOICES[4].tag == "ja-jp" and VOICES[4].lang == "ja"


def test_voice_override_by_id_or_name():
    assert choose_voice(VOICES, "ja", "gmw/en").id == "gmw/en"
    assert choose_voice(VOICES, "en", "microsoft haruka desktop").name == "Microsoft Haruka Desktop"
    with pytest.raises(UnknownVoice, match="'Otoya'"):
        choose_voice(VOICES, "ja", "Otoya")


def test_wav_round_trip_and_head(tmp_path):
    audio = Audio(22050, struct.pack("<4h", 1, -2, 300, -32768))
    write_wav(tmp_path / "a.wav", audio)
    assert read_audio(tmp_path / "a.wav") == audio
    assert audio.head(2 / 22050).samples == struct.pack("<2h", 1, -2)
    assert audio.seconds == pytest.approx(4 / 22050)


def test_stereo_wav_is_mixed_to_mono(tmp_path):
    with wave.open(str(tmp_path / "s.wav"), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(struct.pack("<4h", 100, 200, -50, -150))
    assert read_audio(tmp_path / "s.wav") == Audio(16000, struct.pack("<2h", 150, -100))


def _aiff(compression=None):
    rate = b"\x40\x0d\xac\x44" + b"\x00" * 6  # 22050 as an 80-bit extended float
    data = struct.pack(">3h", 1, -2, 300) if compression != b"sowt" else struct.pack("<3h", 1, -2, 300)
    comm = struct.pack(">hIh", 1, 3, 16) + rate + (compression + b"\x00\x00" if compression else b"")
    ssnd = struct.pack(">II", 0, 0) + data
    chunks = b"COMM" + struct.pack(">I", len(comm)) + comm + b"SSND" + struct.pack(">I", len(ssnd)) + ssnd
    kind = b"AIFC" if compression else b"AIFF"
    return b"FORM" + struct.pack(">I", 4 + len(chunks)) + kind + chunks


@pytest.mark.parametrize("compression", [None, b"NONE", b"sowt"])
def test_aiff_from_macos_is_read(tmp_path, compression):
    (tmp_path / "a.wav").write_bytes(_aiff(compression))  # NSSS writes AIFF whatever the name says
    assert read_audio(tmp_path / "a.wav") == Audio(22050, struct.pack("<3h", 1, -2, 300))


def test_a_file_that_is_not_audio_is_refused(tmp_path):
    (tmp_path / "x.wav").write_text("hello")
    with pytest.raises(BadAudio, match="x.wav"):
        read_audio(tmp_path / "x.wav")
    (tmp_path / "c.aiff").write_bytes(_aiff(b"ulaw"))
    with pytest.raises(BadAudio, match="ulaw"):
        read_audio(tmp_path / "c.aiff")
