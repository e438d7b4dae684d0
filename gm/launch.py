"""The `gm` program's entry point: usable standard streams, then the command line (gm.cli)."""

from __future__ import annotations

import sys


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
    """Run gm's command line on usable standard streams (before Typer or rich touch them)."""
    usable_standard_streams()
    from gm.cli import main as command_line

    command_line()
