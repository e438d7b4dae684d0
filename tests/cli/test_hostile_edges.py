"""What a user can hand gm at its edges and still get exit code 0 or 2, one line, no hang, nothing lost:
dangling links, FIFOs, a damaged match index, files that never were journals, closed standard
streams, lone surrogates and escape sequences, numbers out of range, a full disk, Ctrl-C at the
start of the discussion.

A command that once hung runs in a subprocess; its `timeout=` is only a safety net, the test
asserts on what it printed and its exit code.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fakes import FAST, FakeClock, RecordingDisplay, RecordingSpeaker, ScriptedControls
from gm.cli import app
from gm.score.entry import new_match
from gm.score.journal import Journal
from gm.score.matches import ENTRY_FIELDS, index_path
from gm.text.lines import Pack

GM = [sys.executable, "-m", "gm"]
SAFETY_NET = 120  # seconds; a regression fails on its output long before
runner = CliRunner()


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return dict(os.environ, GM_SPEECH="off", GM_LISTEN="off", XDG_STATE_HOME=str(tmp_path / "state"),
                XDG_DATA_HOME=str(tmp_path / "data"), **extra)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def gm(tmp_path: Path, *args: str, stdin=subprocess.DEVNULL, env: dict[str, str] | None = None,
       preexec_fn=_limit_memory) -> subprocess.CompletedProcess:
    return subprocess.run([*GM, *args], stdin=stdin, capture_output=True, text=True, cwd=tmp_path,
                          env=env or _env(tmp_path), timeout=SAFETY_NET, preexec_fn=preexec_fn)


def one_refusal(done: subprocess.CompletedProcess) -> str:
    """The one line of a refusal (exit code 2), notes about speech left aside."""
    lines = [line for line in done.stderr.splitlines() if "Speech is off" not in line]
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert len(lines) == 1 and lines[0].startswith("gm: ") and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def started(path: Path) -> bytes:
    Journal(path).append(lambda state: new_match(["Aki", "Ken"]))
    return path.read_bytes()


# -- links and FIFOs ------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_dangling_link_as_the_journal_is_refused_naming_it(tmp_path):
    (tmp_path / "d.jsonl").symlink_to("missing.jsonl")
    line = one_refusal(gm(tmp_path, "score", "new", "A", "B", "--file", "d.jsonl"))
    assert "d.jsonl" in line and "missing.jsonl" in line and "does not exist" in line
    line = one_refusal(gm(tmp_path, "score", "new", "A", "B", env=_env(tmp_path, GM_SCORE_FILE="d.jsonl")))
    assert "missing.jsonl" in line
    assert not (tmp_path / "missing.jsonl").exists()


@pytest.mark.slow
def test_a_fifo_as_the_wav_to_write_is_refused_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "f.wav")
    assert "not a regular file" in one_refusal(gm(tmp_path, "voice", "say", "hello", "--to", "f.wav"))
    (tmp_path / "z.wav").symlink_to("/dev/zero")
    assert "not a regular file" in one_refusal(gm(tmp_path, "voice", "say", "hello", "--to", "z.wav"))


# -- the match index is a cache ---------------------------------------------------------------------
def _rebuilt(done: subprocess.CompletedProcess, journal: Path) -> None:
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if "match index" in line]
    assert len(notes) == 1 and "rebuilt from the journal" in notes[0], done.stderr
    assert "Aki v Ken" in done.stdout
    index = index_path(journal)
    assert index.is_file() and not index.is_symlink()
    players = ENTRY_FIELDS.index("players")
    assert [json.loads(line)[players] for line in index.read_text().splitlines()] == [["Aki", "Ken"]]


@pytest.mark.slow
def test_a_fifo_as_the_match_index_is_rebuilt(tmp_path):
    journal = tmp_path / "j.jsonl"
    started(journal)
    index_path(journal).unlink()
    os.mkfifo(index_path(journal))
    _rebuilt(gm(tmp_path, "score", "show", "--file", "j.jsonl"), journal)


@pytest.mark.slow
def test_a_link_to_dev_zero_as_the_match_index_is_rebuilt_in_bounded_memory(tmp_path):
    journal = tmp_path / "j.jsonl"
    started(journal)
    index_path(journal).unlink()
    index_path(journal).symlink_to("/dev/zero")
    _rebuilt(gm(tmp_path, "score", "show", "--file", "j.jsonl"), journal)


def _damaged(entry: list) -> list[tuple[str, str]]:
    """Index lines damaged one way each."""
    def with_(**changes) -> str:
        return json.dumps([changes.get(name, value) for name, value in zip(ENTRY_FIELDS, entry)])

    sheet = {"players": ["a", "b"], "remote": False, "games": [
        {"number": 1, "points": [0, 0], "sixes": 10**15, "piles": [0, 0], "god_islands": 0, "angel_cuts": 0,
         "ended_by": None}], "readings": []}
    return [("huge length", with_(length=10**15)), ("negative length", with_(length=-5)),
            ("negative offset", with_(offset=-1)), ("text offset", with_(offset="0")),
            ("float line", with_(line=1.5)), ("list match", with_(match=[1])), ("no players", with_(players=None)),
            ("three players", with_(players=["a", "b", "c"])), ("sheet of huge sixes", with_(before=sheet)),
            ("sheet of text", with_(before="sheet")), ("deep nesting", "[" * 100_000 + "]" * 100_000),
            ("not a list", "7"), ("not JSON", "{{"), ("huge number", with_(before_owner=10**400)),
            ("a value short", json.dumps(entry[:-1])), ("result of text", with_(before=[1, 2, 1, None, "no"]))]


@pytest.mark.parametrize("case", range(16))
def test_a_damaged_match_index_is_rebuilt_with_one_line(tmp_path, case):
    journal = tmp_path / "j.jsonl"
    started(journal)
    entry = json.loads(index_path(journal).read_text())
    entry[ENTRY_FIELDS.index("before")] = [3, 0, 1, None, False]
    entry[ENTRY_FIELDS.index("before_owner")] = 1
    what, line = _damaged(entry)[case]
    for args in (["show"], ["matches"], ["flow", "Aki", "1"]):
        index_path(journal).write_text(line + "\n")
        result = runner.invoke(app, ["score", *args, "--file", str(journal)], env={"GM_SPEECH": "off"})
        assert result.exit_code == 0, (what, args, result.stderr)
        assert "match index" in result.stderr and "rebuilt" in result.stderr, (what, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "Aki" in result.stdout
    assert [json.loads(raw)[ENTRY_FIELDS.index("players")] for raw in index_path(journal).read_text().splitlines()] \
        == [["Aki", "Ken"]]


# -- files that never were journals ---------------------------------------------------------------
@pytest.mark.parametrize("text", [b"hello notes", b"shopping: eggs, milk\nbread", b"\xff\xfe not text",
                                  b"{not json", b'{"v":1,"kind":"flow"', b"\0\0{"])
def test_a_file_that_never_was_a_journal_is_refused_and_left_untouched(tmp_path, text):
    notes = tmp_path / "notes.txt"
    notes.write_bytes(text)
    for args in (["new", "A", "B"], ["show"]):
        result = runner.invoke(app, ["score", *args, "--file", str(notes)], env={"GM_SPEECH": "off"})
        assert result.exit_code == 2, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1 and "notes.txt" in result.stderr
    assert notes.read_bytes() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("torn", [b'{"v":1,"ki', b'{"v":1,"kind":"new","players":["A"', b"\0" * 30])
def test_a_first_line_cut_short_is_still_a_torn_write(tmp_path, torn):
    journal = tmp_path / "j.jsonl"
    journal.write_bytes(torn)
    result = runner.invoke(app, ["score", "new", "A", "B", "--file", str(journal)], env={"GM_SPEECH": "off"})
    assert result.exit_code == 0 and "torn write" in result.stderr
    assert (tmp_path / "j.jsonl.torn-0").read_bytes() == torn


# -- standard streams -----------------------------------------------------------------------------
CLOSED_STREAM_COMMANDS = [
    ["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", *FAST, "--pause", "0"],
    ["score", "play", "--file", "p.jsonl"],
    ["werewolf", "judge"],
    ["solitaire", "play", "--seed", "1"],
]


@pytest.mark.slow
@pytest.mark.parametrize("args", CLOSED_STREAM_COMMANDS, ids=lambda a: " ".join(a[:2]))
@pytest.mark.parametrize("closed", [0, 1])
def test_a_closed_standard_stream_is_no_crash(tmp_path, args, closed):
    def close_it():
        _limit_memory()
        os.close(closed)

    done = gm(tmp_path, *args, stdin=None if closed == 0 else subprocess.DEVNULL, preexec_fn=close_it)
    assert done.returncode in (0, 2), done.stderr
    assert "bug in gm" not in done.stderr and "Traceback" not in done.stderr


# -- text that cannot be shown as it is --------------------------------------------------------------
JUDGE = ('{"players": ["%s", "Ken", "Mio", "Sora"], "hands": {"%s": ["werewolf", "traitor"], '
         '"Ken": ["villager", "seer"], "Mio": ["villager", "villager"], "Sora": ["villager", "villager"]}, '
         '"graveyard": ["villager"], "executed": "Ken"}')


@pytest.mark.slow
@pytest.mark.parametrize("name", ["\\ud800", "\\u001b]0;pwned\\u0007", "\\u001b[2J", "a\\u009bb"])
@pytest.mark.parametrize("as_json", [False, True])
def test_names_in_judge_json_are_shown_escaped(tmp_path, name, as_json):
    (tmp_path / "cards.json").write_text(JUDGE % (name, name))
    done = gm(tmp_path, "werewolf", "judge", "--file", "cards.json", *(["--json"] if as_json else []))
    assert done.returncode == 0, done.stderr
    assert not any(c in done.stdout for c in "\x1b\x07\x9b\ud800")
    if as_json:
        json.loads(done.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["\\ud800", "\\u001b[31mred", "A\\u0007"])
def test_names_in_a_hand_made_journal_are_shown_escaped(tmp_path, name):
    journal = tmp_path / "j.jsonl"
    journal.write_text('{"v":1,"kind":"new","players":["NAME","Bo"],"remote":false,'
                       '"at":"2026-01-01T00:00:00+00:00"}\n'.replace("NAME", name))
    for args in (["show"], ["matches"], ["flow", "Bo", "1"], ["show", "--json"]):
        done = gm(tmp_path, "score", *args, "--file", "j.jsonl")
        assert done.returncode == 0, (args, done.stderr)
        assert not any(c in done.stdout + done.stderr for c in "\x1b\x07\ud800"), args
    assert journal.read_bytes().decode("utf-8").count("\n") == 2  # the flow is written, as valid UTF-8


def test_a_device_index_past_any_device_is_refused(monkeypatch):
    import gm.hearing.microphone as microphone

    monkeypatch.setattr(microphone, "input_devices", lambda: [{"index": 0, "name": "mic", "channels": 1,
                                                              "rate": 16000.0}])
    for device in ("999999999999999999999999999999", "7"):
        result = runner.invoke(app, ["voice", "check", "--device", device])
        assert result.exit_code == 2, result.stderr
        assert "no input device" in result.stderr and "input devices: 0" in result.stderr


# -- completion ------------------------------------------------------------------------------------
def test_completion_for_a_shell_gm_cannot_tell_is_refused_in_one_line(monkeypatch):
    import shellingham

    def undetectable():
        raise shellingham.ShellDetectionFailure()

    monkeypatch.setattr(shellingham, "detect_shell", undetectable)
    for option in ("--show-completion", "--install-completion"):
        result = runner.invoke(app, [option])
        assert result.exit_code == 2 and result.stdout == "", result.stderr
        assert result.stderr.startswith(f"gm: {option}: cannot tell which shell") and "bash" in result.stderr


def test_a_value_given_to_a_completion_flag_is_a_usage_error():
    result = runner.invoke(app, ["--show-completion=nosuchshell"])
    assert result.exit_code == 2 and "does not take a value" in result.stderr


# -- a full disk ---------------------------------------------------------------------------------
def _disk_full_after(limit: int, write=os.write):
    """os.write that writes at most `limit` bytes in all, then fails as a full disk does."""
    room = [limit]

    def full(fd, data):
        if room[0] <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        written = write(fd, bytes(data)[:room[0]])
        room[0] -= written
        return written

    return full


@pytest.mark.parametrize("room", [0, 10])
def test_a_full_disk_leaves_no_half_line_in_the_journal_and_names_it(tmp_path, monkeypatch, room):
    import gm.score.journal as journal_module

    journal = tmp_path / "j.jsonl"
    before = started(journal)
    monkeypatch.setattr(journal_module.os, "write", _disk_full_after(room))
    result = runner.invoke(app, ["score", "flow", "Aki", "2", "--file", str(journal)], env={"GM_SPEECH": "off"})
    monkeypatch.undo()
    assert result.exit_code == 2 and "No space left" in result.stderr and str(journal) in result.stderr
    assert journal.read_bytes() == before
    assert not list(tmp_path.glob("*.torn-*"))


def test_a_full_disk_leaves_no_empty_wav_and_names_it(tmp_path, monkeypatch):
    from gm.speech.audio import Audio, write_wav

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError) as raised:
        write_wav(tmp_path / "out.wav", Audio(16000, b"\0\0" * 100))
    assert raised.value.filename == str(tmp_path / "out.wav")
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_leaves_no_empty_night_log(tmp_path, monkeypatch):
    import gm.night.log as log_module

    warned = []
    log = log_module.NightLog(tmp_path / "night.jsonl", FakeClock(), warned.append, pack=Pack("en"))
    monkeypatch.setattr(log_module.os, "write", _disk_full_after(7))
    log("setup", players=["Aki"])
    log("phase", name="night")
    log.close()
    assert len(warned) == 1 and "night.jsonl" in warned[0]
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_mid_night_keeps_the_whole_lines_of_the_log(tmp_path, monkeypatch):
    import gm.night.log as log_module

    log = log_module.NightLog(tmp_path / "night.jsonl", FakeClock(), lambda text: None, pack=Pack("en"))
    log("setup", players=["Aki"])
    kept = (tmp_path / "night.jsonl").read_bytes()
    monkeypatch.setattr(log_module.os, "write", _disk_full_after(5))
    log("phase", name="night")
    log.close()
    assert (tmp_path / "night.jsonl").read_bytes() == kept


# -- Ctrl-C as the discussion starts -------------------------------------------------------------------
class _InterruptedOnce:
    """Raises KeyboardInterrupt the first time `what` is called, as Ctrl-C landing there would."""

    def __init__(self, what):
        self.what = what
        self.raised = False

    def __call__(self, *args, **kwargs):
        if not self.raised:
            self.raised = True
            raise KeyboardInterrupt
        return self.what(*args, **kwargs)


@pytest.mark.parametrize("where", ["display", "cue"])
@pytest.mark.parametrize("choice", ["resume", "vote"])
def test_ctrl_c_while_the_panel_draws_or_a_cue_is_said_pauses_and_asks(where, choice):
    from gm.night.timer import Discussion

    clock = FakeClock()
    speaker = RecordingSpeaker(clock)
    display = RecordingDisplay()
    if where == "display":
        display.show = _InterruptedOnce(display.show)  # type: ignore[method-assign]
    say = _InterruptedOnce(speaker.say) if where == "cue" else speaker.say
    asked = []
    seconds = 20 if where == "display" else 5  # 5 s: the first cue (4) is due at once
    discussion = Discussion(seconds, clock, say, Pack("en").line, ScriptedControls(clock, []), display,
                            lambda: asked.append(1) or choice)
    try:
        result = discussion.run()
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C ended the discussion")
    assert asked == [1] and result.pauses == 1
    assert result.how == ("ended" if choice == "vote" else "time_up")


def test_ctrl_c_as_the_discussion_line_is_said_pauses_and_asks():
    from gm.night.runner import _step
    from scorer.werewolf.script import Kind, NightStep

    class Context:
        def __init__(self):
            self.said, self.paused_times = [], 0
            self.clock = FakeClock()
            self.discussion = 10
            self.controls, self.display, self.last = None, None, None
            self.pack = __import__("gm.text.lines", fromlist=["Pack"]).Pack("en")
            self.say = _InterruptedOnce(lambda key, **fields: self.said.append(key))

        def paused(self):
            self.paused_times += 1

        def log(self, *args, **fields):
            """The night's log keeps nothing here."""

    ctx = Context()
    result = type("Result", (), {"discussion": None})()
    try:
        _step(ctx, NightStep("day", Kind.DISCUSSION, "werewolf.day", {"secs": 10}), result)  # type: ignore[arg-type]
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C ended the night")
    assert ctx.paused_times == 1 and result.discussion.how == "time_up"


