"""A count said by voice and not caught at once is heard again, by pocketsphinx's en-us model:
flite's kal says "one" so that the grammar hears a seated player ("tom"), then, said slower,
"one" that does not beat the loop of free phones (unsure). The count is taken at its third try,
as two unsure hearings alike with no other value (cut by loudness), or heard surely (cut by the
voice-activity detector); it used to go to the keyboard."""

import io
import shutil
import subprocess

import numpy as np
import pytest

from fakes import FakeClock, FakeSpeaker
from gm.hearing import sphinx
from gm.hearing.keyboard import KeyboardAsker
from gm.hearing.recorded import read_wav
from gm.hearing.replay import Utterances
from gm.hearing.session import Listener
from gm.hearing.listening import ListeningAsker
from gm.ports import How
from gm.table.questions import Counting, Table
from gm.text.lines import Pack

pytestmark = [
    pytest.mark.skipif(not sphinx.available(), reason="pocketsphinx is not installed"),
    pytest.mark.skipif(shutil.which("flite") is None, reason="flite says the audio"),
]

EN = Pack("en")
PLAYERS = ("Tom", "Mike", "Kate", "Lucy", "Sam", "Emma")
STRETCHES = (1.07, 1.26, 1.48)  # said again each time slower (bench/voice_nights_bench.py SLOWER)


def kal(tmp_path, text, stretch):
    """`text` said by flite's kal, `stretch` times as long, with silence around it, at 16 kHz."""
    path = tmp_path / f"{text}_{stretch}.wav"
    subprocess.run(["flite", "-voice", "kal", "--setf", f"duration_stretch={stretch}", "-t", text, "-o", str(path)],
                   check=True, capture_output=True)
    rate, audio = read_wav(path)  # kal speaks at 8 kHz: brought to 16 kHz as the recordings of a night are
    samples = np.frombuffer(audio, dtype="<i2")
    at = np.arange(int(len(samples) * sphinx.RATE / rate)) * rate / sphinx.RATE
    audio = np.interp(at, np.arange(len(samples)), samples).astype("<i2").tobytes()
    return bytes(2 * int(0.4 * sphinx.RATE)) + audio + bytes(2 * int(0.8 * sphinx.RATE))


def test_a_count_said_three_times_slower_each_time_is_heard_by_its_third_try(tmp_path):
    clock = FakeClock()
    said = [kal(tmp_path, "one", stretch) for stretch in STRETCHES]
    recording = Utterances(sphinx.RATE, [*said, b""], clock)  # the table goes on after it
    keyboard = KeyboardAsker(clock, io.StringIO("4\n"), echo=lambda _: None)
    speaker = FakeSpeaker()
    asker = ListeningAsker(Listener(sphinx.load(), recording), keyboard, speaker, EN, clock, seats=PLAYERS)
    question = Table(EN).count(PLAYERS[1:], 6, Counting((*PLAYERS, "graveyard")))
    answer = asker.ask(question)
    assert (answer.value, answer.how, answer.confirmed) == ({"Mike": 1}, How.VOICE, False)
    assert "listen.type_it" not in [line.key for line in speaker.lines] and recording.position == 3
