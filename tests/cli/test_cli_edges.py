"""The CLI's edge: one error type, crash files for bugs, sane ranges, bounded reads, plain names,
a night that survives its log, safe exports and journals, signals that leave the terminal as it was."""

import errno
import glob
import importlib
import io
import json
import os
import pkgutil
import resource
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gm
import scorer
import voices
from fakes import FAST
from gm.cli import app
from gm.files import MAX_LINE, BadFile, read_line, read_text, write_new_file
from gm.score import journal as journal_module
from gm.score.journal import Journal, JournalError
from gm.text.numbers import whole_number
from scorer.values import Refusal
from tests.cli.test_werewolf_play_cli import ANSWERS

runner = CliRunner()
GM = [sys.executable, "-m", "gm.cli"]


def refused(args, input=None):
    """Run gm; it must refuse with one stderr line, exit 2, nothing on stdout. Returns the line."""
    result = runner.invoke(app, args, input=input)
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("gm: "), result.stderr
    return result.stderr


def modules(package):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if not info.name.endswith("__main__"):
            yield importlib.import_module(info.name)


# -- one error type ---------------------------------------------------------------------------
def test_every_narrow_error_shares_the_edge_base():
    """Each ValueError subclass of gm, scorer and voices is a Refusal, the one base the edge turns
    into one line and exit code 2 (bar internal slips)."""
    internal = {"UnknownCounter"}  # a counter the code itself asks for: a bug, not input
    found = []
    for package in (gm, scorer, voices):
        for module in (package, *modules(package)):
            for value in vars(module).values():
                if isinstance(value, type) and issubclass(value, ValueError) and value.__module__ == module.__name__:
                    found.append(value)
    assert len(found) > 25
    assert [c.__name__ for c in found if not issubclass(c, Refusal) and c.__name__ not in internal] == []


def test_scorer_imports_nothing_from_gm():
    for path in Path(scorer.__file__).parent.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "from gm" not in text and "import gm" not in text, path


