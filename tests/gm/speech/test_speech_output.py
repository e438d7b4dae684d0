"""Speaking lines: the WAV sink, the one speaking thread, urgent cuts, fallbacks (no audio hardware)."""

from __future__ import annotations

import sys
import threading
import time
import wave

import pytest
from speech_fakes import RATE, FakeRenderer, fake_sounddevice

from gm.text.lines import Pack
from gm.speech.settings import SpeechSettings
from gm.ports import Line
from gm.speech.speakers import PrintSpeaker, open_speaker
from gm.speech.notes import Notes
from gm.speech.player import BadWavDir, DevicePlayer, WavSink
from gm.speech.speaking import SpeechSpeaker
from gm.speech.tts import Renderer


def _line(key: str, text: str, urgent: bool = False) -> Line:
    return Line(key=key, text=text, spoken=text, urgent=urgent)


def _speaker(tmp_path, pace=0.0, printed=None):
    return SpeechSpeaker(PrintSpeaker((printed if printed is not None else []).append), FakeRenderer,
                         lambda: WavSink(tmp_path, pace=pace), Notes("en"))


def _until_speaking(speaker, tries=20_000):
    """Wait, by count, until the speaking thread plays audio."""
    for _ in range(tries):
        if speaker.speaking:
            return
        time.sleep(0.005)
    raise AssertionError("the speaking thread never started playing")


class HeldSink:
    """A sink whose lines play only once `release` is set: shows what `say` waits for."""

    realtime = False
    streams = False

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started: list[str] = []
        self.finished: list[str] = []

    def play(self, audio, key, cut):
        self.started.append(key)
        self.release.wait(30)
        self.finished.append(key)
        return True

    def close(self) -> None:
        """Nothing to close."""


def _wav(path):
    with wave.open(str(path)) as w:
        return w.getframerate(), w.getnframes() / w.getframerate()


@pytest.mark.espeak
def test_wav_sink_writes_real_speech_whose_length_grows_with_the_text(engine, pyttsx3_only, tmp_path, capsys):
    speaker = open_speaker(SpeechSettings("en", f"wav:{tmp_path}"))
    speaker.say(_line("a", "Night falls."))
    speaker.say(_line("b", "Night falls. Everybody closes their eyes, and the werewolf wakes up and looks."))
    speaker.close()
    assert capsys.readouterr().out.splitlines() == [
        "Night falls.", "Night falls. Everybody closes their eyes, and the werewolf wakes up and looks."]
    short, long = sorted(tmp_path.iterdir())
    assert (short.name, long.name) == ("0001-a.wav", "0002-b.wav")
    (rate_a, secs_a), (rate_b, secs_b) = _wav(short), _wav(long)
    assert rate_a == rate_b == 22050  # espeak-ng renders 22.05 kHz
    assert 0.4 < secs_a < secs_b / 3
    with wave.open(str(long)) as w:
        samples = w.readframes(w.getnframes())
    assert max(samples[1::2]) > 8  # not silence: high bytes of the 16-bit samples move


@pytest.mark.espeak
def test_japanese_speech_is_rendered_by_the_japanese_voice(engine, tmp_path):
    speaker = open_speaker(SpeechSettings("ja", f"wav:{tmp_path}"))
    assert speaker.renderer.voice.lang == "ja"
    speaker.say(Pack("ja").line("voice.sample"))
    speaker.close()
    assert _wav(tmp_path / "0001-voice.sample.wav")[1] > 1.0


def test_wav_files_are_numbered_in_order_after_files_already_there(tmp_path):
    (tmp_path / "0007-old.wav").write_bytes(b"")
    speaker = _speaker(tmp_path)
    for i in range(3):
        speaker.say(_line(f"k{i}", "abc"))
    speaker.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0007-old.wav", "0008-k0.wav", "0009-k1.wav", "0010-k2.wav"]
    assert all(_wav(tmp_path / f"{n:04d}-k{n - 8}.wav") == (RATE, 0.3) for n in (8, 9, 10))


def test_say_never_waits_for_speech():
    printed = []
    sink = HeldSink()
    speaker = SpeechSpeaker(PrintSpeaker(printed.append), FakeRenderer, lambda: sink, Notes("en"))
    for i in range(6):
        speaker.say(_line(f"k{i}", "abcde"))
    assert printed == ["abcde"] * 6  # printed at once while the sink still holds the first line
    assert sink.finished == []
    sink.release.set()
    speaker.close()
    assert sink.finished == [f"k{i}" for i in range(6)]


