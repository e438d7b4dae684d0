"""Whole nights driven by a fake clock, scripted answers and a recording speaker."""

import json
import re

import pytest

from fakes import FakeClock
from gm.text.lines import Voice
from gm.night.context import NightContext
from gm.night.runner import NightStopped, run_night
from gm.werewolf.decks import standard_deck

from fakes import RecordingSpeaker, ScriptedAsker, ScriptedControls

FOUR = ["Aki", "Ken", "Mio", "Sora"]
FIVE = FOUR + ["Yui"]


def night(players, answers, deck=None, lang="en", events=(), roll_call=False, readings=None, discussion=180):
    clock = FakeClock()
    speaker = RecordingSpeaker(clock)
    log = []
    ctx = NightContext(
        players=players, deck=deck or standard_deck(len(players)), voice=Voice(lang, readings),
        speaker=speaker, asker=ScriptedAsker(answers, clock), clock=clock,
        controls=ScriptedControls(clock, events),
        log=lambda kind, **d: log.append({"t": clock.now(), "type": kind, **d}),
        pause=20, discussion=discussion, roll_call=roll_call,
    )
    result = run_night(ctx)
    assert not ctx.asker.answers, f"unused answers: {ctx.asker.answers}"
    return result, speaker, log, clock


MORNING_4 = [("werewolf.deal", "done"), ("werewolf.pass_right", None), ("werewolf.lay_down", "done"),
             ("werewolf.seer_one", None)]


YES = [("werewolf.vote.readback", "yes")]


def counts(*numbers):
    """One round's counts (the whole tally's read-back is then accepted, as with Enter)."""
    return [("werewolf.vote.ask_count", str(n)) for n in numbers]


def test_four_players_werewolf_executed_by_count_vote():
    answers = MORNING_4 + counts(3, 1, 0, 0, 0) + [("werewolf.reveal.ask_first", "villager"),
                                                 ("werewolf.reveal.ask_second", "werewolf")]
    result, speaker, log, clock = night(FOUR, answers)
    assert result.vote.executed == "Aki" and not result.vote.panic
    assert result.reveal.winning_side == "villagers" and not result.reveal.winners_known
    texts = [line.text for line in speaker.lines]
    assert "Aki to Ken, Ken to Mio, Mio to Sora and Sora to Aki" in texts[speaker.keys.index("werewolf.pass_right")]
    assert "werewolf.vote.four_players" in speaker.keys  # why everyone points at once
    assert ("The votes: Aki has 3 votes, Ken has 1 vote, Mio has 0 votes, Sora has 0 votes and the graveyard has "
            "0 votes. Is that right?") in texts
    assert "Aki is executed." in texts and "Aki holds Villager and Werewolf." in texts
    assert texts[-3:] == ["Victory to the villagers!", "Everyone on that side wins. Turn your cards over to see who.",
                          "That was the night. Shuffle up for the next one!"]
    # waits: two morning steps timed out after the 20 s pause; the discussion took 180 s
    discussion = [e for e in log if e["type"] == "discussion"][0]
    assert discussion["how"] == "time_up" and discussion["seconds"] == pytest.approx(180)
    assert clock.now() == pytest.approx(40 + 180)
    verdict = [e for e in log if e["type"] == "verdict"][0]
    assert verdict["executed"] == "Aki" and verdict["winning_side"] == "villagers"
    assert [e["type"] for e in log][:2] == ["setup", "phase"]
    json.dumps(log, ensure_ascii=False)  # every event is JSON


def test_a_total_that_cannot_be_is_counted_again():
    # HW-R4: with four players at least three votes; 1 + 1 is refused
    answers = MORNING_4 + counts(1, 1, 0, 0, 0) + counts(2, 1, 0, 0, 0) + [
        ("werewolf.reveal.ask_first", "werewolf"), ("werewolf.reveal.ask_second", "traitor")]
    result, speaker, log, _ = night(FOUR, answers)
    assert speaker.keys.count("werewolf.vote.bad_total") == 1
    assert [e["type"] for e in log].count("vote_refused") == 1
    assert result.reveal.winning_side == "traitor_werewolf" and result.reveal.winners == ("Aki",)


