"""Speech models without the manual (edge: files and the network): where gm looks for a
language's model, and `gm voice model --get`, which downloads a small official model, checks
it and unpacks it into the user data folder, where it becomes that language's default.

A download goes to a temporary folder next to its destination; only a complete, checked and
unpacked model is moved into place (one rename), so a failed one leaves nothing behind. A
download has an overall time limit (a server trickling bytes cannot keep gm waiting); the zip's
table of contents is checked to hold a model, and to fit the limit and the free disk, before
anything is unpacked. A mirror (`--url`, or GM_MODEL_URL for a folder holding the official
files) is checked against the official checksums where its file is the official one. Which model
hears a language is its voice pack's `[language.model]`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable, Mapping

from gm.errors import GmError
from gm.text.language import ByLanguage, by_language

CHUNK = 1 << 16
MAX_UNPACKED = 8 << 30  # a zip that unpacks to more than this is refused
MAX_MEMBERS = 10_000  # files in a model's zip (a small model has a few dozen)
TIME_LIMIT = 20 * 60  # seconds a whole download may take
URL_ENV = "GM_MODEL_URL"  # a mirror: the folder (or the zip) to download the models from


@dataclass(frozen=True)
class ModelFile:
    """A downloadable model: its zip's address and, where recorded, the zip's size in bytes and
    SHA-256. Without a recorded size, the download must match the server's Content-Length."""

    url: str
    size: int | None = None
    sha256: str | None = None


OFFICIAL: Mapping[str, ModelFile] = by_language(
    lambda lang: ModelFile(lang.model.url, sha256=lang.model.sha256 or None) if lang.model.url else None)
"""The small official models (each pack's `[language.model] url`), with the SHA-256 of each zip
where it is recorded (every download of that file, from the official site or a mirror, is checked
against it; without one, the download must match the server's Content-Length and hold a model)."""


def _file_name(url: str) -> str:
    from urllib.parse import urlsplit

    return urlsplit(url).path.rsplit("/", 1)[-1]


def model_file(lang: str, url: str | None = None, table: Mapping[str, ModelFile] | None = None) -> ModelFile:
    """What to download for `lang`: the official file, or from `url` (else $GM_MODEL_URL): a folder
    (ending in "/") holding the official file, or a zip's own address. The official checksum
    applies whenever the file is the official one."""
    table = OFFICIAL if table is None else table
    if lang not in table:
        raise DownloadFailed(f"no model to download for {lang!r} (have: {', '.join(table)})")
    official = table[lang]
    url = url or os.environ.get(URL_ENV) or None
    if url is None:
        return official
    from urllib.parse import urlsplit

    if urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).netloc:
        raise DownloadFailed(f"a model address must be an http:// or https:// address, not {url[:200]!r}")
    if url.endswith("/"):
        url += _file_name(official.url)
    same = _file_name(url) == _file_name(official.url)
    return ModelFile(url, official.size if same else None, official.sha256 if same else None)

PACKAGES: ByLanguage[tuple[str, str]] = by_language(
    lambda lang: (lang.model.package, lang.model.install) if lang.model.package else None)
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


def get_model(lang: str, table: Mapping[str, ModelFile] | None = None, root: Path | None = None,
              progress: Progress | None = None, timeout: float = 30.0, url: str | None = None,
              time_limit: float | None = None) -> Fetched:
    """Download `lang`'s model (from `table`, the official one by default, or `url`: see
    `model_file`), check its size and checksum, unpack it and move it to `root`/`lang` (the user
    models folder by default), replacing any model there. `timeout` bounds each wait for the
    server, `time_limit` (TIME_LIMIT by default) the whole download."""
    from gm.hearing.cannot_listen import NoModel
    from gm.hearing.model_check import check_model

    entry = model_file(lang, url, table)
    root = root or user_models()
    try:
        root.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{lang}-download-", dir=root))
    except OSError as error:
        raise DownloadFailed(f"cannot write the models folder {str(root)!r} ({error.strerror or error})") from error
    try:
        archive = work / "model.zip"
        deadline = time.monotonic() + (TIME_LIMIT if time_limit is None else time_limit)
        size, digest = _download(entry, archive, progress, timeout, deadline)
        unpacked = _unzip(archive, work / "unpacked")
        try:
            model = check_model(_model_folder(unpacked), entry.url)
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


