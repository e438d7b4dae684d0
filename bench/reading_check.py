"""Comparing the kana gm hands espeak-ng with Open JTalk's reading of the printed line.

Both readings are brought to one spelling before they are compared: katakana, long vowels
written out as said in kana (コー → コウ, ケー → ケイ), no pauses, spaces or hyphens. What
still differs is a mismatch: a particle (は said わ), a counter (6点), a name, or a word.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from gm.text import japanese

_ROWS = {
    "ア": "アカサタナハマヤラワガザダバパャァ", "イ": "イキシチニヒミリギジヂビピィ",
    "ウ": "ウクスツヌフムユルグズヅブプュゥ", "エ": "エケセテネヘメレゲゼデベペェ",
    "オ": "オコソトノホモヨロゴゾドボポョォ",
}
_LONG = {"ア": "ア", "イ": "イ", "ウ": "ウ", "エ": "イ", "オ": "ウ"}
_NOT_SAID = re.compile(r"[\s、。！？!?「」『』（）()・…:：,.\-ー]")


def katakana(text: str) -> str:
    """Hiragana turned into katakana; everything else unchanged."""
    return "".join(chr(ord(ch) + 0x60) if "\u3041" <= ch <= "\u3096" else ch for ch in text)


def normalise(reading: str) -> str:
    """A reading in one spelling: katakana, long vowels written out, を as オ, づ as ず, no pauses."""
    out: list[str] = []
    for ch in katakana(reading).replace("ヲ", "オ").replace("ヅ", "ズ").replace("ヂ", "ジ"):
        if ch == "ー" and out:
            row = next((vowel for vowel, kana in _ROWS.items() if out[-1] in kana), None)
            ch = _LONG[row] if row else ""
        out.append(ch)
    return _NOT_SAID.sub("", "".join(out))


@dataclass(frozen=True)
class Mismatch:
    kind: str  # "particle", "counter", "name" or "word"
    ours: str
    theirs: str
    context: str


def mismatches(ours: str, theirs: str, *, names: tuple[str, ...] = (), count: int | None = None) -> list[Mismatch]:
    """Where the reading gm speaks (`ours`) differs from Open JTalk's (`theirs`).

    `names` are the katakana readings of the players in the line and `count` the number its
    counters were filled with: they decide whether a difference is a name or a counter."""
    a, b = normalise(ours), normalise(theirs)
    digits = normalise(japanese.number(count)) if count is not None else ""
    found = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        mine, other = a[i1:i2], b[j1:j2]
        around = a[max(0, i1 - 3):i2 + 3]
        before = a[max(0, i1 - len(digits) - 1):i2]
        if {mine, other} in ({"ハ", "ワ"}, {"ヘ", "エ"}):
            kind = "particle"
        elif any(name and (name in a[max(0, i1 - len(name)):i2 + len(name)]
                           or name in b[max(0, j1 - len(name)):j2 + len(name)]) for name in names):
            kind = "name"
        elif digits and (digits in before or "ッ" in mine + other):
            kind = "counter"
        else:
            kind = "word"
        found.append(Mismatch(kind, mine, other, around))
    return found
