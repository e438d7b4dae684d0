import itertools
import os
import shutil
import sys

import pytest
from hypothesis import HealthCheck, settings

from fakes import FakeClock
from gm.launch import vad_on_one_thread

# Property tests are bounded by example count, never by time: a busy CI machine must not fail
# them (Hypothesis's 200 ms deadline did). Under CI the examples are fixed, so a run repeats.
settings.register_profile("gm", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("gm"), derandomize=True, database=None)
settings.load_profile("ci" if os.environ.get("CI") else "gm")
QUICK_SHARE, QUICK_EXAMPLES = 5, 20  # the quick loop tries a fifth of a property's examples, at least 20


vad_on_one_thread()  # the detector's OpenMP copy on one thread, as the `gm` program loads it (gm.launch)


def _blas_on_one_thread():
    """numpy's OpenBLAS starts a thread per core, and they spin while they wait for work: e2k's
    small model (the katakana of an English word) took about 6 times the CPU of one thread, for
    the same katakana. The tests load numpy under OPENBLAS_NUM_THREADS=1, which OpenBLAS reads
    once, as it loads; the variable is then taken away again, so gm's subprocesses are left as
    they are."""
    if "numpy" in sys.modules or "OPENBLAS_NUM_THREADS" in os.environ:
        return
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        import numpy  # noqa: F401
    finally:
        del os.environ["OPENBLAS_NUM_THREADS"]


_blas_on_one_thread()


def _whisper_on_one_thread():
    """CTranslate2 decodes on the threads gm gives it (the cores, at most 4), and on two cores the
    threads' waits cost about a quarter more CPU for the same hearing: four Japanese hearing tests
    took 31 CPU-s on two threads and 24 on one, in the same time. The tests' Whisper runs on one
    thread; gm's own choice is checked where it is made (test_whisper_loading.py)."""
    try:
        import ctranslate2
    except ImportError:
        return
    whisper = ctranslate2.models.Whisper

    def on_one_thread(*args, **options):
        return whisper(*args, **{**options, "intra_threads": 1})

    ctranslate2.models.Whisper = on_one_thread


_whisper_on_one_thread()


def pytest_collection_finish(session):
    """The quick loop (`-m "not slow"`) tries each property on a fifth of its examples (Hypothesis's
    100 → 20, a count of its own of 200 → 40), never on fewer than QUICK_EXAMPLES unless it asks for
    fewer; the whole suite on all of them. (A property's settings are those Hypothesis keeps on its
    test, set by `@settings` or the profile.)"""
    if "not slow" not in (session.config.getoption("markexpr") or ""):
        return
    properties = {id(item.obj): item.obj for item in session.items if getattr(item.obj, "is_hypothesis_test", False)}
    for test in properties.values():
        full = test._hypothesis_internal_use_settings.max_examples
        quick = max(full // QUICK_SHARE, min(full, QUICK_EXAMPLES))
        test._hypothesis_internal_use_settings = settings(test._hypothesis_internal_use_settings, max_examples=quick)


SLOW_NEEDS = ("espeak", "vosk_model", "solver")  # markers of tests that render speech, decode audio, compile
SLOW_FIXTURES = ("engine",)  # a text-to-speech engine renders in the test


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects
def pytest_collection_modifyitems(config, items):
    """Tests that render speech, decode audio or run the compiled solver are `slow`, like those
    marked so (`pytest -m "not slow"` leaves them out). Tests marked `espeak` need the espeak-ng
    program; skip them, saying why, where it is missing. The long fuzz and the stress runs run only when asked for (`-m
    fuzz_long`, `-m stress`)."""
    for item in items:
        if any(m in item.keywords for m in SLOW_NEEDS) or set(SLOW_FIXTURES) & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    for marker, what in (("fuzz_long", "the long CLI fuzz"), ("stress", "the stress run")):
        if marker not in (config.getoption("markexpr") or ""):
            long = pytest.mark.skip(reason=f"{what} runs with -m {marker}")
            for item in items:
                if marker in item.keywords:
                    item.add_marker(long)
    if shutil.which("espeak-ng"):
        return
    skip = pytest.mark.skip(reason="espeak-ng is not installed (./setup.sh installs it as root)")
    for item in items:
        if "espeak" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def gm(tmp_path, monkeypatch):
    """Run `gm score ...` on a journal in tmp_path (never the user's real one), printing only."""
    from typer.testing import CliRunner

    from gm.cli import app

    path = tmp_path / "match.jsonl"
    monkeypatch.setenv("GM_SCORE_FILE", str(path))
    monkeypatch.setenv("GM_SPEECH", "off")
    runner = CliRunner()

    def run(*args):
        return runner.invoke(app, ["score", *args])

    run.path = path
    return run


@pytest.fixture(autouse=True)
def clean_python_environment(monkeypatch):
    """Subprocesses import the Python they were given, not whatever PYTHONPATH points at."""
    for name in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONSAFEPATH"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session")
def data_dirs(tmp_path_factory):
    """Where the tests' user data folders are made, one after the other."""
    return tmp_path_factory.mktemp("data"), itertools.count()


@pytest.fixture(autouse=True)
def own_data_dir(data_dirs, monkeypatch):
    """Every test has its own empty user data folder (downloaded speech models, the score
    journal): nothing the machine holds there can change a result. It is made only if gm writes
    there, as gm makes its own folders: most tests write nothing, and a folder made for each
    cost the removal of thousands. (Numbered here: a numbered `mktemp` per test reads the whole
    folder of those made before.)"""
    root, numbers = data_dirs
    monkeypatch.setenv("XDG_DATA_HOME", str(root / str(next(numbers))))


@pytest.fixture(scope="module")
def engine():
    """Skips where no text-to-speech engine can render English (no flite, no espeak-ng library)."""
    from gm.speech.settings import SpeechSettings
    from gm.speech.tts import Renderer, SpeechUnavailable

    try:
        renderer = Renderer(SpeechSettings("en"))
    except SpeechUnavailable as error:
        pytest.skip(f"no text-to-speech engine: {error}")
    renderer.close()


@pytest.fixture
def pyttsx3_only(monkeypatch):
    """A machine without flite and without Open JTalk: every language is spoken through pyttsx3 (espeak-ng)."""
    from gm.speech.engines import flite, openjtalk

    monkeypatch.setattr(flite, "available", lambda: False)
    monkeypatch.setattr(openjtalk, "available", lambda: False)
