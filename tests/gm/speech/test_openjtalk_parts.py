"""Japanese rendered phrase by phrase: Open JTalk reads a sentence once, its voice renders the
labels in parts cut at pauses and after the first phrase, never inside a word or between a name
and its count; played one after the other the parts say, and sound, the whole sentence."""

from __future__ import annotations

import types
import zlib

import numpy
import pytest

from gm.speech import tts
from gm.speech.audio import Audio, Samples
from gm.speech.engines import openjtalk
from gm.speech.notes import Notes
from gm.ports import Line
from gm.speech.output import open_speech_speaker, spoken_form
from gm.speech.speakers import PrintSpeaker
from gm.speech.pieces import pieces
from gm.speech.settings import SpeechSettings
from gm.speech.voices_found import FoundVoice
import pack_samples as samples
from gm.text.lines import Pack

pytestmark = pytest.mark.slow  # renders speech

needs_openjtalk = pytest.mark.skipif(not openjtalk.available(),
                                     reason="pyopenjtalk-plus is not installed (gm-card-nights[ja])")
DEAD = "今夜のレギュレーションは「死者との戦い」。"
VOTES = "投票のとき死神が墓地にあれば、墓堀と裏切り者を持つ人が死者陣営、ほかの人が生者陣営です。"


@pytest.fixture(scope="module")
def library():
    pytest.importorskip("pyopenjtalk")
    return openjtalk._pyopenjtalk()


def _parts(library, sentence: str) -> list[str]:
    """The phonemes of each part of `sentence`, space-separated."""
    from gm.speech.engines.openjtalk_parts import cuts, phonemes

    said = phonemes(library.extract_fullcontext(sentence))
    bounds = [0, *cuts(library.extract_fullcontext(sentence)), len(said)]
    return [" ".join(said[a:b]) for a, b in zip(bounds, bounds[1:])]


def _ja_sentences() -> list[str]:
    """Every sentence Open JTalk is handed for the ja pack's spoken lines (players' readings put in)."""
    prepare = spoken_form(SpeechSettings("ja", readings=samples.READINGS), Notes("ja"), reads_kanji=True)
    return sorted({s for line in samples.lines("ja", said_only=True) for s in pieces(prepare(line), clauses=False)})


@needs_openjtalk
def test_the_first_part_is_the_first_phrase_and_later_parts_run_on_to_a_pause(library):
    from gm.speech.engines.openjtalk_parts import PART_LABELS

    assert _parts(library, DEAD) == ["sil k o N y a n o",
                                     "r e gy u r e e sh o N w a pau sh i sh a t o n o t a t a k a i sil"]
    first, *later = _parts(library, VOTES)
    assert first == "sil t o o hy o o n o t o k I"  # 投票のとき: one accent phrase
    assert [p.split()[0] for p in later] == ["sh", "pau"]
    assert all(len(p.split()) > PART_LABELS for p in later)
    assert _parts(library, "この2枚があなたの両親です。")[0] == "sil k o n o"
    assert _parts(library, "投票結果：けん 5票。")[0] == "sil t o o hy o o k e cl k a"  # the pause starts the next part


@needs_openjtalk
@pytest.mark.parametrize("sentence, parts", [
    ("けん 5票", ["sil k e N g o hy o o", "sil"]),
    ("投票結果：けん 5票、アキ 1票。", ["sil t o o hy o o k e cl k a",
                                "pau k e N g o hy o o pau a k i i cl py o o sil"]),
])
def test_a_name_and_its_count_stay_in_one_part(library, sentence, parts):
    assert _parts(library, sentence) == parts


@needs_openjtalk
def test_every_ja_line_is_cut_only_at_pauses_and_phrase_starts(library):
    from gm.speech.engines.openjtalk_parts import SILENT, _marks, cuts

    sentences = _ja_sentences()
    assert len(sentences) > 100
    for sentence in sentences:
        labels = library.extract_fullcontext(sentence)
        marks = [_marks(label) for label in labels]
        for i in cuts(labels):
            phoneme, word, _, phrase = marks[i]
            assert phoneme in SILENT or phrase != marks[i - 1][3], (sentence, i)  # a new accent phrase
            assert word != "05" or marks[i][2] == "07", sentence  # a count stays with its name


def _noise(labels) -> numpy.ndarray:
    """A stand-in voice: each label renders as 1,200 samples of noise of its own (as HTS's 5 frames of 240)."""
    return numpy.concatenate([numpy.random.default_rng(zlib.crc32(label.encode())).normal(0, 3000, 1200)
                              for label in labels]) if len(labels) else numpy.zeros(0)


@needs_openjtalk
def test_parts_played_one_after_the_other_are_the_whole_sentence(library):
    """With a voice whose every label sounds the same wherever it is, the joined parts of every
    ja sentence are its whole rendering sample for sample: nothing lost, doubled or shifted at a joint."""
    from gm.speech.engines.openjtalk_parts import rendered_parts

    for sentence in [DEAD, VOTES, *_ja_sentences()]:
        labels = library.extract_fullcontext(sentence)
        parts = list(rendered_parts(labels, _noise))
        assert len(parts) >= 2 and numpy.allclose(numpy.concatenate(parts), _noise(labels)), sentence


@needs_openjtalk
def test_a_part_rendered_louder_goes_on_at_the_loudness_of_the_part_before(library):
    from gm.speech.engines.openjtalk_parts import rendered_parts

    labels = library.extract_fullcontext(VOTES)

    def louder_later(part):  # a voice whose parts after the first come out twice as loud
        return _noise(part) * (1.0 if part[0] == labels[0] else 2.0)

    parts = list(rendered_parts(labels, louder_later))
    assert len(parts) >= 2 and numpy.allclose(numpy.concatenate(parts), _noise(labels))