def test_the_whole_tally_is_confirmed_and_one_count_corrected_before_anyone_is_executed():
    """The tally Aki 2, Ken 2 would be a runoff; the table says no, corrects Ken to 1 (a total
    HW-R4 refuses, with four players at least 3: asked again), then Aki to 3, then confirms."""
    answers = MORNING_4 + counts(2, 2, 0, 0, 0) + [
        ("werewolf.vote.readback", "no"), ("werewolf.vote.which", "Ken=0"),
        ("werewolf.vote.readback", "Ken=1"), ("werewolf.vote.readback", "Aki=3"), *YES,
        ("werewolf.reveal.ask_first", "villager"), ("werewolf.reveal.ask_second", "werewolf")]
    result, speaker, log, _ = night(FOUR, answers)
    assert result.vote.executed == "Aki" and "werewolf.vote.tie" not in speaker.keys
    texts = [line.text for line in speaker.lines]
    assert "That makes 2 votes, which this vote cannot have." in texts
    tallies = [t for t in texts if t.startswith("The votes: ")]
    assert tallies == [
        "The votes: Aki has 2 votes, Ken has 2 votes, Mio has 0 votes, Sora has 0 votes and the graveyard has 0 votes. "
        "Is that right?",
        "The votes: Aki has 2 votes, Ken has 2 votes, Mio has 0 votes, Sora has 0 votes and the graveyard has 0 votes. "
        "Is that right?",
        "The votes: Aki has 2 votes, Ken has 1 vote, Mio has 0 votes, Sora has 0 votes and the graveyard has 0 votes. "
        "Is that right?",
        "The votes: Aki has 3 votes, Ken has 1 vote, Mio has 0 votes, Sora has 0 votes and the graveyard has 0 votes. "
        "Is that right?",
    ]
    assert speaker.keys.count("werewolf.vote.ask_count") == 5  # nobody counted everything again
    assert [e["votes"] for e in log if e["type"] == "vote_corrected"] == [1, 3]
    assert [e for e in log if e["type"] == "vote"][0]["counts"]["Aki"] == 3


FIVE_MORNING = [("werewolf.deal", "done"), ("werewolf.pass_right", None), ("werewolf.lay_down", None),
                ("werewolf.seer_two", None), ("werewolf.gravedigger", None)]


def cards(owner_key, *pairs):
    return [(owner_key, c) for c in pairs]


def test_five_players_runoff_then_innocent_executed_asks_every_card():
    answers = FIVE_MORNING + counts(2, 2, 1, 0, 0, 0) + counts(3, 2) + [
        ("werewolf.reveal.ask_first", "seer"), ("werewolf.reveal.ask_second", "villager"),   # Aki, executed
        ("werewolf.reveal.ask_first", "werewolf"), ("werewolf.reveal.ask_second", "villager"),  # Ken
        ("werewolf.reveal.ask_first", "traitor"), ("werewolf.reveal.ask_second", "villager"),  # Mio
        ("werewolf.reveal.ask_first", "gravedigger"), ("werewolf.reveal.ask_second", "villager"),  # Sora
        ("werewolf.reveal.ask_first", "villager"), ("werewolf.reveal.ask_second", "villager"),  # Yui
        ("werewolf.reveal.ask_graveyard", "villager"), ("werewolf.reveal.ask_graveyard", "villager"),
    ]
    result, speaker, log, _ = night(FIVE, answers)
    votes = [e for e in log if e["type"] == "vote"]
    assert [v["round"] for v in votes] == [1, 2]
    assert votes[1]["counts"] == {"Aki": 3, "Ken": 2}
    tie = "A tie between Aki and Ken. Runoff: everyone votes again, only among them."
    assert tie in [line.text for line in speaker.lines]
    assert result.reveal.winning_side == "werewolves"
    assert set(result.reveal.winners) == {"Ken", "Mio"}
    assert "werewolf.reveal.everyone" in speaker.keys


def test_panic_after_a_second_tie_judges_the_whole_table():
    answers = MORNING_4 + counts(2, 2, 0, 0, 0) + counts(2, 2) + [
        ("werewolf.reveal.ask_first", "werewolf"), ("werewolf.reveal.ask_second", "traitor"),
        ("werewolf.reveal.ask_first", "villager"), ("werewolf.reveal.ask_second", "villager"),
        ("werewolf.reveal.ask_first", "seer"), ("werewolf.reveal.ask_second", "villager"),
        ("werewolf.reveal.ask_first", "villager"), ("werewolf.reveal.ask_second", "villager"),
        ("werewolf.reveal.ask_graveyard", "villager"),
    ]
    result, speaker, log, _ = night(FOUR, answers)
    assert result.vote.panic and result.vote.executed is None
    assert "werewolf.vote.panic" in speaker.keys
    # HW-R5: the Traitor Werewolf (Aki) was spared, which reverses the sides: the villagers win
    assert result.reveal.winning_side == "villagers" and result.reveal.winners == ("Ken", "Mio", "Sora")
    assert speaker.keys[-2] == "werewolf.verdict.panic_traitor_werewolf"
    assert "the villager side wins: Ken, Mio and Sora" in speaker.lines[-2].text