@pytest.mark.parametrize("args", [["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", *FAST,
                                   "--pause", "0", "--listen", "off"],
                                  ["score", "play"]], ids=["werewolf play", "score play"])
def test_piped_answers_are_echoed_with_control_characters_escaped(tmp_path, args, monkeypatch):
    monkeypatch.setenv("GM_SPEECH", "off")
    monkeypatch.setenv("GM_SCORE_FILE", str(tmp_path / "m.jsonl"))
    result = runner.invoke(app, args, input="\x1b]0;pwned\x07\n\x1b[2J\nquit\n")
    assert result.exit_code in (0, 2), result.stderr
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "\\x1b]0;pwned\\x07" in result.stdout


def test_a_journal_line_longer_than_any_event_is_damage_not_a_memory_hog(tmp_path):
    journal = tmp_path / "j.jsonl"
    before = started(journal)
    huge = b'{"v":1,"kind":"flow","player":"Aki","piles":1,"x":[' + b"0," * 2_000_000 + b'0]}\n'
    journal.write_bytes(before + huge)
    result = runner.invoke(app, ["score", "show", "--file", str(journal)], env={"GM_SPEECH": "off"})
    assert result.exit_code == 2 and "line 2" in result.stderr and "longer than any event" in result.stderr
    assert journal.read_bytes() == before + huge


