"""Japanese speech is kana only: Latin names in katakana, numbers in words, unreadable runs found."""

import random
import re
import shutil
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gm.text import kana
from gm.text.lines import Pack, name_kana

KATAKANA = re.compile(r"^[\u30a1-\u30fa\u30fc]*$")


@pytest.mark.parametrize("latin, katakana", [
    ("Aki", "アキ"), ("Ken", "ケン"), ("Mio", "ミオ"), ("Sora", "ソラ"), ("Shinji", "シンジ"),
    ("Tsubasa", "ツバサ"), ("Kyoko", "キョコ"), ("Yuki", "ユキ"), ("Emma", "エンマ"),
    ("Anna", "アンナ"), ("Bella", "ベラ"), ("Matt", "マット"), ("Nick", "ニック"), ("Mary", "マリー"),
    ("Lynn", "リン"), ("Tim", "ティム"), ("Chris", "クリス"), ("Zoë", "ゾエ"), ("Vera", "ベラ"),
    ("Wendy", "ウェンディ"), ("SORA", "ソラ"),
    ("Alice", "アリス"), ("Mike", "マイク"), ("Kate", "ケイト"), ("Dave", "デイブ"),
])
def test_latin_names_are_spelt_in_katakana(latin, katakana):
    assert kana.latin_katakana(latin) == katakana


@pytest.mark.slow
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=12))
def test_any_latin_word_becomes_katakana_only(word):
    out = kana.latin_katakana(word)
    assert KATAKANA.match(out), out
    small_kana_alone = r"(^|[アイエオンッー])[ァィゥェォャュョ]|ウ[ァゥャュョ]"
    assert not re.search(small_kana_alone, out), out  # a small kana needs a consonant


def test_names_numbers_and_kanji():
    assert name_kana("みお") == "みお" and name_kana("ソラ") == "ソラ"
    assert name_kana("Aki2") == "アキに"
    assert name_kana("健") == "健"  # no reading: the speech edge leaves it out with a note
    assert kana.to_kana("Ken に 3 票") == "ケン に さん 票"
    assert kana.unreadable("健に いっぴょう、美緒・Aki") == ["健", "美緒・Aki"]
    assert kana.readable("健に いっぴょう") == "に いっぴょう"


def test_a_pack_uses_given_readings_before_spelling():
    pack = Pack("ja", readings={"健": "けん"})
    assert pack.spoken_word("健") == "けん"
    assert pack.spoken_word("Aki") == "アキ"
    assert Pack("en").spoken_word("Aki") == "Aki"


@pytest.mark.slow
@pytest.mark.espeak
def test_espeak_reads_spelt_names_as_japanese():
    if not shutil.which("espeak-ng"):
        pytest.skip("espeak-ng is not installed")
    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyz"
    names = ["Aki", "Ken", "John", "Emma", "Chris", "Matt"] + [
        "".join(rng.choice(letters) for _ in range(rng.randint(2, 9))) for _ in range(200)]
    spelt = "\n".join(kana.espeak_kana(n) for n in names)
    out = subprocess.run(["espeak-ng", "-v", "ja", "-x", "-q", "--stdin"], input=spelt,
                         capture_output=True, text=True, check=True).stdout
    assert "(en)" not in out, [n for n in names if "(" in subprocess.run(
        ["espeak-ng", "-v", "ja", "-x", "-q", kana.espeak_kana(n)], capture_output=True, text=True).stdout]


@pytest.mark.parametrize("reading, latin", [
    ("けん", "ken"), ("みお", "mio"), ("しょう", "shou"), ("まっち", "matchi"), ("きょうこ", "kyouko"),
    ("りゅう", "ryuu"), ("ソラ", "sora"), ("かっぱ", "kappa"), ("はーと", "haato"), ("ちひろ", "chihiro"),
])
def test_kana_readings_are_spelt_in_latin_letters_for_the_english_voice(reading, latin):
    assert kana.romaji(reading) == latin


def test_english_lines_say_latin_names_as_written_and_spell_kana_readings():
    pack = Pack("en", {"健": "けん", "Aki": "あき"})
    assert pack.line("werewolf.vote.executed", name="健").spoken == "Ken is executed."
    assert pack.line("werewolf.vote.executed", name="Aki").spoken == "Aki is executed."
    assert pack.line("werewolf.vote.executed", name="健").text == "健 is executed."
