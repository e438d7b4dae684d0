"""The speech engines: which one speaks which language, flite and Open JTalk rendering, pieces,
readings, text too long or with nothing to say, `gm voice list`. WAV files and fakes only."""

from __future__ import annotations

import array
import json
import re
import shutil
import threading
import wave

import pytest
from hypothesis import given, strategies as st
from speech_fakes import RATE, FakeRenderer
from typer.testing import CliRunner

from gm.cli import app
from gm.ports import Line
from gm.speech import tts
from gm.speech.audio import Audio
from gm.speech.engines import flite, flite_library, flite_program, openjtalk, pyttsx3_engine
from gm.speech.notes import Notes
from gm.speech.output import spoken_form, with_readings
from gm.speech.pieces import CLAUSE_CHARS, PIECE_CHARS, NothingToSay, TooLongToSay, check_speakable, pieces
from gm.speech.player import WavSink
from gm.speech.settings import DEFAULT_RATE, SpeechSettings
from gm.speech.speakers import PrintSpeaker, open_speaker
from gm.speech.speaking import SpeechSpeaker
from gm.speech.voices_found import FoundVoice, UnknownVoice, choose_voice

pytestmark = pytest.mark.slow  # renders speech

runner = CliRunner()
needs_flite = pytest.mark.skipif(not flite.available(), reason="flite is not installed (./setup.sh installs it)")
needs_flite_library = pytest.mark.skipif(flite_library.load() is None, reason="libflite1 is not installed (flite's)")
needs_flite_program = pytest.mark.skipif(shutil.which("flite") is None, reason="flite is not installed")
needs_openjtalk = pytest.mark.skipif(not openjtalk.available(),
                                     reason="pyopenjtalk-plus is not installed (gm-card-nights[ja])")


def _machine(monkeypatch, platform="linux", has_flite=True, has_openjtalk=True):
    monkeypatch.setattr(flite.sys, "platform", platform)
    monkeypatch.setattr(flite_program.shutil, "which", lambda name: f"/usr/bin/{name}" if has_flite else None)
    if not has_flite:
        monkeypatch.setattr(flite_library, "load", lambda: None)
    monkeypatch.setattr(flite, "_voice_ids", lambda: ("kal", "slt", "rms"))
    monkeypatch.setattr(openjtalk, "available", lambda: has_openjtalk)


# -- which engine speaks ----------------------------------------------------------------------
@pytest.mark.parametrize("platform, has_flite, has_openjtalk, lang, engine", [
    ("linux", True, True, "en", flite),
    ("linux", False, True, "en", pyttsx3_engine),  # then espeak-ng's en-us
    ("darwin", True, True, "en", pyttsx3_engine),  # macOS and Windows keep their system voices
    ("win32", True, True, "en", pyttsx3_engine),
    ("linux", True, True, "ja", openjtalk),
    ("darwin", False, True, "ja", openjtalk),
    ("linux", True, False, "ja", pyttsx3_engine),  # espeak-ng's kana path
])
def test_each_language_gets_the_best_engine_installed(monkeypatch, platform, has_flite, has_openjtalk, lang, engine):
    _machine(monkeypatch, platform, has_flite, has_openjtalk)
    assert tts.engine_for(SpeechSettings(lang)) is engine


@pytest.mark.parametrize("voice, engine", [("kal", flite), ("rms", flite), ("openjtalk", openjtalk),
                                           ("gmw/en-us", pyttsx3_engine)])
def test_a_voice_picks_the_engine_that_has_it(monkeypatch, voice, engine):
    _machine(monkeypatch)
    assert tts.engine_for(SpeechSettings("en", voice=voice)) is engine


def test_without_flite_english_is_espeaks_american_voice_not_the_british_one():
    found = [FoundVoice("gmw/en", "English (Great Britain)", "en-gb"), FoundVoice("gmw/en-029", "Caribbean", "en-029"),
             FoundVoice("gmw/en-us", "English (America)", "en-us")]
    assert choose_voice(found, "en").id == "gmw/en-us"


