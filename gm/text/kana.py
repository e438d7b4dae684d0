"""What espeak-ng's Japanese voice can read, and turning the rest into kana where we can.

espeak-ng's `ja` voice reads only kana: kanji are named in English ("Chinese letter"), Latin
letters are spelt in English, and a lone small kana or `・` becomes "Japanese letter".
So, before a Japanese line is spoken:

- Latin words become katakana: a name spelt as romaji by its romaji (Aki → アキ, Ken → ケン,
  Shinji → シンジ), any other word by its English pronunciation from e2k's model
  (Alice → アリス, Mike → マイク, Kate → ケイト): the line stays in one Japanese voice;
- particles are written as said (わたしは → わたしわ, ぼちへ → ぼちえ, `spoken_particles`), and
  っ before ぱ/ぴ/ぺ/ぽ is spelt so espeak-ng closes the stop (`espeak_kana`);
- digits become Japanese number words (3 → さん);
- kana and pauses pass through;
- anything else (a kanji name with no reading) cannot be read: `unreadable` finds it so the
  speech edge can leave it out and say once which reading is missing.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from gm.text.japanese_numbers import number

_VOWELS = "aiueo"
# Consonant (as spelt after normalising) → the katakana for +a, +i, +u, +e, +o.
_ROWS = {
    "": ("ア", "イ", "ウ", "エ", "オ"),
    "k": ("カ", "キ", "ク", "ケ", "コ"),
    "g": ("ガ", "ギ", "グ", "ゲ", "ゴ"),
    "s": ("サ", "シ", "ス", "セ", "ソ"),
    "z": ("ザ", "ジ", "ズ", "ゼ", "ゾ"),
    "t": ("タ", "ティ", "ツ", "テ", "ト"),
    "d": ("ダ", "ディ", "ドゥ", "デ", "ド"),
    "n": ("ナ", "ニ", "ヌ", "ネ", "ノ"),
    "h": ("ハ", "ヒ", "フ", "ヘ", "ホ"),
    "b": ("バ", "ビ", "ブ", "ベ", "ボ"),
    "p": ("パ", "ピ", "プ", "ペ", "ポ"),
    "m": ("マ", "ミ", "ム", "メ", "モ"),
    "r": ("ラ", "リ", "ル", "レ", "ロ"),
    "y": ("ヤ", "イ", "ユ", "イエ", "ヨ"),
    "w": ("ワ", "ウイ", "ウ", "ウエ", "ウオ"),
    "f": ("ファ", "フィ", "フ", "フェ", "フォ"),
    "v": ("バ", "ビ", "ブ", "ベ", "ボ"),
    "j": ("ジャ", "ジ", "ジュ", "ジェ", "ジョ"),
    "sh": ("シャ", "シ", "シュ", "シェ", "ショ"),
    "ch": ("チャ", "チ", "チュ", "チェ", "チョ"),
    "ts": ("ツァ", "ツィ", "ツ", "ツェ", "ツォ"),
}
# A consonant with no vowel after it (end of word, or before another consonant).
_BARE = {"k": "ク", "g": "グ", "s": "ス", "z": "ズ", "t": "ト", "d": "ド", "n": "ン", "h": "",
         "b": "ブ", "p": "プ", "m": "ム", "r": "ル", "y": "イ", "w": "ウ", "f": "フ", "v": "ブ",
         "j": "ジ", "sh": "シュ", "ch": "チ", "ts": "ツ"}
_YOON = {"a": "ャ", "u": "ュ", "o": "ョ"}
_SPELLING = [(re.compile(old), new) for old, new in (
    ("tch", "ch"), ("ch(?=[b-df-hj-np-tv-z])", "k"), ("ph", "f"), ("th", "s"), ("ck", "kk"), ("qu", "kw"),
    ("q", "k"), ("x", "ks"),
    ("l", "r"), ("c(?=[eiy])", "s"), ("c(?!h)", "k"), ("([wgkrd])h", r"\1"))]

# A small kana with no consonant before it, which espeak-ng calls "Japanese letter" (イュ).
_LONE_SMALL = re.compile(r"(^|[アイエオンッー])[ァィゥェォャュョ]|ウ[ァゥャュョ]")
KATAKANA_WORD = re.compile(r"(?![ァィゥェォャュョッー])[\u30a1-\u30fa\u30fc]+")
KANA = re.compile(r"[\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc\u30fd\u30fe]")
# Pauses and quotes espeak-ng's ja voice passes over silently.
PAUSES = "、。！？!?,…「」『』（）() 　\n:：-"
_LATIN = re.compile(r"[A-Za-z]+")
_DIGITS = re.compile(r"[0-9０-９]+")
_UNREADABLE = re.compile(rf"[^\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc\u30fd\u30fe{re.escape(PAUSES)}]+")


def _spelling(word: str) -> str:
    word = unicodedata.normalize("NFKD", word.lower())
    word = "".join(ch for ch in word if "a" <= ch <= "z")
    for old, new in _SPELLING:
        word = old.sub(new, word)
    return word


def _vowel(ch: str) -> bool:
    return ch != "" and ch in _VOWELS


def _consonant(word: str, i: int) -> str:
    for onset in ("sh", "ch", "ts"):
        if word.startswith(onset, i):
            return onset
    return word[i]


# A word spelt in Hepburn romaji: syllables of an optional (doubled) consonant and a vowel, or ん.
_ROMAJI = re.compile(
    r"(?:(?:kk|ss|tt|pp|cch|tch|gg)?(?:[kgnhbpmr]y|sh|ch|ts|j|[kgsztdnhbpmrwfy])?[aiueo]|n(?![aiueoy]))+")
# English's silent e after one vowel and one consonant: Kate, Mike, Jane, Steve.
_SILENT_E = re.compile(r"(?:^|[^aeiou])[aeiou][bcdfgklmnprstvz]e$")


def reads_as_romaji(word: str) -> bool:
    """Whether a Latin word is spelt like a Japanese word in romaji (Aki, Shinji, Kyoko; not Kate)."""
    word = unicodedata.normalize("NFKD", word.lower())
    word = "".join(ch for ch in word if "a" <= ch <= "z")
    return bool(word) and _ROMAJI.fullmatch(word) is not None and not _SILENT_E.search(word)


# e2k writes English's /eɪ/ as a long e (ケート, デーブ); the sound is ケイト, デイブ.
_E_LONG = re.compile(r"([エケセテネヘメレゲゼデベペェ])ー")


@functools.lru_cache(maxsize=1)
def _english_model() -> Any:
    try:
        import e2k
    except ImportError:
        return None
    return e2k.C2K(max_len=32)


@functools.lru_cache(maxsize=256)
def english_katakana(word: str) -> str:
    """Katakana for a word by its English pronunciation (Alice → アリス), from e2k's model;
    the romaji-like spelling where e2k is not installed."""
    model = _english_model()
    letters = "".join(ch for ch in unicodedata.normalize("NFKD", word.lower()) if "a" <= ch <= "z")
    if model is None or not letters:
        return romaji_katakana(word)
    spelt = _E_LONG.sub(r"\1イ", model(letters))
    readable = KATAKANA_WORD.fullmatch(spelt) and not _LONE_SMALL.search(spelt)
    return spelt if readable else romaji_katakana(word)


def latin_katakana(word: str) -> str:
    """Katakana for a word in Latin letters: romaji as romaji (Aki → アキ), the rest as English
    is said (Mike → マイク)."""
    return romaji_katakana(word) if reads_as_romaji(word) else english_katakana(word)


def romaji_katakana(word: str) -> str:
    """Katakana for a word in Latin letters, read as romaji (Aki → アキ, Shinji → シンジ)."""
    word = _spelling(word)
    out: list[str] = []
    i = 0
    while i < len(word):
        ch = word[i]
        if _vowel(ch):
            out.append(_ROWS[""][_VOWELS.index(ch)])
            i += 1
            continue
        onset = _consonant(word, i)
        j = i + len(onset)
        nxt = word[j] if j < len(word) else ""
        after = word[j + 1] if j + 1 < len(word) else ""
        if onset == ch and nxt == ch:  # doubled: Anna → アンナ, Emma → エンマ, Bella → ベラ, Matt → マット
            tail = "".join(out)[-1:]
            stop = "ッ" if tail and tail not in "ッン" else ""  # never ッッ, never a leading ッ
            if ch in "nm" and (_vowel(after) or after == "y"):
                out.append("ン")
            elif ch in "kgsztdbpfj" and (_vowel(after) or after == "y"):
                out.append(stop)
            elif ch in "tkp":
                out.append(stop)
            i += 1
            continue
        if onset == "y" and out and not _vowel(nxt):  # y as a vowel: Lynn → リン
            out.append("イ")
            i = j
            continue
        if _vowel(nxt):
            out.append(_ROWS.get(onset, _ROWS["k"])[_VOWELS.index(nxt)])
            i = j + 1
            continue
        if nxt == "y" and after and after in _YOON and onset in "kgnhbpmr":
            out.append(_ROWS[onset][1] + _YOON[after])  # Kyoko → キョコ
            i = j + 2
            continue
        if nxt == "y" and not _vowel(after):  # Mary → マリ
            out.append(_ROWS.get(onset, _ROWS["k"])[1])
            i = j + 1
            continue
        out.append(_BARE.get(onset, ""))
        i = j
    return "".join(out)


def _number_words(digits: str) -> str:
    return number(int(unicodedata.normalize("NFKC", digits)))


def to_kana(text: str) -> str:
    """`text` with its Latin words spelt in katakana and its numbers read as words."""
    text = _LATIN.sub(lambda m: latin_katakana(m.group()), text)
    return _DIGITS.sub(lambda m: _number_words(m.group()), text)


# は and へ said わ and え: a particle ends its word, before a space, a pause or the line's end
# (わたしは → わたしわ, {name}は → {name}わ, {taker}へ → {taker}え, こんにちは → こんにちわ),
# and では before ない/なく (ぼちではなく → ぼちでわなく).
_PARTICLE = re.compile(r"(?<=[\u3041-\u30ff}])([はへ])(?=[\s、。！？!?「」『』（）()]|$)|(?<=で)(は)(?=な[いく])")


def spoken_particles(text: str) -> str:
    """`text` (kana with `{fields}`) with its particles は and へ written as said: わ and え."""
    return _PARTICLE.sub(lambda m: "え" if m.group() == "へ" else "わ", text)


# espeak-ng says っ before ぱ, ぴ, ぺ, ぽ as "h" (いっぴょう → ihp_j'ou); a hyphen after っ makes
# it a closed stop (i?p_j'ou). Before ぷ it is right already (いっぷん → ippuN).
_SMALL_TSU_P = re.compile(r"([っッ])(?=[ぱぴぺぽパピペポ])")
# After a kana ending in u, espeak-ng runs ウ into it and calls the small kana "Japanese letter"
# (フウィ); written out (フウイ) it is read.
_U_SMALL = re.compile(r"(?<=[うくすつぬふむゆるぐずづぶぷゅウクスツヌフムユルグズヅブプュ])ウ([ィェォ])")
_SMALL_VOWEL = {"ィ": "イ", "ェ": "エ", "ォ": "オ"}


def espeak_kana(text: str) -> str:
    """What espeak-ng's ja voice is handed: `to_kana(text)` with っ before ぱ/ぴ/ぺ/ぽ and ウィ
    after a u spelt so it says them."""
    text = _SMALL_TSU_P.sub(r"\1-", to_kana(text))
    return _U_SMALL.sub(lambda m: "ウ" + _SMALL_VOWEL[m.group(1)], text)


_IDEOGRAPH = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def missing_readings(names: Iterable[str], readings: Mapping[str, str]) -> list[str]:
    """The names written in kanji with no reading given: no voice can say them (健 → ?)."""
    return [name for name in names if name not in readings and _IDEOGRAPH.search(name)]


def is_reading(text: str) -> bool:
    """Whether `text` is a reading a Japanese voice can say: kana, with pauses."""
    return bool(text.strip()) and KANA.search(text) is not None and not unreadable(text)


def unreadable(text: str) -> list[str]:
    """The runs of `text` that espeak-ng's ja voice cannot read as kana (kanji, symbols...)."""
    return [run for run in _UNREADABLE.findall(text) if run.strip()]