def test_graveyard_voted_asks_only_the_graveyard_when_it_decides():
    answers = FIVE_MORNING + counts(0, 0, 0, 0, 0, 5) + [
        ("werewolf.reveal.ask_graveyard", "werewolf"), ("werewolf.reveal.ask_graveyard", "villager")]
    result, speaker, _, _ = night(FIVE, answers)
    assert result.vote.executed == "graveyard"
    assert result.reveal.winning_side == "villagers" and not result.reveal.winners_known
    assert "werewolf.reveal.everyone" not in speaker.keys


def test_cards_that_do_not_add_up_name_the_card_and_ask_only_the_hands_involved():
    first_pass = [
        ("werewolf.reveal.ask_first", "seer"), ("werewolf.reveal.ask_second", "villager"),  # Aki executed
        ("werewolf.reveal.ask_first", "werewolf"), ("werewolf.reveal.ask_second", "villager"),  # Ken
        ("werewolf.reveal.ask_first", "traitor"), ("werewolf.reveal.ask_second", "werewolf"),  # Mio: a second wolf
        ("werewolf.reveal.ask_first", "gravedigger"), ("werewolf.reveal.ask_second", "villager"),
        ("werewolf.reveal.ask_first", "villager"), ("werewolf.reveal.ask_second", "villager"),
        ("werewolf.reveal.ask_graveyard", "villager"), ("werewolf.reveal.ask_graveyard", "villager"),
    ]
    again = [  # only Ken's and Mio's cards, the hands naming the werewolf
        ("werewolf.reveal.ask_first", "werewolf"), ("werewolf.reveal.ask_second", "villager"),
        ("werewolf.reveal.ask_first", "traitor"), ("werewolf.reveal.ask_second", "villager"),
    ]
    answers = FIVE_MORNING + counts(3, 1, 1, 0, 0, 0) + first_pass + again
    result, speaker, log, _ = night(FIVE, answers)
    line = speaker.lines[speaker.keys.index("werewolf.reveal.too_many")]
    assert line.text == "Werewolf is given 2 times, but the deck has 1. Once more, the cards of Ken and Mio."
    assert [e["type"] for e in log].count("judge_refused") == 1
    assert result.reveal.winning_side == "werewolves" and set(result.reveal.winners) == {"Ken", "Mio"}


def test_a_card_given_too_often_in_the_graveyard_asks_the_graveyard_again_in_japanese():
    answers = MORNING_4 + counts(0, 2, 2, 0, 0) + counts(1, 3) + [
        ("werewolf.reveal.ask_first", "seer"), ("werewolf.reveal.ask_second", "villager"),  # Mio executed
        ("werewolf.reveal.ask_first", "villager"), ("werewolf.reveal.ask_second", "villager"),  # Aki
        ("werewolf.reveal.ask_first", "werewolf"), ("werewolf.reveal.ask_second", "villager"),  # Ken
        ("werewolf.reveal.ask_first", "villager"), ("werewolf.reveal.ask_second", "villager"),  # Sora
        ("werewolf.reveal.ask_graveyard", "seer"),  # a second seer
        ("werewolf.reveal.ask_first", "seer"), ("werewolf.reveal.ask_second", "villager"),  # Mio again
        ("werewolf.reveal.ask_graveyard", "traitor"),
    ]
    result, speaker, _, _ = night(FOUR, answers, lang="ja")
    line = speaker.lines[speaker.keys.index("werewolf.reveal.too_many")]
    assert line.text == "占い師が2枚になりますが、デッキには1枚しかありません。Mio、墓地のカードをもう一度確認します。"
    assert result.reveal.winning_side == "werewolves" and result.reveal.winners == ("Ken",)



@pytest.mark.parametrize("lang, said", [
    ("ja", "そのカードでは辻褄が合いません（Akiに占い師が2枚ありますが、役職カードには1枚です）。"
           "もう一度確認しましょう。"),
    ("ko", "그 카드로는 맞지 않습니다 (Aki에 예언자 카드가 2장이지만, 이번 카드에는 1장이에요). 다시 확인해 볼게요."),
    ("en", "Those cards do not add up (Aki holds 2 × seer but the deck has 1). Let's go through them again."),
])
def test_cards_the_deck_cannot_hold_are_refused_in_the_nights_language(lang, said):
    answers = MORNING_4 + counts(3, 1, 0, 0, 0) + [
        ("werewolf.reveal.ask_first", "seer"), ("werewolf.reveal.ask_second", "seer"),  # Aki: two seers
        ("werewolf.reveal.ask_first", "villager"), ("werewolf.reveal.ask_second", "werewolf")]
    result, speaker, log, _ = night(FOUR, answers, lang=lang)
    assert speaker.lines[speaker.keys.index("werewolf.reveal.inconsistent")].text == said
    assert [e["error"] for e in log if e["type"] == "judge_refused"] == ["Aki holds 2 × seer but the deck has 1"]
    assert result.reveal.winning_side == "villagers"

