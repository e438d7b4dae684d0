"""`gm voice`: Voices, microphone and speech-model checks."""

from __future__ import annotations

import typer

app = typer.Typer(help="Voices, microphone and speech-model checks.", no_args_is_help=True)
