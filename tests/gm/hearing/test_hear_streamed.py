"""`gm voice hear FILE.wav` streams its files as --listen-from does: a file is read block by block
as it is heard, so memory stays flat however long the recording."""

import struct
import wave

from fakes import FakeClock
from gm.hearing.recorded import WavFile, PcmSource, read_wav


def write_wav(path, frames, channels=1, rate=16000):
    with wave.open(str(path), "wb") as out:
        out.setnchannels(channels)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(frames)
    return path


def test_a_long_wav_is_read_only_as_far_as_it_is_heard(tmp_path, monkeypatch):
    long = write_wav(tmp_path / "long.wav", bytes(4 << 20))  # 2 minutes at 16 kHz
    read = []
    readframes = wave.Wave_read.readframes
    monkeypatch.setattr(wave.Wave_read, "readframes", lambda self, n: read.append(n) or readframes(self, n))
    source = PcmSource.from_wavs([long], FakeClock())
    assert len(source.read(0.1)) == 3200  # a tenth of a second
    assert sum(read) <= WavFile.BLOCK_FRAMES  # one block of the file read, not 2 million frames
    source.close()


def test_streamed_files_are_their_frames_with_the_gaps_between(tmp_path):
    one = write_wav(tmp_path / "one.wav", struct.pack("<5000h", *range(5000)))
    two = write_wav(tmp_path / "two.wav", struct.pack("<6h", 100, 300, -100, -300, 7, 9), channels=2)
    source, got = PcmSource.from_wavs([one, two], FakeClock(), gap=0.01), b""
    while (block := source.read(0.1)) is not None:
        assert len(block) <= 3200
        got += block
    gap = bytes(320)
    assert got == gap + read_wav(one)[1] + gap + struct.pack("<3h", 200, -200, 8) + gap
    assert source.ended
