"""`gm voice model --get LANG --url …` never installs what is no model and never loses the model in
use: against a local HTTP server (127.0.0.1, in a thread) serving a small zip of files named as a
model's (vosk itself refuses it), a zip bomb, a download with no length past the language's
ceiling, a truncated zip and a zip with `../` members, each is one line, exit 2, and the model in
use as it was. What an interrupted download left is cleared, and reported, by the next one."""

from __future__ import annotations

import fcntl
import io
import json
import os
import threading
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fakes import file_handler, serving
from gm.cli import app
from gm.hearing import models
from gm.hearing.models import DownloadFailed, default_model, vosk_loads
from test_voice_models import MODEL, make_model, model_zip

runner = CliRunner()
OLD = {**MODEL, "conf/model.conf": b"--the-model-in-use\n"}


@pytest.fixture
def server():
    """Serves `files[path] = (body, with_length)`; without a length the body ends with the
    connection (HTTP/1.0). `cut` lists the paths whose reader hung up before the body's end."""
    files: dict[str, tuple[bytes, bool, float]] = {}
    cut: list[str] = []
    served = threading.Semaphore(0)
    with serving(file_handler(files, cut, served)) as port:
        def add(path: str, body: bytes, with_length: bool = True) -> str:
            files[path] = (body, with_length, 0.0)
            return f"http://127.0.0.1:{port}{path}"

        add.cut = cut  # type: ignore[attr-defined]
        add.served = served  # type: ignore[attr-defined]
        yield add


@pytest.fixture
def in_use(monkeypatch):
    """The English model in use (files named as a model's), in the user models folder."""
    monkeypatch.delenv("GM_MODEL_URL", raising=False)
    monkeypatch.delenv(models.MAX_MB_ENV, raising=False)
    root = models.user_models()
    return make_model(root / "en", OLD)


def unchanged(model: Path) -> bool:
    """Whether the model in use is whole and alone in the models folder."""
    files = {str(p.relative_to(model)): p.read_bytes() for p in model.rglob("*") if p.is_file()}
    return files == OLD and sorted(p.name for p in model.parent.iterdir()) == ["en"]


def get(url: str, *extra: str):
    return runner.invoke(app, ["voice", "model", "--get", "en", "--url", url, *extra])


