"""`gm score play`: short typed commands during a game, each saved to the journal before it is said."""

from __future__ import annotations

import contextlib
import functools
from typing import TextIO
from collections.abc import Callable, Iterator, Sequence

from gm.files import printable, read_line
from gm.ports import Speaker
from gm.score.entry import VERB_TABLE, VERBS, WON, BadEntry, build, parse_count, resolve_verb
from gm.score.journal import Journal
from gm.score.render import change_lines, pack_for_match, totals_lines
from gm.text.lines import Pack
from scorer.humalien.events import AngelCut
from scorer.humalien.fold import State, advance

PROMPT = "score> "


def completions(buffer: str, text: str, players: Sequence[str]) -> list[str]:
    """Tab completions: verbs for the first word, player names for the second (any case)."""
    words = buffer[: len(buffer) - len(text)].split()
    if not words:
        pool: Sequence[str] = VERBS
    elif len(words) == 1:
        pool = players
    else:
        return []
    return [word for word in pool if word.casefold().startswith(text.casefold())]


def typed_lines(stream: TextIO, echo: Callable[[str], None], journal: Journal) -> Iterator[str]:
    """Lines from the keyboard (with completion and history) or from a pipe (echoed)."""
    if stream.isatty():
        yield from _readline_lines(journal)
        return
    while raw := read_line(stream):
        line = raw.rstrip("\r\n")
        echo(f"{PROMPT}{printable(line)}")  # control characters escaped, never sent to the terminal
        yield line


def _readline_lines(journal: Journal) -> Iterator[str]:
    try:
        import readline
    except ImportError:  # Windows without pyreadline: plain input()
        readline = None  # type: ignore[assignment]  # the module or None: mypy types the name as the module
    history = journal.path.with_name(journal.path.name + ".history")
    if readline is not None:
        players: list[str] = []

        def complete(text: str, index: int) -> str | None:
            if index == 0:
                state = journal.load()
                players[:] = state.match.players if state.match else []
            options = completions(readline.get_line_buffer(), text, players)
            return options[index] + " " if index < len(options) else None

        readline.set_completer(complete)
        readline.set_completer_delims(" ")
        readline.parse_and_bind("tab: complete")
        with contextlib.suppress(OSError):
            history.touch(exist_ok=True)
            readline.read_history_file(history)
    try:
        while True:
            try:
                yield input(PROMPT)
            except EOFError:
                print()
                return
            if readline is not None:
                with contextlib.suppress(OSError):
                    readline.append_history_file(1, history)
    except KeyboardInterrupt:
        print()


def verb_words(pack: Pack) -> dict[str, str]:
    """The pack's word for each command (`score.verbs`: 取り消し, 취소) → the command."""
    return {pack.text(f"score.verbs.{verb.name}"): verb.name for verb in VERB_TABLE}


def help_text(pack: Pack) -> str:
    """`help`: each command as typed, in the pack's word where it has its own, then what it does."""
    lines = []
    for verb in VERB_TABLE:
        word = pack.text(f"score.verbs.{verb.name}")
        shown = verb.help_usage() if word == verb.name else f"{word}  {verb.help_usage()}"
        lines.append(f"  {shown:<26} {pack.text(f'score.help.{verb.name}')}")
    return "\n".join(lines)


def run(journal: Journal, speaker: Speaker, pack: Pack, lines: Iterator[str],
        echo: Callable[[str], None], show: Callable[[State], None]) -> None:
    """The loop: each scoring entry is appended (fsync'ed) and then printed and said in `pack`'s language."""
    state = journal.load()
    match_pack = pack_for_match(pack, state.match)
    if state.match is not None:
        speaker.say(match_pack.line("score.play_start", a=state.match.players[0], b=state.match.players[1],
                                     game=state.match.game))
    else:
        speaker.say(match_pack.line("score.no_match"))
    local = verb_words(match_pack)
    for typed in lines:
        words = typed.split()
        if not words:
            continue
        try:
            verb = resolve_verb(words[0], local)
            if verb == "quit":
                break
            if verb == "help":
                echo(help_text(match_pack))
                continue
            if verb == "show":
                show(journal.load())
                continue
            if verb == "say":
                state = journal.load()
                for line in totals_lines(pack_for_match(pack, state.match), state.match):
                    speaker.say(line)
                continue
            args = words[1:]
            if verb == "angel-cut" and WON not in args:
                args += _won(journal, args, lines, match_pack, speaker, echo)
            _, change = journal.append(functools.partial(build, verb, args))
        except ValueError as error:  # ScoreError, JournalError, BadEntry: nothing was written
            echo(f"? {match_pack.error(error).splitlines()[0]}")
            continue
        for line in change_lines(pack_for_match(pack, change.match), change):
            speaker.say(line)
    speaker.say(pack.line("score.play_bye"))



def _won(journal: Journal, args: list[str], lines: Iterator[str], pack: Pack, speaker: Speaker,
         echo: Callable[[str], None]) -> list[str]:
    """Asks whether an Angel Cut (checked first: a refused one is not asked about) was made with
    an empty hand, which wins at once: the words to add (--won LEFT), or none."""
    state = journal.load()
    cut = build("angel-cut", args, state)
    advance(state, cut, strict=True)
    assert isinstance(cut, AngelCut) and state.match is not None, "build makes a cut, in a match, or refuses"
    speaker.say(pack.line("score.ask_won", player=cut.player, opponent=state.match.opponent(cut.player)))
    no = {"", "n", "no", "-", pack.text("score.answer_no").casefold()}
    for answer in lines:
        word = answer.strip().casefold()
        if word in no:
            return []
        try:
            parse_count(word, "LEFT")
        except BadEntry:
            echo(f"? {pack.text('score.ask_won_again')}")
            continue
        return [WON, word]
    return []
