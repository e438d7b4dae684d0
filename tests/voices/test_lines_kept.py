"""Every line of the en, ja and ko packs renders as it did when the languages' rules moved from
code into the packs' `[language]` tables: printed and spoken forms, for a spread of counts,
durations, lists and names (a digest per key in tests/fixtures/lines_rendered.json).

After a deliberate change to a line, rewrite the digests with
`PYTHONPATH=bench .venv/bin/python tests/voices/test_lines_kept.py` and check the diff names only the lines changed.
"""

import hashlib
import json
import sys
from pathlib import Path

import pytest

import pack_samples as samples
from gm.text.lines import Pack

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "lines_rendered.json"  # tests/fixtures
COUNTS = (0, 1, 2, 3, 4, 6, 8, 10, 11, 20, 21, 100)
NAMES = ("健", "Alice")
LISTS = (["Alice"], ["健", "みお"], ["Alice", "健", "Mike"])
DURATIONS = (0, 1, 59, 60, 61, 150, 180, 3599)


def _variants(pack: Pack, key: str):
    """Field values for `key`: the samples for each count and name, then each list and duration."""
    for name in NAMES:
        for count in COUNTS:
            yield samples.fields(pack, key, count, name)
    base = samples.fields(pack, key, 2, NAMES[0])
    lists = [f for f, v in base.items() if isinstance(v, list) and all(isinstance(x, str) for x in v)
             and f not in ("cards",)]
    for items in LISTS if lists else ():
        yield {**base, **{f: items for f in lists}}
    timed = [f for f in base if "duration" in str(pack.entry(key))]
    for seconds in DURATIONS if timed else ():
        yield {**base, **{f: seconds for f, v in base.items() if isinstance(v, int) and not isinstance(v, bool)}}


def rendered(lang: str) -> dict[str, str]:
    """Key → a digest of the line's printed and spoken forms over every variant."""
    pack = Pack(lang, samples.READINGS)
    out = {}
    for key in samples.keys(pack):
        forms = []
        for fields in _variants(pack, key):
            try:
                line = pack.line(key, **fields)
                forms.append([line.text, line.spoken])
            except (ValueError, KeyError, TypeError) as error:  # a variant the line cannot take
                forms.append(["error", type(error).__name__])
        out[key] = hashlib.sha256(json.dumps(forms, ensure_ascii=False).encode()).hexdigest()[:16]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_every_line_renders_as_before(lang):
    kept = json.loads(FIXTURE.read_text(encoding="utf-8"))[lang]
    now = rendered(lang)
    changed = sorted(key for key in kept if key in now and now[key] != kept[key])
    assert not changed, f"{lang}: lines render differently: {changed[:20]}"
    assert sorted(now) == sorted(kept), f"{lang}: keys added {sorted(set(now) - set(kept))[:10]}, " \
                                        f"gone {sorted(set(kept) - set(now))[:10]}"


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps({lang: rendered(lang) for lang in ("en", "ja", "ko")}, ensure_ascii=False,
                                  indent=0, sort_keys=True) + "\n", encoding="utf-8")
    sys.exit(0)
