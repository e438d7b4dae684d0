"""A Japanese yes or no heard by Whisper: told はい and いいえ after the question, it writes Open
JTalk's いいえ as いいえ (untold: はい, みんな, 行く); うん and ううん, which it cannot tell apart, are
no answer by voice (typed, they are yes and no); the pack's answer ids ("yes") are no phrase."""

from __future__ import annotations

import re

import numpy as np
import pytest

from gm.hearing import whisper
from gm.hearing.phrases import Vocabulary
from gm.hearing.listening import phrasebook
from gm.hearing.whisper import Scored
from gm.table.questions import Table
from gm.text.lines import Pack

JA = Pack("ja")
PLAYERS = ("アキ", "ケン", "ミオ", "ソラ")


class Writes:
    """A Whisper stand-in that writes `free` for any audio (nothing scored), keeping what it was told."""

    unk = False
    lang = "ja"

    def __init__(self, free: str) -> None:
        self.free, self.contexts = free, []

    def hears(self, word: str) -> bool:
        return bool(word)

    def score(self, samples, phrases, context="", calibrated=frozenset()):
        self.contexts.append(context)
        return [], Scored(self.free, -1.0)


def again(model):
    return phrasebook(Table(JA).yes_no("werewolf.evening.again"), model, Vocabulary.from_pack(JA), JA.spoken_word,
                      PLAYERS)


def test_a_yes_or_no_is_told_its_answers_and_what_is_written_as_told_is_that_answer():
    taken = {}
    for written in ("はい", "いいえ", "いや", "いいや", "うん", "ううん", "yes", "イーズ", "ノ"):
        model = Writes(written)
        book = again(model)
        taken[written] = book.match(whisper.WhisperRecogniser(model, 16000, book).hear(bytes(16000)))
    assert model.contexts[0] == "同じメンバー、同じカードで次の夜を遊びますか？ はい、いいえ。"
    assert taken == {"はい": "yes", "いいえ": "no", "いや": "no", "いいや": "no", "うん": None, "ううん": None,
                     "yes": None, "イーズ": None, "ノ": None}


def test_a_japanese_yes_or_no_is_heard_in_japanese_words_only_and_typed_as_before():
    book = again(Writes(""))
    assert not [p for p in book.phrases if re.search("[A-Za-z]", p) or p in ("イーズ", "ノ")]
    question = Table(JA).yes_no("werewolf.evening.again")
    assert [question.parse(t) for t in ("うん", "はい", "y", "ううん", "いいえ", "いいや")] == [True] * 3 + [False] * 3


@pytest.mark.slow
@pytest.mark.skipif(not whisper.available(), reason="needs gm-card-nights[whisper] (./setup.sh --test installs it)")
def test_open_jtalks_hai_and_iie_are_yes_and_no_and_uun_is_no_yes():
    """はい and いいえ said by Open JTalk in three voices (its own, slower and lower, faster and
    higher; いいえ in two), at 「次の夜を遊びますか？」: untold, いいえ was written はい, みんな or 行く.
    ううん, written うん, was taken as yes."""
    pyopenjtalk = pytest.importorskip("pyopenjtalk")
    from gm.hearing.sphinx import _at_16k
    from gm.hearing.utterance import levelled

    model = whisper.load("ja")
    book = again(model)

    def said(text: str, speed: float, half_tone: int) -> bytes:
        audio, rate = pyopenjtalk.tts(text, speed=speed, half_tone=half_tone)
        pcm = _at_16k((audio / max(float(np.abs(audio).max()), 1.0) * 16384).astype("<i2").tobytes(), rate)
        return levelled(bytes(12800) + pcm + bytes(12800), 16000)

    cases = (("はい", 1.0, 0, "yes"), ("いいえ", 0.9, -3, "no"), ("ううん", 1.15, 3, None), ("いいえ", 1.0, 0, "no"))
    for text, speed, half_tone, answer in cases:
        heard = model.recogniser(16000, book).hear(said(text, speed, half_tone))
        assert book.match(heard) == answer, (text, speed, heard)
