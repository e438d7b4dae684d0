"""`werewolf play --log FILE` appends only to a night's log of the user's own: a link, a file gm did
not write, a read-only or another user's file is refused in one line, exit 2, nothing changed."""

import json
import os

import pytest
from typer.testing import CliRunner

from fakes import FAST, FakeClock
from gm.cli import app
from gm.files import BadFile
from gm.night.log import NightLog
from gm.text.lines import Pack

NIGHT = ["werewolf", "play", "--players", "Aki,Ken,Mio,Sora", *FAST, "--speech", "off",
         "--listen", "off", "--log"]
NIGHT_KEYS = "\n\n\n\n" + "3\n1\n" + "\n" + "werewolf traitor\n"
A_LOG = b'{"t": 0.0, "type": "setup", "players": ["Aki", "Ken", "Mio", "Sora"]}\n'


def refused(path, lang="en"):
    """Run a night logging to `path`: refused in one line, exit 2, nothing on stdout."""
    result = CliRunner().invoke(app, [*NIGHT, str(path), "--lang", lang], input=NIGHT_KEYS)
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("gm: "), result.stderr
    return result.stderr.strip()


def test_a_link_is_refused_and_its_target_is_unchanged(tmp_path):
    target = tmp_path / "passwd"
    target.write_bytes(b"root:x:0:0:root:/root:/bin/bash\n")
    link = tmp_path / "night.jsonl"
    link.symlink_to(target)
    assert refused(link) == f"gm: '{link}' is a link; give the file itself"
    assert target.read_bytes() == b"root:x:0:0:root:/root:/bin/bash\n"


def test_a_link_to_a_log_gm_wrote_is_refused_too(tmp_path):
    target = tmp_path / "real.jsonl"
    target.write_bytes(A_LOG)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert refused(link, "ja") == f"gm: 「{link}」はリンクです。ファイルそのものを指定してください"
    assert target.read_bytes() == A_LOG


@pytest.mark.parametrize("text", [b"hello notes\n", b"[1, 2]\n", b"\xff\xfe"])
def test_a_file_gm_did_not_write_is_refused_unchanged(tmp_path, text):
    notes = tmp_path / "notes.txt"
    notes.write_bytes(text)
    assert refused(notes) == f"gm: '{notes}' was not written by gm; nothing was changed"
    assert notes.read_bytes() == text


def test_a_read_only_log_is_refused_even_for_root(tmp_path):
    log = tmp_path / "night.jsonl"
    log.write_bytes(A_LOG)
    log.chmod(0o444)
    assert refused(log) == f"gm: '{log}' is read-only; nothing was changed"
    assert log.read_bytes() == A_LOG


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file away needs root")
def test_another_users_log_is_refused(tmp_path):
    log = tmp_path / "night.jsonl"
    log.write_bytes(A_LOG)
    os.chown(log, 65534, 65534)
    assert refused(log) == f"gm: '{log}' belongs to another user; nothing was changed"
    assert log.read_bytes() == A_LOG


def test_a_log_gm_wrote_an_empty_file_and_the_null_device_are_appended_to(tmp_path):
    log, empty = tmp_path / "night.jsonl", tmp_path / "empty.jsonl"
    log.write_bytes(A_LOG)
    empty.touch()
    for path in (log, empty, os.devnull):
        result = CliRunner().invoke(app, [*NIGHT, str(path)], input=NIGHT_KEYS)
        assert result.exit_code == 0, result.output
    assert [json.loads(line)["type"] for line in log.read_text().splitlines()][:2] == ["setup", "setup"]
    assert json.loads(empty.read_text().splitlines()[0])["type"] == "setup"


def test_a_link_put_in_place_of_a_deleted_log_is_never_written_through(tmp_path):
    path, target, warned = tmp_path / "night.jsonl", tmp_path / "other", []
    target.write_bytes(b"keep me\n")
    log = NightLog(path, FakeClock(), warn=warned.append, pack=Pack("en"))
    log("before")
    path.unlink()
    path.symlink_to(target)
    log("after")
    log.close()
    assert target.read_bytes() == b"keep me\n"
    assert warned[-1] == (f"the night's log cannot be written to '{path}' ('{path}' is a link; give the file "
                          "itself); the night goes on without it")


def test_the_log_itself_refuses_a_link(tmp_path):
    (tmp_path / "link").symlink_to(tmp_path / "target")
    with pytest.raises(BadFile, match="is a link"):
        NightLog(tmp_path / "link", FakeClock(), pack=Pack("en"))
    assert not (tmp_path / "target").exists()
