"""`gm score`: Keep a Humalien (ザ・ヒューメイリアン) match: 3 games, two players, a crash-safe score sheet."""

from __future__ import annotations

import typer

app = typer.Typer(help="Keep a Humalien (ザ・ヒューメイリアン) match: 3 games, two players, a crash-safe score sheet.", no_args_is_help=True)
