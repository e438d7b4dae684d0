"""The `gm` command: mounts one sub-app per command group."""

from __future__ import annotations

import typer

from gm.commands.common import OneLineErrors
from gm.commands import score, solitaire, voice, werewolf

app = typer.Typer(
    cls=OneLineErrors,
    help="A spoken game master for card nights played with real cards.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(werewolf.app, name="werewolf")
app.add_typer(score.app, name="score")
app.add_typer(solitaire.app, name="solitaire")
app.add_typer(voice.app, name="voice")


def main() -> None:
    app()
