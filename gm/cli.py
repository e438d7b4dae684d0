"""The `gm` command: one sub-app per command group, each imported only when it is run or listed."""

from __future__ import annotations

import importlib

import typer
from typer.core import TyperGroup

from gm.commands.common import OneLineErrors
from gm.commands.plain_params import plain_help_flag, read_plainly

GROUPS = {
    "werewolf": "gm.commands.werewolf",
    "score": "gm.commands.score",
    "solitaire": "gm.commands.solitaire",
    "voice": "gm.commands.voice",
}


class LazyGroups(OneLineErrors):
    """The root group: a command group's module is imported only when that group is needed."""

    def list_commands(self, ctx: typer.Context) -> list[str]:
        return [*GROUPS, *super().list_commands(ctx)]

    _listing = False

    def format_help(self, ctx: typer.Context, formatter) -> None:
        """`gm --help` lists each group by its help text alone: none of its commands is built."""
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def get_command(self, ctx: typer.Context, name: str):
        if name not in GROUPS:
            return super().get_command(ctx, name)
        sub = importlib.import_module(GROUPS[name]).app
        if self._listing and isinstance(sub.info.help, str):
            return TyperGroup(name=name, help=sub.info.help)
        group = typer.main.get_group(sub)
        group.name = name
        read_plainly(group, ctx)
        return group

    def get_help_option(self, ctx: typer.Context):
        return plain_help_flag(super().get_help_option(ctx))


app = typer.Typer(
    cls=LazyGroups,
    help="A spoken game master for card nights played with real cards.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _root() -> None:
    pass


def main() -> None:
    app()