def test_a_bug_is_one_line_exit_1_with_the_traceback_in_a_crash_file(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    def broken(*args, **kwargs):
        raise RuntimeError("a slip in the code")

    monkeypatch.setattr("gm.commands.werewolf.deck_json", broken)
    result = runner.invoke(app, ["werewolf", "deck", "--players", "5", "--json"])
    assert result.exit_code == 1 and result.stdout == ""
    line = result.stderr
    assert line.count("\n") == 1 and line.startswith("gm: a bug in gm (RuntimeError); the traceback is in ")
    crash = Path(line.rsplit(" ", 1)[1].strip())
    assert crash.parent == tmp_path / "gm" / "crashes"
    assert "Traceback" in crash.read_text() and "a slip in the code" in crash.read_text()


# -- ranges -------------------------------------------------------------------------------------
NIGHT = ["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", "--speech", "off", "--listen", "off"]


@pytest.mark.parametrize("args, says", [
    ([*NIGHT, "--pause", "inf"], "--pause: must be 0–600 seconds, not inf"),
    ([*NIGHT, "--pause", "nan"], "--pause: must be a number 0–600 seconds"),
    ([*NIGHT, "--time-scale", "1e300"], "--time-scale: must be 0.001–100, not 1e300"),
    ([*NIGHT, "--time-scale", "0"], "--time-scale: must be 0.001–100, not 0"),
    ([*NIGHT, "--discussion", "1e20"], "--discussion: must be a whole number 10–3600 seconds, not '1e20'"),
    ([*NIGHT, "--discussion", "100000000000000000000"], "--discussion: must be a whole number 10–3600"),
    ([*NIGHT, "--discussion", "5"], "--discussion: must be 10–3600 seconds, not 5"),
    ([*NIGHT, "--listen-from", ""], "--listen-from: must not be empty"),
    ([*NIGHT, "--rate", "1_0"], "--rate: must be a whole number 80–400 words per minute, not '1_0'"),
    (["solitaire", "simulate", "--deals", "1e23"], "--deals: must be a whole number 1–10000000 deals"),
    (["solitaire", "simulate", "--deals", "10000001"], "--deals: must be 1–10000000 deals, not 10000001"),
    (["solitaire", "reading", "99999999999999999999"], "LEFT: must be a whole number, not '99999999999999999999'"),
    (["solitaire", "reading", "٣"], "LEFT: must be a whole number, not '٣'"),
    (["solitaire", "reading", "29"], "a 7-row pyramid holds 28 cards: 29 cannot be left"),
    (["solitaire", "solve", "--rows", "10"], "rows must be 3–9, not 10"),
    (["voice", "say", "--volume", "2"], "--volume: must be 0–1, not 2"),
])
def test_an_option_out_of_its_range_is_refused_with_the_range(args, says):
    assert says in refused(args)


def test_counts_are_ascii_or_full_width_digits_only():
    assert [whole_number(t) for t in ("3", "３", " 12 ", "１０")] == [3, 3, 12, 10]
    assert [whole_number(t) for t in ("٣", "1_0", "-1", "+1", "1.0", "", "²", "9" * 19)] == [None] * 8
    result = runner.invoke(app, ["solitaire", "reading", "３", "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["left"] == 3


def test_a_full_width_count_scores_and_other_digits_do_not(gm):
    gm("new", "Alice", "Bob")
    assert gm("flow", "a", "３").stdout.startswith("Alice +3")
    before = gm.path.read_bytes()
    for count in ("٣", "1_0"):
        result = gm("flow", "a", count)
        assert result.exit_code == 2 and "whole number" in result.stderr
    assert gm.path.read_bytes() == before


# -- bounded reads -----------------------------------------------------------------------------
@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def test_files_must_be_regular_files_under_a_cap(tmp_path, fifo):
    for path in (Path("/dev/zero"), fifo, tmp_path):
        with pytest.raises(BadFile, match="not a regular file"):
            read_text(path)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2000)
    with pytest.raises(BadFile, match="larger than"):
        read_text(big, limit=1000)


@pytest.mark.parametrize("make", ["/dev/zero", "fifo", "dir", "deep", "missing"])
def test_judge_refuses_unreadable_or_deep_files_in_one_line(make, tmp_path, fifo):
    path = {"/dev/zero": Path("/dev/zero"), "fifo": fifo, "dir": tmp_path, "missing": tmp_path / "none.json",
            "deep": tmp_path / "deep.json"}[make]
    if make == "deep":
        path.write_text("[" * 100_000)
    refused(["werewolf", "judge", "--file", str(path)])


def test_judge_refuses_deep_json_and_endless_stdin():
    assert "nested too deep" in refused(["werewolf", "judge"], input="[" * 100_000)
    assert "longer than 1 MB" in refused(["werewolf", "judge"], input="[" * (1024 * 1024 + 1))


def test_a_line_is_read_within_its_cap():
    assert read_line(io.StringIO("short\nnext\n")) == "short\n"
    long = io.StringIO("x" * (MAX_LINE * 3) + "\nnext\n")
    assert read_line(long) == "x" * MAX_LINE + "\n" and read_line(long) == "next\n"
    assert read_line(io.StringIO("\0" * (2 * 1024 * 1024))) == ""  # no end in sight: the input has ended


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ["score", "play", "--speech", "off"],
    ["solitaire", "play", "--seed", "1", "--speech", "off"],
    ["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", "--speech", "off", "--listen", "off",
     *FAST],
    ["werewolf", "judge"],
])
def test_stdin_from_dev_zero_ends_without_growing(args, tmp_path):
    import resource

    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    env = dict(os.environ, GM_SCORE_FILE=str(tmp_path / "m.jsonl"), XDG_STATE_HOME=str(tmp_path),
               XDG_DATA_HOME=str(tmp_path))
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run([*GM, *args], stdin=zero, capture_output=True, env=env, preexec_fn=limit_memory,
                              timeout=300)
    assert done.returncode in (0, 2), done.stderr
    assert b"Traceback" not in done.stderr + done.stdout and b"MemoryError" not in done.stderr


def test_the_journal_must_be_a_regular_file(tmp_path, fifo, monkeypatch):
    monkeypatch.setenv("GM_SPEECH", "off")
    for path in (fifo, tmp_path, Path("/dev/zero")):
        for args in (["show"], ["new", "A", "B"]):
            line = refused(["score", *args, "--file", str(path)])
            assert "not a regular file" in line or "Is a directory" in line


# -- the journal -------------------------------------------------------------------------------
def test_any_bad_journal_line_stops_even_when_all_lines_parse_together(tmp_path):
    path = tmp_path / "j.jsonl"
    Journal(path).append(lambda state: __import__("gm.score.entry", fromlist=["x"]).new_match(["A", "B"]))
    good = path.read_bytes()
    event = good.decode().strip()
    split_at = event.index("[") + 1
    # line 2 `..."players":["A","B"` and line 3 `2]}` joined, then line 4 holds two events
    damaged = good + (event[:split_at] + "\n" + event[split_at:] + "\n").encode() \
        + (event + "," + event + "\n").encode()
    path.write_bytes(damaged)
    with pytest.raises(JournalError, match="line 2"):
        Journal(path).load()
    path.write_bytes(good + b"[" * 60_000 + b"\n")  # deep, yet no longer than an event may be
    with pytest.raises(JournalError, match="line 2: .*nested too deep"):
        Journal(path).load()


