"""Options shared by every command that talks: language, speech output, voice settings."""

from __future__ import annotations

import typer

from voices import default_language

LangOption = typer.Option(default_language(), "--lang", help="Language of every line: en, ja or ko (by default "
                          "the locale's, when it is Japanese or Korean).")
SpeechOption = typer.Option(
    "on", "--speech", help="on (speak and print), off (print only) or wav:DIR (one WAV file per line)."
)
VoiceOption = typer.Option(None, "--voice", help="Voice id to use instead of the language's default.")
RateOption = typer.Option(None, "--rate", min=80, max=400,
                          help="Speaking rate in words per minute, for every engine (default: 150).")
VolumeOption = typer.Option(None, "--volume", min=0.0, max=1.0, help="Volume from 0.0 to 1.0.")


# -- listening (gm/hearing) -----------------------------------------------------------------
ListenOption = typer.Option(
    "on", "--listen", help="on (spoken answers and commands, keyboard too) or off (keyboard only)."
)
ListenFromOption = typer.Option(
    None, "--listen-from", help="Hear the answers from this WAV file instead of the microphone (tests, replays)."
)
VoskModelOption = typer.Option(
    None, "--vosk-model", help="Vosk model directory (default: $GM_VOSK_MODEL; see `gm voice model`)."
)


class BadListen(ValueError):
    """A --listen value that is not on or off."""


def listen_spec(listen: str, listen_from: str | None = None) -> str:
    """What `open_asker` listens to: "off", "on" (the microphone) or a WAV file's path."""
    if listen not in ("on", "off"):
        raise BadListen(f"--listen must be on or off, not {listen!r}")
    return listen_from or listen
