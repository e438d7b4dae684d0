"""Voice packs are read once and shared: each caller gets them read-only, so no caller can change
the lines another one says."""

from __future__ import annotations

import pytest

from gm.text.lines import Pack
from voices import OWN, load_pack


@pytest.mark.parametrize("lang", OWN)
def test_a_shared_pack_refuses_every_change_and_keeps_its_lines(lang):
    pack = load_pack(lang)
    card = Pack(lang).text("werewolf.cards.werewolf")
    with pytest.raises(TypeError):
        pack["werewolf"]["cards"]["werewolf"] = "Wolf"  # type: ignore[index]
    with pytest.raises(TypeError):
        Pack(lang).entries["common"]["yes"] = "nope"  # type: ignore[index]
    with pytest.raises(AttributeError):
        pack["language"]["voices"].append("nobody")
    with pytest.raises(TypeError):
        del pack["language"]  # type: ignore[attr-defined]
    assert Pack(lang).text("werewolf.cards.werewolf") == card and "nobody" not in load_pack(lang)["language"]["voices"]


def test_the_readings_a_night_adds_stay_its_own():
    night = Pack("ja", {"健": "けん"})
    night.readings["美緒"] = "みお"
    assert "健" not in Pack("ja").readings and "美緒" not in load_pack("ja")["words"]
