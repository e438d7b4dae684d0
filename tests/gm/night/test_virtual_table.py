"""Whole nights by voice through a real microphone path: a private PulseAudio whose FIFO is gm's
microphone (`--device pulse`) and whose null sink is its loudspeaker, fed in real time by a
scripted table over a continuous room-noise bed (bench/virtual_table.py)."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from fakes import FAST
from gm.cli import app
from gm.commands.options import input_device
from virtual_table import (
    NIGHT_TIMEOUT, Microphone, PulseRoom, SpeakerWatch, Table, english_night, gm_command, gm_env, japanese_night,
    pulseaudio_missing, render, Voice,
)

SNR_DB = 20  # the table's speech over the room's pink noise
RATE = 300  # words a minute gm speaks at: what is heard is the table, and the night is a fifth shorter


@pytest.fixture
def room(tmp_path):
    """A running virtual room (skipped, saying why, where PulseAudio is not installed)."""
    missing = pulseaudio_missing()
    if missing:
        pytest.skip(f"no virtual table: {missing}")
    folder = tmp_path / "room"
    folder.mkdir()
    with PulseRoom(folder) as started, Microphone(started.fifo, snr_db=SNR_DB, seed=7) as microphone, \
            SpeakerWatch(started.env) as watch:
        yield started, microphone, watch


# -- picking the microphone ------------------------------------------------------------------------
@pytest.mark.parametrize(("given", "device"), [
    (None, None), ("", None), ("  ", None), ("3", 3), ("３", 3), (" 12 ", 12), ("pulse", "pulse"),
    ("USB Audio", "USB Audio"), ("٣", "٣")])
def test_device_is_an_index_or_a_name(given, device):
    assert input_device(given) == device


def test_a_night_with_a_microphone_that_is_not_there_is_typed(tmp_path):
    """An input device that does not exist: one note, and the keyboard answers (as with no microphone)."""
    answers = "\n\n\n\n" + "3\n1\n" + "\n" + "werewolf traitor\n"
    result = CliRunner().invoke(app, [
        "werewolf", "play", "--players", "Aki,Ken,Mio,Sora", *FAST, "--speech", "off",
        "--device", "no such microphone", "--log", str(tmp_path / "night.jsonl")], input=answers)
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stderr.splitlines() if "not listening" in line]
    assert len(notes) == 1 and notes[0].startswith("gm: not listening: ")


def test_voice_check_refuses_an_input_device_index_that_is_not_there():
    result = subprocess.run([sys.executable, "-m", "gm", "voice", "check", "--device", "999"],
                            capture_output=True, text=True, timeout=120, env=gm_env({}), stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1


# -- the virtual table -------------------------------------------------------------------------------
@pytest.mark.slow
def test_voice_check_hears_the_room(room, tmp_path):
    """`gm voice check --device pulse` lists the room's microphone and hears "three" said into it.
    It names pocketsphinx, as the English night below does: English's own listener, Whisper,
    transcribes freely here (no question is asked), and wrote flite's "three" as "free" in one
    run of two."""
    pulse, microphone, _ = room
    three = render("three", Voice("flite", "slt"), tmp_path)
    check = subprocess.Popen([sys.executable, "-m", "gm", "voice", "check", "--device", "pulse", "--seconds", "5",
                              "--listener", "pocketsphinx"],
                             env=gm_env(pulse.env), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             stdin=subprocess.DEVNULL)
    try:
        for _ in range(600):  # until it records (at most a minute)
            line = check.stdout.readline()
            if not line or line.startswith("recording"):
                break
        time.sleep(0.5)
        microphone.say(three)
        out, err = check.communicate(timeout=120)
    finally:
        if check.poll() is None:
            check.kill()
            check.wait(30)
    assert check.returncode == 0, err
    assert "heard: three" in out and out.splitlines()[-1] == "answer: 3"


JA_NIGHT_SECONDS = 1200.0  # real seconds the Japanese night may take (NIGHT_TIMEOUT for the English one)


def night_cases():
    """One short night per case; a case is a Script (bench/virtual_table.py) and what it needs."""
    return [
        pytest.param(functools.partial(english_night, "pocketsphinx"), id="en-pocketsphinx"),
        pytest.param(japanese_night, id="ja-whisper"),
    ]


@pytest.mark.slow
@pytest.mark.parametrize("script", night_cases())
def test_a_whole_night_by_voice_through_the_microphone(room, tmp_path, script):
    """One short night, every answer said by the table into the microphone and heard by gm: no
    keyboard, no default; the right vote and verdict. Bounded by the cues answered, and killed
    after NIGHT_TIMEOUT (the Japanese night: JA_NIGHT_SECONDS) if gm hangs."""
    pulse, microphone, watch = room
    night_script = script()
    timeout = JA_NIGHT_SECONDS if night_script.lang == "ja" else NIGHT_TIMEOUT
    night = Table(pulse, microphone, watch, night_script, tmp_path, timeout=timeout,
                  command=functools.partial(gm_command, extra=("--rate", str(RATE)))).play()
    trail = f"table said: {night.said}\ngm said:\n{night.stdout[-3000:]}\n{night.stderr[-1000:]}"
    assert night.exit_code == 0, trail
    assert night.answers and {a["by"] for a in night.answers} == {"voice"}, trail
    assert night.vote == night_script.counts, trail
    verdict = night.verdict
    assert verdict is not None, trail
    assert (verdict["executed"], verdict["winning_side"], verdict["winners"]) == (
        night_script.executed, "villagers", night_script.winners), trail


def test_a_question_read_from_the_output_before_its_log_line_is_still_a_cue(tmp_path):
    """gm logs a question, then says it; the table reads the log, then the output: a question
    logged and said between those two reads was read as a line that was no cue, and the table
    never answered it (the lay-down step of two held-out nights)."""
    import json

    from virtual_table import Cues

    log, out = tmp_path / "night.jsonl", tmp_path / "gm.out"
    log.write_text("")
    out.write_text("Shuffle your two cards and lay them face down.\n")
    cues = Cues(log, out, "en")
    assert cues.new() == []
    event = {"t": 1.0, "type": "question", "key": "werewolf.lay_down",
             "text": "Shuffle your two cards and lay them face down."}
    log.write_text(json.dumps(event) + "\n")
    assert cues.new() == [event]
    assert cues.new() == []


def test_a_cue_read_late_is_known_to_have_been_said_when_gm_wrote_it(tmp_path):
    """The table read "The graveyard?" after its own answer had ended, gm's line already over, and
    waited 10 s for it to start: gm asked again, and again (seed 5004, night 13). The cue's time is
    when gm wrote it."""
    import time

    from virtual_table import Cues

    log, out = tmp_path / "night.jsonl", tmp_path / "gm.out"
    log.write_text("")
    out.write_text("")
    cues = Cues(log, out, "en")
    assert cues.new() == []
    out.write_text("Sorry, I did not catch that.\n")
    written = time.time() - 5.0
    os.utime(out, (written, written))
    assert [c["type"] for c in cues.new()] == ["again"]
    assert cues.written() < time.monotonic() - 4.0


@pytest.mark.parametrize(("script", "read_back", "said"), [
    (english_night, "No. Is that right?", "yes"),
    (english_night, "Yes. Is that right?", "no"),
    (english_night, "Mike: Werewolf and Seer. Is that right?", "yes"),
    (english_night, "Noah: Werewolf and Seer. Is that right?", "yes"),
    (japanese_night, "いいえ。いいですか？", "はい"),
    (japanese_night, "はい。いいですか？", "いいえ"),
])
def test_the_table_confirms_its_own_no_read_back_and_only_what_it_said(script, read_back, said):
    """Asked for another night, the table says no; gm read back "No. Is that right?" and the table
    said no to it again and again, so that a Japanese night by voice never ended. Its hand is
    confirmed as before, and a "yes" it never said is not."""
    event = {"type": "readback", "key": "werewolf.evening.again", "text": read_back}
    night_script = script()
    if "Seer" in read_back:
        event["key"] = "werewolf.reveal.ask_hand"
    assert night_script.reply(event, {}) == said


@pytest.mark.parametrize(("script", "asked", "said"), [
    (english_night, "Werewolf, and the other card?", "seer"),
    (english_night, "Villager, and the other card?", "werewolf seer"),
    (japanese_night, "人狼と、もう1枚は？", "占い師"),
])
def test_asked_for_the_rest_of_its_hand_the_table_says_the_other_card_or_the_whole_hand(
        tmp_path, script, asked, said):
    """gm asks for a hand's other card where it heard one alone; the table names the other card,
    or its whole hand where gm named a card it does not hold."""
    from virtual_table import Cues

    log, out = tmp_path / "night.jsonl", tmp_path / "gm.out"
    log.write_text("")
    out.write_text(asked + "\n")
    cues = Cues(log, out, script().lang).new()
    assert [cue["type"] for cue in cues] == ["rest"]
    assert script().reply(cues[0], {}) == said


def test_asked_for_yes_or_no_the_table_says_its_last_answer_plainly(tmp_path):
    """gm asks "Yes or no, please?" where it heard only its own question's last word: the table says
    its last answer again, as a plain yes or no (its habits, "right" among them, left aside)."""
    import table_nights_bench
    from virtual_table import Cues

    log, out = tmp_path / "night.jsonl", tmp_path / "gm.out"
    log.write_text("")
    out.write_text("Yes or no, please?\n")
    [cue] = Cues(log, out, "en").new()
    assert cue["type"] == "again" and cue["plain"]
    table = table_nights_bench.HeldOutScript(**vars(english_night()), seed=1, talk_over=[False])
    read_back = {"type": "readback", "key": "werewolf.reveal.ask_hand", "text": "Mike: Werewolf and Seer. Right?"}
    assert {table.reply({**read_back, "plain": True}, {}) for _ in range(20)} == {"yes"}
    assert len({table.reply(read_back, {}) for _ in range(20)}) > 1


@pytest.mark.parametrize("script, asked", [(english_night, "Are you all set?"), (japanese_night, "終わりましたか？")])
def test_asked_whether_it_is_done_the_table_says_yes(tmp_path, script, asked):
    """gm asks whether the table is done where it heard a yes at the deal: the table has dealt."""
    from virtual_table import Cues

    log, out = tmp_path / "night.jsonl", tmp_path / "gm.out"
    log.write_text("")
    out.write_text(asked + "\n")
    [cue] = Cues(log, out, script().lang).new()
    assert cue["type"] == "done_yet" and script().reply(cue, {}) == script().words["yes"]


@pytest.mark.espeak
def test_a_japanese_votes_lines_are_timed_as_gm_says_them(tmp_path):
    """The bench times a vote's lines as gm says them: Japanese by Open JTalk, gm's Japanese voice,
    not by espeak-ng, which reads kanji one by one (「すみません、聞き取れませんでした。」 6.0 s)."""
    from gm.speech.engines import openjtalk

    if not openjtalk.available():
        pytest.skip("pyopenjtalk-plus is not installed (gm-card-nights[ja])")
    import table_nights_bench
    from spoken_length_bench import rendered_seconds

    line = "すみません、聞き取れませんでした。"
    said = table_nights_bench.said_seconds(line, "ja", tmp_path)
    assert 2.0 < said < 4.0 < rendered_seconds(line, "ja", tmp_path)
    assert table_nights_bench.said_seconds("Sorry, I didn't catch that.", "en", tmp_path) == rendered_seconds(
        "Sorry, I didn't catch that.", "en", tmp_path)


@pytest.mark.parametrize(("script", "read_back", "said"), [
    (japanese_night, "アキ 1票、ケン 2票、墓地 1票、ほかは0票ですね？", "はい"),
    (japanese_night, "アキ 1票、ケン 1票、墓地 1票、ほかは0票ですね？", "いいえ"),
    (english_night, "Alice 1, Mike 2, the graveyard 1, nobody else. Right?", "yes"),
    (english_night, "Alice 1, Mike 2, nobody else. Right?", "no"),
])
def test_a_fix_read_back_as_the_tally_it_makes_is_confirmed_only_where_the_tally_is_right(
        tmp_path, script, read_back, said):
    """gm reads a fix heard unsure back as the tally it makes; the Japanese table took that line
    for no cue and said nothing, three times, and the keyboard took the fix gm had heard right
    (seed 4808, night 2). Asked which count is wrong, the table says yes to the tally read back
    where every count is its own, else no."""
    import json

    from virtual_table import Cues

    log, out = tmp_path / "night.jsonl", tmp_path / "gm.out"
    which = {"t": 1.0, "type": "question", "key": "werewolf.vote.which", "text": "Which count is wrong?"}
    log.write_text(json.dumps(which) + "\n")
    out.write_text(f"{which['text']}\n{read_back}\n")
    cues = Cues(log, out, script().lang).new()
    assert [cue["type"] for cue in cues] == ["question", "readback"]
    assert script().reply(cues[1], {}) == said
