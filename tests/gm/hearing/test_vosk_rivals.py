"""An answer vosk also reads otherwise is heard unsure (`gm.hearing.vosk_model`): the rival check
on vosk's n-best readings, driven by canned recogniser results (no model, no audio device)."""

import json

import pytest

from gm.hearing.phrases import Phrasebook
from gm.hearing.vosk_model import RIVAL_MARGIN, VoskRecogniser

COUNT = Phrasebook({"없어요": "0", "하나": "1", "한 표": "1", "둘": "2", "두 표": "2"}, decoys=("범인",),
                   others={"맞아": "yes", "다섯": "5"})
STEP = Phrasebook({"됐어요": "done", "했어요": "done"}, decoys=("범인",), others={"없어요": "0"})
AUDIO = bytes(2 * 1600)  # a tenth of a second at 16 kHz: the canned results do not listen


class Kaldi:
    """A KaldiRecognizer that gives one final result, whatever it is fed."""

    def __init__(self, result):
        self.result = result

    def AcceptWaveform(self, block):  # noqa: N802 (vosk's name)
        return False

    def FinalResult(self):  # noqa: N802
        return json.dumps(self.result, ensure_ascii=False)


def heard(book, text, readings):
    """What the recogniser hears of `text` (every word 0.95 sure) with vosk's other `readings`
    (text, score below the best one's)."""
    best = {"text": text, "result": [{"word": w, "conf": 0.95} for w in text.split()]}
    n_best = {"alternatives": [{"text": text, "confidence": 100.0}]
              + [{"text": t, "confidence": 100.0 - below} for t, below in readings]}
    recogniser = VoskRecogniser(lambda: Kaldi(best), 16000, book, readings=lambda: Kaldi(n_best))
    return recogniser.hear(AUDIO)


@pytest.mark.parametrize("rival", ["다섯", "둘", "범인", "맞아 하나"])
def test_an_answer_read_otherwise_within_the_margin_is_heard_unsure(rival):
    # another answer, a number not asked, a decoy, another phrase of the table
    said = heard(COUNT, "하나", [(rival, RIVAL_MARGIN / 2)])
    assert said.text == "하나" and not said.sure(0.6) and COUNT.match(said) is None


@pytest.mark.parametrize("readings", [[], [("하나", 0.1)], [("표 하나", 0.1)], [("다섯", RIVAL_MARGIN * 2)]])
def test_an_answer_with_no_rival_near_is_heard_as_surely_as_vosk_says(readings):
    # no other reading, the same answer, the question's own words naming nothing, a rival far off
    said = heard(COUNT, "하나", readings)
    assert said.sure(0.9) and COUNT.match(said) == "1"


def test_a_step_has_no_rival_and_no_answer_is_looked_at():
    assert heard(STEP, "됐어요", [("범인", 0.1)]).sure(0.9)  # "done", taken however surely heard
    assert heard(COUNT, "범인", [("하나", 0.1)]).sure(0.9)  # no answer: nothing to doubt
