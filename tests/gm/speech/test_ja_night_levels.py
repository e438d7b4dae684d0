"""A whole Japanese night spoken through the loudspeaker path: Open JTalk's lines rendered part by
part, each part captured as the device would be handed it. No sample clipped, every line at one
loudness (countdown numbers included), and at every joint the parts as loud as the sentence
rendered whole (what `--speech wav:DIR` writes)."""

from __future__ import annotations

import math

import numpy
import pytest

from fakes import FakeClock, ScriptedAsker, ScriptedControls
from gm.night.context import NightContext
from gm.night.runner import run_night
from gm.speech.engines import openjtalk
from gm.speech.loudness import CEILING_DBFS, FULL_SCALE, speech_level
from gm.speech.notes import Notes
from gm.speech.output import spoken_form
from gm.speech.settings import SpeechSettings
from gm.speech.speakers import PrintSpeaker
from gm.speech.speaking import SpeechSpeaker
from gm.speech.tts import Renderer
from gm.text.lines import Pack
from scorer.werewolf.decks import standard_deck

pytestmark = [pytest.mark.slow,  # renders whole nights of speech
              pytest.mark.skipif(not openjtalk.available(),
                                 reason="pyopenjtalk-plus is not installed (gm-card-nights[ja])")]

PLAYERS = ["Aki", "Ken", "Mio", "Sora"]
READINGS = {"Aki": "あき", "Ken": "けん", "Mio": "みお", "Sora": "そら"}
ANSWERS = [("werewolf.deal", "done"), ("werewolf.pass_right", None), ("werewolf.lay_down", "done"),
           ("werewolf.seer_one", None), *[("werewolf.vote.ask_count", str(n)) for n in (2, 1, 0, 0, 0)],
           ("werewolf.reveal.ask_hand", "werewolf villager"), ("werewolf.reveal.ask_holder", "Ken")]
AROUND = 0.25  # seconds each side of a joint over which the parts and the whole sentence are compared
SHIFT = 100  # milliseconds a joint is looked for either side of where it is in the line
ALIGN = 0.5  # seconds each side of a joint whose envelope is matched


class Loudspeaker:
    """A sink taken for the loudspeaker (it streams): keeps each part it is handed, by line."""

    streams = True
    realtime = False  # nothing is cut: every line is played to the end

    def __init__(self) -> None:
        self.lines: list[list[numpy.ndarray]] = []
        self.speaker: SpeechSpeaker | None = None

    def play(self, audio, key, cut) -> bool:
        assert self.speaker is not None
        index = len(self.speaker.spoken)  # a line is noted as spoken after its last part
        while len(self.lines) <= index:
            self.lines.append([])
        self.lines[index].append(numpy.frombuffer(audio.samples, dtype="<i2").astype(float))
        self.rate = audio.rate
        return True

    def close(self) -> None:
        """Nothing opened."""


def _db(samples: numpy.ndarray) -> float:
    return 10 * math.log10(float(numpy.mean(samples * samples)) + 1e-9)


def _lag(line: numpy.ndarray, whole: numpy.ndarray, at: int, rate: int) -> int:
    """Where the samples of `line` around `at` are in `whole`, as an offset: parts are joined where
    the voice's pitch periods line up, so a line's later parts may be a few milliseconds off the
    whole. Found on the loudness envelopes (1 ms steps) over ALIGN each side."""
    step, reach = rate // 1000, int(ALIGN * rate)

    def envelope(x: numpy.ndarray, start: int) -> numpy.ndarray:
        blocks = x[max(0, start - reach): start + reach]
        blocks = blocks[: len(blocks) // step * step].reshape(-1, step)
        return numpy.log1p(numpy.sqrt(numpy.mean(blocks * blocks, axis=1)))

    here = envelope(line, at)
    lags = [lag for lag in range(-SHIFT * step, SHIFT * step + 1, step)
            if reach <= at + lag <= len(whole) - reach and len(envelope(whole, at + lag)) == len(here)]
    misfit = [float(numpy.abs(here - envelope(whole, at + lag)).sum()) for lag in lags]
    return lags[int(numpy.argmin(misfit))] if lags else 0


@pytest.fixture(scope="module")
def night():
    """The night's lines as the loudspeaker got them (parts) and as the WAV folder would (whole)."""
    settings = SpeechSettings("ja", readings=READINGS)
    sink = Loudspeaker()
    notes = Notes("ja")
    speaker = SpeechSpeaker(PrintSpeaker(lambda _: None), lambda: Renderer(settings).warmed(), lambda: sink,
                            notes, spoken_form(settings, notes, reads_kanji=True))
    sink.speaker = speaker
    clock = FakeClock()
    run_night(NightContext(players=PLAYERS, deck=standard_deck(4), pack=Pack("ja", READINGS), speaker=speaker,
                           asker=ScriptedAsker(ANSWERS, clock), clock=clock, controls=ScriptedControls(clock),
                           pause=20, discussion=180))
    speaker.close()
    renderer = Renderer(settings)
    wholes = [numpy.frombuffer(renderer.render(s.text).samples, dtype="<i2").astype(float) for s in speaker.spoken]
    return speaker.spoken, sink.lines, wholes, sink.rate


def test_a_whole_japanese_night_has_no_clipped_sample(night):
    spoken, streamed, wholes, _ = night
    assert len(spoken) > 40 and len(streamed) == len(spoken)
    ceiling = FULL_SCALE * 10 ** (CEILING_DBFS / 20)
    for parts, whole in zip(streamed, wholes):
        assert numpy.abs(numpy.concatenate(parts)).max() <= ceiling and numpy.abs(whole).max() <= ceiling


def test_every_line_and_countdown_number_is_at_one_loudness(night):
    spoken, streamed, wholes, rate = night
    for lines in ([numpy.concatenate(parts) for parts in streamed], wholes):
        levels = numpy.array([speech_level(line, rate) for line in lines])
        assert levels.max() - levels.min() <= 3.0, levels.round(1)
    numbers = [i for i, s in enumerate(spoken) if s.key == "werewolf.timer.count"]
    assert len(numbers) == 10
    steps = numpy.diff([speech_level(wholes[i], rate) for i in numbers])
    assert numpy.abs(steps).max() <= 1.5


def test_at_every_joint_the_parts_are_as_loud_as_the_whole_sentence(night):
    _, streamed, wholes, rate = night
    around = int(AROUND * rate)
    joints = []
    for parts, whole in zip(streamed, wholes):
        for at in numpy.cumsum([len(p) for p in parts])[:-1]:
            if around <= at <= len(whole) - around:
                line = numpy.concatenate(parts)
                there = at + _lag(line, whole, at, rate)
                joints.append(_db(line[at - around: at + around]) - _db(whole[there - around: there + around]))
    assert len(joints) >= 20
    assert numpy.abs(joints).max() <= 1.5, numpy.round(joints, 1)