def test_voice_list_marks_one_voice_per_language_across_engines(monkeypatch):
    _machine(monkeypatch)
    monkeypatch.setattr(pyttsx3_engine, "voices", lambda: [FoundVoice("gmw/en-us", "English (America)", "en-us"),
                                                           FoundVoice("jpx/ja", "Japanese", "ja")])
    result = runner.invoke(app, ["voice", "list", "--json"])
    assert result.exit_code == 0, result.output
    voices = json.loads(result.stdout)
    assert all(set(v) == {"engine", "id", "name", "tag", "lang", "default"} for v in voices)
    assert {(v["engine"], v["id"]) for v in voices if v["default"]} == {("flite", "rms"), ("openjtalk", "openjtalk")}
    assert [v["id"] for v in voices if v["engine"] == "flite"] == ["rms", "kal", "slt"]
    monkeypatch.setattr(openjtalk, "available", lambda: False)
    voices = json.loads(runner.invoke(app, ["voice", "list", "--lang", "ja", "--json"]).stdout)
    assert [(v["engine"], v["id"], v["default"]) for v in voices] == [("pyttsx3", "jpx/ja", True)]


def test_voice_list_goes_on_without_pyttsx3_and_says_so_once(monkeypatch):
    _machine(monkeypatch)

    def broken():
        raise tts.SpeechUnavailable("voice.no_engine", "no espeak")

    monkeypatch.setattr(pyttsx3_engine, "voices", broken)
    result = runner.invoke(app, ["voice", "list", "--lang", "en", "--json"])
    assert result.exit_code == 0
    assert [v["id"] for v in json.loads(result.stdout)] == ["rms", "kal", "slt"]
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("gm: ")


# -- pieces -----------------------------------------------------------------------------------
def test_a_line_is_cut_at_sentence_ends_in_both_languages():
    assert pieces("Ken: 5 votes. Aki: 1 vote! Who goes? 1.5 minutes left") == [
        "Ken: 5 votes.", "Aki: 1 vote!", "Who goes?", "1.5 minutes left"]
    assert pieces("夜が明けました。みなさん目を開けて、まわりを見てください。") == [
        "夜が明けました。", "みなさん目を開けて、まわりを見てください。"]


def test_a_long_sentence_is_cut_at_commas_and_a_wordless_run_at_the_cap():
    sentence = "Night is over, everybody open your eyes and look around, and then we vote on who the werewolf was."
    assert len(sentence) > CLAUSE_CHARS
    assert pieces(sentence) == ["Night is over,", "everybody open your eyes and look around,",
                                "and then we vote on who the werewolf was."]
    assert [len(p) for p in pieces("あ" * 700)] == [PIECE_CHARS, PIECE_CHARS, 100]


@given(st.text(alphabet="ab1あ .,!?。、", max_size=800))
def test_pieces_keep_every_word_in_order_and_stay_under_the_cap(text):
    parts = pieces(text)
    assert all(0 < len(p) <= PIECE_CHARS for p in parts)
    assert re.sub(r"\W", "", "".join(parts)) == re.sub(r"\W", "", text)


@pytest.mark.parametrize("text, error", [("", NothingToSay), ("  ... !!", NothingToSay), ("、。", NothingToSay),
                                         ("a" * 100_000, TooLongToSay)])
def test_nothing_speakable_or_too_long_is_refused(text, error):
    with pytest.raises(error):
        check_speakable(text)


class _EngineModule:
    """An engine module whose engine records the pieces it is given."""

    NAME = "fake"

    class Engine:
        reads_kanji = False
        voice = FoundVoice("fake", "fake", "en")
        given: list[str] = []

        def __init__(self, settings):
            type(self).given = []

        def render(self, text):
            self.given.append(text)
            return Audio(RATE, b"\x01\x00" * len(text))

        def close(self):
            """Nothing opened."""

        render_parts = None

        def warm_up(self):
            """Nothing to load."""