def _full_disk(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_leaves_no_empty_new_journal(gm, monkeypatch):
    monkeypatch.setattr(journal_module, "write_all", _full_disk)
    result = gm("new", "Alice", "Bob")
    assert result.exit_code == 2 and "No space left" in result.stderr
    assert not gm.path.exists()


def test_a_full_disk_leaves_no_empty_torn_copy(gm, monkeypatch):
    gm("new", "Alice", "Bob")
    gm.path.write_bytes(gm.path.read_bytes() + b'{"kind":"flo')
    before = gm.path.read_bytes()
    monkeypatch.setattr(journal_module.os, "fsync", _full_disk)
    assert gm("flow", "a", "1").exit_code == 2
    assert gm.path.read_bytes() == before
    assert list(gm.path.parent.glob("*.torn-*")) == []


def test_a_full_disk_leaves_no_empty_export(gm, monkeypatch, tmp_path):
    gm("new", "Alice", "Bob")
    out = tmp_path / "sheet.csv"
    out.write_text("the last export\n")
    monkeypatch.setattr("gm.files.os.fsync", _full_disk)
    result = gm("export", "-o", str(out))
    assert result.exit_code == 2 and "No space left" in result.stderr
    assert out.read_text() == "the last export\n"
    assert [p.name for p in tmp_path.iterdir() if "sheet" in p.name] == ["sheet.csv"]  # no temporary left
    with pytest.raises(BadFile):
        write_new_file(Path("/dev/full"), lambda f: f.write("x"))


def test_csv_cells_that_would_start_a_formula_are_text(gm):
    gm("new", "@SUM(1+1)", "=Bob")  # "=Bob": an empty name with a reading, refused
    assert gm("new", "@SUM(1+1)", "+Bob").exit_code == 0
    gm("finish", "@", "3")
    header, game, *_ = gm("export").stdout.splitlines()
    assert header == "game,'@SUM(1+1),'+Bob,multiplier,ended_by,how"
    assert game == "1,8,0,1,'@SUM(1+1),finish"


# -- names ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("alice, says", [
    ("Al=", "empty reading for 'Al'"),
    ("A\tl", "player name 'A\\tl' holds a control character"),
    ("A\x1b[2Jl", "holds a control character"),
    ("x" * 41, "longer than 40 characters"),
])
def test_names_are_plain_text(gm, alice, says):
    result = gm("new", alice, "Bob")
    assert result.exit_code == 2 and says in result.stderr and not gm.path.exists()


def test_names_that_look_like_markup_print_as_written(gm):
    assert gm("new", "[/bold]", "[ken]").exit_code == 0
    sheet = gm("show")
    assert sheet.exit_code == 0 and "[/bold]" in sheet.stdout and "[ken]" in sheet.stdout
    tally = runner.invoke(app, ["werewolf", "tally", "--players", "[/bold],[ken],Mio,Sora",
                                "--votes", "[/bold]=3,[ken]=1"])
    assert tally.exit_code == 0 and "│ [/bold]" in tally.stdout and "│ [ken]" in tally.stdout
    hands = {"[/bold]": ["werewolf", "traitor"], "[ken]": ["villager", "seer"],
             "Mio": ["villager", "villager"], "Sora": ["villager", "villager"]}
    request = {"players": list(hands), "hands": hands, "graveyard": ["villager"], "executed": "[ken]"}
    judged = runner.invoke(app, ["werewolf", "judge"], input=json.dumps(request))
    assert judged.exit_code == 0, judged.output
    assert "[/bold]" in judged.stdout and "[ken]" in judged.stdout


# -- a night and its log -------------------------------------------------------------------------
@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="a file-size limit stands for a full disk (POSIX)")
def test_a_night_survives_a_log_it_cannot_write(tmp_path):
    log = tmp_path / "night.jsonl"
    log.write_bytes(b'{"t": 0.0, "type": "setup"}\n' + b" " * 2000 + b"\n")  # the disk is full past 2 KB
    old_handler, old_limit = signal.signal(signal.SIGXFSZ, signal.SIG_IGN), resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (2048, old_limit[1]))
    try:
        result = runner.invoke(app, ["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", *FAST,
                                     "--speech", "off", "--log", str(log)], input=ANSWERS)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old_limit)
        signal.signal(signal.SIGXFSZ, old_handler)
    assert result.exit_code == 0, result.output
    assert "Aki is executed." in result.stdout
    assert result.stderr.count("log cannot be written") == 1 and "Traceback" not in result.stderr
    assert log.read_bytes().endswith(b"\n")  # whole lines only