def test_roll_call_warns_at_four_players_and_counts_named_votes():
    answers = MORNING_4 + [("werewolf.vote.ask_voter", "Ken"), ("werewolf.vote.ask_voter", "Aki"),
                           ("werewolf.vote.ask_voter", "Ken"), ("werewolf.vote.ask_voter", "none"),
                           ("werewolf.reveal.ask_first", "werewolf"), ("werewolf.reveal.ask_second", "villager")]
    result, speaker, log, _ = night(FOUR, answers, roll_call=True)
    assert "werewolf.vote.roll_call_four" in speaker.keys
    assert result.vote.executed == "Ken"
    assert [e for e in log if e["type"] == "vote"][0]["counts"]["Ken"] == 2


def test_vote_now_key_ends_the_discussion_early():
    answers = MORNING_4 + counts(0, 0, 0, 0, 3) + [("werewolf.reveal.ask_graveyard", "traitor")]
    result, speaker, log, clock = night(FOUR, answers, events=[(60 + 40, "end")])
    assert result.discussion.how == "ended"
    assert result.vote.executed == "graveyard"
    assert "werewolf.vote.graveyard_chosen" in speaker.keys
    assert result.reveal.winning_side == "werewolves"  # the traitor lies there: no Traitor Werewolf elsewhere


def test_quit_from_ctrl_c_stops_the_night():
    answers = MORNING_4 + [("werewolf.timer.interrupted", "quit")]
    with pytest.raises(NightStopped):
        night(FOUR, answers, events=[(100, "interrupt")])


def test_magicians_night_asks_who_saw_the_magician():
    six = FIVE + ["Rin"]
    deck = standard_deck(6, "magician")
    morning = [("werewolf.deal", "done"), ("werewolf.pass_right", None), ("werewolf.lay_down", None),
               ("werewolf.seer_two", None), ("werewolf.gravedigger", None)]
    hands = {"Aki": ["villager", "villager"], "Ken": ["werewolf", "villager"], "Mio": ["seer", "villager"],
             "Sora": ["traitor", "villager"], "Yui": ["gravedigger", "villager"], "Rin": ["magician", "villager"]}
    reveal = [("werewolf.reveal.ask_first", "villager"), ("werewolf.reveal.ask_second", "villager")]
    for p in six[1:]:
        reveal += [("werewolf.reveal.ask_first", hands[p][0]), ("werewolf.reveal.ask_second", hands[p][1])]
    reveal += [("werewolf.reveal.ask_graveyard", "villager"), ("werewolf.reveal.ask_graveyard", "villager"),
               ("werewolf.reveal.magician_seen", "Mio"), ("werewolf.reveal.magician_seen", "none")]
    answers = morning + counts(4, 1, 0, 0, 0, 0, 0) + reveal
    result, speaker, _, _ = night(six, answers, deck=deck)
    assert result.reveal.winning_side == "werewolves"
    assert set(result.reveal.winners) == {"Ken", "Sora", "Mio"}


def test_a_whole_night_in_japanese_speaks_only_kana():
    answers = MORNING_4 + counts(3, 1, 0, 0, 0) + [("werewolf.reveal.ask_first", "werewolf"),
                                                 ("werewolf.reveal.ask_second", "villager")]
    readings = {"Aki": "あき", "Ken": "けん", "Mio": "みお", "Sora": "そら"}
    result, speaker, _, _ = night(FOUR, answers, lang="ja", readings=readings)
    assert result.reveal.winning_side == "villagers"
    texts = [line.text for line in speaker.lines]
    assert "Akiさんが処刑されます。" in texts
    assert speaker.lines[0].text.startswith("ハーフ人狼、4人プレイです。")
    assert speaker.lines[0].spoken.startswith("ハーフじんろう、よにんぷれいです。あき、けん、みお、そら。")
    for line in speaker.lines:
        assert not re.search(r"[\u4e00-\u9fff0-9A-Za-z]", line.spoken), f"{line.key}: {line.spoken}"
