"""No part of a spoken line (a sentence: a line is said sentence by sentence) is longer than a
listener follows comfortably, LONGEST_PART seconds, in any pack, with the longest likely fields;
the estimate grows with what is said and cuts a line where the speaker does."""

from __future__ import annotations

import pytest

import pack_samples as samples
from gm.ports import Line
from gm.speech.notes import Notes
from gm.speech.pieces import pieces
from gm.speech.speakers import PrintSpeaker
from gm.speech.speaking import SpeechSpeaker
from gm.text.spoken_length import (LONGEST_PART, NoPace, line_seconds, longest_part, part_seconds, parts_seconds,
                                   sentences)
from speech_fakes import FakeRenderer


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
@pytest.mark.parametrize("which", ["samples", "longest"])
def test_every_part_of_every_spoken_line_is_said_within_eight_seconds(lang, which):
    lines = samples.lines(lang, said_only=True) if which == "samples" else samples.longest_said(lang)
    assert len(lines) > 200
    over = [(line.key, round(seconds, 1), part) for line in lines
            for part, seconds in parts_seconds(line.spoken, lang) if seconds > LONGEST_PART]
    assert over == []


def test_the_estimate_grows_with_characters_pauses_and_digits_said_as_words():
    assert part_seconds("Aki wins.", "en") < part_seconds("Aki and Ken win.", "en")
    assert part_seconds("Aki Ken Mio win.", "en") < part_seconds("Aki, Ken, Mio win.", "en")
    assert part_seconds("6 votes.", "en") > part_seconds("x votes.", "en")
    assert part_seconds("あ" * 40, "ja") > part_seconds("a" * 40, "en")  # kana are said slower than letters
    assert part_seconds("가" * 40, "ko") > part_seconds("あ" * 40, "ja")


def test_a_language_whose_pace_was_never_measured_is_not_estimated_at_english_pace():
    with pytest.raises(NoPace, match="no pace measured for 'xx'"):
        part_seconds("Halbwolf für 4 Spieler.", "xx")


def test_a_line_is_its_sentences_said_one_after_the_other():
    text = "Time is up! Stop talking, even mid-sentence. 投票です。では"
    assert sentences(text) == ["Time is up!", "Stop talking, even mid-sentence.", "投票です。", "では"]
    assert line_seconds(text, "en") == pytest.approx(sum(part_seconds(s, "en") for s in sentences(text)))
    assert longest_part(text, "en")[0] == "Stop talking, even mid-sentence."
    assert longest_part("", "en") == ("", 0.0)
    # the speaker cuts a line at the same sentences (an engine that cuts a sentence itself gets them whole)
    assert pieces(text, clauses=False) == sentences(text)


def test_a_long_line_is_played_part_by_part_and_gm_is_speaking_through_every_part():
    """The listener's echo gate (speaking, then a grace after last_spoken_end) covers each part
    and the time between parts: gm never hears itself between two sentences."""
    heard_while: list[bool] = []

    class Sink:
        streams = realtime = True

        def play(self, audio, key, cut):
            heard_while.append(speaker.speaking)
            return True

        def close(self):
            """Nothing to release."""

    renderer = FakeRenderer()
    speaker = SpeechSpeaker(PrintSpeaker(lambda _: None), lambda: renderer, Sink, Notes("en"))
    text = "Shuffle these cards. Deal two to each player. Say done when dealt."
    speaker.say(Line("werewolf.deal", text, text))
    speaker.close()
    assert renderer.rendered[1:] == ["Deal two to each player.", "Say done when dealt."]
    assert heard_while == [True] * len(renderer.rendered) and not speaker.speaking
    assert [s.completed for s in speaker.spoken] == [True]
