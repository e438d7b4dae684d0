"""Render voice-pack lines: the printed text and the form handed to the speech engine.

A pack entry is either a string or a table `{text = "...", kana = "..."}`; `kana` is the
spoken form for Japanese (espeak-ng reads only kana). Fields use `{name}` with an optional
spec after a colon:

- `{n:vote|votes}` (en) — a count with singular|plural word: "2 votes";
- `{n:票}` (ja) — a count with a Japanese counter: text "2票", spoken "にひょう";
- `{n:표}` (ko) — a count with a Korean counter: text "2표", spoken "두 표"; `{n:native}`
  (ko) — the digit, said as a native number (4 → 넷);
- `{secs:duration}` — a duration: "3 minutes" / "3分" (さんぷん);
- `{names:list}` — a sequence joined as "A, B and C" / "A、B、C";
- `{name:honorific}` — a name with the pack's honorific (さん in Japanese, 님 in Korean), except
  the graveyard (墓地, 묘지);
- `{names:items}` — a name or a sequence as given, joined plainly ("A, B" / "A、B"), as refusals
  list the choices; the Half Werewolf fields `{cards:cards}` and `{owner:owner}` join their items
  the same way, each said by the line gm.text.werewolf_fields names for it (a card's name, the
  graveyard's).

How a language joins, counts and says its lines is its pack's `[language]` table
(gm.text.language): in the spoken form, its reading module says numbers as words (Hangul for
Korean, kana for Japanese, whose particles は and へ are written as said: わ, え), and other
strings go through the word readings (`[words]` in the pack, card names, and player readings
such as 健=けん).
"""

from __future__ import annotations

import copy
import string
from typing import Any
from collections.abc import Callable, Mapping, Sequence

from gm.text import kana
from gm.text.language import language
from gm.ports import Line
from gm.text.werewolf_fields import ITEM_LINES
from voices import load_pack


def _as_given(item: object) -> str | None:
    """An item of `{names:items}`: said as given, by no line of the pack."""
    return None


_ITEM_LINES: Mapping[str, Callable[[object], str | None]] = {"items": _as_given, **ITEM_LINES}
_ITEM_SPECS = tuple(_ITEM_LINES)


class UnknownLine(KeyError):
    """A key with no line in the voice pack."""


class _Renderer(string.Formatter):
    def __init__(self, field_text: Callable[[Any, str], str]) -> None:
        self._field_text = field_text

    def format_field(self, value: Any, format_spec: str) -> str:
        return self._field_text(value, format_spec)


