"""A group's nights on disk: appended and fsync'ed, a torn line skipped, a SIGKILL never losing an
acknowledged night; the night's log appended, its deletion said, its place said on a signal."""

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from fakes import FAST, FakeClock
from killed_writers import KilledWriters
from gm.cli import app
from gm.night.groups import GroupFile, append_line, default_group, group_name, group_path, latest_group, read_record
from gm.night.log import NightLog
from gm.text.lines import Pack
from scorer.werewolf.evening import night

FOUR = ("Aki", "Ken", "Mio", "Sora")
NIGHT_KEYS = "\n\n\n\n" + "3\n1\n" + "\n" + "werewolf traitor\n"


def a_night(winner="Aki"):
    return night(FOUR, "traitor_werewolf", [winner], {name: "villagers" for name in FOUR if name != winner})


def test_a_group_is_its_players_in_any_order_and_any_script(tmp_path):
    assert default_group(["Sora", "aki", "Ken"]) == group_name("Ken, Sora,aki") == "aki,Ken,Sora"
    assert group_path("健,みお", tmp_path) == group_path("みお, 健", tmp_path)
    assert group_path("Friday", tmp_path).name == "friday.jsonl"
    assert group_path("a/../b", tmp_path).parent == tmp_path  # no name leaves the folder
    assert len(group_path("x" * 200, tmp_path).name) < 100


def test_every_night_is_one_line_and_the_evening_is_named(tmp_path):
    path = tmp_path / "g.jsonl"
    keep = GroupFile("Friday", Pack("en"), path)
    keep(a_night())
    keep(a_night("Ken"))
    record, skipped = read_record(path)
    assert skipped == [] and record.group == "Friday"
    assert [n.winners for n in record.nights] == [("Aki",), ("Ken",)]
    assert len(record.evenings) == 1 and record.nights[0].evening == keep.evening
    GroupFile("Friday", Pack("en"), path)(a_night("Mio"))
    record, _ = read_record(path)
    assert len(record.evenings) == 2 and [n.winners for n in record.tonight()] == [("Mio",)]


def test_a_torn_last_line_is_skipped_and_the_next_night_starts_a_line_of_its_own(tmp_path):
    path = tmp_path / "g.jsonl"
    keep = GroupFile("Friday", Pack("en"), path)
    keep(a_night())
    with open(path, "ab") as out:
        out.write(b'{"group": "Friday", "winning_si')  # a write cut short: never acknowledged
    keep(a_night("Ken"))
    record, skipped = read_record(path)
    assert [n.winners for n in record.nights] == [("Aki",), ("Ken",)]
    assert [line for line, _ in skipped] == [2]


