"""A night that forgives the table's mistakes: Ctrl-C at any question, typos, steps that wait,
and the big countdown drawn right for every second."""

import io

import pytest

from fakes import FakeClock, RecordingSpeaker
from gm.night.context import NightContext
from gm.ports import How
from scorer.werewolf.decks import standard_deck
from gm.hearing.keyboard import KeyboardAsker
from gm.night.runner import NightStopped
from gm.night.terminal import LiveCountdown, big_time
from gm.table.asked import Done
from gm.table.questions import Table
from gm.text.lines import Pack

from fakes import CTRL_C
from test_night import MORNING_4, counts, night

EXECUTED_WEREWOLF = [("werewolf.reveal.ask_hand", "werewolf villager"),
                     ("werewolf.reveal.ask_holder", "graveyard")]  # the traitor: all four vote


def test_ctrl_c_at_the_deal_pauses_and_resumes_the_same_question():
    answers = [("werewolf.deal", CTRL_C), ("werewolf.paused", "resume"), ("werewolf.deal", "done"),
               *MORNING_4[1:], *counts(3, 1, 0, 0, 0), *EXECUTED_WEREWOLF]
    result, speaker, log, _ = night(["Aki", "Ken", "Mio", "Sora"], answers)
    assert speaker.keys[:speaker.keys.index("werewolf.morning")].count("werewolf.deal") == 2  # asked again
    assert "werewolf.paused" in speaker.keys
    assert [e["type"] for e in log].count("paused") == 1
    assert result.reveal.winning_side == "villagers"


def test_ctrl_c_at_a_vote_count_keeps_the_counts_already_given():
    answers = [*MORNING_4, ("werewolf.vote.ask_count", "3"), ("werewolf.vote.ask_count", CTRL_C),
               ("werewolf.paused", "resume"), ("werewolf.vote.ask_count", "1"), *EXECUTED_WEREWOLF]
    result, _, log, _ = night(["Aki", "Ken", "Mio", "Sora"], answers)
    assert result.vote.executed == "Aki"
    assert [e["counts"] for e in log if e["type"] == "vote"] == [{"Aki": 3, "Ken": 1, "Mio": 0, "Sora": 0,
                                                                  "graveyard": 0}]


@pytest.mark.parametrize("then", ["quit", CTRL_C])
def test_ctrl_c_at_the_reveal_then_quit_or_ctrl_c_again_stops_the_night(then):
    answers = [*MORNING_4, *counts(3, 1, 0, 0, 0), ("werewolf.reveal.ask_hand", CTRL_C), ("werewolf.paused", then)]
    with pytest.raises(NightStopped):
        night(["Aki", "Ken", "Mio", "Sora"], answers)


def _questions(answers, **kw):
    from gm.text.lines import Pack
    from gm.night.context import NightContext
    from gm.night.runner import run_night
    from scorer.werewolf.decks import standard_deck
    from fakes import RecordingSpeaker, ScriptedAsker, ScriptedControls

    clock = FakeClock()
    asker = ScriptedAsker(answers, clock)
    ctx = NightContext(players=["Aki", "Ken", "Mio", "Sora"], deck=standard_deck(4), pack=Pack("en"),
                       speaker=RecordingSpeaker(clock), asker=asker, clock=clock,
                       controls=ScriptedControls(clock), **kw)
    run_night(ctx)
    return {q.key: q.timeout for q in asker.questions if q.key in ("werewolf.deal", "werewolf.pass_right",
                                                                    "werewolf.lay_down", "werewolf.seer_one")}


def test_the_deal_waits_for_done_and_pause_zero_waits_everywhere():
    answers = [("werewolf.deal", "done"), ("werewolf.pass_right", "done"), ("werewolf.lay_down", "done"),
               ("werewolf.seer_one", "done"), *counts(3, 1, 0, 0, 0), *EXECUTED_WEREWOLF]
    assert _questions(list(answers), pause=20) == {"werewolf.deal": None, "werewolf.pass_right": 20,
                                                   "werewolf.lay_down": 20, "werewolf.seer_one": 20}
    assert set(_questions(list(answers), pause=0).values()) == {None}


def test_a_typo_gets_the_nearest_card_suggested_and_y_takes_it():
    out = []
    asker = KeyboardAsker(FakeClock(), io.StringIO("vilager\ny\n"), echo=out.append)
    question = Table(Pack("en")).card("werewolf.reveal.ask_hand", ("villager", "werewolf", "seer", "traitor"),
                                       name="Aki")
    assert asker.ask(question).value == "villager"
    assert "  ? “vilager”: did you mean Villager? (y)" in out


def test_a_name_at_a_card_prompt_suggests_no_card():
    out = []
    asker = KeyboardAsker(FakeClock(), io.StringIO("Aki\ny\ntraitor\n"), echo=out.append)
    question = Table(Pack("en")).card("werewolf.reveal.ask_hand", ("villager", "werewolf", "seer", "traitor"),
                                       name="Aki")
    assert asker.ask(question).value == "traitor"  # the y after "Aki" took nothing
    assert "  ? “Aki” answers nothing here; ? lists the answers." in out


