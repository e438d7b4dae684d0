"""Which listener hears a language, loaded once per process: the registry of recognisers.

`LISTENER_KINDS` is the registry, one `ListenerKind` per name: whisper (closed-set scoring,
`gm-card-nights[whisper]`, any language Whisper knows), pocketsphinx (English, inside its wheel) and
vosk (a model folder: `--vosk-model`, $GM_VOSK_MODEL, or the language's downloaded or pip-installed
model). Each says whether it can hear a language here and finds what loads its model (a `Model`,
gm.hearing.recognition) at once, or says why not (NoModel). `--listener NAME` (or $GM_LISTENER)
chooses one; without it a given vosk model is used, else the voice pack's `[language] listener`,
else the others in `LISTENERS` order. A default that is not installed is said once, with how to
install it, and the next listener goes on."""

from __future__ import annotations

import atexit
import functools
import os
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING
from collections.abc import Callable, Mapping

from scorer.values import Refusal
from gm.hearing.cannot_listen import NoModel
from gm.hearing.model_check import check_model
from gm.hearing.vosk_model import VoskModel

if TYPE_CHECKING:
    from gm.hearing.recognition import Model

MODEL_ENV = "GM_VOSK_MODEL"
LISTENER_ENV = "GM_LISTENER"

SPHINX_LANG = "en"  # the language pocketsphinx hears without a download


def model_dir(option: str | None, lang: str | None = None) -> Path:
    """The model directory from `--vosk-model`, $GM_VOSK_MODEL, or the default for `lang`
    (`gm.hearing.models.default_model`); a pip model package (a folder holding `model/`) is
    accepted too. Checked to hold what vosk needs before vosk sees it."""
    given = option or os.environ.get(MODEL_ENV)
    if not given:
        from gm.hearing.models import default_model, how_to_get

        found = default_model(lang) if lang else None
        if found is None:
            raise NoModel(f"no speech model{f' for {lang}' if lang else ''}: give --vosk-model PATH or set "
                          f"{MODEL_ENV} ({how_to_get(lang)})", "no_model", env=MODEL_ENV, how=_get_command(lang),
                          lang=lang, get=how_to_get(lang))
        given = str(found)
    return check_model(Path(given).expanduser(), given)


def _get_command(lang: str | None) -> str:
    """The command that gets a model for `lang` (said in any language)."""
    from gm.hearing.models import OFFICIAL, PACKAGES

    if lang in PACKAGES:
        return PACKAGES[lang][1]
    return f"gm voice model --get {lang}" if lang in OFFICIAL else "gm voice model"


def load_model(option: str | None, lang: str | None = None, listener: str | None = None) -> Model:
    """The model of `listener` (see `model_loader`), loaded once per process."""
    return model_loader(option, lang, listener)()


class NoListener(Refusal):
    """A --listener (or $GM_LISTENER) that names no listener."""


def listener_name(listener: str | None, kinds: Mapping[str, ListenerKind] | None = None) -> str | None:
    """The listener `--listener` or $GM_LISTENER names (None: the language's default), one of
    `kinds` (the registry, `LISTENER_KINDS`)."""
    names = LISTENER_KINDS if kinds is None else kinds
    name = listener or os.environ.get(LISTENER_ENV) or None
    if name is not None and name not in names:
        raise NoListener(f"--listener must be one of {', '.join(names)}, not {name[:100]!r}")
    return name


def default_listener(lang: str | None) -> str:
    """The listener the voice pack of `lang` names (`[language] listener`)."""
    from gm.text.language import language

    return language(lang).listener if lang else "vosk"


Loader = Callable[[], "Model"]
"""What loads a listener's model (slowly), found at once."""


@dataclass(frozen=True)
class ListenerKind:
    """A recogniser gm can listen with, chosen by `name` (--listener): `find(option, lang)` is what
    loads its model for `lang` (`option`: --vosk-model), or NoModel saying why it cannot hear `lang`
    here, found before anything slow is loaded; `here(lang)`: whether it can hear `lang` on this
    machine (`gm voice check`)."""

    name: str
    find: Callable[[str | None, str | None], Loader]
    here: Callable[[str], bool]


def _find_whisper(option: str | None, lang: str | None) -> Loader:
    from gm.hearing import whisper

    if whisper.available() and lang:
        return functools.partial(whisper.load, lang)
    raise NoModel(f"Whisper is not installed ({whisper.INSTALL})", "whisper_missing",
                  package=whisper.PARTS[0], how=whisper.INSTALL)


def _find_sphinx(option: str | None, lang: str | None) -> Loader:
    from gm.hearing import sphinx

    if lang != SPHINX_LANG or not sphinx.available():
        raise NoModel(f"pocketsphinx hears English only{'' if sphinx.available() else ' and is not installed'}",
                      "no_model", env=MODEL_ENV, how=_get_command(lang), lang=lang, get=_get_command(lang))
    return sphinx.load


def _find_vosk(option: str | None, lang: str | None) -> Loader:
    return functools.partial(_loaded, model_dir(option, lang).resolve())


def _whisper_here(lang: str) -> bool:
    from gm.hearing import whisper

    return whisper.available()


def _sphinx_here(lang: str) -> bool:
    from gm.hearing import sphinx

    return lang == SPHINX_LANG and sphinx.available()


def _vosk_here(lang: str) -> bool:
    from gm.hearing.models import default_model

    return bool(os.environ.get(MODEL_ENV)) or default_model(lang) is not None


LISTENER_KINDS: Mapping[str, ListenerKind] = MappingProxyType({kind.name: kind for kind in (
    ListenerKind("whisper", _find_whisper, _whisper_here),
    ListenerKind("pocketsphinx", _find_sphinx, _sphinx_here),
    ListenerKind("vosk", _find_vosk, _vosk_here),
)})
"""Every listener by name, in `LISTENERS` order (a pack may name these as its default)."""


def listeners_here(lang: str, kinds: Mapping[str, ListenerKind] | None = None) -> list[tuple[str, bool]]:
    """Each listener, and whether it can hear `lang` on this machine (vosk: a model is found)."""
    return [(name, kind.here(lang)) for name, kind in (LISTENER_KINDS if kinds is None else kinds).items()]


def model_loader(option: str | None, lang: str | None = None, listener: str | None = None,
                 fallback: Callable[[NoModel], None] | None = None,
                 kinds: Mapping[str, ListenerKind] | None = None) -> Loader:
    """What loads the listener's model for `lang`, found at once: NoModel when there is none,
    before anything slow is loaded. `listener` names one of `kinds` (the registry,
    `LISTENER_KINDS`). Without it, a vosk model given by `option` or $GM_VOSK_MODEL is used;
    else the pack's default, where it is installed (else `fallback` is told why, once, and the
    next listener goes on)."""
    kinds = LISTENER_KINDS if kinds is None else kinds
    name = listener_name(listener, kinds)
    if name is None and (option or os.environ.get(MODEL_ENV)):
        name = "vosk"
    if name is not None:
        return kinds[name].find(option, lang)
    if default_listener(lang) == "whisper":
        try:
            return _find_whisper(option, lang)
        except NoModel as missing:
            if fallback is not None:
                fallback(missing)
    try:
        return _find_vosk(option, lang)
    except NoModel:
        if not _sphinx_here(lang or ""):
            raise
        return _find_sphinx(option, lang)


@functools.lru_cache(maxsize=2)
def _loaded(path: Path) -> VoskModel:
    atexit.register(_loaded.cache_clear)  # free models before vosk's own module is torn down
    return VoskModel(path)
