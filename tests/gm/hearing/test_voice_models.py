"""Speech models and recordings at the edge: a model folder and a WAV file are checked before
vosk sees them; `gm voice model --get` downloads (from a local server here), checks and
installs a model or leaves nothing behind; `gm voice hear` scores several files in one run."""

import hashlib
import io
import json
import os
import re
import struct
import threading
import wave
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli import app
from fakes import FakeClock
from gm.hearing import model_loading, models
from gm.hearing.cannot_listen import NoModel
from gm.hearing.model_check import check_model
from gm.hearing.model_loading import model_dir
from gm.hearing.recorded import BadWav, PcmSource, read_wav
from gm.hearing.models import DownloadFailed, ModelFile, default_model, get_model
from paths import FIXTURES

runner = CliRunner()


@pytest.fixture(autouse=True)
def vosk_takes_the_test_models(monkeypatch):
    """The test models hold vosk's file names, not a model vosk loads: here its loader takes them
    (tests/gm/hearing/test_model_install.py has vosk itself refuse them)."""
    monkeypatch.setattr(models, "vosk_loads", lambda path: None)
NNET = b"\x00B<TransitionModel> <Topology> \x00\x01<Nnet3> \ninput-node name=input dim=40\n"
NNET_IVECTOR = b"\x00B<TransitionModel> \x00<Nnet3> \ninput-node name=ivector dim=100\ninput-node name=input dim=40\n"
MODEL = {"am/final.mdl": NNET, "conf/mfcc.conf": b"--use-energy=false\n", "conf/model.conf": b"--beam=10.0\n",
         "graph/HCLr.fst": b"fst", "graph/Gr.fst": b"fst"}
IVECTOR = {f"ivector/{name}": b"x" for name in ("final.ie", "final.dubm", "final.mat", "global_cmvn.stats",
                                                 "online_cmvn.conf", "splice.conf")}


def make_model(root: Path, files=MODEL) -> Path:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


# -- model folders --------------------------------------------------------------------------------
def test_a_complete_model_folder_passes_and_a_pip_package_folder_leads_to_its_model(tmp_path):
    model = make_model(tmp_path / "pkg" / "model")
    assert check_model(tmp_path / "pkg", "pkg") == model
    assert check_model(make_model(tmp_path / "iv", {**MODEL, "am/final.mdl": NNET_IVECTOR, **IVECTOR}), "iv")


@pytest.mark.parametrize("drop, named", [
    ("am/final.mdl", "am/final.mdl"), ("conf/mfcc.conf", "conf/mfcc.conf"), ("conf/model.conf", "conf/model.conf"),
    ("graph/Gr.fst", "graph/HCLG.fst or graph/HCLr.fst+graph/Gr.fst"),
])
def test_a_model_folder_missing_a_part_is_named(tmp_path, drop, named):
    make_model(tmp_path, {k: v for k, v in MODEL.items() if k != drop})
    with pytest.raises(NoModel, match=re.escape(f"is not a vosk model (no {named})") + "$"):
        check_model(tmp_path, str(tmp_path))


def test_an_acoustic_model_that_takes_ivectors_needs_the_ivector_folder(tmp_path):
    make_model(tmp_path, {**MODEL, "am/final.mdl": NNET_IVECTOR})
    with pytest.raises(NoModel, match=r"\(no ivector/final.ie, ivector/final.dubm, .*ivector/splice.conf\)$"):
        check_model(tmp_path, "m")


def test_the_korean_model_without_ivector_is_refused_before_vosk_loads_it(tmp_path):
    korean = default_model("ko")
    if korean is None:
        pytest.skip("the Korean vosk model is not installed (./setup.sh --test)")
    for part in ("am", "conf", "graph"):
        (tmp_path / part).symlink_to(korean / part)
    with pytest.raises(NoModel, match=r"\(no ivector/final.ie, "):
        check_model(tmp_path, "ko")