def test_9000_kana_reach_the_engine_in_capped_pieces_and_come_back_whole(monkeypatch):
    monkeypatch.setattr(tts, "engine_for", lambda settings: _EngineModule)
    text = "いっぴょうです。" * 500 + "あ" * 5000
    audio = tts.Renderer(SpeechSettings("ja")).render(text)
    given = _EngineModule.Engine.given
    assert len(given) == 500 + 17 and max(map(len, given)) <= PIECE_CHARS
    assert audio.frames == len(text)


@pytest.mark.parametrize("text", ["...", "a" * 100_000])
def test_say_refuses_to_write_an_empty_or_endless_wav(tmp_path, text):
    out = tmp_path / "x.wav"
    result = runner.invoke(app, ["voice", "say", text, "--to", str(out)])
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("gm: ")
    assert not out.exists()


@pytest.mark.espeak
def test_a_kanji_name_alone_on_the_kana_path_is_nothing_to_say(pyttsx3_only, tmp_path):
    out = tmp_path / "x.wav"
    result = runner.invoke(app, ["voice", "say", "健", "--lang", "ja", "--to", str(out)])
    assert result.exit_code == 2 and "nothing to say" in result.stderr
    assert not out.exists()


# -- streaming on the loudspeaker -------------------------------------------------------------
class _StreamingSink:
    """A loudspeaker stand-in that records what it plays."""

    realtime = True
    streams = True

    def __init__(self) -> None:
        self.played: list[Audio] = []
        self.first = threading.Event()

    def play(self, audio, key, cut):
        self.played.append(audio)
        self.first.set()
        return not cut.is_set()

    def close(self):
        """Nothing to release."""


def test_the_first_sentence_plays_while_the_next_one_renders():
    sink = _StreamingSink()
    heard_first_before_rendering_second = []

    class Waiting(FakeRenderer):
        def render(self, text):
            if self.rendered:  # a later piece: the first must be playing already
                heard_first_before_rendering_second.append(sink.first.wait(5))
            return super().render(text)

    speaker = SpeechSpeaker(PrintSpeaker(lambda _: None), Waiting, lambda: sink, Notes("en"))
    speaker.say(Line("k", "One two. Three four. Five.", "One two. Three four. Five."))
    speaker.close()
    assert speaker.renderer.rendered == ["One two.", "Three four.", "Five."]
    assert heard_first_before_rendering_second == [True, True]
    assert [a.frames for a in sink.played] == [int(RATE * 0.1 * n) for n in (8, 11, 5)]
    assert len(speaker.spoken) == 1 and speaker.spoken[0].completed


def test_a_wav_file_holds_a_whole_line_of_several_sentences(tmp_path):
    speaker = SpeechSpeaker(PrintSpeaker(lambda _: None), FakeRenderer, lambda: WavSink(tmp_path), Notes("en"))
    speaker.say(Line("k", "One. Two.", "One. Two."))
    speaker.say(Line("blank", "...", "..."))
    speaker.close()
    assert [p.name for p in tmp_path.iterdir()] == ["0001-k.wav"]
    with wave.open(str(tmp_path / "0001-k.wav")) as w:
        assert w.getnframes() == int(RATE * 0.1 * len("One. Two."))


# -- readings ---------------------------------------------------------------------------------
def test_a_players_reading_replaces_the_name_longest_name_first():
    readings = {"健": "けん", "健太": "けんた", "美緒": ""}
    assert with_readings("健太と健に3票、美緒に1票", readings) == "けんたとけんに3票、美緒に1票"
    assert with_readings("健に3票", {}) == "健に3票"


def test_an_engine_that_reads_kanji_gets_the_printed_text_with_readings():
    settings = SpeechSettings("ja", readings={"健": "たける"})
    line = Line("k", "健に3票です。", "たけるに さんぴょう です。")
    assert spoken_form(settings, Notes("ja"), True)(line) == "たけるに3票です。"
    latin = Line("k", "Akiと健", "アキと たける")
    assert spoken_form(settings, Notes("ja"), True)(latin) == "アキとたける"
    assert spoken_form(settings, Notes("ja"), False)(line) == "たけるに さんぴょう です。"
    assert spoken_form(SpeechSettings("en"), Notes("en"), False)(Line("k", "Ken", "Ken.")) == "Ken."