def test_a_log_that_is_a_fifo_is_refused(fifo):
    assert "is not a regular file" in refused([*NIGHT, "--log", str(fifo)])


# -- commands that used to end in a traceback ----------------------------------------------------------
@pytest.mark.slow
def test_a_simulation_whose_every_deal_hits_the_state_cap_lists_them():
    result = runner.invoke(app, ["solitaire", "simulate", "--max-states", "1", "--policy", "omniscient",
                                 "--deals", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["deals"] == 0 and [u["seed"] for u in data["unresolved"]] == [0, 1]


@pytest.mark.slow
@pytest.mark.espeak
def test_voice_say_to_a_missing_folder_is_one_line(tmp_path):
    done = subprocess.run([*GM, "voice", "say", "hi", "--to", str(tmp_path / "missing" / "x.wav")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"gm: No such file or directory: '{tmp_path / 'missing' / 'x.wav'}'\n"


# -- signals --------------------------------------------------------------------------------------
def _drain(fd, out, until=None, seconds=120.0, answer=False):
    """Read the terminal's output (until `until` shows); with `answer`, press Enter at every prompt."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (until is None or until not in out):
        if answer and out.rstrip().endswith(b">"):
            os.write(fd, b"\n")
            out += b"\n"
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
        elif until is None:
            break
    return out


@pytest.mark.slow
@pytest.mark.espeak
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_in_the_discussion_restores_the_terminal_and_removes_temp_files(sig, tmp_path):
    import pty

    master, slave = pty.openpty()
    env = dict(os.environ, TMPDIR=str(tmp_path), COLUMNS="80", XDG_DATA_HOME=str(tmp_path))
    # espeak-ng's voice renders through a temporary file (flite renders in memory)
    night = subprocess.Popen([*GM, "werewolf", "play", "--players", "a,b,c,d", "--listen", "off",
                              "--speech", f"wav:{tmp_path / 'wav'}", "--voice", "gmw/en-us", "--pause", "0",
                              "--discussion", "3600", "--time-scale", "0.01"],
                             stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    try:
        out = _drain(master, b"", until=b"Go!", answer=True)
        assert b"Go!" in out
        out = _drain(master, out, until=b"\x1b[?25l", seconds=30)  # the countdown hid the cursor
        for _ in range(300):  # keys are read one by one, without echo, once the countdown polls them
            if not termios.tcgetattr(slave)[3] & termios.ECHO:
                break
            out = _drain(master, out, seconds=0.1)
        assert not termios.tcgetattr(slave)[3] & termios.ECHO
        assert glob.glob(str(tmp_path / "gm-*"))
        night.send_signal(sig)
        while night.poll() is None:
            out = _drain(master, out, seconds=0.2)
    finally:
        if night.poll() is None:
            night.kill()
        night.wait()
    out = _drain(master, out)
    assert night.returncode == 128 + sig
    assert termios.tcgetattr(slave)[3] & termios.ECHO
    assert out.rfind(b"\x1b[?25h") > out.rfind(b"\x1b[?25l")
    assert glob.glob(str(tmp_path / "gm-*")) == [] and b"Traceback" not in out
    os.close(master)
    os.close(slave)


@pytest.mark.slow
def test_a_reader_that_went_away_is_no_error(tmp_path):
    """`gm … | head`: once the pipe is closed, gm stops quietly (141, as a shell reports SIGPIPE)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", "gm", "werewolf", "deck", "--players", "5"],
                              stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120, cwd=tmp_path)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (141, "")


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["--help"], [], ["score", "--help"], ["werewolf", "play", "--help"]])
def test_a_help_page_whose_reader_went_away_ends_quietly(argv):
    """`gm --help | head -c 1`: rich draws the page, and ends as gm does on a closed pipe (141), not exit 1."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", "gm", *argv], stdout=write_end, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (141, "")


def test_a_usage_error_names_the_command_whatever_the_program_is_called():
    """Run as `python -m gm`, the error names `solitaire simulate`, not `-m gm solitaire simulate`."""
    for program in ("gm", "python -m gm"):
        result = runner.invoke(app, ["solitaire", "simulate", "--rows", "x"], prog_name=program)
        assert result.exit_code == 2
        assert result.stderr == "gm: solitaire simulate: --rows: must be a whole number, not 'x'\n", program
