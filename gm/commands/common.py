"""Shared CLI plumbing: the app and command classes, one-line errors, crash files, JSON.

Bad input (a `Refusal`, scorer.values' one base of every narrow error of gm, the rules and the
packs; an OS error about a path the user gave; a usage mistake) is one stderr line and exit code 2.
Anything else is a bug: exit code 1, one line saying so and where the traceback was written. No
traceback reaches the terminal.
"""

from __future__ import annotations

import inspect
import os
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar
from collections.abc import Callable, Iterable, Iterator

import typer
from typer.core import TyperCommand, TyperGroup

from gm.commands.plain_params import make_plain

from gm.files import (EXIT_BROKEN_PIPE, json_text, os_error_key, printable, rich_ends_quietly, stdout_gone,
                      to_stderr)
from scorer.values import Refusal

if TYPE_CHECKING:
    from gm.ports import Line
    from gm.speech.settings import SpeechSettings
    from gm.text.lines import Pack

CommandFunction = TypeVar("CommandFunction", bound=Callable[..., Any])  # as Typer's decorator returns it
# Click's classes, as Typer vendors them, have no public name (the context Typer makes has one,
# typer.Context): gm holds a click command, parameter or help formatter as Any.
ClickCommand = Any
ClickParameter = Any
HelpFormatter = Any

EXIT_BAD_INPUT = 2
EXIT_BUG = 1
EXIT_INTERRUPTED = 130  # as a shell reports a program ended by Ctrl-C (SIGINT)

BAD_INPUT_OR_PATH: tuple[type[Exception], ...] = (Refusal, OSError)


def fail(message: str) -> NoReturn:
    """Report bad input on one stderr line and exit with code 2."""
    to_stderr(message)
    raise typer.Exit(EXIT_BAD_INPUT)


def error_line(error: BaseException) -> str:
    """The one line that tells a person what was wrong."""
    if isinstance(error, OSError) and error.filename is not None:
        return f"{error.strerror or type(error).__name__}: {str(error.filename)!r}"
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


@contextmanager
def input_errors(pack: Pack | None = None) -> Iterator[None]:
    """Turn a narrow error (or an unusable file) from the core into `fail`, said in the pack's
    language where it has the error's line; without a pack, in English (its pack read only when
    there is an error to say)."""
    try:
        yield
    except BAD_INPUT_OR_PATH as error:
        fail(said_in(pack if pack is not None else pack_for("en"), error))


def pack_for(lang: str) -> Pack:
    """The lines of `lang`, the language a command was given, looked up once as the command
    starts: a language with no pack, or a pack that cannot be read, is refused in English (the
    pack that would say it is the one missing)."""
    from gm.text.lines import Pack

    try:
        return Pack(lang)
    except BAD_INPUT_OR_PATH as error:
        fail(error_line(error))


def said_in(pack: Pack, error: BaseException) -> str:
    """The error's one line in the pack's language (its line where it names one)."""
    from gm.hearing.cannot_listen import NoAudio, NoModel, reason

    if isinstance(error, (NoModel, NoAudio)):
        key = f"errors.hearing.{error.key}"
        return pack.text(key, **error.fields) if pack.has(key) else reason(error, pack)
    if isinstance(error, Exception) and getattr(error, "key", None):
        return pack.error(error).strip().splitlines()[0]
    if isinstance(error, OSError) and error.filename is not None:
        key = f"errors.file.{os_error_key(error)}"
        return pack.text(key, path=str(error.filename), reason=error.strerror or type(error).__name__)
    return error_line(error)


def speak_lines(lines: Iterable[Line], settings: SpeechSettings) -> None:
    """Say (and print) `lines` with a speaker for `settings`, and wait until they are said."""
    from gm.speech.speakers import open_speaker

    with input_errors(settings.lines):
        speaker = open_speaker(settings)
    try:
        for line in lines:
            speaker.say(line)
        speaker.flush()
    finally:
        speaker.close()


def print_json(data: Any) -> None:
    typer.echo(json_text(data))


# -- usage errors and bugs ------------------------------------------------------------------------
def _usage_line(error: typer.TyperException) -> str:
    """A usage error as one lower-case line: "no such option '--bogus'"."""
    if hasattr(error, "possibilities"):  # an unknown option, with the options it may have meant
        text = f"no such option {error.option_name!r}"  # type: ignore[attr-defined]
        if error.possibilities:
            text += f" (did you mean {', '.join(sorted(error.possibilities))}?)"
        return text
    if type(error) is typer.BadParameter:  # a bad value (a missing one is worded by Typer)
        param = error.param
        hint = error.param_hint or (param.get_error_hint() if param is not None else "")
        message = str(error.message).removeprefix("Value error, ")
        return f"{str(hint).replace(chr(39), '')}: {message}" if hint else message
    text = error.format_message().strip().rstrip(".")
    return text[:1].lower() + text[1:]