# -- real engines -----------------------------------------------------------------------------
def _peak(audio: Audio) -> int:
    return max(abs(v) for v in array.array("h", audio.samples))


@pytest.fixture(params=["library", "program"])
def flite_path(request, monkeypatch):
    """flite rendering in process (libflite1), or with the `flite` program where the library is missing."""
    if request.param == "library" and flite_library.load() is None:
        pytest.skip("libflite1 is not installed")
    if request.param == "program":
        if shutil.which("flite") is None:
            pytest.skip("flite is not installed")
        monkeypatch.setattr(flite_library, "load", lambda: None)
    return request.param


def test_flite_renders_english_at_the_rate_and_volume_asked(flite_path):
    renders = {}
    for rate, volume in ((100, None), (300, None), (300, 0.2)):
        renderer = tts.Renderer(SpeechSettings("en", rate=rate, volume=volume))
        assert (renderer.engine_name, renderer.voice.id) == ("flite", "rms")
        assert renderer.engine.in_process == (flite_path == "library")
        renders[rate, volume] = renderer.render("Ken: 5 votes. Aki: 6 votes.")
        renderer.close()
    assert renders[100, None].rate == 16000
    assert renders[100, None].seconds > 2 * renders[300, None].seconds
    assert _peak(renders[300, 0.2]) < 0.3 * _peak(renders[300, None])


@pytest.mark.parametrize("installed, default", [(("kal", "slt", "rms", "awb"), "rms"), (("kal", "slt", "awb"), "awb"),
                                                (("kal", "slt"), "slt"), (("mine",), "mine")])
def test_english_is_spoken_in_the_clearest_flite_voice_installed(monkeypatch, installed, default):
    _machine(monkeypatch)
    monkeypatch.setattr(flite, "_voice_ids", lambda: installed)
    assert flite.default_voice() == default and flite.voices()[0].id == default


def test_flite_refuses_a_voice_it_does_not_have(flite_path):
    with pytest.raises(UnknownVoice, match="'nobody'"):
        flite.Engine(SpeechSettings("en", voice="nobody"))


@needs_flite_library
def test_flite_renders_a_short_line_in_process_with_each_voice_registered_once():
    engine = flite.Engine(SpeechSettings("en"))
    audio = engine.render("Ken: 5 votes.")
    engine.close()
    assert engine.in_process and audio.rate == 16000
    assert 0.8 < audio.seconds < 2.5  # four words at 150 words a minute, with the pauses around them
    assert flite_library.load().voice("slt") is flite_library.load().voice("slt")
    assert [v.id for v in flite.voices()] == ["rms", "awb", "kal", "kal16", "slt"]  # libflite1 ships all five


@needs_flite_library
@needs_flite_program
@pytest.mark.parametrize("voice", ["slt", "kal"])
def test_flite_in_process_gives_the_flite_programs_samples(monkeypatch, voice):
    line = "The night is over. Everyone, open your eyes. Ken has five votes and leaves the village."
    settings = SpeechSettings("en", voice=voice, rate=130)
    in_process = [tts.Renderer(settings).render(line) for _ in range(2)]
    monkeypatch.setattr(flite_library, "load", lambda: None)
    program = tts.Renderer(settings).render(line)
    assert in_process[0] == in_process[1] == program and program.seconds > 3


def test_without_flites_library_or_program_there_is_no_flite(monkeypatch):
    monkeypatch.setattr(flite_library, "load", lambda: None)
    monkeypatch.setattr(flite_program.shutil, "which", lambda name: None)
    assert not flite.available() and flite.voices() == []
    with pytest.raises(tts.SpeechUnavailable):
        flite.Engine(SpeechSettings("en"))


