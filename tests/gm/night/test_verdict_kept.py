"""A judged night is in the group's file before its verdict is said: a process stopped as the
verdict is heard (Ctrl-C, SIGTERM, SIGHUP, a kill) never loses the night the table heard."""

import json
import os
import signal
import subprocess
import sys

import pytest

from fakes import FAST, FakeClock, RecordingSpeaker, ScriptedAsker, ScriptedControls
from gm.night.context import NightContext
from gm.night.evening import run_evening
from gm.night.groups import GroupFile, read_record
from gm.text.lines import Pack
from scorer.werewolf.decks import standard_deck

FOUR = ("Aki", "Ken", "Mio", "Sora")
NIGHT = [("werewolf.deal", "done"), ("werewolf.pass_right", None), ("werewolf.lay_down", None),
         ("werewolf.seer_one", None), ("werewolf.vote.ask_count", "3 1 0 0 0"),
         ("werewolf.reveal.ask_hand", "werewolf traitor")]
NIGHT_KEYS = "\n\n\n\n" + "3\n1\n" + "\n" + "werewolf traitor\n"
VERDICT = b"the Traitor Werewolf was executed and wins alone"


class StopsAtTheVerdict(RecordingSpeaker):
    """Says lines until the verdict's, where `stop` ends the run."""

    def __init__(self, clock, stop):
        super().__init__(clock)
        self.stop = stop

    def say(self, line):
        super().say(line)
        if line.key.startswith("werewolf.verdict."):
            self.stop()


def evening_until_the_verdict(path, stop):
    clock = FakeClock()
    ctx = NightContext(players=list(FOUR), deck=standard_deck(4), pack=Pack("en"),
                       speaker=StopsAtTheVerdict(clock, stop), asker=ScriptedAsker(list(NIGHT), clock), clock=clock,
                       controls=ScriptedControls(clock))
    run_evening(ctx, GroupFile("Friday", Pack("en"), path))


def _interrupt():
    raise KeyboardInterrupt


def _sigterm():
    raise SystemExit(128 + signal.SIGTERM)  # what gm.cli.main's handler raises


@pytest.mark.parametrize("stop", [_interrupt, _sigterm], ids=["ctrl-c", "sigterm"])
def test_the_night_is_kept_before_its_verdict_is_said(tmp_path, stop):
    path = tmp_path / "friday.jsonl"
    with pytest.raises((KeyboardInterrupt, SystemExit)):
        evening_until_the_verdict(path, stop)
    record, skipped = read_record(path)
    assert skipped == [] and [(n.winning_side, n.winners) for n in record.nights] == [("traitor_werewolf", ("Aki",))]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the process is stopped in a fork (POSIX)")
def test_a_process_that_dies_as_the_verdict_is_said_has_kept_the_night(tmp_path):
    """No `finally`, no exit handler: the process ends at the verdict as under SIGKILL."""
    path = tmp_path / "friday.jsonl"
    pid = os.fork()
    if pid == 0:
        try:
            evening_until_the_verdict(path, lambda: os._exit(9))
        finally:
            os._exit(0)  # the verdict was never said: the parent sees 0, not 9
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 9
    assert len(read_record(path)[0].nights) == 1


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_as_the_verdict_appears_leaves_the_night_in_the_evening(tmp_path, signum):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "GM_SPEECH": "off", "GM_LISTEN": "off"}
    night = subprocess.Popen([sys.executable, "-m", "gm", "werewolf", "play", "--players", ",".join(FOUR),
                              *FAST, "--pause", "0", "--group", "Friday"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        night.stdin.write(NIGHT_KEYS.encode())
        night.stdin.flush()  # stdin stays open: the night waits for "again?" after its verdict
        seen = b""
        for line in iter(night.stdout.readline, b""):
            seen += line
            if VERDICT in line:
                night.send_signal(signum)
                break
        assert VERDICT in seen, seen.decode()
        _, err = night.communicate(timeout=60)  # stdin closed: a pause question ends at once
    finally:
        night.kill()
    assert night.returncode != 1 and b"Traceback" not in err, err.decode()
    shown = subprocess.run([sys.executable, "-m", "gm", "werewolf", "evening", "--group", "Friday", "--json"],
                           capture_output=True, env=env, timeout=60)
    assert shown.returncode == 0, shown.stderr.decode()
    assert json.loads(shown.stdout)["all_time"]["nights"] == 1
