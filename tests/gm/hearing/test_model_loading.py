"""The speech model loads in the background while the night's first lines are spoken: the first
question waits only if it is still loading; a model that fails to load leaves the keyboard."""

import io
import threading

import pytest

from fakes import FakeClock, FakeSpeaker
from gm.hearing.keyboard import KeyboardAsker
from gm.hearing.cannot_listen import NoModel
from gm.hearing.models import default_model
from gm.hearing.listening import PendingAsker, PendingControls, ListeningAsker, open_asker, open_controls
from gm.ports import Line
from gm.table.questions import Table
from gm.text.lines import Pack
from paths import FIXTURES

DONE = Table(Pack("en")).step("werewolf.lay_down")


class Answering:
    def __init__(self, answer):
        self.answer = answer
        self.closed = False

    def ask(self, question):
        return self.answer

    def close(self):
        self.closed = True


def test_the_first_question_waits_for_a_model_still_loading_and_lines_go_on_meanwhile():
    loading, events = threading.Event(), []

    def load():
        loading.wait()
        events.append("loaded")
        return "model"

    def listening(model):
        events.append(f"listening with {model}")
        return Answering("done")

    asker = PendingAsker(load, listening, lambda error: None, NoModel)
    events.append("first line spoken")  # the night goes on while the model loads
    loading.set()
    assert asker.ask(DONE) == "done" and asker.ask(DONE) == "done"
    assert events == ["first line spoken", "loaded", "listening with model"]  # built once
    asker.close()
    assert asker.ready().closed


def test_a_night_closed_before_its_first_question_does_not_wait_for_the_model():
    loading, discarded = threading.Event(), []
    asker = PendingAsker(loading.wait, lambda model: pytest.fail("not built at close"), lambda error: None, NoModel,
                         discard=lambda: discarded.append("source closed"))
    asker.close()
    assert discarded == ["source closed"]
    loading.set()


def test_a_model_that_fails_to_load_leaves_the_keyboard_with_one_note():
    notes = []

    def load():
        raise NoModel("vosk could not load the speech model in '/m'")

    def typing(error):
        notes.append(str(error))
        return Answering("typed")

    asker = PendingAsker(load, lambda model: pytest.fail("no model to listen with"), typing, NoModel)
    assert asker.ask(DONE) == "typed" and asker.ask(DONE) == "typed"
    assert notes == ["vosk could not load the speech model in '/m'"]


def test_a_bug_while_loading_is_raised_in_the_night_not_swallowed():
    def load():
        raise KeyError("bug")

    asker = PendingAsker(load, lambda model: None, lambda error: None, NoModel)
    with pytest.raises(KeyError, match="bug"):
        asker.ask(DONE)


class Keys:
    def __init__(self):
        self.polls = 0
        self.released = False

    def poll(self, timeout):
        self.polls += 1
        return "pause"

    def release(self):
        self.released = True


def test_voice_controls_are_decided_at_the_first_poll():
    clock = FakeClock()
    keyboard = KeyboardAsker(clock, io.StringIO())
    pending = PendingAsker(lambda: None, lambda model: keyboard, lambda error: None, NoModel)
    keys = Keys()
    controls = open_controls(pending, clock, keys)
    assert isinstance(controls, PendingControls)
    controls.release()
    assert keys.released  # before the first poll: the keyboard's controls
    assert controls.poll(1.0) == "pause" and keys.polls == 1  # a keyboard asker: the keys alone
    quiet = open_controls(PendingAsker(lambda: None, lambda model: keyboard, lambda error: None, NoModel), clock, None)
    assert quiet.poll(2.0) is None and clock.now() == 2.0


@pytest.mark.vosk_model
def test_a_korean_night_listens_without_vosk_model_and_loads_in_the_background(monkeypatch):
    if default_model("ko") is None:
        pytest.skip("the Korean vosk model is not installed (./setup.sh --test)")
    monkeypatch.delenv("GM_VOSK_MODEL", raising=False)
    notes, clock = [], FakeClock()
    recording = FIXTURES / "listen_ko" / "minsu.wav"
    speaker = FakeSpeaker()
    asker = open_asker(str(recording), clock, speaker, Pack("ko"), stream=io.StringIO(), note=notes.append,
                       background=True)
    assert isinstance(asker, PendingAsker)
    speaker.say(Pack("ko").line("werewolf.morning"))
    vote = Table(Pack("ko")).choice("vote", ("민수",), prompt=Line("vote", "누구?", ""))
    assert asker.ask(vote).value == "민수"  # heard by the model the ko extra installs
    assert isinstance(asker.ready(), ListeningAsker) and notes == []
    assert speaker.texts() == ["아침입니다. 모두 자기 카드 두 장을 확인해 주세요."]
    asker.close()
