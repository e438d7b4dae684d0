"""Options shared by every command that talks: language, speech output, voice settings."""

from __future__ import annotations

from dataclasses import dataclass

import typer

LangOption = typer.Option("en", "--lang", help="Language of every line: en or ja.")
SpeechOption = typer.Option(
    "on", "--speech", help="on (speak and print), off (print only) or wav:DIR (one WAV file per line)."
)
VoiceOption = typer.Option(None, "--voice", help="Voice id to use instead of the language's default.")
RateOption = typer.Option(None, "--rate", help="Speaking rate in words per minute.")
VolumeOption = typer.Option(None, "--volume", min=0.0, max=1.0, help="Volume from 0.0 to 1.0.")


@dataclass(frozen=True)
class SpeechSettings:
    """How lines are delivered: `speech` is "on", "off" or "wav:DIR"."""

    lang: str = "en"
    speech: str = "on"
    voice: str | None = None
    rate: int | None = None
    volume: float | None = None