def test_lines_never_overlap(tmp_path):
    speaker = _speaker(tmp_path, pace=0.1)  # 0.1 s of audio per char plays in 10 ms
    for i in range(6):
        speaker.say(_line(f"k{i}", "abcde"))
    speaker.flush()
    spans = [(s.started, s.ended) for s in speaker.spoken]
    assert len(spans) == 6 and all(s.completed for s in speaker.spoken)
    assert all(end <= next_start for (_, end), (next_start, _) in zip(spans, spans[1:]))
    assert all(end - begin >= 0.045 for begin, end in spans)
    speaker.close()


def test_an_urgent_line_cuts_the_current_one_and_drops_stale_lines(tmp_path):
    speaker = _speaker(tmp_path, pace=0.1)  # a second of audio plays in 0.1 s
    speaker.say(_line("long", "x" * 600))  # 60 s of speech
    speaker.say(_line("stale", "one minute left"))
    _until_speaking(speaker)
    time.sleep(0.1)
    cut_at = time.monotonic()
    speaker.say(_line("up", "time", urgent=True))
    speaker.flush()
    assert not speaker.speaking and speaker.last_spoken_end >= cut_at
    assert [(s.key, s.completed) for s in speaker.spoken] == [("long", False), ("up", True)]
    assert speaker.spoken[1].started >= speaker.spoken[0].ended
    speaker.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0001-long.wav", "0002-up.wav"]
    assert 0.05 < _wav(tmp_path / "0001-long.wav")[1] < 60.0  # only what was heard before the cut


