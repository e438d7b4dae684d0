"""Whole nights driven by a fake clock, scripted answers and a recording speaker."""

import json
import re

import pytest

from fakes import FakeClock
from gm.text.lines import Pack
from gm.night.context import NightContext
from gm.night.runner import NightStopped, run_night
from gm.ports import Answer, How
from scorer.werewolf.decks import standard_deck

from fakes import RecordingSpeaker, ScriptedAsker, ScriptedControls

FOUR = ["Aki", "Ken", "Mio", "Sora"]
FIVE = FOUR + ["Yui"]


def night(players, answers, deck=None, lang="en", events=(), roll_call=False, readings=None, discussion=180,
          questions=None):
    """Play a night; `questions` (a list) receives every question asked."""
    clock = FakeClock()
    speaker = RecordingSpeaker(clock)
    log = []
    asker = ScriptedAsker(answers, clock)
    if questions is not None:
        asker.questions = questions
    ctx = NightContext(
        players=players, deck=deck or standard_deck(len(players)), pack=Pack(lang, readings),
        speaker=speaker, asker=asker, clock=clock,
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


def held_by(*owners):
    """Answers to "who holds the … card?", in the order asked."""
    return [("werewolf.reveal.ask_holder", owner) for owner in owners]


def held_by_player(*owners):
    """Answers to "who holds the … card? Name the player." (the graveyard was shown without it)."""
    return [("werewolf.reveal.ask_holder_player", owner) for owner in owners]


def asked_cards(speaker):
    """The cards whose holder was asked, in order."""
    return [line.fields["card"].key.rsplit(".", 1)[1] for line in speaker.lines
            if line.key.startswith("werewolf.reveal.ask_holder")]


def said(speaker, key):
    """The fields of the first line said with `key`."""
    return speaker.lines[speaker.keys.index(key)].fields


def counts(*numbers):
    """One round's counts typed in one line at the first count, in the candidates' order ("3 1 0 0
    0"); the whole tally's read-back is then accepted, as with Enter."""
    return [("werewolf.vote.ask_count", " ".join(map(str, numbers)))]


def test_four_players_werewolf_executed_by_count_vote():
    answers = MORNING_4 + counts(3, 0, 0, 0, 0) + [("werewolf.reveal.ask_hand", "villager werewolf")] + held_by("Ken")
    result, speaker, log, clock = night(FOUR, answers)
    assert result.vote.executed == "Aki" and not result.vote.panic
    assert result.reveal.winning_side == "villagers" and result.reveal.winners == ("Mio", "Sora")
    assert asked_cards(speaker) == ["traitor"]  # the werewolf was shown: only the traitor is left to place
    passes = [(pair.fields["giver"], pair.fields["taker"]) for pair in said(speaker, "werewolf.pass_right")["pairs"]]
    assert passes == [("Aki", "Ken"), ("Ken", "Mio"), ("Mio", "Sora"), ("Sora", "Aki")]
    assert "werewolf.vote.four_players" in speaker.keys  # why everyone points at once
    tally = said(speaker, "werewolf.vote.readback")["counts"]
    assert [item.fields for item in tally] == [{"candidate": "Aki", "n": 3}]  # nobody else named
    assert said(speaker, "werewolf.vote.executed") == {"name": "Aki"}
    holds = said(speaker, "werewolf.reveal.holds")
    assert holds["name"] == "Aki" and [card.key for card in holds["cards"]] == [
        "werewolf.cards.villager", "werewolf.cards.werewolf"]
    assert speaker.keys[speaker.keys.index("werewolf.reveal.holds") + 1] == "werewolf.reveal.side_wins"
    assert said(speaker, "werewolf.reveal.side_wins")["side"].key == "werewolf.sides.villagers"
    assert speaker.keys[-2:] == ["werewolf.verdict.werewolf_executed", "werewolf.goodnight"]
    assert speaker.lines[-2].fields == {"name": "Aki", "winners": ("Mio", "Sora")}
    # waits: two morning steps timed out after the 20 s pause; the discussion took 180 s
    discussion = [e for e in log if e["type"] == "discussion"][0]
    assert discussion["how"] == "time_up" and discussion["seconds"] == pytest.approx(180)
    assert clock.now() == pytest.approx(40 + 180)
    verdict = [e for e in log if e["type"] == "verdict"][0]
    assert verdict["executed"] == "Aki" and verdict["winning_side"] == "villagers"
    assert verdict["winners"] == ["Mio", "Sora"] and verdict["sides"]["Ken"] == "werewolves"
    assert [e["type"] for e in log][:2] == ["setup", "phase"]
    json.dumps(log, ensure_ascii=False)  # every event is JSON


def test_a_total_that_cannot_be_is_counted_again():
    # HW-R4: with four players at least three votes; 1 + 1 is refused
    answers = MORNING_4 + counts(1, 1, 0, 0, 0) + counts(2, 1, 0, 0, 0) + [
        ("werewolf.reveal.ask_hand", "werewolf traitor")]
    result, speaker, log, _ = night(FOUR, answers)
    assert speaker.keys.count("werewolf.vote.bad_total") == 1
    assert [e["type"] for e in log].count("vote_refused") == 1
    assert result.reveal.winning_side == "traitor_werewolf" and result.reveal.winners == ("Aki",)


def test_a_second_total_that_cannot_be_is_read_back_for_its_fix_never_counted_a_third_time():
    # HW-R4 refuses 1 + 1 twice; issue 37: counting again had no end. gm says what it counted, every
    # count, and the fix "Aki 2" makes 3 votes, read back for a yes
    answers = MORNING_4 + counts(1, 1, 0, 0, 0) + counts(1, 1, 0, 0, 0) + [
        ("werewolf.vote.which_counted", "Aki 2"), ("werewolf.reveal.ask_hand", "werewolf traitor")]
    result, speaker, log, _ = night(FOUR, answers)
    assert speaker.keys.count("werewolf.vote.bad_total") == 1  # "Let's count again", once
    assert speaker.keys.count("werewolf.vote.ready") == 2
    asked = speaker.lines[speaker.keys.index("werewolf.vote.which_counted")]
    assert [(i.fields["candidate"], i.fields["n"]) for i in asked.fields["counts"]] == [
        ("Aki", 1), ("Ken", 1), ("Mio", 0), ("Sora", 0), ("the graveyard", 0)]
    assert speaker.keys[speaker.keys.index("werewolf.vote.which_counted") - 1] == "werewolf.vote.bad_fix"
    assert [e["counts"] for e in log if e["type"] == "vote"] == [{"Aki": 2, "Ken": 1, "Mio": 0, "Sora": 0,
                                                                 "graveyard": 0}]
    assert result.vote.executed == "Aki"


def test_a_yes_to_counts_that_cannot_be_says_the_totals_again_and_asks_the_fix():
    answers = MORNING_4 + counts(1, 1, 0, 0, 0) + counts(1, 1, 0, 0, 0) + [
        ("werewolf.vote.which_counted", "yes"), ("werewolf.vote.which_counted", "Aki 2"),
        ("werewolf.reveal.ask_hand", "werewolf traitor")]
    result, speaker, _, _ = night(FOUR, answers)
    assert speaker.keys.count("werewolf.vote.bad_fix") == 2 and result.vote.executed == "Aki"


def test_the_whole_tally_is_confirmed_and_one_count_corrected_before_anyone_is_executed():
    """The tally Aki 2, Ken 2 would be a runoff; the table says no, corrects Ken to 0 (a total
    HW-R4 refuses, with four players 3 to 4: said, and the tally read again), then Ken to 1 and
    Aki to 3 in one line, then confirms with Enter."""
    answers = MORNING_4 + counts(2, 2, 0, 0, 0) + [
        ("werewolf.vote.readback", "no"), ("werewolf.vote.which", "Ken 0"),
        ("werewolf.vote.readback", "ken=1, AKI 3"), ("werewolf.vote.readback", ""),
        ("werewolf.reveal.ask_hand", "villager werewolf"), *held_by("graveyard")]
    result, speaker, log, _ = night(FOUR, answers)
    assert result.vote.executed == "Aki" and "werewolf.vote.tie" not in speaker.keys
    refused = speaker.lines[speaker.keys.index("werewolf.vote.bad_fix")]
    assert refused.fields["total"] == 2 and refused.fields["votes"].fields == {"low": 3, "high": 4}
    tallies = [[(item.fields["candidate"], item.fields["n"]) for item in line.fields["counts"]]
               for line in speaker.lines if line.key == "werewolf.vote.readback"]
    assert tallies == [[("Aki", 2), ("Ken", 2)], [("Aki", 2), ("Ken", 2)], [("Aki", 3), ("Ken", 1)]]
    asked = [key for key in speaker.keys if key in ("werewolf.vote.ask_count", "werewolf.vote.ask_next")]
    assert len(asked) == 1  # nobody counted everything again
    assert [(e["candidate"], e["votes"]) for e in log if e["type"] == "vote_corrected"] == [("Aki", 3), ("Ken", 1)]
    assert [e for e in log if e["type"] == "vote"][0]["counts"] == {"Aki": 3, "Ken": 1, "Mio": 0, "Sora": 0,
                                                                   "graveyard": 0}


FIVE_MORNING = [("werewolf.deal", "done"), ("werewolf.pass_right", None), ("werewolf.lay_down", None),
                ("werewolf.seer_two", None), ("werewolf.gravedigger", None)]


def cards(owner_key, *pairs):
    return [(owner_key, c) for c in pairs]


def test_five_players_runoff_then_innocent_executed_asks_who_holds_the_werewolf_and_the_traitor():
    answers = FIVE_MORNING + counts(2, 2, 1, 0, 0, 0) + counts(3, 2) + [
        ("werewolf.reveal.ask_hand", "seer villager"),   # Aki, executed
        *held_by("Ken", "Mio")]
    result, speaker, log, _ = night(FIVE, answers)
    votes = [e for e in log if e["type"] == "vote"]
    assert [v["round"] for v in votes] == [1, 2]
    assert votes[1]["counts"] == {"Aki": 3, "Ken": 2}
    assert said(speaker, "werewolf.vote.tie") == {"candidates": ["Aki", "Ken"]}
    assert asked_cards(speaker) == ["werewolf", "traitor"]
    assert result.reveal.winning_side == "werewolves" and result.reveal.winners == ("Ken", "Mio")


def test_panic_after_a_second_tie_asks_who_holds_the_werewolf_and_the_traitor():
    answers = MORNING_4 + counts(2, 2, 0, 0, 0) + counts(2, 2) + held_by("Aki", "Aki")
    result, speaker, log, _ = night(FOUR, answers)
    assert result.vote.panic and result.vote.executed is None
    assert "werewolf.vote.panic" in speaker.keys
    # HW-R5: the Traitor Werewolf (Aki) was spared, which reverses the sides: the villagers win
    assert result.reveal.winning_side == "villagers" and result.reveal.winners == ("Ken", "Mio", "Sora")
    assert speaker.keys[-2] == "werewolf.verdict.panic_traitor_werewolf"
    assert speaker.lines[-2].fields == {"traitor_werewolf": "Aki", "winners": ("Ken", "Mio", "Sora")}


def test_graveyard_voted_asks_only_the_graveyard_when_it_decides():
    answers = FIVE_MORNING + counts(0, 0, 0, 0, 0, 5) + [
        ("werewolf.reveal.ask_graveyard_two", "werewolf villager"), ("werewolf.reveal.ask_holder_player", "Yui")]
    result, speaker, _, _ = night(FIVE, answers)
    assert result.vote.executed == "graveyard"
    assert result.reveal.winning_side == "villagers" and result.reveal.winners == ("Aki", "Ken", "Mio", "Sora")
    assert asked_cards(speaker) == ["traitor"]


@pytest.mark.parametrize("lang, said", [
    ("en", "That cannot be: Aki showed seer, villager, no werewolf. Once more."),
    ("ja", "それはありえません：Akiのカードは占い師、村人で、人狼はありません。もう一度お願いします。"),
])
def test_a_holder_the_shown_cards_rule_out_is_refused_and_asked_again(lang, said):
    answers = FIVE_MORNING + counts(3, 1, 1, 0, 0, 0) + [
        ("werewolf.reveal.ask_hand", "seer villager"),  # Aki executed
        *held_by("Aki", "Ken", "Mio")]  # Aki cannot hold the werewolf: asked again
    result, speaker, log, _ = night(FIVE, answers, lang=lang)
    assert speaker.lines[speaker.keys.index("werewolf.reveal.refused")].text == said
    assert [e["type"] for e in log].count("answer_refused") == 1
    assert asked_cards(speaker) == ["werewolf", "werewolf", "traitor"]
    assert result.reveal.winning_side == "werewolves" and result.reveal.winners == ("Ken", "Mio")


def test_a_holder_refused_twice_for_an_answer_taken_before_has_the_cards_typed_again_from_the_start():
    # a hand heard wrong and confirmed ("no" heard as yes): the table's true holder is refused by it,
    # and a table telling the truth could never end the night
    answers = FIVE_MORNING + counts(3, 1, 1, 0, 0, 0) + [
        ("werewolf.reveal.ask_hand", Answer(("seer", "villager"), How.VOICE, True, confirmed=True)),  # Aki, heard wrong
        *held_by("Aki", "Aki"),  # the truth, refused twice
        ("werewolf.reveal.ask_hand", "werewolf villager"), *held_by("Ken")]
    questions = []
    result, speaker, log, _ = night(FIVE, answers, questions=questions)
    assert [e["type"] for e in log].count("answer_refused") == 2
    assert speaker.keys.count("werewolf.reveal.again_typed") == 1 and "reveal_again" in [e["type"] for e in log]
    reveal = [q for q in questions if q.key.startswith("werewolf.reveal.")]
    assert [q.policy.tries for q in reveal] == [None, None, None, 0, 0]  # typed from the start again
    assert result.reveal.winning_side == "villagers" and "Aki" not in result.reveal.winners  # the werewolf executed


def test_an_answer_refused_twice_with_nothing_taken_before_it_is_asked_again_by_voice():
    answers = MORNING_4 + counts(3, 1, 0, 0, 0) + [
        ("werewolf.reveal.ask_hand", "seer seer"), ("werewolf.reveal.ask_hand", "seer seer"),
        ("werewolf.reveal.ask_hand", "villager werewolf"), *held_by("Ken")]
    result, speaker, log, _ = night(FOUR, answers)
    assert [e["type"] for e in log].count("answer_refused") == 2
    assert "werewolf.reveal.again_typed" not in speaker.keys
    assert result.reveal.winning_side == "villagers"


def test_the_graveyard_named_for_a_card_it_did_not_show_is_refused():
    answers = MORNING_4 + counts(0, 0, 0, 0, 3) + [("werewolf.reveal.ask_graveyard_one", "seer"),
                                                 *held_by_player("graveyard", "Ken", "Mio")]
    result, speaker, log, _ = night(FOUR, answers)
    assert [e["error"] for e in log if e["type"] == "answer_refused"] == ["the graveyard showed seer, no werewolf"]
    assert result.reveal.winning_side == "werewolves" and result.reveal.winners == ("Ken", "Mio")


@pytest.mark.parametrize("lang, said", [
    ("ja", "それはありえません：Akiに占い師が2枚ありますが、役職カードには1枚です。もう一度お願いします。"),
    ("ko", "그럴 수 없어요: Aki에 예언자 카드가 2장이지만, 이번 카드에는 1장이에요. 다시 한 번요."),
    ("en", "That cannot be: Aki holds 2 × seer but the deck has 1. Once more."),
])
def test_cards_the_deck_cannot_hold_are_refused_in_the_nights_language(lang, said):
    answers = MORNING_4 + counts(3, 1, 0, 0, 0) + [
        ("werewolf.reveal.ask_hand", "seer seer"),  # Aki: two seers
        ("werewolf.reveal.ask_hand", "villager werewolf"), *held_by("Ken")]
    result, speaker, log, _ = night(FOUR, answers, lang=lang)
    assert speaker.lines[speaker.keys.index("werewolf.reveal.refused")].text == said
    assert [e["error"] for e in log if e["type"] == "answer_refused"] == ["Aki holds 2 × seer but the deck has 1"]
    assert result.reveal.winning_side == "villagers"

def test_roll_call_warns_at_four_players_and_counts_named_votes():
    answers = MORNING_4 + [("werewolf.vote.ask_voter", "Ken"), ("werewolf.vote.ask_voter", "Aki"),
                           ("werewolf.vote.ask_voter", "Ken"), ("werewolf.vote.ask_voter", "none"),
                           ("werewolf.reveal.ask_hand", "werewolf villager"),
                           *held_by("Sora")]
    result, speaker, log, _ = night(FOUR, answers, roll_call=True)
    assert "werewolf.vote.roll_call_four" in speaker.keys
    assert result.vote.executed == "Ken"
    assert [e for e in log if e["type"] == "vote"][0]["counts"]["Ken"] == 2


def test_vote_now_key_ends_the_discussion_early():
    answers = MORNING_4 + counts(0, 0, 0, 0, 3) + [("werewolf.reveal.ask_graveyard_one", "traitor"),
                                                 *held_by_player("Mio")]
    result, speaker, log, clock = night(FOUR, answers, events=[(60 + 40, "end")])
    assert result.discussion.how == "ended"
    assert result.vote.executed == "graveyard"
    assert "werewolf.vote.graveyard_chosen" in speaker.keys
    assert result.reveal.winning_side == "werewolves"  # the traitor lies there: no Traitor Werewolf elsewhere
    assert result.reveal.winners == ("Mio",)


def test_quit_from_ctrl_c_stops_the_night():
    answers = MORNING_4 + [("werewolf.timer.interrupted", "quit")]
    with pytest.raises(NightStopped):
        night(FOUR, answers, events=[(100, "interrupt")])


def test_magicians_night_asks_who_saw_the_magician():
    six = FIVE + ["Rin"]
    deck = standard_deck(6, "magician")
    morning = [("werewolf.deal", "done"), ("werewolf.pass_right", None), ("werewolf.lay_down", None),
               ("werewolf.seer_two", None), ("werewolf.gravedigger", None)]
    # Aki villager + villager, Ken werewolf, Mio seer, Sora traitor, Yui gravedigger, Rin magician
    reveal = [("werewolf.reveal.ask_hand", "villager villager"),  # Aki
              *held_by("Ken", "Sora"), ("werewolf.reveal.magician_seen", "Mio"), *held_by("Mio"),
              ("werewolf.reveal.magician_more", "none")]
    answers = morning + counts(4, 1, 0, 0, 0, 0, 0) + reveal
    result, speaker, _, _ = night(six, answers, deck=deck)
    assert asked_cards(speaker) == ["werewolf", "traitor", "seer"]  # the seer's card tells Mio could see it
    assert result.reveal.winning_side == "werewolves" and result.reveal.winners == ("Ken", "Mio", "Sora")


def test_a_whole_night_in_japanese_speaks_only_kana():
    answers = MORNING_4 + counts(3, 0, 0, 0, 0) + [("werewolf.reveal.ask_hand", "werewolf villager"), *held_by("Ken")]
    readings = {"Aki": "あき", "Ken": "けん", "Mio": "みお", "Sora": "そら"}
    result, speaker, _, _ = night(FOUR, answers, lang="ja", readings=readings)
    assert result.reveal.winning_side == "villagers"
    texts = [line.text for line in speaker.lines]
    assert "Akiさんが処刑されます。" in texts
    assert speaker.lines[0].text.startswith("ハーフ人狼、4人プレイです。")
    assert speaker.lines[0].spoken.startswith("ハーフじんろう、よにんぷれいです。あき、けん、みお、そら。")
    for line in speaker.lines:
        assert not re.search(r"[\u4e00-\u9fff0-9A-Za-z]", line.spoken), f"{line.key}: {line.spoken}"


def test_repeat_at_the_start_of_the_discussion_says_the_days_line_again():
    answers = MORNING_4 + counts(3, 1, 0, 0, 0) + [("werewolf.reveal.ask_hand", "werewolf villager"),
                                                 *held_by("graveyard")]
    _, speaker, _, _ = night(FOUR, answers, events=[(41, "repeat")])
    day = speaker.keys.index("werewolf.day")
    assert speaker.keys[day + 1] == "werewolf.day"


def test_another_candidates_count_typed_first_still_asks_the_one_asked():
    answers = MORNING_4 + [("werewolf.vote.ask_count", "Ken 1"), ("werewolf.vote.ask_count", "3")] + [
        ("werewolf.reveal.ask_hand", "werewolf villager"), *held_by("graveyard")]
    result, speaker, log, _ = night(FOUR, answers)
    asked = [line.fields["candidate"] for line in speaker.lines
             if line.key in ("werewolf.vote.ask_count", "werewolf.vote.ask_next")]
    assert asked == ["Aki", "Aki"]  # Aki's count was still to come
    assert [e["counts"] for e in log if e["type"] == "vote"] == [{"Aki": 3, "Ken": 1, "Mio": 0, "Sora": 0,
                                                                  "graveyard": 0}]
    assert result.vote.executed == "Aki"


# -- words that fit the night (issue: a 4-player night, a shown graveyard, a shown hand) -----------
@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_a_four_player_night_words_coming_forward_by_its_one_ability_card(lang):
    answers = MORNING_4 + counts(3, 0, 0, 0, 0) + [("werewolf.reveal.ask_hand", "villager werewolf")] + held_by("Ken")
    _, speaker, _, _ = night(FOUR, answers, lang=lang)
    assert "werewolf.come_forward" not in speaker.keys  # "both ability cards": the deck has the seer only
    line = speaker.lines[speaker.keys.index("werewolf.come_forward_one")]
    assert Pack(lang).text("werewolf.cards.seer") in line.text
    assert Pack(lang).text("werewolf.cards.gravedigger") not in line.text


def test_a_five_player_night_words_coming_forward_for_both_ability_cards():
    answers = FIVE_MORNING + counts(0, 0, 0, 0, 0, 5) + [
        ("werewolf.reveal.ask_graveyard_two", "werewolf villager"), ("werewolf.reveal.ask_holder_player", "Yui")]
    _, speaker, _, _ = night(FIVE, answers)
    assert "werewolf.come_forward" in speaker.keys and "werewolf.come_forward_one" not in speaker.keys


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_after_the_graveyard_was_shown_the_holder_question_neither_says_nor_lists_it(lang):
    answers = FIVE_MORNING + counts(0, 0, 0, 0, 0, 5) + [
        ("werewolf.reveal.ask_graveyard_two", "villager villager"), *held_by_player("Yui", "Sora")]
    questions = []
    night(FIVE, answers, lang=lang, questions=questions)
    question = [q for q in questions if q.key.startswith("werewolf.reveal.ask_holder")][0]
    graveyard = Pack(lang).text("common.graveyard")
    assert graveyard not in question.prompt.text and graveyard not in question.choices().text
    assert question.policy.nobody is None  # a "no" heard is not the graveyard shown


def test_the_holder_question_lists_no_player_whose_cards_were_shown():
    answers = FIVE_MORNING + counts(3, 1, 1, 0, 0, 0) + [
        ("werewolf.reveal.ask_hand", "seer villager"),  # Aki executed
        *held_by("Ken", "Mio")]
    questions = []
    night(FIVE, answers, questions=questions)
    question = [q for q in questions if q.key == "werewolf.reveal.ask_holder"][0]
    listed = question.choices().text
    assert "Aki" not in listed and "Ken" in listed and "graveyard" in listed
    assert question.policy.nobody == "graveyard"  # nobody holds it: a "no" heard is read back as the graveyard


def test_the_korean_again_question_says_the_prompts_own_choices():
    from gm.table.questions import Table

    question = Table(Pack("ko"), FOUR).yes_no("werewolf.evening.again")
    said = question.prompt.text
    assert all(label in said for label in question.labels.values()), (said, question.labels)
    assert "맞아" not in said
