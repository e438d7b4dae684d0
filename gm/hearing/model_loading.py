"""Which listener hears a language, loaded once per process: the registry of recognisers.

`LISTENERS` names them: whisper (closed-set scoring, `gm-card-nights[whisper]`, any language Whisper knows),
pocketsphinx (English, inside its wheel) and vosk (a model folder: `--vosk-model`,
$GM_VOSK_MODEL, or the language's downloaded or pip-installed model). `--listener NAME` (or
$GM_LISTENER) chooses one; without it a given vosk model is used, else the voice pack's
`[language] listener`, else the others in `LISTENERS` order. A default that is not installed is
said once, with how to install it, and the next listener goes on."""

from __future__ import annotations

import atexit
import functools
import os
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Callable

from scorer.values import Refusal
from gm.hearing.cannot_listen import NoModel
from gm.hearing.model_check import check_model
from gm.hearing.vosk_model import SpeechModel
from gm.text.language import LISTENERS

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


def listener_name(listener: str | None) -> str | None:
    """The listener `--listener` or $GM_LISTENER names (None: the language's default)."""
    name = listener or os.environ.get(LISTENER_ENV) or None
    if name is not None and name not in LISTENERS:
        raise NoListener(f"--listener must be one of {', '.join(LISTENERS)}, not {name[:100]!r}")
    return name


def default_listener(lang: str | None) -> str:
    """The listener the voice pack of `lang` names (`[language] listener`)."""
    from gm.text.language import language

    return language(lang).listener if lang else "vosk"


def listeners_here(lang: str) -> list[tuple[str, bool]]:
    """Each listener, and whether it can hear `lang` on this machine (vosk: a model is found)."""
    from gm.hearing import sphinx, whisper
    from gm.hearing.models import default_model

    vosk = bool(os.environ.get(MODEL_ENV)) or default_model(lang) is not None
    return [("whisper", whisper.available()), ("pocketsphinx", lang == SPHINX_LANG and sphinx.available()),
            ("vosk", vosk)]


def model_loader(option: str | None, lang: str | None = None, listener: str | None = None,
                 fallback: Callable[[NoModel], None] | None = None) -> Callable[[], Model]:
    """What loads the listener's model for `lang`, found at once: NoModel when there is none,
    before anything slow is loaded. Without a `listener`, a vosk model given by `option` or
    $GM_VOSK_MODEL is used; else the pack's default, where it is installed (else `fallback` is
    told why, once, and the next listener goes on)."""
    name = listener_name(listener)
    if name is None and (option or os.environ.get(MODEL_ENV)):
        name = "vosk"
    if name == "whisper" or name is None and default_listener(lang) == "whisper":
        from gm.hearing import whisper

        if whisper.available() and lang:
            return functools.partial(whisper.load, lang)
        missing = NoModel(f"Whisper is not installed ({whisper.INSTALL})", "whisper_missing",
                          package=whisper.PARTS[0], how=whisper.INSTALL)
        if name == "whisper":
            raise missing
        if fallback is not None:
            fallback(missing)
    if name == "pocketsphinx":
        from gm.hearing import sphinx

        if lang != SPHINX_LANG or not sphinx.available():
            raise NoModel(f"pocketsphinx hears English only{'' if sphinx.available() else ' and is not installed'}",
                          "no_model", env=MODEL_ENV, how=_get_command(lang), lang=lang, get=_get_command(lang))
        return sphinx.load
    try:
        path = model_dir(option, lang).resolve()
    except NoModel:
        from gm.hearing import sphinx

        if name == "vosk" or lang != SPHINX_LANG or not sphinx.available():
            raise
        return sphinx.load
    return functools.partial(_loaded, path)



@functools.lru_cache(maxsize=2)
def _loaded(path: Path) -> SpeechModel:
    atexit.register(_loaded.cache_clear)  # free models before vosk's own module is torn down
    return SpeechModel(path)
