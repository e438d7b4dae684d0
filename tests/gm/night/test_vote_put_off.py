"""A count not heard by voice is put off and asked again after the others (gm.night.vote), as a
game master says "back to Aki later": the table says the rest, and an exact total may leave it
(HW-R4). Whole votes through the real listening asker, a scripted table and a fake clock."""

import io

import pytest

from fakes import FakeClock, FakeModel, FakeSpeaker, ScriptSource, said
from gm.hearing.keyboard import KeyboardAsker
from gm.hearing.listening import ListeningAsker
from gm.hearing.session import Listener
from gm.night.context import NightContext
from gm.night.vote import run_vote
from gm.ports import How
from gm.text.lines import Pack
from scorer.werewolf.decks import standard_deck

EN = Pack("en")
NOT_HEARD = [said("gorilla"), said("coffee"), said("window")]  # a count's three tries


def _vote(players, script, keyboard=""):
    clock = FakeClock()
    speaker = FakeSpeaker()
    log = []
    asker = ListeningAsker(Listener(FakeModel(), ScriptSource(clock, script)),
                           KeyboardAsker(clock, io.StringIO(keyboard), echo=lambda _: None), speaker, EN, clock,
                           seats=players)
    ctx = NightContext(players=players, deck=standard_deck(len(players)), pack=EN, speaker=speaker, asker=asker,
                       clock=clock, log=lambda kind, **data: log.append({"type": kind, **data}))
    return run_vote(ctx), speaker, log


def test_a_count_not_heard_is_asked_again_after_the_others_and_heard_then():
    players = ("Aki", "Ken", "Mio", "Sora")
    script = [*NOT_HEARD, said("one"), said("zero"), said("zero"), said("zero"), said("three"), said("yes")]
    outcome, speaker, log = _vote(players, script)
    assert outcome.executed == "Aki"
    assert "Back to Aki later." in speaker.texts()
    asked = [line.fields["candidate"] for line in speaker.lines
             if line.key in ("werewolf.vote.ask_count", "werewolf.vote.ask_next")]
    assert asked[-1] == "Aki" and asked.index("Ken") < len(asked) - 1  # Ken and the rest before Aki again
    assert [e["key"] for e in log if e["type"] == "put_off"] == ["werewolf.vote.ask_count"]
    assert "listen.type_it" not in speaker.keys()


def test_a_count_put_off_and_still_not_heard_is_what_an_exact_total_leaves():
    # five players: every player votes (HW-R4), so the last count asked is what the others leave
    players = ("Aki", "Ken", "Mio", "Sora", "Yui")
    script = [*NOT_HEARD, said("one"), said("one"), said("zero"), said("zero"), said("zero"), *NOT_HEARD,
              said("yes")]
    outcome, speaker, _ = _vote(players, script)
    assert outcome.executed == "Aki"
    assert "That leaves 3 for Aki." in speaker.texts() and "listen.type_it" not in speaker.keys()


@pytest.mark.parametrize("script, executed, put_off", [
    # the graveyard's count, asked last: nothing to put it after
    ([said("zero"), said("zero"), said("one"), said("zero"), *NOT_HEARD], "graveyard", 0),
    # Aki's, put off once: not put off again
    ([*NOT_HEARD, said("zero"), said("one"), said("zero"), said("zero"), *NOT_HEARD], "Aki", 1),
])
def test_a_count_with_nothing_left_to_ask_or_put_off_before_is_typed(script, executed, put_off):
    outcome, speaker, log = _vote(("Aki", "Ken", "Mio", "Sora"), script, keyboard="3\n\n")
    assert outcome.executed == executed
    typed = [e["answer"] for e in log if e["type"] == "answer" and e["by"] is How.KEYBOARD]
    assert typed[0] == {executed: 3}  # the count, typed (then the tally's yes)
    assert speaker.keys().count("werewolf.vote.later") == put_off
