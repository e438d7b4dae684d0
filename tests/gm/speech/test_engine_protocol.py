"""Every speech engine declares what the renderer needs of it (gm.speech.engines.protocol)."""

from __future__ import annotations

import pytest

from gm.speech import tts
from gm.speech.engines import openjtalk


@pytest.mark.parametrize("module", tts.ENGINES, ids=lambda m: m.NAME)
def test_every_engine_declares_warm_up_and_whether_it_renders_in_parts(module):
    engine = module.Engine
    assert callable(engine.warm_up) and callable(engine.render) and callable(engine.close)
    assert isinstance(engine.reads_kanji, bool)
    assert (engine.render_parts is not None) == (module is openjtalk)
    assert engine.render_parts is None or callable(engine.render_parts)
