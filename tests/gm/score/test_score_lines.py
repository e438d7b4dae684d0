"""Every `gm score` line renders in both packs; Japanese is spoken in kana with numbers as words."""

import re

import pytest

from gm.score.render import change_lines, pack_for_match, totals_lines
from gm.text.lines import Pack
from scorer.humalien import apply, fold
from scorer.humalien.events import (
    AngelCut, Finish, Flow, Foul, GodIsland, NewMatch, Redo, SixSixSix, Skull, Undo,
)

KANA = re.compile(r"^[\u3040-\u30ff\s、。！？!?,.…「」『』（）()・:：〜ー\-]*$")
NEW = NewMatch(("健", "美緒"), readings=(("健", "けん"), ("美緒", "みお")))
EVENTS = [NEW, Flow("健", 2), Skull("美緒", 3), SixSixSix("健"), GodIsland("美緒"), AngelCut("健"),
          Finish("健", 7), Foul("美緒", 4), Undo(), Redo(), SixSixSix("美緒"), Foul("健", 9)]


def all_lines(lang):
    state = fold([])
    lines = []
    for event in EVENTS:
        state, change = apply(state, event)
        lines += change_lines(pack_for_match(Pack(lang), change.match), change)
    lines += totals_lines(pack_for_match(Pack(lang), state.match), state.match)
    return lines, state


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_every_change_renders(lang):
    lines, state = all_lines(lang)
    assert state.match.over
    keys = {line.key for line in lines}
    assert {"score.new", "score.award.flow", "score.award.skull", "score.award.666", "score.award.god_island",
            "score.award.angel_cut", "score.award.finish_times", "score.award.foul", "score.undone",
            "score.redone", "score.award.foul_times", "score.game_over", "score.winner",
            "score.totals"} <= keys


def test_japanese_lines_are_spoken_in_kana_only():
    lines, _ = all_lines("ja")
    for line in lines:
        assert KANA.match(line.spoken), f"{line.key}: {line.spoken}"
    spoken = {line.key: line.spoken for line in lines}
    assert spoken["score.award.flow"] == "けん、ばが ながれて にてん。ごうけい にてん。"
    assert spoken["score.award.666"] == ("みお、ろくろくろく。きゅうてん。あがりの てんわ さんばい。"
                                         "ごうけい よんじゅうにてん。")


def test_japanese_text_uses_the_manuals_words():
    texts = " ".join(line.text for line in all_lines("ja")[0])
    for word in ("場が流れる", "ドクロ", "ロクロクロク", "ゴッドアイランド", "エンジェルカット", "上がり",
                 "反則上がり"):
        assert word in texts
