"""The voices the text-to-speech engines offer, and picking one by language.

pyttsx3's drivers report languages differently: espeak `ja` or `en-gb-x-rp`, NSSS (macOS)
`ja_JP`, SAPI5 (Windows) `ja-JP`. `language_of` reduces any of them to the bare language
("ja", "en", "ko") that `--lang` uses. Which tags speak a language, best first, is its voice
pack's `[language] voices`: a pack may speak with another language's voices (its tags name them).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable, Sequence

from scorer.values import Refusal


class UnknownVoice(Refusal):
    """A --voice id that the speech engine does not have."""


@dataclass(frozen=True)
class FoundVoice:
    """One installed voice: its id, display name and language tag as reported, and the engine that has it."""

    id: str
    name: str
    tag: str
    engine: str = "pyttsx3"

    @property
    def lang(self) -> str:
        return language_of(self.tag)


def normalise_tag(tag: object) -> str:
    """A language tag in lower case with hyphens: b"\\x05ja", "ja_JP", "ja-JP" → "ja", "ja-jp", "ja-jp"."""
    if isinstance(tag, bytes):
        tag = tag.decode("utf-8", "ignore")
    text = "".join(ch for ch in str(tag or "") if ch.isprintable()).strip()
    return text.replace("_", "-").lower()


def language_of(tag: object) -> str:
    """The bare language of a tag: "ja_JP" → "ja", "en-gb-x-rp" → "en"; "" when there is none."""
    head = normalise_tag(tag).split("-", 1)[0]
    return head if head.isalpha() and 2 <= len(head) <= 3 else ""


def found_voice(voice_id: str, name: str | None, languages: Sequence[object] | None) -> FoundVoice:
    """A FoundVoice from the fields of a pyttsx3 Voice."""
    tags = [normalise_tag(t) for t in (languages or []) if language_of(t)]
    return FoundVoice(id=str(voice_id), name=str(name or voice_id), tag=tags[0] if tags else "")


def preferred_tags(lang: str) -> tuple[str, ...]:
    """The voice tags that speak `lang`, best first: its pack's `[language] voices` (for a language
    with no pack, its bare tag)."""
    from gm.text.language import language
    from voices import LANGUAGES

    return language(lang).voices if lang in LANGUAGES else (lang,)


def speaking(voices: Iterable[FoundVoice], lang: str) -> list[FoundVoice]:
    """The voices that speak `lang`, in their order: those of its language and of its preferred tags."""
    preferred = preferred_tags(lang)
    return [v for v in voices if v.lang == lang or v.tag in preferred]


def voices_for(voices: Iterable[FoundVoice], lang: str) -> list[FoundVoice]:
    """The voices speaking `lang`, best first: those of its preferred tags in their order, then
    any other voice of the language."""
    preferred = preferred_tags(lang)
    matching = speaking(voices, lang)
    return sorted(matching, key=lambda v: preferred.index(v.tag) if v.tag in preferred else len(preferred))


def choose_voice(voices: Sequence[FoundVoice], lang: str, override: str | None = None) -> FoundVoice | None:
    """The voice for `lang` (or the one `override` names, by id or name); None when no voice speaks `lang`."""
    if override:
        for exact in (True, False):
            for voice in voices:
                names = (voice.id,) if exact else (voice.id.casefold(), voice.name.casefold())
                if (override if exact else override.casefold()) in names:
                    return voice
        raise UnknownVoice(f"no voice {override!r}: `gm voice list` shows the voices found")
    best = voices_for(voices, lang)
    return best[0] if best else None
