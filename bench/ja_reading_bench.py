"""Japanese reading bench: the kana gm hands espeak-ng against Open JTalk's reading.

For every line of the ja pack, filled with each sample player (健 with the reading けん, みお,
Alice, Mike, Kate) and each sample count (0, 1, 3, 4, 6, 8, 10), the kana gm sends to
espeak-ng (`kana.espeak_kana` of the spoken form) is compared with
`pyopenjtalk.g2p(..., kana=True)` of the line as printed, and of the spoken sentence as printed
(the kana template with its fields printed: 6点, 健; some lines print a short entry and say a
sentence): the closer of the two is kept, since Open JTalk misreads some all-hiragana phrases
(はーふ → ワーフ). Latin names are given to Open JTalk in their usual katakana, since it spells
Latin letters out. Both readings are normalised (katakana, long vowels written out, no pauses) and every
difference is listed with its kind: particle, counter, name or word. Goal: no particle, counter
or name mismatch.

Needs pyopenjtalk-plus (`pip install pyopenjtalk-plus`, the gm-card-nights[ja] extra).
Run: .venv/bin/python bench/ja_reading_bench.py [--all]
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gm.text import kana  # noqa: E402
import pack_samples as samples  # noqa: E402
from gm.text.lines import Pack  # noqa: E402
from reading_check import katakana, mismatches  # noqa: E402

COUNTS = (0, 1, 3, 4, 6, 8, 10)
# How the Latin sample names are written in katakana (Open JTalk spells Latin letters out).
KATAKANA_NAMES = {"Alice": "アリス", "Mike": "マイク", "Kate": "ケイト"}


def _for_open_jtalk(text: str) -> str:
    for latin, written in KATAKANA_NAMES.items():
        text = text.replace(latin, written)
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="list word mismatches too")
    args = parser.parse_args()
    try:
        import pyopenjtalk
    except ImportError:
        sys.exit("pyopenjtalk is not installed: pip install pyopenjtalk-plus")
    pack = Pack("ja", samples.READINGS)
    names = tuple(katakana(pack.spoken_word(n)) for n in samples.NAMES)
    compared = 0
    kinds: collections.Counter[str] = collections.Counter()
    seen: dict[tuple, str] = {}
    said = [key for key in samples.keys(pack) if samples.spoken(key)]
    for key in said:
        for count in COUNTS:
            for name in samples.NAMES:
                fields = samples.fields(pack, key, count, name)
                ours = kana.espeak_kana(pack.line(key, **fields).spoken)
                found = []
                for printed in (pack.line(key, **fields).text, pack.spoken_as_printed(key, **fields)):
                    theirs = pyopenjtalk.g2p(_for_open_jtalk(printed), kana=True)
                    found.append((mismatches(ours, theirs, names=names, count=count), printed))
                misses, printed = min(found, key=lambda pair: len(pair[0]))
                compared += 1
                for miss in misses:
                    kinds[miss.kind] += 1
                    seen.setdefault((miss.kind, miss.ours, miss.theirs), f"{key} ({printed})")
    print(f"lines compared: {compared} ({len(said)} keys said × {len(COUNTS)} counts × "
          f"{len(samples.NAMES)} names)")
    print("mismatches by kind: " + (", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "none"))
    for (kind, ours, theirs), where in sorted(seen.items()):
        if kind != "word" or args.all:
            print(f"  {kind:8} gm {ours or '∅'!s:12} open jtalk {theirs or '∅'!s:12} {where}")
    print(f"distinct word differences: {sum(1 for k in seen if k[0] == 'word')} (--all lists them)")


if __name__ == "__main__":
    main()
