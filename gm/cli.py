"""The `gm` command: one sub-app per command group, each imported only when it is run or listed;
`--version`; shell completion."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from gm.commands.common import ClickCommand, ClickParameter, GmApp, GmGroup, HelpFormatter

ParamCallback = Callable[[typer.Context, ClickParameter, Any], Any]
"""A parameter's callback: (context, parameter, value) → the value."""

GROUPS = {
    "werewolf": "gm.commands.werewolf",
    "score": "gm.commands.score",
    "solitaire": "gm.commands.solitaire",
    "voice": "gm.commands.voice",
}


class LazyGroups(GmGroup):
    """The root group: a command group's module is imported only when that group is needed."""

    def list_commands(self, ctx: typer.Context) -> list[str]:
        return [*GROUPS, *super().list_commands(ctx)]

    _listing = False

    def format_help(self, ctx: typer.Context, formatter: HelpFormatter) -> None:
        """`gm --help` lists each group by its help text alone: none of its commands is built."""
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def resolve_command(self, ctx: typer.Context, args: list[str]) -> tuple[str | None, ClickCommand | None, list[str]]:
        """As Typer's, whose "did you mean …?" knows only the commands built: the groups not yet
        imported are suggested too (`gm werwolf` → werewolf)."""
        try:
            return super().resolve_command(ctx, args)
        except typer.TyperException as error:  # the "no such command" usage error
            from difflib import get_close_matches

            matches = get_close_matches(args[0], list(GROUPS)) if args else []
            message = getattr(error, "message", None)
            if matches and isinstance(message, str) and "Did you mean" not in message:
                error.message = f"{message.rstrip('.')}. Did you mean {', '.join(map(repr, matches))}?"
            raise

    def get_command(self, ctx: typer.Context, name: str) -> ClickCommand | None:
        if name not in GROUPS:
            return super().get_command(ctx, name)
        sub = importlib.import_module(GROUPS[name]).app
        if self._listing and isinstance(sub.info.help, str):
            return TyperGroup(name=name, help=sub.info.help)
        return _group(name)

    def get_params(self, ctx: typer.Context) -> list[ClickParameter]:
        """The root's own options (--version, completion); completion for a shell gm cannot tell
        is refused in one line."""
        params = super().get_params(ctx)
        for param in params:
            if param.name in ("install_completion", "show_completion") and param.callback is not None \
                    and not getattr(param.callback, "checks_the_shell", False):
                param.callback = _shell_checked(param.callback, f"--{param.name.replace('_', '-')}")
        return params


@functools.cache
def _group(name: str) -> ClickCommand:
    """The command group `name`, built from its Typer app once per process (a program calling
    gm's app many times, as the tests do, builds each group once)."""
    group = typer.main.get_command(importlib.import_module(GROUPS[name]).app)
    group.name = name
    return group


COMPLETED_SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


def _shell_checked(callback: ParamCallback, option: str) -> ParamCallback:
    """`callback` of a completion option, run only when the shell is one completion is made for."""
    def checked(ctx: typer.Context, param: ClickParameter, value: Any) -> Any:
        if value and not isinstance(value, str) and not ctx.resilient_parsing:
            import shellingham

            try:
                shell = shellingham.detect_shell()[0]
            except (shellingham.ShellDetectionFailure, RuntimeError, OSError):
                shell = None
            if shell not in COMPLETED_SHELLS:
                from gm.commands.common import fail

                fail(f"{option}: cannot tell which shell this is{f' ({shell})' if shell else ''}; "
                     f"completion is made for {', '.join(COMPLETED_SHELLS)}: run it from one of them")
        return callback(ctx, param, value)

    checked.checks_the_shell = True  # type: ignore[attr-defined]
    return checked


app = GmApp(cls=LazyGroups, help="A spoken game master for card nights played with real cards.", add_completion=True)


def _show_version(value: bool) -> None:
    if value:
        from gm import __version__

        typer.echo(f"gm {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    _version: Annotated[bool, typer.Option(
        "--version", callback=_show_version, is_eager=True, help="Show gm's version and exit.")] = False,
) -> None:
    """A spoken game master for card nights played with real cards."""


def _exit_on_signal(signum: int, frame: object) -> None:
    """SIGTERM or SIGHUP: leave like an interrupted command, so every `finally` and exit handler runs
    (the terminal gets its echo and cursor back, temporary speech files (gm-speech-*, gm-flite-*) are removed)."""
    raise SystemExit(128 + signum)


def main() -> None:
    import signal

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _exit_on_signal)
    app()


if __name__ == "__main__":
    main()
