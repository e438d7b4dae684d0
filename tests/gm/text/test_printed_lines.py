"""Every line the game master prints wraps at word boundaries for the terminal's width (rich):
English and Korean break between words, Japanese between characters, wide characters counted as
two cells; piped, a line stays whole for scripts."""

import io
import re

import pytest
from rich.cells import cell_len

import pack_samples as samples
from gm import files
from gm.ports import Line
from gm.speech.speakers import PrintSpeaker


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def terminal(monkeypatch):
    """A function that makes stdout an 80-column terminal (called in the test itself: pytest's
    capture sets stdout again between a fixture and the test)."""
    def on_terminal() -> Terminal:
        screen = Terminal()
        monkeypatch.setattr("sys.stdout", screen)
        monkeypatch.setenv("COLUMNS", "80")
        monkeypatch.setenv("LINES", "24")
        files._terminal_console.cache_clear()  # a console made for another width is not kept
        return screen
    yield on_terminal
    files._terminal_console.cache_clear()


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_every_pack_line_is_printed_within_80_columns_at_word_boundaries(terminal, lang):
    speaker = PrintSpeaker()
    screen = terminal()
    for line in samples.lines(lang):
        screen.seek(0)
        screen.truncate()
        speaker.say(line)
        rows = screen.getvalue().rstrip("\n").split("\n")
        assert all(cell_len(row) <= 80 for row in rows), (line.key, rows)
        if lang == "ja":  # no spaces to break at: every character kept, in order
            assert re.sub(r"\s", "", "".join(rows)) == re.sub(r"\s", "", line.text), line.key
        else:  # no word cut in two
            assert " ".join(rows).split() == line.text.split(), (line.key, rows)


def test_the_longest_deal_line_breaks_between_words(terminal):
    text = ("Shuffle these 9 role cards: 6 villagers, werewolf, seer and traitor. Deal two face down to each "
            "player and put the card left over face down in the middle: the graveyard. Say done when dealt.")
    screen = terminal()
    PrintSpeaker().say(Line("werewolf.deal", text, text))
    rows = screen.getvalue().rstrip("\n").split("\n")
    assert [row.rstrip() for row in rows] == [
        "Shuffle these 9 role cards: 6 villagers, werewolf, seer and traitor. Deal two",
        "face down to each player and put the card left over face down in the middle: the",
        "graveyard. Say done when dealt."]


def test_piped_output_keeps_each_line_whole(monkeypatch, capsys):
    text = "word " * 40
    PrintSpeaker().say(Line("k", text, text))
    assert capsys.readouterr().out == text + "\n"