def readable(text: str) -> str:
    """`text` without the runs `unreadable` finds."""
    return _UNREADABLE.sub(lambda m: "" if m.group().strip() else m.group(), text)


_HEPBURN = {"si": "shi", "ti": "chi", "tu": "tsu", "hu": "fu", "zi": "ji", "di": "ji", "du": "zu", "wo": "o"}


def romaji(text: str) -> str:
    """Kana spelt in Latin letters, for the English voice: けん → ken, しょう → shou, まっち → matchi."""
    out: list[str] = []
    double = False
    for ch in text:
        name = unicodedata.name(ch, "")
        if "LETTER" not in name or not name.startswith(("HIRAGANA", "KATAKANA")):
            if ch == "ー" and out:
                out.append(out[-1][-1])
            else:
                out.append(ch)
            continue
        syllable = name.rsplit(" ", 1)[-1].lower()
        syllable = _HEPBURN.get(syllable, syllable)
        if "SMALL" in name:
            if syllable == "tsu":
                double = True
            elif syllable in ("ya", "yu", "yo") and out and out[-1].endswith("i") and len(out[-1]) > 1:
                base = out.pop()[:-1]
                out.append(base + (syllable[1:] if base.endswith(("sh", "ch", "j")) else syllable))
            else:
                out.append(syllable)
            continue
        if double and syllable[0] not in "aiueon":
            syllable = ("t" if syllable.startswith("ch") else syllable[0]) + syllable
        double = False
        out.append(syllable)
    return "".join(out)
