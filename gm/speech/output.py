"""Speaking lines aloud. Falls back to the printing speaker with one note."""

from __future__ import annotations

import sys

from gm.options import SpeechSettings


def open_speech_speaker(settings: SpeechSettings, printer):
    """A speaker that prints and speaks; here: printing only, with a note that speech is not built in."""
    print("gm: speech output is not available in this build; printing lines only", file=sys.stderr)
    return printer