def test_a_damaged_line_is_named_and_skipped_on_screen(tmp_path):
    path = tmp_path / "g.jsonl"
    GroupFile("Friday", Pack("en"), path)(a_night())
    append_line(path, b'{"winning_side": "wolves", "winners": []}\n')
    result = CliRunner().invoke(app, ["werewolf", "evening", "--file", str(path), "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["all_time"]["nights"] == 1
    assert result.stderr.strip() == f"{path} line 2 is skipped: unknown side 'wolves' (sides: villagers, werewolves, " \
                                    "traitor_werewolf, living, dead)"


def test_a_group_file_that_cannot_be_written_is_said_and_the_evening_goes_on(tmp_path):
    said = []
    path = tmp_path / "g.jsonl"
    os.mkfifo(path)
    GroupFile("Friday", Pack("ja"), path, warn=said.append)(a_night())
    assert len(said) == 1 and said[0].startswith("この夜の結果を") and str(path) in said[0]


@pytest.mark.slow
def test_the_group_played_last_is_shown_without_a_file():
    def play(group):
        return CliRunner().invoke(app, ["werewolf", "play", "--players", ",".join(FOUR), *FAST,
                                        "--speech", "off", "--group", group], input=NIGHT_KEYS)

    def latest():
        result = CliRunner().invoke(app, ["werewolf", "evening", "--json"])
        return json.loads(result.stdout)["group"]

    assert play("A").exit_code == 0 and play("B").exit_code == 0
    assert latest() == "B"
    assert play("A").exit_code == 0
    assert latest() == "A" and latest_group().name == "a.jsonl"


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="SIGKILL test forks (POSIX)")
def test_sigkill_while_keeping_nights_never_loses_an_acknowledged_one(tmp_path):
    """60 writers on one file, each killed at a random moment: every night it acknowledged is read back."""
    path, rng, acknowledged = tmp_path / "g.jsonl", random.Random(7), 0
    with KilledWriters("group") as writers:
        for _ in range(60):
            acknowledged += len(writers.run(path, rng.randint(1, 3)))
            record, skipped = read_record(path)
            assert len(record.nights) >= acknowledged and len(skipped) <= 60


# -- the night's log (gm.night.log) -------------------------------------------------------------------
def test_a_second_evening_is_appended_to_the_same_log(tmp_path):
    path = tmp_path / "night.jsonl"
    for kind in ("first", "second"):
        log = NightLog(path, FakeClock(), pack=Pack("en"))
        log(kind)
        log.close()
    assert [json.loads(line)["type"] for line in path.read_text().splitlines()] == ["first", "second"]


@pytest.mark.parametrize("lang, said", [
    ("en", "the night's log '{path}' was deleted during the night; it is written again from here"),
    ("ko", "밤 기록 '{path}'이 게임 중에 지워졌어요. 여기서부터 다시 씁니다"),
])
def test_a_log_deleted_during_the_night_is_said_once_and_written_again(tmp_path, lang, said):
    path, warned = tmp_path / "night.jsonl", []
    log = NightLog(path, FakeClock(), warn=warned.append, pack=Pack(lang))
    log("before")
    path.unlink()
    log("after")
    log("later")
    log.close()
    assert warned == [said.format(path=path)]
    assert [json.loads(line)["type"] for line in path.read_text().splitlines()] == ["after", "later"]


@pytest.mark.parametrize("code", [143, 129])
def test_sigterm_or_sighup_ends_the_night_saying_where_its_log_is(tmp_path, monkeypatch, code):
    def stopped(ctx, keep):
        ctx.log("setup")
        raise SystemExit(code)  # what gm.cli.main's handler raises on SIGTERM (143) or SIGHUP (129)

    monkeypatch.setattr("gm.night.evening.run_evening", stopped)
    log = tmp_path / "night.jsonl"
    result = CliRunner().invoke(app, ["werewolf", "play", "--players", ",".join(FOUR), "--speech", "off",
                                      "--log", str(log)], input="")
    assert result.exit_code == code
    assert result.stderr.splitlines()[-1] == f"gm: the night's log is in '{log}'"
    assert json.loads(log.read_text())["type"] == "setup"


def test_a_log_to_dev_null_leaves_nothing_beside_it(tmp_path):
    result = CliRunner().invoke(app, ["werewolf", "play", "--players", ",".join(FOUR), *FAST,
                                      "--speech", "off", "--log", os.devnull], input=NIGHT_KEYS)
    assert result.exit_code == 0, result.output
    assert not os.path.exists(os.devnull + ".evening.json")


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_real_signal_ends_the_night_saying_where_its_log_is(tmp_path, signum):
    log = tmp_path / "night.jsonl"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    night = subprocess.Popen([sys.executable, "-m", "gm", "werewolf", "play", "--players", ",".join(FOUR),
                              "--speech", "off", "--listen", "off", "--log", str(log)],
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        for _ in range(6000):  # the deal's question is asked: the night waits for "done"
            if log.exists() and '"werewolf.deal"' in log.read_text(encoding="utf-8"):
                break
            time.sleep(0.01)
        night.send_signal(signum)
        _, err = night.communicate(timeout=60)
    finally:
        night.kill()
    assert night.returncode == 128 + signum
    assert f"gm: the night's log is in '{log}'" in err.decode()
