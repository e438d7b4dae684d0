"""The discussion timer on a fake clock: cues against the end time, keys, Ctrl-C."""

import pytest

from fakes import FakeClock
from gm.text.lines import Pack
from gm.night.terminal import big_time
from gm.night.timer import Discussion, cue_marks

from fakes import RecordingDisplay, RecordingSpeaker, ScriptedControls


def _run(seconds, events=(), lang="en", on_interrupt=None):
    clock = FakeClock()
    speaker = RecordingSpeaker(clock)
    display = RecordingDisplay()
    controls = ScriptedControls(clock, events) if events is not None else None
    discussion = Discussion(seconds, clock, speaker.say, Pack(lang).line, controls, display, on_interrupt)
    return discussion.run(), speaker, display, clock


def test_cue_marks_for_three_minutes():
    assert cue_marks(180) == [120, 60, 30, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert cue_marks(45) == [30, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert cue_marks(5) == [4, 3, 2, 1]


@pytest.mark.parametrize("controls", [(), None])
def test_three_minutes_say_each_cue_on_time(controls):
    result, speaker, display, clock = _run(180, controls)
    assert result.how == "time_up"
    assert clock.now() == pytest.approx(180)
    said = list(zip(speaker.keys, speaker.times))
    assert said[:3] == [("werewolf.timer.left", 60.0), ("werewolf.timer.left", 120.0), ("werewolf.timer.left", 150.0)]
    counts = [(line.text, t) for line, t in zip(speaker.lines, speaker.times) if line.key == "werewolf.timer.count"]
    assert counts == [(str(n), 180.0 - n) for n in range(10, 0, -1)]
    assert speaker.lines[-1].key == "werewolf.timer.up" and speaker.lines[-1].urgent
    assert speaker.times[-1] == 180.0
    assert [line.text for line in speaker.lines[:3]] == ["2 minutes left.", "1 minute left.", "30 seconds left."]
    assert display.shown[0] == (180.0, False) and display.closed == 1


def test_pause_stops_the_clock_and_resume_keeps_the_schedule():
    result, speaker, _, clock = _run(60, [(10, "pause"), (40, "resume")])
    assert result.pauses == 1
    assert clock.now() == pytest.approx(90)
    warning = speaker.times[speaker.keys.index("werewolf.timer.left")]
    assert warning == pytest.approx(60)  # 30 s left: 10 s before the pause + 20 s after it


def test_toggle_pauses_then_resumes():
    result, speaker, _, clock = _run(20, [(5, "toggle"), (8, "toggle")])
    assert "werewolf.timer.paused" in speaker.keys and "werewolf.timer.resumed" in speaker.keys
    assert clock.now() == pytest.approx(23)


def test_add_thirty_seconds_rearms_the_warnings():
    result, speaker, _, clock = _run(60, [(35, "add")])
    assert result.added == 30 and clock.now() == pytest.approx(90)
    assert speaker.keys.count("werewolf.timer.left") == 2  # 30 s left said at 30, and again at 60
    assert speaker.lines[speaker.keys.index("werewolf.timer.added")].text == "30 seconds more."


def test_end_now_goes_to_the_vote():
    result, speaker, _, clock = _run(180, [(42, "end")])
    assert result.how == "ended" and clock.now() == 42
    assert speaker.keys[-1] == "werewolf.timer.ended"


def test_repeat_says_the_time_left_now_after_a_time_cue():
    _, speaker, _, _ = _run(60, [(35, "repeat")])
    first = speaker.keys.index("werewolf.timer.left")
    assert [line.text for line in speaker.lines[first:first + 2]] == ["30 seconds left.", "25 seconds left."]


@pytest.mark.parametrize("events, left", [([(5, "add"), (7, "repeat")], 83),
                                          ([(5, "pause"), (6, "resume"), (7, "repeat")], 54)])
def test_repeat_after_an_acknowledgement_says_the_instruction_not_the_acknowledgement(events, left):
    # "30 seconds more." after +, "Go on." after a resume: r says the day's instruction again, with
    # the time left now
    clock = FakeClock()
    speaker = RecordingSpeaker(clock)
    pack = Pack("en")
    discussion = Discussion(60, clock, speaker.say, pack.line, ScriptedControls(clock, events), RecordingDisplay())
    discussion.say(pack.line("werewolf.day", secs=60))
    discussion.run()
    acknowledgements = ("werewolf.timer.added", "werewolf.timer.resumed")
    acknowledged = max(i for i, key in enumerate(speaker.keys) if key in acknowledgements)
    assert speaker.lines[acknowledged + 1] == pack.line("werewolf.day", secs=left)


def test_ctrl_c_pauses_and_asks_then_votes_now():
    asked = []
    result, speaker, _, clock = _run(180, [(50, "interrupt")], on_interrupt=lambda: asked.append(1) or "vote")
    assert asked == [1] and result.how == "ended" and result.pauses == 1 and clock.now() == 50


def test_ctrl_c_then_resume_carries_on():
    result, _, _, clock = _run(30, [(10, "interrupt")], on_interrupt=lambda: "resume")
    assert result.how == "time_up" and clock.now() == pytest.approx(30)


def test_japanese_cues_speak_kana():
    _, speaker, _, _ = _run(180, lang="ja")
    first = speaker.lines[0]
    assert first.text == "残り2分です。" and first.spoken == "のこりにふんです。"
    count = [line for line in speaker.lines if line.key == "werewolf.timer.count"][0]
    assert count.text == "10" and count.spoken == "じゅう"


def test_big_time_draws_minutes_and_seconds():
    rows = big_time(179.2).splitlines()
    assert len(rows) == 5
    assert rows[0] == "███       ███  ███"  # 3:00: 179.2 s rounds up
