"""CMU Flite as a program: one `flite -voice NAME -t TEXT -o FILE` run per piece (a few tens of
milliseconds: process start, voice load, a temporary WAV file). Used where flite's libraries do
not load; imported only then.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import tempfile
from pathlib import Path

from gm.speech.audio import Audio, read_audio

_TIMEOUT = 60.0  # seconds for one piece; flite renders a sentence in tens of milliseconds


def found() -> bool:
    """True when the `flite` program is on the PATH."""
    return shutil.which("flite") is not None


@functools.lru_cache(maxsize=1)
def voice_ids() -> tuple[str, ...]:
    """The voices compiled into the program (`flite -lv`)."""
    try:
        listing = subprocess.run(["flite", "-lv"], capture_output=True, text=True, timeout=_TIMEOUT).stdout
    except (OSError, subprocess.SubprocessError):
        return ()
    return tuple(listing.partition(":")[2].split())


class ProgramVoice:
    """One flite voice, rendered by a `flite` run per piece through a temporary WAV file."""

    def __init__(self, voice_id: str) -> None:
        self.voice_id = voice_id
        self._dir = tempfile.TemporaryDirectory(prefix="gm-flite-")
        self._file = Path(self._dir.name) / "line.wav"

    def render(self, text: str, stretch: float) -> Audio:
        """The audio of `text` at `duration_stretch` `stretch`, at the voice's own sample rate."""
        command = ["flite", "-voice", self.voice_id, "--setf", f"duration_stretch={stretch:.3f}",
                   "-t", text, "-o", str(self._file)]
        self._file.unlink(missing_ok=True)
        done = subprocess.run(command, capture_output=True, text=True, timeout=_TIMEOUT)
        if done.returncode != 0 or not self._file.exists():
            raise RuntimeError(f"flite wrote no audio for {text[:40]!r}: {done.stderr.strip() or done.returncode}")
        return read_audio(self._file)

    def close(self) -> None:
        self._dir.cleanup()