@pytest.mark.parametrize("command", [["voice", "model", "{path}"],
                                     ["voice", "hear", "{wav}", "--answers", "a", "--vosk-model", "{path}"]])
def test_a_300_character_model_path_is_one_line(tmp_path, command):
    path = str(tmp_path / ("m" * 300))
    wav = write_wav(tmp_path / "a.wav")
    result = runner.invoke(app, [a.format(path=path, wav=wav) for a in command])
    assert result.exit_code == 2
    assert result.stderr.startswith("gm: speech model path '") and "File name too long" in result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_the_default_model_is_the_downloaded_one_then_the_pip_package(tmp_path, monkeypatch):
    monkeypatch.delenv("GM_VOSK_MODEL", raising=False)
    with pytest.raises(NoModel, match=r"^no speech model for ja: .*\(or run `gm voice model --get ja`\)$"):
        model_dir(None, "ja")
    mine = make_model(models.user_models() / "ja")
    assert model_dir(None, "ja") == mine
    korean = default_model("ko")
    if korean is not None:
        assert korean.name == "model" and (korean / "am" / "final.mdl").is_file()


# -- WAV files ------------------------------------------------------------------------------------
def write_wav(path: Path, rate=16000, channels=1, width=2, frames=b"") -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(frames or bytes(width * channels * rate // 10))
    return path


def with_rate(path: Path, rate: int) -> Path:
    """The WAV at `path` with `rate` written straight into its header (the wave module refuses some)."""
    data = bytearray(path.read_bytes())
    data[24:28] = struct.pack("<I", rate)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("make, message", [
    (lambda p: write_wav(p, width=1), "need 16-bit PCM, mono or stereo, got 1 channel(s) of 8 bits"),
    (lambda p: write_wav(p, width=3), "need 16-bit PCM, mono or stereo, got 1 channel(s) of 24 bits"),
    (lambda p: write_wav(p, channels=3), "need 16-bit PCM, mono or stereo, got 3 channel(s) of 16 bits"),
    (lambda p: write_wav(p, rate=4000), "a rate of 4000 Hz cannot be heard (need 8000–48000 Hz)"),
    (lambda p: write_wav(p, rate=96000), "a rate of 96000 Hz cannot be heard"),
    (lambda p: with_rate(write_wav(p), 0), "a rate of 0 Hz cannot be heard"),
    (lambda p: with_rate(write_wav(p), 1), "a rate of 1 Hz cannot be heard"),
    (lambda p: with_rate(write_wav(p), 2 ** 32 - 1), "a rate of 4294967295 Hz cannot be heard"),
    (lambda p: p.write_text("not audio") and p, "not a WAV file"),
    (lambda p: p.mkdir() or p, "not a regular file"),
    (lambda p: os.mkfifo(p) or p, "not a regular file"),
])
def test_a_wav_vosk_cannot_take_is_refused_with_its_reason(tmp_path, make, message):
    path = make(tmp_path / "x.wav")
    with pytest.raises(BadWav) as caught:
        read_wav(path)
    assert str(caught.value).startswith(f"{path}: ") and message in str(caught.value)


def test_a_bad_wav_is_one_line_and_exit_2_before_any_model_is_loaded(tmp_path, monkeypatch):
    monkeypatch.delenv("GM_VOSK_MODEL", raising=False)
    good, bad = write_wav(tmp_path / "good.wav"), with_rate(write_wav(tmp_path / "bad.wav"), 2 ** 32 - 1)
    result = runner.invoke(app, ["voice", "hear", str(good), str(bad), "--answers", "a,b", "--json"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"gm: {bad}: a rate of 4294967295 Hz cannot be heard (need 8000–48000 Hz)\n"


def test_stereo_is_mixed_down_to_mono(tmp_path):
    left_right = struct.pack("<4h", 1000, 3000, -2000, -4000)
    rate, frames = read_wav(write_wav(tmp_path / "s.wav", rate=22050, channels=2, frames=left_right))
    assert rate == 22050 and struct.unpack("<2h", frames) == (2000, -3000)
    source = PcmSource.from_wavs([tmp_path / "s.wav"], FakeClock())
    assert source.rate == 22050


# -- gm voice model --get -------------------------------------------------------------------------
@pytest.fixture
def serve():
    """A local HTTP server (127.0.0.1) answering paths from a dict: body, and the Content-Length
    to claim (a larger one makes a download that stops early)."""
    files: dict[str, tuple[bytes, int]] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path not in files:
                self.send_error(404)
                return
            body, length = files[self.path]
            self.send_response(200)
            self.send_header("Content-Length", str(length))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            """The test reads results, not the server's log."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)  # shut down within 10 ms
    thread.start()

    def add(path: str, body: bytes, length: int | None = None) -> str:
        files[path] = (body, len(body) if length is None else length)
        return f"http://127.0.0.1:{server.server_port}{path}"

    yield add
    server.shutdown()
    server.server_close()
    thread.join()


def model_zip(files=MODEL, top="vosk-model-small-en-us-0.15/") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, data in files.items():
            z.writestr(top + name, data)
    return buffer.getvalue()


def test_a_download_is_checked_unpacked_and_becomes_the_default(serve, tmp_path, monkeypatch):
    monkeypatch.delenv("GM_VOSK_MODEL", raising=False)
    body = model_zip()
    url = serve("/en.zip", body)
    seen = []
    fetched = get_model("en", {"en": ModelFile(url, len(body), hashlib.sha256(body).hexdigest())},
                        progress=lambda done, total: seen.append((done, total)))
    assert fetched.path == models.user_models() / "en"
    assert (fetched.path / "am" / "final.mdl").read_bytes() == NNET
    assert fetched.size == len(body) and fetched.sha256 == hashlib.sha256(body).hexdigest()
    assert seen[-1] == (len(body), len(body))
    assert sorted(p.name for p in models.user_models().iterdir()) == ["en"]  # no temporary folder left
    assert model_dir(None, "en") == fetched.path


def test_a_download_replaces_the_model_it_updates(serve, tmp_path):
    make_model(tmp_path / "en", {**MODEL, "conf/model.conf": b"old"})
    url = serve("/en.zip", model_zip(top=""))  # a zip holding the model at its root
    fetched = get_model("en", {"en": ModelFile(url)}, root=tmp_path)
    assert (fetched.path / "conf" / "model.conf").read_bytes() == MODEL["conf/model.conf"]
    assert [p.name for p in tmp_path.iterdir()] == ["en"]


@pytest.mark.parametrize("entry, message", [
    (lambda url, body: ModelFile(url, sha256="0" * 64), "is corrupt (SHA-256 "),
    (lambda url, body: ModelFile(url, size=len(body) + 1), "stopped at {n} of {n1} bytes"),
    (lambda url, body: ModelFile(url.replace("/en.zip", "/missing.zip")), "failed after 0 bytes (Not Found)"),
    (lambda url, body: ModelFile("http://127.0.0.1:1/en.zip"), "failed after 0 bytes"),
])
def test_a_failed_or_corrupt_download_leaves_nothing_and_keeps_the_old_model(serve, tmp_path, entry, message):
    old = make_model(tmp_path / "en")
    body = model_zip()
    url = serve("/en.zip", body)
    with pytest.raises(DownloadFailed) as caught:
        get_model("en", {"en": entry(url, body)}, root=tmp_path, timeout=5)
    assert message.format(n=len(body), n1=len(body) + 1) in str(caught.value)
    assert str(caught.value).endswith("nothing was kept")
    assert [p.name for p in tmp_path.iterdir()] == ["en"] and (old / "am" / "final.mdl").read_bytes() == NNET


@pytest.mark.parametrize("body, length, message", [
    (model_zip()[:500], len(model_zip()), f"stopped at 500 of {len(model_zip())} bytes"),  # the connection ends early
    (b"not a zip at all", None, "is not a usable zip file"),
    (model_zip({**MODEL, "am/final.mdl": NNET_IVECTOR}), None, "is not a vosk model (no ivector/final.ie"),
])
def test_a_truncated_or_wrong_download_leaves_nothing(serve, tmp_path, body, length, message):
    url = serve("/en.zip", body, length)
    with pytest.raises(DownloadFailed, match="nothing was kept$") as caught:
        get_model("en", {"en": ModelFile(url)}, root=tmp_path, timeout=5)
    assert message in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_a_models_folder_that_cannot_be_written_is_one_reason(serve, tmp_path):
    (tmp_path / "file").write_text("in the way")
    with pytest.raises(DownloadFailed, match="^cannot write the models folder .*file/models"):
        get_model("en", {"en": ModelFile(serve("/en.zip", model_zip()))}, root=tmp_path / "file" / "models")


def test_gm_voice_model_get_installs_and_the_language_then_has_a_model(serve, monkeypatch):
    monkeypatch.delenv("GM_VOSK_MODEL", raising=False)
    body = model_zip()
    official = {"en": ModelFile(serve("/en.zip", body)), "ja": ModelFile(serve("/x", b"x"))}
    monkeypatch.setattr(models, "OFFICIAL", official)
    result = runner.invoke(app, ["voice", "model", "--get", "en", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"lang": "en", "path": str(models.user_models() / "en"), "size": len(body),
                                         "sha256": hashlib.sha256(body).hexdigest(), "cleared": []}
    result = runner.invoke(app, ["voice", "model", "--get", "ja"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("gm: the download is not a usable zip file") and result.stderr.count("\n") == 1
    assert sorted(p.name for p in models.user_models().iterdir()) == ["en"]


def test_gm_voice_model_get_ko_says_which_package_brings_it():
    result = runner.invoke(app, ["voice", "model", "--get", "ko"])
    assert result.exit_code == 0
    assert result.stdout.startswith('The ko model installs with pip: pip install "gm-card-nights[ko]"')
    result = runner.invoke(app, ["voice", "model", "--get", "fr"])
    assert result.exit_code == 2 and result.stderr == "gm: --get: no language 'fr' (have: en, ja, ko)\n"


# -- gm voice hear, several files -----------------------------------------------------------------
KO_FIXTURES = FIXTURES / "listen_ko"


@pytest.mark.slow
@pytest.mark.vosk_model
def test_gm_voice_hear_scores_several_files_with_one_model_load(monkeypatch):
    if default_model("ko") is None:
        pytest.skip("the Korean vosk model is not installed (./setup.sh --test)")
    loads = []
    real = model_loading.VoskModel

    class Counted(real):
        def __init__(self, path):
            loads.append(path)
            super().__init__(path)

    monkeypatch.setattr(model_loading, "VoskModel", Counted)
    model_loading._loaded.cache_clear()
    files = [str(KO_FIXTURES / f"{name}.wav") for name in ("minsu", "seoyeon", "maja")]
    result = runner.invoke(app, ["voice", "hear", *files, "--answers", "민수,서연,지훈", "--lang", "ko", "--json"])
    model_loading._loaded.cache_clear()
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [list(row) for row in rows] == [["file", "text", "answer"]] * 3
    # 맞아 (yes) is another phrase of the table: no answer to this question
    assert [(row["file"], row["answer"]) for row in rows] == list(zip(files, ["민수", "서연", None]))
    assert len(loads) == 1


@pytest.mark.slow
@pytest.mark.vosk_model
def test_gm_voice_model_lang_ko_finds_the_pip_model_and_hears_every_korean_word(monkeypatch):
    if default_model("ko") is None:
        pytest.skip("the Korean vosk model is not installed (./setup.sh --test)")
    monkeypatch.delenv("GM_VOSK_MODEL", raising=False)
    result = runner.invoke(app, ["voice", "model", "--lang", "ko", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["path"] == str(default_model("ko").resolve()) and report["missing_words"] == []