def _download(entry: ModelFile, to: Path, progress: Progress | None, timeout: float,
              deadline: float) -> tuple[int, str]:
    """Fetch `entry` into `to` before `deadline` (time.monotonic): its size and SHA-256.
    DownloadFailed when it stops early, takes too long or differs."""
    import http.client
    import urllib.error
    import urllib.request

    sha = hashlib.sha256()
    done = 0
    try:
        with urllib.request.urlopen(entry.url, timeout=min(timeout, max(0.1, deadline - time.monotonic()))) \
                as response, to.open("wb") as out:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() and len(length) < 19 else entry.size
            if total is not None and total > MAX_UNPACKED:
                raise DownloadFailed(f"download from {entry.url}: {total} bytes is more than a model; "
                                     "nothing was kept")
            while chunk := response.read1(CHUNK):  # what has come, so a trickle cannot outlast the deadline
                if time.monotonic() > deadline or done + len(chunk) > MAX_UNPACKED:
                    raise DownloadFailed(f"download from {entry.url} took too long or grew too large "
                                         f"(stopped after {done} bytes); nothing was kept")
                out.write(chunk)
                sha.update(chunk)
                done += len(chunk)
                if progress:
                    progress(done, total)
    except DownloadFailed:
        raise
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
    """Unpack a model's zip into `to`, once its table of contents shows a model that fits the size
    limit and the free disk (zipfile never unpacks a file past the size its entry declares)."""
    try:
        with zipfile.ZipFile(archive) as z:
            infos = z.infolist()
            if len(infos) > MAX_MEMBERS:
                raise DownloadFailed(f"the downloaded zip holds {len(infos)} files, more than a model; "
                                     "nothing was kept")
            _check_holds_a_model([info.filename for info in infos])
            unpacked = sum(info.file_size for info in infos)
            if unpacked > MAX_UNPACKED:
                raise DownloadFailed(
                    f"the downloaded zip would unpack to more than {MAX_UNPACKED >> 30} GB; nothing was kept"
                )
            free = shutil.disk_usage(archive.parent).free
            if unpacked > free:
                raise DownloadFailed(f"the model unpacks to {unpacked >> 20} MB and the disk has {free >> 20} MB "
                                     "free; nothing was kept")
            z.extractall(to)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError) as error:
        if isinstance(error, DownloadFailed):
            raise
        raise DownloadFailed(f"the download is not a usable zip file ({error}); nothing was kept") from error
    return to


def _check_holds_a_model(names: list[str]) -> None:
    """DownloadFailed unless the zip's names hold a vosk model's files, at its root or in one folder."""
    from gm.hearing.model_check import GRAPHS, MODEL_FILES

    tops = {name.split("/", 1)[0] + "/" for name in names if "/" in name.strip("/")}
    held = set(names)
    for prefix in ("", *tops, *(top + "model/" for top in tops), "model/"):
        if all(prefix + f in held for f in MODEL_FILES) and \
                any(all(prefix + f in held for f in graph) for graph in GRAPHS):
            return
    raise DownloadFailed(f"the download is not a vosk model (no {' + '.join(MODEL_FILES)} and a graph in its zip); "
                         "nothing was kept")


def _model_folder(unpacked: Path) -> Path:
    """The model inside an unpacked zip: its one top folder (official zips), or the zip's root."""
    entries = [p for p in unpacked.iterdir() if not p.name.startswith((".", "__MACOSX"))]
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else unpacked