def test_hushed_the_line_playing_is_cut_and_those_waiting_are_dropped(tmp_path):
    speaker = _speaker(tmp_path, pace=0.1)  # a second of audio plays in 0.1 s
    speaker.say(_line("long", "x" * 600))  # 60 s of speech
    speaker.say(_line("next", "one minute left"))
    _until_speaking(speaker)
    speaker.hush()
    speaker.close()  # returns once the cut line has stopped, not after its 60 s
    assert [(s.key, s.completed) for s in speaker.spoken] == [("long", False)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0001-long.wav"]
    assert _wav(tmp_path / "0001-long.wav")[1] < 60.0


def test_urgent_lines_do_not_drop_anything_when_writing_wav_files(tmp_path):
    speaker = _speaker(tmp_path)
    for i in range(5):
        speaker.say(_line(f"k{i}", "abc"))
    speaker.say(_line("up", "time", urgent=True))
    speaker.close()
    assert [s.key for s in speaker.spoken] == ["k0", "k1", "k2", "k3", "k4", "up"]


def test_speaking_and_last_spoken_end_tell_a_listener_when_audio_plays(tmp_path):
    speaker = _speaker(tmp_path, pace=1.0)
    assert speaker.speaking is False and speaker.last_spoken_end == float("-inf")
    said_at = time.monotonic()
    speaker.say(_line("k", "abcd"))  # 0.4 s
    _until_speaking(speaker)
    speaker.flush()
    assert not speaker.speaking and said_at < speaker.last_spoken_end <= time.monotonic()
    speaker.close()
    assert PrintSpeaker().speaking is False and PrintSpeaker().last_spoken_end == float("-inf")


def test_device_player_plays_every_sample_and_stops_when_cut(monkeypatch):
    import numpy

    sd = fake_sounddevice(pace=1.0)
    monkeypatch.setitem(sys.modules, "sounddevice", sd)
    player = DevicePlayer()
    audio = FakeRenderer().render("a")  # 0.1 s
    assert player.play(audio, "k", threading.Event()) is True
    played = numpy.concatenate(sd.OutputStream.played)
    assert (played[: audio.frames] == 16).all() and (played[audio.frames:] == 0).all()
    assert sd.OutputStream.latencies == [0.2]  # PortAudio's default underruns on a busy machine
    sd.OutputStream.played.clear()
    cut = threading.Event()
    threading.Timer(0.05, cut.set).start()
    assert player.play(FakeRenderer().render("x" * 600), "k", cut) is False  # 60 s of audio
    assert 0 < sum(len(b) for b in sd.OutputStream.played) < RATE * 60


@pytest.mark.parametrize("refusals, plays", [(2, True), (3, False)])
def test_a_stream_start_refused_is_tried_again_before_speech_stops(monkeypatch, refusals, plays):
    # PortAudio's "Wait timed out" when a busy machine is slow to start the audio thread: once
    # stopped every line of the night after it (bench/table_nights_bench.py, load ~12)
    sd = fake_sounddevice(pace=0.0)
    monkeypatch.setitem(sys.modules, "sounddevice", sd)
    monkeypatch.setattr("gm.speech.player.START_WAIT", 0.0)
    sd.OutputStream.refusals = refusals
    player = DevicePlayer()
    if plays:
        assert player.play(FakeRenderer().render("a"), "k", threading.Event()) is True
        assert sd.OutputStream.played
    else:
        with pytest.raises(sd.PortAudioError, match="Wait timed out"):
            player.play(FakeRenderer().render("a"), "k", threading.Event())
        assert not sd.OutputStream.played


def test_an_urgent_line_cuts_speech_on_the_loudspeaker(monkeypatch):
    monkeypatch.setitem(sys.modules, "sounddevice", fake_sounddevice(pace=1.0))
    speaker = SpeechSpeaker(PrintSpeaker(lambda _: None), FakeRenderer, DevicePlayer, Notes("en"))
    speaker.say(_line("long", "x" * 600))  # 60 s
    _until_speaking(speaker)
    speaker.say(_line("up", "ab", urgent=True))
    speaker.close()
    assert [(s.key, s.completed) for s in speaker.spoken] == [("long", False), ("up", True)]


class _NoPortAudio:
    """A meta-path finder failing like sounddevice does without libportaudio2."""

    def find_spec(self, name, path=None, target=None):
        if name == "sounddevice":
            raise OSError("PortAudio library not found")
        return None


def _no_pyttsx3(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyttsx3", None)


def _no_espeak(monkeypatch):
    import pyttsx3

    def init(*args, **kwargs):
        raise RuntimeError("This means you probably do not have eSpeak or eSpeak-ng installed!")

    monkeypatch.setattr(pyttsx3, "init", init)


def _no_portaudio(monkeypatch):
    monkeypatch.delitem(sys.modules, "sounddevice", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_NoPortAudio(), *sys.meta_path])


def _no_device(monkeypatch):
    monkeypatch.setitem(sys.modules, "sounddevice", fake_sounddevice(devices=False))


def _says_three_lines_printed_with_one_note(speaker, capsys, note):
    """Three lines said to `speaker` are all printed, and `note` is said once on stderr."""
    for i in range(3):
        speaker.say(_line(f"k{i}", f"line {i}"))
    speaker.close()
    out, err = capsys.readouterr()
    assert out.splitlines() == ["line 0", "line 1", "line 2"]
    assert err.splitlines() == [note]


@pytest.mark.parametrize("break_it, note", [
    (_no_pyttsx3, "pyttsx3 is not installed"),
    (_no_espeak, "no speech engine was found (install espeak-ng)"),
    (_no_portaudio, "the PortAudio library is missing (install libportaudio2)"),
    (_no_device, "there is no sound output device"),
])
def test_without_the_audio_stack_lines_are_printed_with_one_note(monkeypatch, capsys, break_it, note, engine,
                                                                  pyttsx3_only):
    break_it(monkeypatch)
    _says_three_lines_printed_with_one_note(open_speaker(SpeechSettings("en", "on")), capsys,
                                            f"gm: Speech is off: {note}. Lines are printed only.")


def test_a_failing_engine_mid_game_notes_once_and_goes_on_printing(tmp_path, capsys):
    class Broken(FakeRenderer):
        def render(self, text):
            raise RuntimeError("engine crashed")

    speaker = SpeechSpeaker(PrintSpeaker(), Broken, lambda: WavSink(tmp_path), Notes("en"))
    _says_three_lines_printed_with_one_note(speaker, capsys,
                                            "gm: Speech stopped: engine crashed. Lines are printed only.")


def test_a_wav_folder_that_cannot_be_made_is_bad_input(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(BadWavDir, match="file"):
        WavSink(tmp_path / "file" / "sub")
    with pytest.raises(BadWavDir, match="needs a folder"):
        WavSink("")


@pytest.mark.espeak
def test_a_whole_japanese_session_leaves_one_wav_per_spoken_line(engine, pyttsx3_only, tmp_path, capsys):
    pack = Pack("ja", readings={"健": "けん", "美緒": "みお"})
    lines = [pack.line("voice.sample"), pack.line("common.did_not_understand", choices=["健", "Aki", "美緒"]),
             pack.line("voice.found", n=3), pack.line("common.graveyard", urgent=True), pack.line("common.yes")]
    speaker = open_speaker(SpeechSettings("ja", f"wav:{tmp_path}"))
    for line in lines:
        speaker.say(line)
    speaker.close()
    assert capsys.readouterr().out.splitlines() == [line.text for line in lines]
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [f"{i:04d}-{line.key}.wav" for i, line in enumerate(lines, 1)]
    assert all(_wav(tmp_path / name)[1] > 0.2 for name in files)
    assert speaker.spoken[1].text == "すみません、ききとれませんでした。けん、アキ、みお のどれかで こたえてください。"


@pytest.mark.espeak
def test_rate_and_volume_reach_the_engine(engine, pyttsx3_only):
    import array

    text = "Everybody close your eyes."
    renders = {}
    for rate, volume in ((100, 1.0), (300, 1.0), (300, 0.2)):
        renderer = Renderer(SpeechSettings("en", rate=rate, volume=volume))
        renders[rate, volume] = renderer.render(text)
        renderer.close()
    assert renders[100, 1.0].seconds > 2 * renders[300, 1.0].seconds

    def peak(audio):
        return max(abs(v) for v in array.array("h", audio.samples))

    assert peak(renders[300, 0.2]) < 0.5 * peak(renders[300, 1.0])


@pytest.mark.espeak
def test_no_voice_for_the_language_prints_with_one_note(engine, pyttsx3_only, monkeypatch, tmp_path, capsys):
    from gm.speech.engines import pyttsx3_engine

    # a machine with no ja voice
    monkeypatch.setattr(pyttsx3_engine, "choose_voice", lambda voices, lang, override=None: None)
    speaker = open_speaker(SpeechSettings("ja", f"wav:{tmp_path}"))
    speaker.say(_line("k", "はい"))
    speaker.close()
    out, err = capsys.readouterr()
    assert out == "はい\n" and err.startswith("gm: 音声はオフです: この言語の声がありません")
    assert not list(tmp_path.iterdir())


@pytest.mark.espeak
def test_a_wav_folder_that_is_a_file_is_bad_input_before_anything_is_said(engine, tmp_path):
    (tmp_path / "taken").write_text("x")
    with pytest.raises(BadWavDir, match="taken"):
        open_speaker(SpeechSettings("en", f"wav:{tmp_path / 'taken'}"))


# -- the next line rendered while one plays ----------------------------------------------------
class GatedSink:
    """A loudspeaker stand-in whose line `key` plays until `gates[key]` is set (or the line is
    cut); a line without a gate plays at once. Records each part's key as it starts and ends."""

    realtime = True
    streams = True

    def __init__(self, *gated: str) -> None:
        self.gates = {key: threading.Event() for key in gated}
        self.started: list[str] = []
        self.finished: list[str] = []
        self.playing = {key: threading.Event() for key in gated}

    def play(self, audio, key, cut):
        self.started.append(key)
        if key in self.gates:
            self.playing[key].set()
            while not (self.gates[key].wait(0.01) or cut.is_set()):
                continue
        self.finished.append(key)
        return not cut.is_set()

    def close(self) -> None:
        """Nothing to close."""


class SignallingRenderer(FakeRenderer):
    """A FakeRenderer that sets `done[text]` once it has rendered `text`."""

    def __init__(self) -> None:
        super().__init__()
        self.done: dict[str, threading.Event] = {}

    def render(self, text):
        audio = super().render(text)
        self.done.setdefault(text, threading.Event()).set()
        return audio

    def rendered_event(self, text) -> threading.Event:
        return self.done.setdefault(text, threading.Event())


def _gated_speaker(sink, renderer=None, printer=None):
    renderer = renderer or SignallingRenderer()
    return SpeechSpeaker(printer or PrintSpeaker(lambda _: None), lambda: renderer, lambda: sink, Notes("en")), renderer


def test_the_next_line_is_rendered_while_the_line_before_it_plays():
    sink = GatedSink("sorry")
    speaker, renderer = _gated_speaker(sink)
    speaker.say(_line("sorry", "Sorry, I did not catch that."))
    speaker.say(_line("prompt", "Kate?"))
    assert renderer.rendered_event("Kate?").wait(30) and sink.playing["sorry"].wait(30)
    assert sink.finished == [] and speaker.speaking
    sink.gates["sorry"].set()
    speaker.close()
    assert sink.finished == ["sorry", "sorry", "prompt"]  # "Sorry," then "I did not catch that."
    assert [(s.key, s.completed) for s in speaker.spoken] == [("sorry", True), ("prompt", True)]


def test_lines_rendered_ahead_play_in_the_order_said_part_by_part():
    sink = GatedSink()
    speaker, renderer = _gated_speaker(sink)
    texts = {"a": "One. Two.", "b": "Three.", "c": "Four. Five. Six.", "d": "Seven."}
    for key, text in texts.items():
        speaker.say(_line(key, text))
    speaker.close()
    assert renderer.rendered == ["One.", "Two.", "Three.", "Four.", "Five.", "Six.", "Seven."]
    assert sink.started == ["a", "a", "b", "c", "c", "c", "d"]
    assert [s.key for s in speaker.spoken] == list(texts)


def test_no_more_than_one_line_is_rendered_ahead_of_the_line_playing():
    sink = GatedSink("a")
    speaker, renderer = _gated_speaker(sink)
    for key in "abcd":
        speaker.say(_line(key, key))
    assert renderer.rendered_event("b").wait(30) and sink.playing["a"].wait(30)
    speaker.say(_line("e", "e"))  # wakes the renderer: it must still wait for "a" to end
    assert renderer.rendered == ["a", "b"]
    sink.gates["a"].set()
    speaker.close()
    assert renderer.rendered == list("abcde") and sink.finished == list("abcde")


def test_an_urgent_line_drops_the_lines_rendered_ahead():
    sink = GatedSink("long")
    speaker, renderer = _gated_speaker(sink)
    speaker.say(_line("long", "x" * 60))
    speaker.say(_line("stale", "one minute left"))
    assert renderer.rendered_event("one minute left").wait(30) and sink.playing["long"].wait(30)
    speaker.say(_line("up", "time", urgent=True))
    speaker.close()
    assert "one minute left" in renderer.rendered and sink.started == ["long", "up"]
    assert [(s.key, s.completed) for s in speaker.spoken] == [("long", False), ("up", True)]


def test_flush_waits_for_a_line_rendered_ahead_to_play():
    sink = GatedSink("a", "b")
    speaker, renderer = _gated_speaker(sink)
    speaker.say(_line("a", "a"))
    speaker.say(_line("b", "b"))
    assert renderer.rendered_event("b").wait(30)
    flushed = threading.Event()
    flusher = threading.Thread(target=lambda: (speaker.flush(), flushed.set()))
    flusher.start()
    sink.gates["a"].set()
    assert sink.playing["b"].wait(30)
    assert not flushed.is_set()  # "b" is rendered, but still playing
    sink.gates["b"].set()
    flusher.join(30)
    assert flushed.is_set() and sink.finished == ["a", "b"]
    speaker.close()


def test_an_engine_failing_while_rendering_ahead_notes_once_and_goes_on_printing(capsys):
    sink = GatedSink("k0")

    class FailsAtSecond(SignallingRenderer):
        def render(self, text):
            if text == "line 1":
                assert sink.playing["k0"].wait(30)
                sink.gates["k0"].set()  # line 0, playing, plays on to its end
                raise RuntimeError("engine crashed")
            return super().render(text)

    speaker, _ = _gated_speaker(sink, FailsAtSecond(), PrintSpeaker())
    _says_three_lines_printed_with_one_note(speaker, capsys,
                                            "gm: Speech stopped: engine crashed. Lines are printed only.")
    assert sink.finished == ["k0"] and [(s.key, s.completed) for s in speaker.spoken] == [("k0", True)]


def test_a_device_failing_drops_the_line_rendered_ahead_with_one_note(capsys):
    class Broken(GatedSink):
        def play(self, audio, key, cut):
            super().play(audio, key, cut)
            raise RuntimeError("device gone")

    sink = Broken()
    speaker, renderer = _gated_speaker(sink, printer=PrintSpeaker())
    _says_three_lines_printed_with_one_note(speaker, capsys,
                                            "gm: Speech stopped: device gone. Lines are printed only.")
    assert sink.started == ["k0"] and not speaker.speaking and speaker.spoken == []
