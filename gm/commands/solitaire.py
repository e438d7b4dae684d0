"""`gm solitaire`: 7th Sense Training: the reading, the pyramid game, its odds."""

from __future__ import annotations

import typer

app = typer.Typer(help="7th Sense Training: the reading, the pyramid game, its odds.", no_args_is_help=True)