class Pack:
    """A voice pack read: the lines of one language (`entries`: its TOML tables, key by key,
    read-only and shared by every Pack of the language), with the players' name readings."""

    def __init__(self, lang: str, readings: Mapping[str, str] | None = None) -> None:
        self.lang = lang
        self.entries = load_pack(lang)
        self.language = language(lang)
        self.readings: dict[str, str] = dict(self.entries.get("words", {}))
        self.readings.update(readings or {})
        self._leads: tuple[str, ...] | None = None

    def with_readings(self, readings: Mapping[str, str]) -> Pack:
        """The same lines, with the players' `readings` added to those this pack knows (the
        language is not looked up again)."""
        pack = copy.copy(self)
        pack.readings = {**self.readings, **readings}
        return pack

    # -- lookup -----------------------------------------------------------------------------
    def entry(self, key: str) -> Any:
        node: Any = self.entries
        for part in key.split("."):
            if not isinstance(node, Mapping) or part not in node:
                raise UnknownLine(f"no line {key!r} in the {self.lang} voice pack")
            node = node[part]
        return node

    def has(self, key: str) -> bool:
        try:
            self.entry(key)
        except UnknownLine:
            return False
        return True

    # -- rendering --------------------------------------------------------------------------
    def line(self, key: str, *, urgent: bool = False, **fields: Any) -> Line:
        """The line `key` with `fields` filled in, printed and spoken forms."""
        entry = self.entry(key)
        if isinstance(entry, Mapping):
            text_template = entry["text"]
            spoken_template = entry["kana"] if "kana" in entry else text_template
        else:
            text_template = spoken_template = entry
        spoken_template = self.language.reading.spoken_template(spoken_template)
        text = _sentence(text_template, _Renderer(self._text_field).format(text_template, **fields),
                         self._lower_case_leads())
        spoken = _sentence(spoken_template, _Renderer(self._spoken_field).format(spoken_template, **fields))
        return Line(key=key, text=text, spoken=spoken, urgent=urgent, fields=fields)

    def spoken_as_printed(self, key: str, **fields: Any) -> str:
        """The spoken sentence of `key` (its `kana`, particles as written) with the fields as
        printed: 6点, 健. What Open JTalk is given to compare readings."""
        entry = self.entry(key)
        template = (entry["kana"] if "kana" in entry else entry["text"]) if isinstance(entry, Mapping) else entry
        return _Renderer(self._text_field).format(template, **fields)

    def error(self, error: Exception) -> str:
        """An error's message in this language: its `errors.<key>` line where the error names one
        (a Refusal's `key` and `fields`), else the error's own text."""
        key = getattr(error, "key", "")
        if key and self.has(f"errors.{key}"):
            return self.text(f"errors.{key}", **getattr(error, "fields", {}))
        return str(error)

    def text(self, key: str, **fields: Any) -> str:
        return self.line(key, **fields).text

    def spoken_word(self, word: str) -> str:
        """How a name or word is said: its reading where one is known, as the language's reading
        module says it (a voice that cannot read kana gets a kana reading in Latin letters)."""
        return self.language.reading.spoken_word(word, self.readings.get(word))

    def _lower_case_leads(self) -> tuple[str, ...]:
        """The pack's words that may lead a printed sentence through a field: the graveyard, yes, no."""
        if self._leads is None:
            words = [self.entry(f"common.{key}") for key in ("graveyard", "yes", "no") if self.has(f"common.{key}")]
            texts = [word["text"] if isinstance(word, Mapping) else word for word in words]
            self._leads = tuple(text for text in texts if isinstance(text, str) and text[:1].islower())
        return self._leads

    def _join(self, items: Sequence[str]) -> str:
        return self.language.joined(list(items))

    def _honorific(self, name: Any) -> str:
        """The pack's honorific after a player's name (さん, 님; none in English); none after the graveyard."""
        return "" if str(name) == self.text("common.graveyard") else self.language.honorific

    def _duration(self, seconds: Any, field: Callable[[Any, str], str]) -> str:
        """`seconds` in minutes and seconds as the pack words them, each part rendered by `field`."""
        minutes, secs = divmod(int(seconds), 60)
        parts = [(minutes, self.language.minutes)] if minutes else []
        if secs or not minutes:
            parts.append((secs, self.language.seconds))
        return self.language.duration_join.join(_Renderer(field).format(template, n=n) for n, template in parts)

    def _items(self, value: Any, spec: str) -> list[Any]:
        """The items of an `items`, `cards` or `owner` field: strings, or lines to say in this language."""
        values = [value] if isinstance(value, str) else list(value)
        line_of = _ITEM_LINES[spec]
        return [v if isinstance(v, Line) else self.line(key) if (key := line_of(v)) else str(v) for v in values]

    def _text_field(self, value: Any, spec: str) -> str:
        if isinstance(value, Line):
            return value.text
        if spec in _ITEM_SPECS:
            items = self._items(value, spec)
            return self.language.items_join.join(v.text if isinstance(v, Line) else v for v in items)
        if spec == "honorific":
            return f"{value}{self._honorific(value)}"
        if spec == "list":
            return self._join([v.text if isinstance(v, Line) else str(v) for v in value])
        if spec == "duration":
            return self._duration(value, self._text_field)
        if spec and isinstance(value, int):
            if spec in self.language.reading.PLAIN_SPECS:
                return str(value)
            if "|" in spec:
                one, many = spec.split("|", 1)
                return f"{value} {one if value == 1 else many}"
            return f"{value}{spec}"
        return format(value, spec)

    def _spoken_item(self, value: Any) -> str:
        return value.spoken if isinstance(value, Line) else self.spoken_word(str(value))

    def _spoken_field(self, value: Any, spec: str) -> str:
        if isinstance(value, Line):
            return value.spoken
        if spec in _ITEM_SPECS:
            return self.language.items_join.join(map(self._spoken_item, self._items(value, spec)))
        if spec == "honorific":
            return self.spoken_word(str(value)) + self._honorific(value)
        if spec == "list":
            return self._join([self._spoken_item(v) for v in value])
        if spec == "duration":
            return self._duration(value, self._spoken_field)
        if isinstance(value, int) and not isinstance(value, bool):
            said = self.language.reading.spoken_number(value, spec)
            if said is not None:
                return said
        if isinstance(value, str) and not spec:
            return self.spoken_word(value)
        return self._text_field(value, spec)


def _sentence(template: str, rendered: str, leads: tuple[str, ...] | None = None) -> str:
    """A line that starts with a field and ends a sentence starts with a capital letter; printed
    (with `leads`), only when one of the pack's own words leads it ("{name} holds …." with the
    graveyard → "The graveyard holds …."), so a name stays as given ("aki is executed.").
    Kana has no case."""
    if template.startswith("{") and template.rstrip().endswith((".", "!", "?")) and (
            leads is None or rendered.startswith(leads)):
        return rendered[:1].upper() + rendered[1:]
    return rendered


def name_kana(name: str) -> str:
    """A Japanese reading for a name given without one.

    Kana names are their own reading; Latin names are spelt in katakana (Aki → アキ,
    Emma → エンマ) so the whole line stays in the Japanese voice; digits become number words
    (Aki2 → アキに). A kanji name is returned unchanged: it has no reading unless one
    is given (`--players 健=けん`), and the speech edge leaves it out with a note.
    """
    return kana.to_kana(name)
