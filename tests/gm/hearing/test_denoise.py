"""The room's steady noise taken out of what pocketsphinx hears (`gm.hearing.denoise`): a quiet
room is heard exactly as recorded, a noisy one with its noise suppressed, the same audio the same
way each time, at the microphone's own rate; without webrtc-noise-gain the night says so once."""

import io
import sys

import numpy as np
import pytest

from fakes import FakeClock, FakeModel, FakeSpeaker, ScriptSource
from gm.hearing import denoise, sphinx
from gm.hearing.keyboard import KeyboardAsker
from gm.hearing.recorded import PcmSource
from gm.hearing.session import Listener
from gm.hearing.voice import _listening_asker
from gm.text.lines import Pack
from test_sphinx_hearing import book
from test_vad import room


@pytest.fixture(autouse=True)
def tried_afresh():
    """Whether the suppressor loads is found once per process: each test finds it afresh."""
    denoise.unavailable.cache_clear()
    yield
    denoise.unavailable.cache_clear()


def streamed(source):
    """Everything `source` gives, read 0.1 s at a time."""
    out = []
    while not source.ended:
        block = source.read(0.1)
        if block:
            out.append(block)
    return b"".join(out)


def level_db(pcm, start, end, rate):
    x = np.frombuffer(pcm, dtype="<i2").astype(np.float64)[int(start * rate):int(end * rate)]
    return 10 * np.log10((x ** 2).mean() + 1e-10)


@pytest.mark.parametrize("rate", [16000, 22050, 48000])
def test_a_quiet_room_is_heard_exactly_as_recorded(rate):
    pcm, _ = room(4.0, 1.0, snr_db=200.0, rate=rate)  # "two votes" in digital silence
    source = denoise.Denoised(PcmSource(rate, pcm, FakeClock()))
    assert streamed(source) == pcm and not source.noisy and source.rate == rate


@pytest.mark.parametrize("rate", [16000, 48000])
def test_in_a_noisy_room_the_noise_is_taken_out_and_the_answer_kept(rate):
    pcm, (start, end) = room(6.0, 4.0, snr_db=5.0, rate=rate)
    source = denoise.Denoised(PcmSource(rate, pcm, FakeClock()))
    out = streamed(source)
    assert source.noisy and abs(len(out) - len(pcm)) <= 2 * rate // 50  # the same audio, give or take 20 ms
    assert level_db(out, 2.0, 3.5, rate) < level_db(pcm, 2.0, 3.5, rate) - 10  # the room alone
    assert level_db(out, start, end, rate) > level_db(pcm, start, end, rate) - 3  # the answer


@pytest.mark.parametrize("rate", [16000, 44100])
def test_the_same_audio_is_denoised_the_same_each_time(rate):
    """soxr dithers the 16-bit samples it gives, a little differently each time: pocketsphinx
    heard a card in "peter" one run in four."""
    pcm, _ = room(3.0, 1.0, snr_db=5.0, rate=rate)
    heard = {streamed(denoise.Denoised(PcmSource(rate, pcm, FakeClock()))) for _ in range(4)}
    assert len(heard) == 1


@pytest.mark.slow  # decodes 12 noisy answers
@pytest.mark.parametrize("seed", [1, 2, 3, 6])
def test_two_votes_in_noise_is_heard_and_never_taken_as_none(monkeypatch, seed):
    """"two votes" over pink noise 8 dB below it, a continuous bed: pocketsphinx heard "none"
    and took a count of 0 from the room's noise in it; denoised, it hears "two votes". At 5 dB
    no count is taken from it either way it is heard."""
    count = book("count")

    def hears(snr_db):
        pcm, _ = room(5.0, 2.5, snr_db=snr_db, seed=seed)
        result = Listener(sphinx.load(), PcmSource(16000, pcm, FakeClock())).hear_once(count)
        assert result is not None
        return result.text, count.match(result)

    assert hears(8.0)[0] == "two votes" and hears(5.0)[1] in (None, "2")
    monkeypatch.setattr(sphinx.SphinxModel, "denoised", False)
    assert hears(8.0)[0] == "none"


def test_only_a_listener_that_asks_for_it_hears_the_room_denoised():
    clock = FakeClock()
    assert isinstance(Listener(sphinx.load(), PcmSource(16000, b"", clock)).source, denoise.Denoised)
    assert isinstance(Listener(FakeModel(), PcmSource(16000, b"", clock)).source, PcmSource)


def listening_notes(model):
    notes = []
    clock = FakeClock()
    _listening_asker(model, ScriptSource(clock), KeyboardAsker(clock, io.StringIO()), FakeSpeaker(),
                     Pack("en"), clock, (), notes.append)
    return notes


class DenoisedModel(FakeModel):
    denoised = True


def test_without_webrtc_noise_gain_the_room_is_heard_as_it_is_and_the_night_says_so_once(monkeypatch):
    monkeypatch.setitem(sys.modules, "webrtc_noise_gain", None)  # import raises ImportError
    source = PcmSource(16000, b"", FakeClock())
    assert denoise.denoised(source) is source
    assert listening_notes(DenoisedModel()) == [
        "gm: listening poorly: the noise suppressor (webrtc-noise-gain) cannot be loaded, so the room's noise is "
        'heard as it is (install it: pip install "webrtc-noise-gain>=1.2" "soxr>=0.3"); answers can be typed as well']
    assert listening_notes(FakeModel()) == []  # a listener that hears the room as it is misses nothing
