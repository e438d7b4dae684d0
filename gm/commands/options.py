"""Options shared by the commands (Typer `Annotated` style), and the checked values they take.

Every number has a range that makes sense at a table; a value outside it is refused with the
range in the message. Counts are typed with ASCII or full-width digits (３) only.
"""

from __future__ import annotations

from typing import Annotated, TypeVar
from collections.abc import Callable

import typer

from gm.commands import values
from scorer.values import Refusal
from voices import LANGUAGES, default_language

T = TypeVar("T")


def for_typer(parse: Callable[[str], T]) -> Callable[[str], T]:
    """`parse` with its BadValue turned into the BadParameter Typer reports."""

    def checked(text: str) -> T:
        try:
            return parse(text)
        except values.BadValue as error:
            raise typer.BadParameter(str(error)) from None

    return checked


def whole_in(low: int, high: int | None, unit: str = "") -> Callable[[str], int]:
    """gm.commands.values.whole_in for a Typer option."""
    return for_typer(values.whole_in(low, high, unit))


def number_in(low: float, high: float, unit: str = "") -> Callable[[str], float]:
    """gm.commands.values.number_in for a Typer option."""
    return for_typer(values.number_in(low, high, unit))


def text_up_to(limit: int) -> Callable[[str], str]:
    """gm.commands.values.text_up_to for a Typer option."""
    return for_typer(values.text_up_to(limit))


COUNT = for_typer(values.count)  # a count the rules check the range of (said with it, in the language)


# -- talking (gm/speech) ---------------------------------------------------------------------
LANG = default_language()  # the locale's language when gm has its pack (Japanese, Korean), else en


def said_choices(choices: list[str] | tuple[str, ...]) -> str:
    """ "en, ja or ko": choices as a help text lists them."""
    return " or ".join([", ".join(choices[:-1]), choices[-1]] if len(choices) > 1 else choices)


LANGUAGE_CHOICES = said_choices(tuple(LANGUAGES))  # gm's own packs and those in $GM_VOICE_PACKS
Lang = Annotated[str, typer.Option(
    "--lang", metavar="LANG",
    help=f"Language of every line: {LANGUAGE_CHOICES} (by default the locale's, when it is Japanese or Korean).")]
Speech = Annotated[str, typer.Option(
    "--speech", metavar="MODE", envvar="GM_SPEECH", show_envvar=False,
    help="on: speak and print every line (the default; or $GM_SPEECH); off: print only; "
         "wav:DIR: one WAV file per line.")]
VoiceId = Annotated[str | None, typer.Option(
    "--voice", metavar="ID", parser=for_typer(values.VOICE_ID),
    help="A voice from `gm voice list` instead of the language's default.")]
Rate = Annotated[int | None, typer.Option(
    "--rate", metavar="WPM", parser=for_typer(values.RATE),
    help="Speaking rate for every engine, 80–400 words per minute (default: 150).")]
Volume = Annotated[float | None, typer.Option(
    "--volume", metavar="LEVEL", parser=for_typer(values.VOLUME), help="Volume from 0.0 to 1.0.")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON (stable snake_case keys) instead.")]


# -- listening (gm/hearing) -----------------------------------------------------------------
Listen = Annotated[str, typer.Option(
    "--listen", metavar="on|off", help="on: spoken answers and commands, keyboard too; off: keyboard only.")]
ListenFrom = Annotated[str | None, typer.Option(
    "--listen-from", metavar="WAV", parser=text_up_to(4096),
    help="Hear the answers from this WAV file instead of the microphone (tests, replays).")]
Device = Annotated[str | None, typer.Option(
    "--device", metavar="DEVICE", parser=text_up_to(200),
    help="Microphone: an input device's index or name, as `gm voice check` lists them (default: the system's).")]
Listener = Annotated[str | None, typer.Option(
    "--listener", metavar="NAME", parser=text_up_to(100),
    help="Who hears the answers: whisper, pocketsphinx (English) or vosk (default: $GM_LISTENER, else "
         "the language's own; see `gm voice model`).")]
VoskModel = Annotated[str | None, typer.Option(
    "--vosk-model", metavar="DIR", parser=text_up_to(4096),
    help="Vosk model folder (default: $GM_VOSK_MODEL; see `gm voice model`).")]


class BadListen(Refusal):
    """A --listen value that is not on or off."""


def input_device(device: str | None) -> int | str | None:
    """The input device `--device` names: an index (digits, ASCII or full-width) or a name, which
    PortAudio matches by part (`pulse`); None for the system's default."""
    if device is None or not device.strip():
        return None
    import unicodedata

    digits = unicodedata.normalize("NFKC", device.strip())
    if digits.isascii() and digits.isdecimal():
        return int(digits)  # however large: an index past every device is refused as one
    return device.strip()


def listen_spec(listen: str, listen_from: str | None = None) -> str:
    """What `open_asker` listens to: "off", "on" (the microphone) or a WAV file's path."""
    if listen not in ("on", "off"):
        raise BadListen(f"--listen must be on or off, not {listen!r}")
    return listen_from or listen
