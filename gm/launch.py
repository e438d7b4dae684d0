"""The `gm` program's entry point.

`gm voice say TEXT --to WAV` (with --lang, --voice, --rate, --volume, --json) is run without
loading Typer, so a script rendering many lines starts each in tens of milliseconds. Only
well-formed, valid calls that succeed take this way; anything else (help, a bad value, any
failure) goes to the full command line (gm.cli), which reports it exactly as it always does.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

_SAY_OPTIONS = ("--to", "--lang", "--voice", "--rate", "--volume")


def say_call(args: Sequence[str]) -> dict[str, str | bool] | None:
    """The TEXT, options and --json of `gm voice say ARGS`, or None unless ARGS is one text with
    --to, each option at most once, and nothing else."""
    found: dict[str, str | bool] = {}
    texts: list[str] = []
    rest = iter(args)
    for arg in rest:
        name, equals, value = arg.partition("=")
        if name in _SAY_OPTIONS and name not in found:
            if not equals:
                value = next(rest, "-")
            if value.startswith("-"):
                return None
            found[name] = value
        elif arg == "--json" and arg not in found:
            found[arg] = True
        elif arg.startswith("-"):
            return None
        else:
            texts.append(arg)
    if len(texts) != 1 or "--to" not in found:
        return None
    found["text"] = texts[0]
    return found


class _HeldNotes:
    """Notes kept until the call has succeeded (a call left to gm.cli says its notes itself)."""

    def __init__(self) -> None:
        self.held: list[tuple[str, dict[str, object]]] = []

    def note(self, key: str, **fields: object) -> None:
        self.held.append((key, fields))


def quick_say(call: dict[str, str | bool]) -> str | None:
    """Render a `say_call` to its WAV file and return what to print, or None to leave the call to gm.cli."""
    from pathlib import Path

    from gm.commands import values
    from gm.ports import Line
    from gm.speech.notes import Notes
    from gm.speech.pieces import check_speakable
    from gm.speech.say import say_to_wav
    from gm.speech.settings import SpeechSettings
    from gm.text.lines import Voice
    from voices import default_language

    def given(option: str, parse):
        return None if option not in call else parse(str(call[option]))

    held = _HeldNotes()
    try:
        lang = str(call.get("--lang", default_language()))
        settings = SpeechSettings(lang=lang, speech="on", voice=given("--voice", values.VOICE_ID),
                                  rate=given("--rate", values.RATE), volume=given("--volume", values.VOLUME))
        text = check_speakable(values.SAID_TEXT(str(call["text"])))
        words = Voice(lang)
        to = Path(str(call["--to"]))
        said = say_to_wav(settings, Line("voice.say", text, text), to, held)
    except Exception:  # noqa: BLE001 - whatever it is, gm.cli runs the call again and reports it
        return None
    notes = Notes(lang)
    for key, fields in held.held:
        notes.note(key, **fields)
    return said.report(bool(call.get("--json")), words.text("voice.saved", file=str(to)))


def usable_standard_streams() -> None:
    """A closed standard stream (`<&-`, `>&-`) reads as empty input or writes to nowhere, and text
    a stream cannot encode (a lone surrogate) is written escaped: neither ends gm with a crash."""
    import os

    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115 - open for the process's life
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def main() -> None:
    """Run gm: the quick way for a plain `gm voice say … --to WAV`, else the full command line."""
    usable_standard_streams()
    args = sys.argv[1:]
    call = say_call(args[2:]) if args[:2] == ["voice", "say"] else None
    printed = quick_say(call) if call is not None else None
    if printed is None:
        from gm.cli import main as full_command_line

        full_command_line()
        return
    from gm.files import print_or_end_quietly

    print_or_end_quietly(printed)