@needs_openjtalk
def test_a_later_sentence_of_a_line_is_cut_in_fewer_parts():
    from gm.speech.engines.openjtalk_parts import cuts

    library = openjtalk._pyopenjtalk()
    labels = library.extract_fullcontext(VOTES)
    assert len(cuts(labels)) == 2  # the line's first sentence: its first phrase, then on to a pause
    assert len(cuts(labels, ahead=12)) == 1  # after a short sentence: on to a pause after 4 × 12 phonemes
    assert cuts(labels, ahead=40) == []  # after a long one it renders whole
    assert cuts(library.extract_fullcontext("けん 5票"), ahead=12) == []  # nor is a short one cut before its end


def _steps(samples: numpy.ndarray) -> numpy.ndarray:
    return numpy.abs(numpy.diff(samples))


def _int16(audio: Audio) -> numpy.ndarray:
    return numpy.frombuffer(audio.samples, dtype="<i2")


def _floats(samples: Samples) -> numpy.ndarray:
    return numpy.asarray(samples.values, dtype=float)


@needs_openjtalk
@pytest.mark.parametrize("rate", [None, 400])
def test_open_jtalk_parts_join_without_clicks_and_last_as_long_as_the_whole(rate):
    from gm.speech.engines.openjtalk_parts import FADE

    engine = openjtalk.Engine(SpeechSettings("ja", rate=rate))
    parts = [_floats(p) for p in engine.render_parts([VOTES])]
    whole = _floats(engine.render(VOTES))
    joined = numpy.concatenate(parts)
    assert len(parts) == 3 and len(parts[0]) < 0.2 * len(whole)
    assert abs(len(joined) - len(whole)) < 0.01 * len(whole)
    assert abs(joined[0]) < 100 and abs(joined[-1]) < 100  # starts and ends at silence
    at = 0
    for part in parts[:-1]:
        at += len(part)  # the next part starts with the crossfade into it
        joint = _steps(joined[at - FADE: at + 2 * FADE])
        around = _steps(numpy.concatenate([joined[at - 6 * FADE: at - FADE], joined[at + 2 * FADE: at + 7 * FADE]]))
        assert joint.max() <= max(around.max(), 100)  # no step where parts meet beyond the voice's own


def _fake_library(calls: list[str]) -> types.SimpleNamespace:
    def extract_fullcontext(text):
        calls.append(f"read {text}")
        return [text]

    def synthesize(labels, speed=1.0):
        calls.append(f"render {labels}")
        return numpy.zeros(2400), 48000

    return types.SimpleNamespace(extract_fullcontext=extract_fullcontext, synthesize=synthesize)


def test_a_speaker_warms_the_voice_once_before_the_first_line_and_a_wav_file_gets_it_whole(monkeypatch, tmp_path):
    calls: list[str] = []
    monkeypatch.setattr(openjtalk, "available", lambda: True)
    monkeypatch.setattr(openjtalk, "_pyopenjtalk", lambda: _fake_library(calls))
    monkeypatch.setattr(openjtalk, "_warm", False)
    for folder in ("a", "b"):
        speaker = open_speech_speaker(SpeechSettings("ja", f"wav:{tmp_path / folder}"), PrintSpeaker(lambda _: None))
        speaker.say(Line("k", "夜が明けました、みなさん。", "よがあけました、みなさん。"))
        speaker.close()
    line = ["read 夜が明けました、みなさん。", "render ['夜が明けました、みなさん。']"]
    assert calls == ["read あ", "render ['あ']", *line, *line]
    tts.Renderer(SpeechSettings("ja")).render("夜")
    assert calls[-2:] == ["read 夜", "render ['夜']"]  # `gm voice say --to` renders at once


FRAMES = 10


class _PartsModule:
    """An engine module whose engine renders a sentence in two parts (FRAMES samples a character, so
    that each part outlasts the loudness stage's look-ahead) and records what it is given."""

    NAME = "parts"

    class Engine:
        reads_kanji = True
        voice = FoundVoice("parts", "parts", "ja")
        given: list[str] = []

        def __init__(self, settings):
            type(self).given = []

        def render(self, text):
            self.given.append(text)
            return Audio(8000, b"\x01\x00" * FRAMES * len(text))

        def render_parts(self, sentences):
            for text in sentences:
                self.given.append(text)
                half = len(text) // 2
                yield from [Audio(8000, b"\x01\x00" * FRAMES * half),
                            Audio(8000, b"\x01\x00" * FRAMES * (len(text) - half))]

        def close(self):
            """Nothing opened."""

        def warm_up(self):
            """Nothing to load."""


def test_an_engine_that_cuts_sentences_itself_gets_them_whole(monkeypatch):
    monkeypatch.setattr(tts, "engine_for", lambda settings: _PartsModule)
    renderer = tts.Renderer(SpeechSettings("ja"))
    text = Pack("ja").text("werewolf.regulation_dead")
    parts = list(renderer.parts(text))
    assert len(parts) >= 2 * len(pieces(text, clauses=False)) - 1  # as rendered, the loudness stage a few ms behind
    assert sum(a.frames for a in parts) == FRAMES * len("".join(pieces(text, clauses=False)))
    assert _PartsModule.Engine.given == pieces(text, clauses=False) == [
        "今夜のレギュレーションは「死者との戦い」。",
        "投票のとき死神が墓地にあれば、墓堀と裏切り者を持つ人が死者陣営です。", "ほかの人は生者陣営です。",
        "生者陣営は墓地に投票したときだけ勝ちます。"]
    assert renderer.render(text).frames == FRAMES * len(text)
