"""The night's script for each deck: which steps are present, in which order."""

import pytest

from scorer.werewolf.decks import standard_deck
from scorer.werewolf.script import Kind, SetupError, build_script, pass_pairs

FOUR = ["Aki", "Ken", "Mio", "Sora"]
FIVE = FOUR + ["Yui"]
SIX = FIVE + ["Rin"]


def keys(script):
    return [step.key for step in script]


def test_pass_right_pairs_follow_the_seating():
    assert pass_pairs(FOUR) == [("Aki", "Ken"), ("Ken", "Mio"), ("Mio", "Sora"), ("Sora", "Aki")]


def test_four_players_seer_sees_one_card_and_there_is_no_gravedigger():
    script = build_script(FOUR, standard_deck(4), 180)
    k = keys(script)
    assert "werewolf.seer_one" in k and "werewolf.seer_two" not in k
    assert "werewolf.gravedigger" not in k and "werewolf.both_abilities" not in k
    assert "werewolf.apprentice" not in k and "werewolf.gorilla" not in k and "werewolf.angel" not in k
    assert [s.kind for s in script[-3:]] == [Kind.DISCUSSION, Kind.VOTE, Kind.REVEAL]
    deal = script[k.index("werewolf.deal")]
    assert deal.kind == Kind.WAIT and deal.fields["total"] == 9 and deal.fields["graveyard"] == 1
    assert deal.fields["villagers"] == 6 and sorted(deal.fields["others"]) == ["seer", "traitor", "werewolf"]


@pytest.mark.parametrize("players", [FIVE, SIX])
def test_five_and_six_players_have_seer_two_then_gravedigger(players):
    k = keys(build_script(players, standard_deck(len(players)), 180))
    assert k.index("werewolf.both_abilities") < k.index("werewolf.seer_two") < k.index("werewolf.gravedigger")
    assert "werewolf.death_note" not in k and "werewolf.regulation_magician" not in k


def test_magicians_night_announces_its_regulation():
    k = keys(build_script(SIX, standard_deck(6, "magician"), 180))
    assert "werewolf.regulation_magician" in k and "werewolf.regulation_dead" not in k


def test_battle_with_the_dead_warns_the_gravedigger_before_they_act():
    # 死者との戦い 注意点: the gravedigger may not hand death to a player: said before the gravedigger acts
    k = keys(build_script(SIX, standard_deck(6, "dead"), 180))
    assert "werewolf.regulation_dead" in k
    assert k.index("werewolf.death_note") + 1 == k.index("werewolf.gravedigger")


@pytest.mark.parametrize("players", [FOUR, FIVE, SIX])
def test_the_books_reminders_come_where_the_book_puts_them(players):
    k = keys(build_script(players, standard_deck(len(players)), 180))
    # 注意1 follows the side rules (役職ルール②); nobody fakes an ability, every holder comes forward,
    # before the first ability is used
    assert k.index("werewolf.side_rules") + 1 == k.index("werewolf.ability_any_side") < k.index("werewolf.lay_down")
    first_ability = "werewolf.seer_one" if len(players) == 4 else "werewolf.seer_two"
    come_forward = "werewolf.come_forward_one" if len(players) == 4 else "werewolf.come_forward"
    assert k.index(come_forward) + 1 == k.index(first_ability)
    # 注意2: a player who held both may confess it during the day
    if len(players) == 4:
        assert "werewolf.may_confess" not in k and "werewolf.both_abilities" not in k
    else:
        assert k.index("werewolf.both_abilities") < k.index("werewolf.come_forward")
        assert k.index("werewolf.morning_end") < k.index("werewolf.may_confess") < k.index("werewolf.day")


def test_swap_ins_bring_their_reminders_and_the_apprentice_acts_last():
    script = build_script(SIX, standard_deck(6, None, ["gorilla", "angel", "apprentice"]), 180)
    k = keys(script)
    assert k.index("werewolf.gravedigger") < k.index("werewolf.apprentice") < k.index("werewolf.morning_end")  # HW-R3
    assert k.index("werewolf.gorilla") < k.index("werewolf.day") and "werewolf.angel" in k


def test_gorilla_with_four_players():
    assert "werewolf.gorilla" in keys(build_script(FOUR, standard_deck(4, None, ["gorilla"]), 180))


def test_discussion_length_and_vote_mode_are_in_the_script():
    script = build_script(FOUR, standard_deck(4), 95, roll_call=True)
    assert script[-3].fields == {"secs": 95}
    assert script[-2].key == "werewolf.vote.roll_call_intro"


def test_a_deck_for_another_player_count_is_refused():
    with pytest.raises(SetupError, match="deck is for 5 players but 4"):
        build_script(FOUR, standard_deck(5), 180)
