"""`gm voice model --get` against a local HTTP server on 127.0.0.1 (no other network; every
response bounded in bytes): a mirror (--url, GM_MODEL_URL) checked against the official checksums,
an overall time limit a trickling server cannot outlast, and a zip checked to hold a model, to
fit the limit and the disk, before anything is unpacked."""

from __future__ import annotations

import hashlib
import io
import json
import threading
import time
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.hearing import models
from gm.hearing.models import DownloadFailed, ModelFile, get_model, model_file
from test_voice_models import MODEL, NNET, model_zip

runner = CliRunner()


@pytest.fixture(autouse=True)
def vosk_takes_the_test_models(monkeypatch):
    """The test models hold vosk's file names, not a model vosk loads: here its loader takes them
    (tests/gm/hearing/test_model_install.py has vosk itself refuse them)."""
    monkeypatch.setattr(models, "vosk_loads", lambda path: None)
OFFICIAL_NAME = "vosk-model-small-en-us-0.15.zip"


@pytest.fixture
def server():
    """Serves `files[path] = (body, content_length, seconds_between_bytes)`; a trickle sends its
    bytes one at a time, each after a pause, and at most len(body) of them."""
    files: dict[str, tuple[bytes, int, float]] = {}
    served: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            served.append(self.path)
            if self.path not in files:
                self.send_error(404)
                return
            body, length, pause = files[self.path]
            self.send_response(200)
            self.send_header("Content-Length", str(length))
            self.end_headers()
            if not pause:
                self.wfile.write(body)
                return
            try:
                for byte in body:
                    time.sleep(pause)
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
            except OSError:  # the client gave up: what the test wants
                return

        def log_message(self, *args):
            """The test reads results, not the server's log."""

    http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    http.daemon_threads = True
    thread = threading.Thread(target=http.serve_forever, args=(0.01,), daemon=True)  # shut down within 10 ms
    thread.start()

    def add(path: str, body: bytes, length: int | None = None, pause: float = 0.0) -> str:
        files[path] = (body, len(body) if length is None else length, pause)
        return f"http://127.0.0.1:{http.server_port}{path}"

    add.served = served  # type: ignore[attr-defined]
    yield add
    http.shutdown()
    http.server_close()
    thread.join()


def test_the_official_english_model_has_its_checksum_recorded():
    entry = models.OFFICIAL["en"]
    assert entry.url.endswith("/" + OFFICIAL_NAME) and entry.sha256 is not None and len(entry.sha256) == 64


def test_a_mirror_folder_keeps_the_official_checksum_and_a_zip_of_another_name_does_not():
    mirror = model_file("en", "https://mirror.example/vosk/")
    assert mirror.url == "https://mirror.example/vosk/" + OFFICIAL_NAME
    assert mirror.sha256 == models.OFFICIAL["en"].sha256
    other = model_file("en", "https://mirror.example/my-model.zip")
    assert other.url == "https://mirror.example/my-model.zip" and other.sha256 is None


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://x/", "mirror.example/", "http://", ""])
def test_a_model_address_must_be_http(url):
    if not url:
        assert model_file("en", url) == models.OFFICIAL["en"]
        return
    with pytest.raises(DownloadFailed, match="must be an http:// or https:// address"):
        model_file("en", url)


def test_a_mirror_given_by_the_environment_is_used_and_checked(server, tmp_path, monkeypatch):
    body = model_zip()
    url = server(f"/mirror/{OFFICIAL_NAME}", body)
    monkeypatch.setenv("GM_MODEL_URL", url.removesuffix(OFFICIAL_NAME))
    with pytest.raises(DownloadFailed, match=r"is corrupt \(SHA-256 .*expected 30f26242"):
        get_model("en", root=tmp_path, timeout=5)  # not the official zip: its checksum differs
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(models, "OFFICIAL", {"en": ModelFile(models.OFFICIAL["en"].url,
                                                             sha256=hashlib.sha256(body).hexdigest())})
    fetched = get_model("en", root=tmp_path, timeout=5)
    assert (fetched.path / "am" / "final.mdl").read_bytes() == NNET
    assert server.served == [f"/mirror/{OFFICIAL_NAME}"] * 2