def test_without_flites_library_the_flite_program_renders(monkeypatch):
    runs = []

    def fake_flite(command, **kwargs):
        if command == ["flite", "-lv"]:  # which voices it has: the clearest is the default
            return flite_program.subprocess.CompletedProcess(command, 0, "Voices available: kal awb rms slt \n", "")
        runs.append(command)
        out = command[command.index("-o") + 1]
        with wave.open(out, "wb") as w:
            w.setnchannels(1), w.setsampwidth(2), w.setframerate(16000)
            w.writeframes(b"\x10\x00" * 8000)
        return flite_program.subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(flite_library, "load", lambda: None)
    monkeypatch.setattr(flite_program.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(flite_program.subprocess, "run", fake_flite)
    engine = flite.Engine(SpeechSettings("en", rate=85))
    audio = engine.render("Ken: 5 votes.")
    engine.close()
    assert not engine.in_process and (audio.rate, audio.seconds) == (16000, 0.5)
    assert runs == [["flite", "-voice", "rms", "--setf", "duration_stretch=1.729", "-t", "Ken: 5 votes.",
                     "-o", runs[0][-1]]]


@needs_flite
def test_a_rate_is_the_same_pace_in_every_flite_voice():
    """rms speaks slower than slt at its own pace: a rate of words per minute means one pace in all."""
    text = "Then all point at once and the most votes is executed. A second tie lets the werewolf side win."
    seconds = {}
    for voice in flite.NATURAL_WPM:
        engine = flite.Engine(SpeechSettings("en", voice=voice, rate=150))
        seconds[voice] = engine.render(text).seconds
        engine.close()
    assert all(abs(s / seconds["slt"] - 1) < 0.05 for s in seconds.values()), seconds


THREADED_RENDERS = """
import threading
from gm.speech.engines import flite
from gm.speech.settings import SpeechSettings

asked = {("slt", 100): "Ken: 5 votes.", ("slt", 250): "Aki is out.", ("kal", 150): "The night is over.",
         ("rms", 250): "Ken: 5 votes."}
engines = {(voice, rate): flite.Engine(SpeechSettings("en", voice=voice, rate=rate)) for voice, rate in asked}
alone = {key: engines[key].render(text) for key, text in asked.items()}
start = threading.Barrier(2 * len(asked))
wrong = []

def speak(key):
    start.wait()
    for _ in range(5):
        if engines[key].render(asked[key]) != alone[key]:
            wrong.append(key)

threads = [threading.Thread(target=speak, args=(key,)) for key in asked for _ in range(2)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(len(wrong), len({audio.frames for audio in alone.values()}))
"""


@needs_flite_library
def test_flite_renders_correctly_from_many_threads_at_once():
    """Voices keep their rate, and flite its noise, in shared state: each thread gets the very
    samples its engine renders alone. In a process of its own: a thread another test left behind
    drawing from rand() would change flite's noise."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", THREADED_RENDERS], capture_output=True, text=True, timeout=300,
                          check=True)
    assert done.stdout.split() == ["0", "4"]


@needs_flite_library
def test_threads_asking_for_flite_at_once_share_one_library(monkeypatch):
    """One Library, so one lock, whichever thread loads it first."""
    monkeypatch.setattr(flite_library, "_loaded", [])
    start = threading.Barrier(8)
    found = []

    def ask():
        start.wait()
        found.append(flite_library.load())

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 8 and len({id(library) for library in found}) == 1 and found[0] is not None


def _say_to_wav(tmp_path, *args):
    """`gm voice say ARGS --to x.wav --json`: its report and stderr, the WAV checked against the report."""
    out = tmp_path / "x.wav"
    result = runner.invoke(app, ["voice", "say", *args, "--to", str(out), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    with wave.open(str(out)) as w:
        assert w.getnframes() / w.getframerate() == pytest.approx(report["seconds"], abs=0.001)
    return report, result.stderr


@needs_flite
def test_say_writes_a_flite_wav_in_the_voice_asked(tmp_path):
    report, _ = _say_to_wav(tmp_path, "Ken, two votes.", "--voice", "kal")
    assert (report["engine"], report["voice"]) == ("flite", "kal") and report["seconds"] > 0.5


@needs_openjtalk
def test_open_jtalk_reads_the_printed_japanese_at_the_rate_asked(tmp_path):
    report, stderr = _say_to_wav(tmp_path, "健とAkiに3票", "--lang", "ja")
    assert (report["engine"], report["spoken"], report["sample_rate"]) == ("openjtalk", "健とアキに3票", 48000)
    assert report["seconds"] > 1.0 and stderr == ""  # nothing left out, no library chatter
    slow, fast = (tts.Renderer(SpeechSettings("ja", rate=r)).render("夜が明けました。")
                  for r in (DEFAULT_RATE // 2, DEFAULT_RATE))
    assert slow.seconds > 1.5 * fast.seconds


@needs_openjtalk
def test_a_players_reading_wins_over_the_dictionary_in_a_japanese_night(tmp_path):
    import pyopenjtalk

    speaker = open_speaker(SpeechSettings("ja", f"wav:{tmp_path}", readings={"健": "たける"}))
    speaker.say(Line("k", "健に3票です。", "たけるに さんぴょう です。"))
    speaker.close()
    assert speaker.spoken[0].text == "たけるに3票です。"
    assert pyopenjtalk.g2p(speaker.spoken[0].text, kana=True).startswith("タケル")
    assert [p.name for p in tmp_path.iterdir()] == ["0001-k.wav"]


@pytest.mark.espeak
def test_espeak_renders_long_kana_in_pieces_without_crashing(pyttsx3_only):
    renderer = tts.Renderer(SpeechSettings("ja", rate=400))
    audio = renderer.render("あ" * 2 * PIECE_CHARS)
    renderer.close()
    assert renderer.engine_name == "pyttsx3" and audio.seconds > 1.0


def test_the_espeak_driver_s_saved_note_is_dropped_and_every_other_write_kept(tmp_path):
    import io

    out = io.StringIO()
    quiet = pyttsx3_engine._WithoutSavedNote(out, tmp_path / "line.wav")
    for text in ("Night falls.", "\n", f"Audio saved to {tmp_path / 'line.wav'}", "\n", "\n", "Audio saved to x", "\n"):
        quiet.write(text)
    assert out.getvalue() == "Night falls.\n\nAudio saved to x\n"


@pytest.mark.parametrize("text, rate, minutes", [("あ" * 9000, 150, 20), ("ab " * 1500, 80, 8), ("가" * 3000, 150, 8),
                                                 ("漢" * 1200, 150, 6)])
def test_a_text_is_bounded_by_how_long_it_takes_to_say(text, rate, minutes):
    """9,000 kana once took 35 s to render into a 78 MB WAV: refused whole, before any engine."""
    with pytest.raises(TooLongToSay) as refused:
        check_speakable(text, rate)
    assert refused.value.fields == {"minutes": minutes, "most": 5}


@pytest.mark.parametrize("text, rate", [("ab " * 1500, 150), ("あ" * 2000, 150), ("가" * 1900, 400)])
def test_a_text_of_a_few_minutes_is_said(text, rate):
    assert check_speakable(text, rate) == text


@pytest.mark.parametrize("lang, said", [
    ("en", "gm: text too long to say: about 20 minutes of speech (at most 5); say it in parts\n"),
    ("ja", "gm: 長すぎて読み上げられません: 約20分かかります (最大5分)。分けて読み上げてください\n"),
])
def test_voice_say_refuses_a_long_text_in_one_line_writing_nothing(tmp_path, lang, said):
    result = CliRunner().invoke(app, ["voice", "say", "あ" * 9000, "--to", str(tmp_path / "x.wav"), "--lang", lang])
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", said)
    assert list(tmp_path.iterdir()) == []