def refused(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == "" and result.stderr.count("\n") == 1 and "bug in gm" not in result.stderr
    return result.stderr


def bomb(unpacked: int) -> bytes:
    """A zip of a model's files whose graph is `unpacked` bytes of zeros, deflated to almost nothing."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in MODEL.items():
            z.writestr("m/" + name, data)
        with z.open("m/graph/HCLG.fst", "w") as member:
            for _ in range(unpacked >> 20):
                member.write(bytes(1 << 20))
    return buffer.getvalue()


def test_a_small_zip_of_a_models_file_names_is_refused_by_vosk_and_the_model_in_use_stays(server, in_use):
    body = model_zip()
    assert len(body) < 2000
    said = refused(get(server("/en.zip", body)))
    assert said.startswith("gm: the download is not a model vosk can load (vosk could not load the speech model")
    assert unchanged(in_use)


def test_a_zip_bomb_is_refused_before_it_is_unpacked(server, in_use, monkeypatch):
    monkeypatch.setenv(models.MAX_MB_ENV, "1")  # the zip 1 MB at most, its files 4 MB
    body = bomb(16 << 20)
    assert len(body) < 100_000
    said = refused(get(server("/bomb.zip", body)))
    assert "would unpack to 16 MB, more than the 4 MB the model can take (a zip bomb?)" in said
    assert unchanged(in_use)


def test_a_download_with_no_length_is_cut_at_the_ceiling(server, in_use, monkeypatch):
    monkeypatch.setenv(models.MAX_MB_ENV, "1")
    said = refused(get(server("/endless.zip", bytes(64 << 20), with_length=False)))
    assert "grew past 1 MB, the most the model can be (GM_MODEL_MAX_MB sets another)" in said
    assert server.served.acquire(timeout=60)  # the server's own thread has seen the hang-up (however busy the machine)
    assert server.cut == ["/endless.zip"]  # gm hung up long before the 64 MB were sent
    assert unchanged(in_use)


def test_a_download_claiming_more_than_the_ceiling_is_not_read(server, in_use, monkeypatch):
    monkeypatch.setenv(models.MAX_MB_ENV, "1")
    said = refused(get(server("/big.zip", bytes(2 << 20))))
    assert "2097152 bytes is more than 1 MB" in said
    assert unchanged(in_use)


def test_a_truncated_zip_is_refused(server, in_use):
    body = model_zip()
    said = refused(get(server("/cut.zip", body[:len(body) // 2])))
    assert said.startswith("gm: the download is not a usable zip file")
    assert unchanged(in_use)


@pytest.mark.parametrize("name", ["../escape.txt", "m/../../escape.txt", "XtmpXescape.txt", "m/..\\..\\escape"])
def test_a_zip_with_a_member_outside_its_folder_is_refused(server, in_use, name):
    body = model_zip({**{f"m/{k}": v for k, v in MODEL.items()}, name: b"out"}, top="")
    body = body.replace(b"XtmpX", b"/tmp/")  # an absolute name (zipfile writes none)
    said = refused(get(server("/escape.zip", body)))
    assert "has a file outside its folder" in said and "escape" in said
    assert unchanged(in_use)
    assert not any(p.name.startswith("escape") for p in in_use.parent.parent.rglob("*"))


def test_a_bad_ceiling_is_one_line(server, in_use, monkeypatch):
    monkeypatch.setenv(models.MAX_MB_ENV, "lots")
    said = refused(get(server("/en.zip", model_zip())))
    assert said == "gm: GM_MODEL_MAX_MB must be a whole number of MB from 1 to 1048576, not 'lots'\n"
    assert unchanged(in_use)


def test_a_model_vosk_loads_takes_the_place_of_the_one_in_use(server, in_use, monkeypatch):
    loaded = []
    monkeypatch.setattr(models, "vosk_loads", loaded.append)
    result = get(server("/en.zip", model_zip()), "--json")
    assert result.exit_code == 0, result.output
    assert (in_use / "conf" / "model.conf").read_bytes() == MODEL["conf/model.conf"]
    assert [p.name for p in loaded] == ["vosk-model-small-en-us-0.15"]  # loaded where it was unpacked
    assert loaded[0].parent.parent.name.startswith(".en-download-")
    assert sorted(p.name for p in in_use.parent.iterdir()) == ["en"]


def test_what_interrupted_downloads_left_is_cleared_and_said_and_a_model_set_aside_is_put_back(server, in_use):
    root = in_use.parent
    stale = root / ".en-download-old"
    (stale / "unpacked").mkdir(parents=True)
    (stale / "model.zip.part").write_bytes(bytes(3 << 20))
    os.utime(stale, (0, 0))  # an old gm's, which took no lock
    killed = root / ".ja-download-kill"
    make_model(killed / "replaced", OLD)  # stopped between the two renames: no ja model in place
    (killed / ".lock").touch()
    live = root / ".en-download-live"
    live.mkdir()
    with (live / ".lock").open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # a gm still downloading
        result = get(server("/en.zip", model_zip()))
        assert live.is_dir()
    assert result.exit_code == 2  # vosk refuses the download; the report comes first
    lines = result.stdout.splitlines()
    assert lines == [f"Removed what an interrupted download left: {stale} (3.0 MB).",
                     f"Put back the model an interrupted download had set aside: {root / 'ja'}.",
                     f"Removed what an interrupted download left: {killed} (0.0 MB)."]
    assert not stale.exists() and not killed.exists()
    assert (root / "ja" / "conf" / "model.conf").read_bytes() == OLD["conf/model.conf"]
    assert (in_use / "conf" / "model.conf").read_bytes() == OLD["conf/model.conf"]


def test_the_json_answer_lists_what_was_cleared(server, in_use, monkeypatch):
    monkeypatch.setattr(models, "vosk_loads", lambda path: None)
    stale = in_use.parent / ".en-download-old"
    stale.mkdir()
    os.utime(stale, (0, 0))
    result = get(server("/en.zip", model_zip()), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["cleared"] == [{"path": str(stale), "size": 0, "restored": None}]


def test_vosk_refuses_what_is_no_model_and_a_loader_that_exits_is_a_refusal(tmp_path, monkeypatch):
    with pytest.raises(DownloadFailed, match="not a model vosk can load"):
        vosk_loads(make_model(tmp_path / "m"))
    import vosk

    def exits(*args, **kwargs):
        raise SystemExit(1)

    monkeypatch.setattr(vosk, "Model", exits)
    with pytest.raises(DownloadFailed, match="not a model vosk can load"):
        vosk_loads(make_model(tmp_path / "m"))


@pytest.mark.vosk_model
def test_vosk_loads_a_real_model():
    korean = default_model("ko")
    if korean is None:
        pytest.skip("the Korean vosk model is not installed (./setup.sh --test)")
    vosk_loads(korean)