@pytest.mark.slow
@pytest.mark.parametrize("name", ["\\ud800", "\\u001b]0;pwned\\u0007", "\\u001b[2J"])
@pytest.mark.parametrize("as_json", [False, True])
def test_names_in_an_evening_file_are_shown_escaped(tmp_path, name, as_json):
    (tmp_path / "e.json").write_text('{"players": ["NAME", "Ken", "Mio", "Sora"], "nights": [{"winning_side": '
                                     '"villagers", "winners": ["NAME", "Ken"]}]}'.replace("NAME", name))
    done = gm(tmp_path, "werewolf", "evening", "--file", "e.json", *(["--json"] if as_json else []))
    assert done.returncode == 0, done.stderr
    assert not any(c in done.stdout for c in "\x1b\x07\ud800")
    if as_json:
        json.loads(done.stdout)


# -- a file name holding an escape sequence is shown escaped, in errors and warnings alike -------
ESCAPED_NAME = "a\x1b]0;pwned\x07\x1b[2Jb"


def test_a_file_name_with_an_escape_sequence_never_reaches_the_terminal_raw(tmp_path):
    torn = tmp_path / f"{ESCAPED_NAME}.jsonl"
    torn.write_text('{"v":1,"kind":"new","players":["A","B"],"remote":false,"at":"x"}\n{"v":1,"ki')
    group = tmp_path / f"{ESCAPED_NAME}.group.jsonl"
    group.write_text('{"winning_side": "wolves", "winners": []}\n')
    runner = CliRunner()
    said = [runner.invoke(app, ["score", "show", "--file", str(torn)]),  # a warning: the torn last line
            runner.invoke(app, ["werewolf", "evening", "--file", str(group)]),  # a warning: a line skipped
            runner.invoke(app, ["score", "show", "--file", str(tmp_path / ESCAPED_NAME / "x")]),  # an error
            runner.invoke(app, ["werewolf", "play", "--players", "A,B,C,D", "--speech", "off", "--log",
                                str(torn)], input="")]  # refused: not a night's log
    for result in said:
        assert result.stderr and "\x1b" not in result.stderr and "\x07" not in result.stderr, result.stderr
        assert "a\\x1b]0;pwned\\x07\\x1b[2Jb" in result.stderr
