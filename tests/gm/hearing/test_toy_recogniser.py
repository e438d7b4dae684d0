"""A new recogniser is one `ListenerKind` (docs/design.md): a toy recogniser, declared here in a few
lines, is chosen by name from the registry and hears a question through the real listening asker."""

from pathlib import Path

import pytest

from fakes import listening_asker
from gm.hearing.model_loading import (LISTENER_KINDS, ListenerKind, NoListener, listener_name, listeners_here,
                                      model_loader)
from gm.hearing.phrases import Heard
from gm.ports import Answer, How
from gm.table.questions import Table
from gm.text.language import LISTENERS
from gm.text.lines import Pack


class ToyRecogniser:
    """Hears each block of audio as the words it holds (the scripted source's blocks are text)."""

    under_way = False

    def accept(self, block):
        return Heard.from_result({"text": block}) if block else None

    def finish(self):
        return Heard("")


class ToyModel:
    path, unk = Path("toy"), False

    def hears(self, word):
        return True

    def recogniser(self, rate, book=None):
        return ToyRecogniser()


TOY = ListenerKind("toy", find=lambda option, lang: ToyModel, here=lambda lang: lang == "en")
KINDS = {**LISTENER_KINDS, TOY.name: TOY}


def test_a_toy_recogniser_chosen_by_name_hears_a_count(clock):
    model = model_loader(None, "en", "toy", kinds=KINDS)()
    asker, printed = listening_asker(clock, ["two"], model=model)
    votes = Table(Pack("en"), ("Aki", "Ken", "Mio")).count(["Ken"], 6)
    assert asker.ask(votes) == Answer({"Ken": 2}, How.VOICE, True)
    assert "  (heard) two" in printed


def test_the_toy_recogniser_is_listed_beside_gms_own_and_unknown_where_not_registered():
    assert listener_name("toy", KINDS) == "toy"
    assert listeners_here("en", KINDS)[-1] == ("toy", True) and listeners_here("ko", KINDS)[-1] == ("toy", False)
    with pytest.raises(NoListener, match="--listener must be one of whisper, pocketsphinx, vosk, not 'toy'"):
        listener_name("toy")
    assert tuple(LISTENER_KINDS) == LISTENERS  # gm's own, the listeners a voice pack may name as its default
