"""`gm werewolf`: Narrate a Half Werewolf (ハーフ人狼) night: deck, vote tally, verdict, the whole night."""

from __future__ import annotations

import typer

app = typer.Typer(help="Narrate a Half Werewolf (ハーフ人狼) night: deck, vote tally, verdict, the whole night.", no_args_is_help=True)

from gm.commands.werewolf_play import play  # noqa: E402

app.command("play")(play)
