"""What gm says during a vote stays short: a 4-player vote whose last vote is the graveyard's (every
candidate asked) is said in 10 lines, within the characters it has now in each pack.

bench/vote_bench.py renders these lines with each language's default voice: 23.2 s (en), 23.6 s
(ja), 23.7 s (ko), under the 25 s a 4-player vote may take. A line that grows here is paid for
by another one, or the bench is run again to show the vote still fits.
"""

import pytest

from fakes import FakeClock, RecordingSpeaker, ScriptedAsker, listening_asker, said
from gm.night.context import NightContext
from gm.night.vote import run_vote
from gm.text.lines import Pack
from scorer.werewolf.decks import standard_deck

VOTE_LINES = ["werewolf.vote.intro", "werewolf.vote.four_players", "werewolf.vote.ready", "werewolf.vote.ask_count",
              *["werewolf.vote.ask_next"] * 4, "werewolf.vote.readback", "werewolf.vote.executed"]
"""The call to vote, the traitor's vote and the Traitor Werewolf's in one line, the count, one
question per candidate, the whole tally once, the execution."""
PLAYERS = {"en": ["Aki", "Ken", "Mio", "Sora"], "ja": ["アキ", "ケン", "ミオ", "ソラ"],
           "ko": ["민수", "지훈", "서연", "지민"]}
SPOKEN_CHARACTERS = {"en": 253, "ja": 164, "ko": 116}
"""The spoken forms' length (kana in Japanese) of the whole vote below, as the packs have it."""


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_a_four_player_vote_is_said_in_ten_short_lines(lang):
    clock = FakeClock()
    speaker = RecordingSpeaker(clock)
    players = PLAYERS[lang]
    ctx = NightContext(players=players, deck=standard_deck(4), pack=Pack(lang), speaker=speaker,
                       asker=ScriptedAsker(["2", "0", "0", "0", "1"], clock), clock=clock)
    assert run_vote(ctx).executed == players[0]
    assert speaker.keys == VOTE_LINES
    assert sum(len(line.spoken) for line in speaker.lines) <= SPOKEN_CHARACTERS[lang]


def test_by_voice_every_candidate_asked_takes_the_candidates_and_one_yes():
    """Everything heard surely, the graveyard's vote last: one answer per candidate (the four
    players and the graveyard) and one yes to the whole tally, in the same ten lines."""
    clock = FakeClock()
    asker, _ = listening_asker(clock, [said(n) for n in ("two", "zero", "zero", "zero", "one", "yes")], endless=False)
    log: list[dict] = []
    ctx = NightContext(players=PLAYERS["en"], deck=standard_deck(4), pack=Pack("en"), speaker=asker.speaker,
                       asker=asker, clock=clock, log=lambda kind, **d: log.append({"type": kind, **d}))
    assert run_vote(ctx).executed == "Aki"
    answers = [e for e in log if e["type"] == "answer"]
    assert len(answers) == 5 + 1 and {e["by"] for e in answers} == {"voice"}
    assert asker.speaker.keys() == VOTE_LINES
