"""Which speech model to listen with (`--vosk-model`, $GM_VOSK_MODEL, the language's default,
pocketsphinx for English), loaded once per process."""

from __future__ import annotations

import atexit
import functools
import os
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Callable

from gm.hearing.cannot_listen import NoModel
from gm.hearing.model_check import check_model
from gm.hearing.vosk_model import SpeechModel

if TYPE_CHECKING:
    from gm.hearing.recognition import Model

MODEL_ENV = "GM_VOSK_MODEL"
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


def load_model(option: str | None, lang: str | None = None) -> Model:
    """The model `option` (or $GM_VOSK_MODEL, or the default for `lang`) names; loaded once per
    process. English without a vosk model listens with pocketsphinx (`gm.hearing.sphinx`)."""
    return model_loader(option, lang)()


def model_loader(option: str | None, lang: str | None = None) -> Callable[[], Model]:
    """What loads the model for `option` and `lang` (`load_model`), found at once: NoModel
    when there is none, before anything slow is loaded."""
    try:
        path = model_dir(option, lang).resolve()
    except NoModel:
        from gm.hearing import sphinx

        if option or os.environ.get(MODEL_ENV) or lang != SPHINX_LANG or not sphinx.available():
            raise
        return sphinx.load
    return functools.partial(_loaded, path)



@functools.lru_cache(maxsize=2)
def _loaded(path: Path) -> SpeechModel:
    atexit.register(_loaded.cache_clear)  # free models before vosk's own module is torn down
    return SpeechModel(path)