def _is_usage_error(error: Exception) -> bool:
    """A mistake in the command line: Typer's exceptions that exit with code 2 (a bad value, an
    unknown option, a missing argument)."""
    return isinstance(error, typer.TyperException) and error.exit_code == EXIT_BAD_INPUT


def _command_names(ctx: Any) -> list[str]:
    """The commands below the program in `ctx` ("score", "flow"), whatever the program is called
    (gm, or `python -m gm`)."""
    names: list[str] = []
    while ctx is not None and ctx.parent is not None:
        names.append(ctx.info_name)
        ctx = ctx.parent
    return names[::-1]


def _usage_failure(error: typer.TyperException, ctx: Any) -> NoReturn:
    path = _command_names(getattr(error, "ctx", None) or ctx)
    fail(f"{' '.join(path)}: {_usage_line(error)}" if path else _usage_line(error))


def _crash(error: BaseException) -> NoReturn:
    """A bug: write the traceback to a crash file, say so in one line, exit 1."""
    import time
    import traceback

    text = "".join(traceback.format_exception(error))
    try:
        import platformdirs

        folder = platformdirs.user_state_path("gm") / "crashes"
        folder.mkdir(parents=True, exist_ok=True)
        where = folder / f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
        where.write_text(text, encoding="utf-8")
        place = f"the traceback is in {where}"
    except OSError as write_error:
        place = f"its traceback could not be written ({error_line(write_error)})"
    typer.echo(f"gm: a bug in gm ({type(error).__name__}); {printable(place)}", err=True)
    raise typer.Exit(EXIT_BUG)


@contextmanager
def _one_line_errors(ctx: Any = None) -> Iterator[None]:
    try:
        yield
    except typer.TyperException as error:
        if _is_usage_error(error):
            _usage_failure(error, ctx)
        raise
    except (typer.Exit, typer.Abort):
        raise
    except BrokenPipeError:  # the reader went away (gm … | head): nothing more to say to anyone
        stdout_gone()
        raise typer.Exit(EXIT_BROKEN_PIPE) from None
    except BAD_INPUT_OR_PATH as error:
        fail(error_line(error))
    except Exception as error:  # noqa: BLE001 - the one place a bug is turned into a crash file
        _crash(error)


class _PlainAndOneLine:
    """Plain help and one-line errors, for a command and a group alike."""

    no_args_is_help: bool  # Click's: alone, the command shows its help

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.help:  # paragraphs flow with the terminal's width; no line breaks mid-phrase
            self.help = "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(self.help).split("\n\n"))

    def get_params(self, ctx: typer.Context) -> list[ClickParameter]:
        params: list[ClickParameter] = super().get_params(ctx)  # with the help and completion options made on the way
        make_plain(params)
        return params

    def format_help(self, ctx: typer.Context, formatter: HelpFormatter) -> None:
        """The help page, drawn by rich: `gm --help | head -c 1` ends quietly (exit 141)."""
        rich_ends_quietly()
        super().format_help(ctx, formatter)

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        if not args and self.no_args_is_help and not ctx.resilient_parsing:  # alone, it shows its help
            page = ctx.get_help()  # rich prints the page itself and gives back nothing
            if page:
                typer.echo(page, color=ctx.color)
            raise typer.Exit(0)
        rest: list[str] = super().parse_args(ctx, args)
        return rest

    def make_context(self, info_name: str | None, args: list[str], parent: typer.Context | None = None,
                     **extra: Any) -> typer.Context:
        with _one_line_errors(parent):
            made: typer.Context = super().make_context(info_name, args, parent=parent, **extra)
            return made

    def invoke(self, ctx: typer.Context) -> Any:
        with _one_line_errors(ctx):
            return super().invoke(ctx)


class GmCommand(_PlainAndOneLine, TyperCommand):
    """A command with plain help and one-line errors."""


class GmGroup(_PlainAndOneLine, TyperGroup):
    """A command group with plain help and one-line errors; alone, it shows its help."""


class GmApp(typer.Typer):
    """A Typer app whose groups and commands are `GmGroup` and `GmCommand`."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cls", GmGroup)
        kwargs.setdefault("no_args_is_help", True)
        kwargs.setdefault("add_completion", False)
        super().__init__(**kwargs)

    def command(self, *args: Any, **kwargs: Any) -> Callable[[CommandFunction], CommandFunction]:
        kwargs.setdefault("cls", GmCommand)
        return super().command(*args, **kwargs)