def test_gm_voice_model_get_url_installs_from_the_address_given(server, monkeypatch):
    monkeypatch.delenv("GM_MODEL_URL", raising=False)
    body = model_zip()
    url = server("/models/en-small.zip", body)
    result = runner.invoke(app, ["voice", "model", "--get", "en", "--url", url, "--json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["sha256"] == hashlib.sha256(body).hexdigest()
    assert (models.user_models() / "en" / "conf" / "model.conf").read_bytes() == MODEL["conf/model.conf"]


def test_url_without_get_is_refused():
    result = runner.invoke(app, ["voice", "model", "--url", "http://127.0.0.1:1/x.zip"])
    assert result.exit_code == 2 and result.stderr == "gm: --url goes with --get LANG\n"


def test_a_trickling_server_cannot_outlast_the_time_limit(server, tmp_path):
    url = server("/slow.zip", b"x" * 400, length=1 << 20, pause=0.01)  # 400 bytes at most, then it hangs up
    with pytest.raises(DownloadFailed, match="took too long") as caught:
        get_model("en", {"en": ModelFile(url)}, root=tmp_path, timeout=5, time_limit=0.3)
    assert str(caught.value).endswith("nothing was kept")
    assert list(tmp_path.iterdir()) == []


def test_gm_voice_model_get_keeps_to_its_time_limit(server, monkeypatch):
    monkeypatch.setattr(models, "TIME_LIMIT", 0.3)
    url = server("/slow.zip", b"x" * 400, length=1 << 20, pause=0.01)
    result = runner.invoke(app, ["voice", "model", "--get", "en", "--url", url])
    assert result.exit_code == 2 and "took too long" in result.stderr and result.stderr.count("\n") == 1


def _bomb(names: dict[str, int]) -> bytes:
    """A zip of files of zeros (`size` bytes each), deflated to almost nothing."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for name, size in names.items():
            with z.open(name, "w", force_zip64=True) as member:
                for _ in range(size >> 20):
                    member.write(bytes(1 << 20))
    return buffer.getvalue()


def test_a_zip_that_holds_no_model_is_refused_before_anything_is_unpacked(server, tmp_path, monkeypatch):
    unpacked = []
    monkeypatch.setattr(zipfile.ZipFile, "extractall", lambda self, *a, **k: unpacked.append(a))
    url = server("/bomb.zip", _bomb({"filler/zeros.bin": 64 << 20}))
    with pytest.raises(DownloadFailed, match="is not a vosk model .*nothing was kept$"):
        get_model("en", {"en": ModelFile(url)}, root=tmp_path, timeout=5)
    assert unpacked == [] and list(tmp_path.iterdir()) == []


def test_a_model_zip_past_the_unpacked_limit_is_refused_before_unpacking(server, tmp_path, monkeypatch):
    monkeypatch.setenv(models.MAX_MB_ENV, "8")  # the files may take 4 × 8 MB
    unpacked = []
    monkeypatch.setattr(zipfile.ZipFile, "extractall", lambda self, *a, **k: unpacked.append(a))
    names = {f"m/{name}": 0 for name in MODEL} | {"m/graph/HCLG.fst": 64 << 20}
    url = server("/bomb.zip", _bomb(names))
    with pytest.raises(DownloadFailed, match="would unpack to 64 MB, more than the 32 MB the model can take"):
        get_model("en", {"en": ModelFile(url)}, root=tmp_path, timeout=5)
    assert unpacked == [] and list(tmp_path.iterdir()) == []


def test_a_model_zip_larger_than_the_free_disk_is_refused(server, tmp_path, monkeypatch):
    import shutil

    monkeypatch.setattr(shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(10, 10, 0))  # type: ignore[attr-defined]
    url = server("/en.zip", model_zip())
    with pytest.raises(DownloadFailed, match="the disk has 0 MB free"):
        get_model("en", {"en": ModelFile(url)}, root=tmp_path, timeout=5)
    assert list(tmp_path.iterdir()) == []


def test_a_claimed_size_past_any_model_is_refused_before_reading(server, tmp_path):
    url = server("/huge.zip", b"x" * 10, length=10**15)
    with pytest.raises(DownloadFailed, match="is more than 80 MB, the most the model can be"):
        get_model("en", {"en": ModelFile(url)}, root=tmp_path, timeout=5)
