"""Every line of the ja pack reaches espeak-ng as kana it reads (no kanji, digits or Latin).

The lines are rendered with sample fields (player names with and without readings, numbers,
durations, lists), so lines other command groups add to the pack are covered too.
"""

from collections.abc import Mapping
import re
import shutil
import string
import subprocess

import pytest
from test_foundation import _keys

from gm.text import kana
import pack_samples as samples
from gm.text.lines import Pack

pytestmark = pytest.mark.slow  # renders speech

READINGS = {"健": "けん", "美緒": "みお"}
SPEAKABLE = re.compile(rf"^(?:{kana.KANA.pattern}|[{re.escape(kana.PAUSES)}])*$")


class _Sample(str):
    """A name standing in for a field value, also where the line reads an attribute or an item."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Sample(self)

    def __getitem__(self, key):
        return _Sample(self)


def _fields(entry):
    templates = entry.values() if isinstance(entry, Mapping) else [entry]
    found = {}
    for template in templates:
        for _, name, spec, _ in string.Formatter().parse(template):
            if name is not None:
                found[re.split(r"[.\[]", name)[0]] = spec or ""
    return found


def _sample(spec, plain):
    if spec == "list":
        return [_Sample("健"), _Sample("Aki"), _Sample("美緒")]
    if spec:
        return 180 if spec == "duration" else 3
    return plain


def spoken_lines():
    """(key, spoken) for every ja line, once per kind of plain field value."""
    pack = Pack("ja", readings=READINGS)
    lines = []
    for key in filter(samples.spoken, _keys(pack.entries)):  # the printed-only help and errors aside
        fields = _fields(pack.entry(key))
        for plain in (_Sample("健"), _Sample("Aki"), 12):
            try:
                line = pack.line(key, **{name: _sample(spec, plain) for name, spec in fields.items()})
            except (ValueError, TypeError):
                if isinstance(plain, int):
                    continue  # a field that takes text only
                raise
            if (key, line.spoken) not in lines:
                lines.append((key, line.spoken))
    return lines


def test_the_ja_pack_has_lines_to_check():
    keys = {key for key, _ in spoken_lines()}
    assert {"common.did_not_understand", "voice.sample", "voice.found"} <= keys


def test_every_spoken_ja_line_is_kana_and_pauses_only():
    bad = [f"{key}: {spoken}" for key, spoken in spoken_lines() if not SPEAKABLE.match(spoken)]
    assert not bad, "kanji, digits or Latin would reach espeak-ng:\n" + "\n".join(bad)


def _phonemes(text):
    return subprocess.run(["espeak-ng", "-v", "ja", "-x", "-q", "--stdin"], input=text,
                          capture_output=True, text=True, check=True).stdout


@pytest.mark.espeak
def test_espeak_reads_every_ja_line_in_japanese():
    """espeak-ng names what it cannot read in English: `(en)chinese letter`, `(en)japanese letter`."""
    if not shutil.which("espeak-ng"):
        pytest.skip("espeak-ng is not installed")
    lines = spoken_lines()
    if "(en)" in _phonemes("\n".join(spoken for _, spoken in lines)):
        bad = [f"{key}: {spoken} → {_phonemes(spoken).strip()}" for key, spoken in lines
               if "(en)" in _phonemes(spoken)]
        pytest.fail("espeak-ng drops characters of:\n" + "\n".join(bad))