def _rows_on_screen(seconds: int, paused: bool) -> list[str]:
    from rich.console import Console

    console = Console(file=io.StringIO(), width=80, color_system=None, legacy_windows=False)
    console.print(LiveCountdown("Discussion", "space pause · + 30 s · v vote now · r repeat")._render(seconds, paused))
    return [line.strip("│") for line in console.file.getvalue().splitlines()[1:-1]]


@pytest.mark.parametrize("paused", [False, True])
def test_the_big_countdown_is_drawn_right_for_every_second_of_a_discussion(paused):
    for seconds in range(180, -1, -1):
        rows = big_time(seconds).split("\n")
        shown = _rows_on_screen(seconds, paused)
        assert len(shown) == 5
        width = max(len(row) for row in rows)
        starts = [o for o in range(len(shown[0]) - width + 1)
                  if all(shown[r][o:o + width] == rows[r].ljust(width) for r in range(5))]
        assert starts, f"{seconds // 60}:{seconds % 60:02d} is drawn with a row shifted: {shown}"
        assert all(line[:starts[0]].strip() == "" and line[starts[0] + width:].strip() == "" for line in shown)


class SteppingClock:
    """Game time that moves `step` seconds each time it is read; a game second lasts a
    ten-thousandth of a real one (--time-scale 0.0001)."""

    scale = 0.0001

    def __init__(self, step: float = 1.0) -> None:
        self.t = 0.0
        self.step = step

    def now(self) -> float:
        self.t += self.step
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += seconds


def test_a_step_that_goes_on_by_itself_shows_its_countdown(capsys):
    import os

    read, write = os.pipe()
    try:
        with os.fdopen(read, "r", closefd=False) as stream:
            asker = KeyboardAsker(SteppingClock(step=10_000), stream)  # a table second per read
            asker.interactive = True  # a terminal
            question = Table(Pack("en")).step("werewolf.lay_down", timeout=60_000)  # a minute of the table's
            assert asker.ask(question).value is Done.DONE  # nobody typed: it went on by itself
    finally:
        os.close(read)
        os.close(write)
    shown = capsys.readouterr().out.split("\r")
    countdown = [part for part in shown if part.startswith("\033[K  [Enter · ") and " s] > " in part]
    numbers = [int(part.split()[3]) for part in countdown]  # in the table's seconds, not the game clock's
    assert numbers[0] == 5 and len(numbers) >= 2 and numbers == sorted(set(numbers), reverse=True)


def test_a_step_that_goes_on_by_itself_counts_down_while_listening_too(capsys):
    from fakes import listening_asker

    clock = FakeClock()
    asker, _ = listening_asker(clock)
    asker.keyboard.interactive = True  # a terminal
    question = Table(Pack("en")).step("werewolf.lay_down", timeout=3)
    assert asker.ask(question).value is Done.DONE
    numbers = {part.split()[3] for part in capsys.readouterr().out.split("\r") if part.startswith("\033[K  [Enter · ")}
    assert {"3", "2", "1"} <= numbers


def test_names_in_tables_are_plain_text():
    from typer.testing import CliRunner
    from gm.cli import app

    result = CliRunner().invoke(app, ["werewolf", "tally", "--players", "[b]Aki[/b],Ken,Mio,Sora", "--votes", "Ken=3"])
    assert result.exit_code == 0 and "[b]Aki[/b]" in result.stdout


class Speaking(RecordingSpeaker):
    """A loudspeaker that takes `seconds` of the clock to say each line (`flush` waits for them)."""

    def __init__(self, clock, seconds):
        super().__init__(clock)
        self.seconds, self.unsaid = seconds, 0

    def say(self, line):
        super().say(line)
        self.unsaid += 1

    def flush(self):
        super().flush()
        self.clock.sleep(self.seconds * self.unsaid)
        self.unsaid = 0


@pytest.mark.parametrize("listening", [False, True])
def test_a_steps_time_runs_from_the_end_of_its_line(listening):
    """A step's line takes 15 s to say (the pass to the right, with its pairs, does); with 20 s
    for the step the table had 5 s to pass its cards and say "done" before the night went on by
    itself. Typed or heard, the step's 20 s begin once its line has been said."""
    clock = FakeClock()
    speaker = Speaking(clock, 15.0)
    keyboard = KeyboardAsker(clock, io.StringIO(""))
    asker = keyboard
    if listening:  # a microphone that hears only the room
        from fakes import FakeModel, ScriptSource
        from gm.hearing.session import Listener
        from gm.hearing.listening import ListeningAsker

        asker = ListeningAsker(Listener(FakeModel(), ScriptSource(clock)), keyboard, speaker, Pack("en"), clock)
    ctx = NightContext(players=("Aki", "Ken", "Mio", "Sora"), deck=standard_deck(4), pack=Pack("en"),
                       speaker=speaker, asker=asker, clock=clock, pause=20)
    start = clock.now()
    assert ctx.ask(ctx.table.step("werewolf.lay_down", 20.0)).how == How.DEFAULT
    assert clock.now() - start >= 15.0 + 20.0
