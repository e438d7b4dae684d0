"""What espeak-ng's Japanese voice can read, and turning the rest into kana where we can.

espeak-ng's `ja` voice reads only kana: kanji are named in English ("Chinese letter"), Latin
letters are spelt in English, and a lone small kana or `・` becomes "Japanese letter".
So, before a Japanese line is spoken:

- Latin words become katakana by their romaji-like spelling (Aki → アキ, Ken → ケン,
  Emma → エンマ, John → ジョン): the line stays in one Japanese voice;
- digits become Japanese number words (3 → さん);
- kana and pauses pass through;
- anything else (a kanji name with no reading) cannot be read: `unreadable` finds it so the
  speech edge can leave it out and say once which reading is missing.
"""

from __future__ import annotations

import re
import unicodedata

from gm.text import japanese

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
    ("tch", "ch"), ("ch(?=[b-df-hj-np-tv-z])", "k"), ("ph", "f"), ("th", "s"), ("ck", "kk"), ("qu", "kw"), ("q", "k"), ("x", "ks"),
    ("l", "r"), ("c(?=[eiy])", "s"), ("c(?!h)", "k"), ("([wgkrd])h", r"\1"))]

KANA = re.compile(r"[\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc\u30fd\u30fe]")
# Pauses and quotes espeak-ng's ja voice passes over silently.
PAUSES = "、。！？!?,…「」『』（）() 　\n:："
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


def latin_katakana(word: str) -> str:
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
    return japanese.number(int(unicodedata.normalize("NFKC", digits)))


def to_kana(text: str) -> str:
    """`text` with its Latin words spelt in katakana and its numbers read as words."""
    text = _LATIN.sub(lambda m: latin_katakana(m.group()), text)
    return _DIGITS.sub(lambda m: _number_words(m.group()), text)


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
