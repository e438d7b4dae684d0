"""Half Werewolf refusals in the player's language: every rules error of scorer/werewolf carries a
voice-pack key and fields (errors.werewolf); English keeps the exception's own message."""

import ast
import importlib
import string
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gm
import scorer.werewolf
from gm.cli import app
from gm.text.lines import Pack
from scorer.werewolf import tally
from scorer.werewolf.cards import parse_card
from scorer.werewolf.decks import custom_deck, standard_deck
from scorer.werewolf.evening import Evening, evening_from_json
from judged import judge
from scorer.werewolf.sides import decided_side, side_of
from scorer.werewolf.known import Known
from gm.night.groups import group_name
from scorer.werewolf.refusal import WerewolfRefusal
from scorer.werewolf.script import build_script
from scorer.werewolf.tally import GRAVEYARD, count_round, most_without_vote, outcome, roll_call_round
from voices import LANGUAGES, load_pack

runner = CliRunner()
FOUR = ["A", "B", "C", "D"]
SIX = ["A", "B", "C", "D", "E", "F"]
CANDIDATES = [*FOUR, GRAVEYARD]
HANDS = {"A": ["werewolf", "villager"], "B": ["seer", "villager"], "C": ["villager", "villager"],
         "D": ["villager", "villager"]}
SIX_HANDS = {"A": ["werewolf", "villager"], "B": ["seer", "villager"], "C": ["gravedigger", "villager"],
             "D": ["villager", "villager"], "E": ["villager", "villager"], "F": ["villager", "villager"]}


def _judge(players=FOUR, graveyard=("traitor",), executed="A", seen=(), deck=None, **hands):
    return judge(players, {**HANDS, **hands}, list(graveyard), executed, list(seen), deck)


def _six(graveyard, variant):
    return judge(SIX, SIX_HANDS, list(graveyard), "A", [], standard_deck(6, variant))


def _magician_seen_by(*names):
    hands = {**SIX_HANDS, "D": ["magician", "villager"]}
    return judge(SIX, hands, ["traitor", "villager"], "A", list(names), standard_deck(6, "magician"))


def _known(executed="A"):
    return Known(tuple(FOUR), standard_deck(4), executed)


def _round(counts):
    return count_round(CANDIDATES, counts, 4)


def _roll_call(votes):
    return roll_call_round(CANDIDATES, votes, FOUR)


# Each refusal, raised through the rules' public calls: key → the call that refuses.
REFUSALS = {
    "unknown_card": lambda: parse_card("bogus"),
    "deck_players": lambda: standard_deck(7),
    "unknown_variant": lambda: standard_deck(6, "bogus"),
    "variant_players": lambda: standard_deck(5, "magician"),
    "not_swap_in": lambda: standard_deck(5, swap_ins=["seer"]),
    "swap_in_players": lambda: standard_deck(5, swap_ins=["angel"]),
    "swap_in_twice": lambda: standard_deck(6, swap_ins=["gorilla", "gorilla"]),
    "bad_card_count": lambda: custom_deck(4, {"villager": -1}),
    "over_box": lambda: custom_deck(4, {"werewolf": 2}),
    "deck_werewolves": lambda: custom_deck(4, {"villager": 9}),
    "deck_size": lambda: custom_deck(4, {"werewolf": 1, "villager": 5}),
    "deck_named": lambda: build_script(FOUR[:3], standard_deck(4), 180),
    "no_discussion": lambda: build_script(FOUR, standard_deck(4), 0),
    "unknown_side": lambda: Evening(tuple(FOUR)).add("bogus", []),
    "winner_not_player": lambda: Evening(tuple(FOUR)).add("villagers", ["Z"]),
    "winner_twice": lambda: Evening(tuple(FOUR)).add("villagers", ["A", "A"]),
    "not_an_evening": lambda: evening_from_json([]),
    "not_a_night": lambda: evening_from_json({"players": FOUR, "nights": [1]}),
    "players": lambda: most_without_vote(7),
    "deck_for": lambda: most_without_vote(5, standard_deck(4)),
    "total_exactly": lambda: count_round(CANDIDATES[1:], {"B": 6}, 5),
    "total_between": lambda: _round({"A": 5}),
    "candidate_twice": lambda: count_round(["A", "A"], {"A": 4}, 4),
    "no_votes": lambda: tally._round(CANDIDATES, {}),
    "not_candidate": lambda: _round({"Z": 4}),
    "bad_votes": lambda: _round({"A": -1}),
    "not_voter": lambda: _roll_call({"Z": "A"}),
    "voted_not_candidate": lambda: _roll_call({"A": "Z", "B": "A", "C": "A"}),
    "no_runoff": lambda: outcome(_round({"A": 4}), _round({"A": 4})),
    "runoff_not_tied": lambda: outcome(_round({"A": 2, "B": 2}), _round({"A": 2, "C": 2})),
    "runoff_total": lambda: outcome(_round({"A": 2, "B": 2}), _round({"A": 2, "B": 1})),
    "runoff_voters": lambda: outcome(_roll_call({"A": "B", "B": "A", "C": GRAVEYARD}),
                                     _roll_call({"B": "A", "C": GRAVEYARD, "D": "B"})),
    "hand_size": lambda: side_of(["villager"]),
    "hand_unknown_card": lambda: side_of(["villager", "bogus"]),
    "held_size": lambda: _judge(graveyard=("traitor", "villager")),
    "held_unknown_card": lambda: _judge(C=["villager", "bogus"]),
    "player_twice": lambda: _judge(players=["A", "A", "C", "D"]),
    "graveyard_name": lambda: _judge(players=["A", "B", "C", "Graveyard"]),
    "cards_not_player": lambda: _judge(Z=["villager", "villager"]),
    "no_cards": lambda: judge(FOUR, {k: v for k, v in HANDS.items() if k != "D"}, ["traitor"], "A"),
    "werewolves": lambda: _judge(C=["werewolf", "villager"]),
    "not_in_standard_deck": lambda: _judge(C=["death", "villager"]),
    "not_in_magician_deck": lambda: _six(["traitor", "death"], "magician"),
    "not_in_dead_deck": lambda: _six(["traitor", "magician"], "dead"),
    "not_in_custom_deck": lambda: _judge(graveyard=("seer",), B=["traitor", "villager"], C=["gorilla", "villager"],
                                         deck=custom_deck(4, {"werewolf": 1, "villager": 6, "seer": 1, "traitor": 1})),
    "over_deck": lambda: _judge(C=["seer", "villager"]),
    "executed_unknown": lambda: _judge(executed="Z"),
    "turned_not_player": lambda: _judge(seen=["Z"]),
    "no_magician": lambda: _judge(seen=["B"]),
    "turned_twice": lambda: _magician_seen_by("B", "B"),
    "too_many_turned": lambda: _magician_seen_by("B", "C", "D"),
    "held_not_in_deck": lambda: decided_side(standard_deck(4), "A", ["death", "villager"]),
    "held_over_deck": lambda: decided_side(standard_deck(4), "A", ["seer", "seer"]),
    "card_elsewhere": lambda: _known().with_holder("werewolf", "B").with_holder("werewolf", "C"),
    "card_shown": lambda: _known().with_hand("A", ["werewolf", "villager"]).with_holder("werewolf", "B"),
    "not_shown": lambda: _known().with_hand("A", ["villager", "villager"]).with_holder("werewolf", "A"),
    "owner_full": lambda: _known().with_holder("werewolf", GRAVEYARD).with_holder("traitor", GRAVEYARD),
    "holder_unknown": lambda: _known().with_holder("werewolf", "Z"),
    "side_not_player": lambda: Evening(tuple(FOUR)).add("villagers", ["A"], {"Z": "villagers"}),
    "group_empty": lambda: group_name(" , "),
    "not_a_seer": lambda: Known(("A", "B", "C", "D", "E", "F"), standard_deck(6, "magician"), None)
    .with_holder("seer", "B").with_holder("gravedigger", "C").with_seer("A"),
}
# Refused by `gm werewolf evening` itself (a missing or unreadable evening file).
COMMAND_REFUSALS = {"no_evening", "evening_json", "no_group"}


def _refusal(key):
    with pytest.raises(WerewolfRefusal) as caught:
        REFUSALS[key]()
    return caught.value


@pytest.mark.parametrize("key", sorted(REFUSALS))
def test_each_refusal_carries_its_key_and_english_keeps_the_message(key):
    error = _refusal(key)
    assert error.key == f"werewolf.{key}"
    assert Pack("en").error(error) == str(error)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("key", sorted(REFUSALS))
def test_each_refusal_is_worded_in_every_other_pack(key, lang):
    error = _refusal(key)
    said = Pack(lang).error(error)
    assert said != str(error) and "{" not in said and "\n" not in said


def _werewolf_lines(lang):
    return load_pack(lang)["errors"]["werewolf"]


def _fields(template):
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_werewolf_error_key_is_in_every_pack_with_the_same_fields():
    english = {key: _fields(line) for key, line in _werewolf_lines("en").items()}
    assert set(english) == set(REFUSALS) | COMMAND_REFUSALS
    for lang in LANGUAGES:
        assert {key: _fields(line) for key, line in _werewolf_lines(lang).items()} == english, lang


def _refusal_classes():
    return {name for module in ("cards", "decks", "evening", "judge", "script", "sides", "tally")
            for name, value in vars(importlib.import_module(f"scorer.werewolf.{module}")).items()
            if isinstance(value, type) and issubclass(value, WerewolfRefusal)}


def test_every_raise_of_a_werewolf_refusal_names_a_key():
    """No refusal is left English-only: each raise passes a key after its message."""
    classes = _refusal_classes()
    assert {"UnknownCard", "DeckError", "EveningError", "JudgeError", "SetupError", "TallyError", "BadTotal"} <= classes
    sources = [*Path(scorer.werewolf.__file__).parent.glob("*.py"),
               Path(gm.__file__).parent / "commands" / "werewolf.py"]
    raises = [node.exc for path in sources for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
              if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
              and getattr(node.exc.func, "id", None) in classes]
    assert len(raises) >= 42
    assert [ast.unparse(call) for call in raises if len(call.args) < 2] == []
    literal_keys = {call.args[1].value for call in raises if isinstance(call.args[1], ast.Constant)}
    assert literal_keys <= set(_werewolf_lines("en"))


def test_card_names_and_the_graveyard_follow_the_pack():
    error = _refusal("held_over_deck")
    assert Pack("ja").error(error) == "Aに占い師が2枚ありますが、役職カードには1枚です"
    with pytest.raises(WerewolfRefusal) as caught:
        decided_side(standard_deck(4), GRAVEYARD, ["death"])
    assert Pack("ja").error(caught.value) == "墓地の死神は役職カードにありません"
    assert Pack("ko").error(caught.value) == "묘지의 사신 카드는 이번 카드에 없어요"
    assert Pack("en").error(caught.value) == str(caught.value) == "death in the graveyard is not in the deck"


# -- the CLI: one line on stderr, exit code 2, in the language asked --------------------------------
def refused(*args, input=None):
    result = runner.invoke(app, ["werewolf", *args], input=input)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gm: ")
    return lines[0]


TWO_WEREWOLVES = ('{"players": ["A", "B", "C", "D"], "hands": {"A": ["werewolf", "villager"], '
                  '"B": ["werewolf", "villager"], "C": ["villager", "villager"], "D": ["villager", "seer"]}, '
                  '"graveyard": ["traitor"], "executed": "A"}')


@pytest.mark.parametrize("lang, said", [
    ("ja", "gm: 「bogus」というカードはありません "
           "(カード：村人、人狼、裏切り者、占い師、墓堀、魔術師、ゴリラ、死神、天使、見習い、ブランク)"),
    ("ko", "gm: ‘bogus’라는 카드는 없어요 "
           "(카드: 시민, 늑대인간, 배신자, 예언자, 무덤지기, 마술사, 고릴라, 사신, 천사, 견습생, 백지)"),
    ("en", "gm: unknown card 'bogus' (cards: villager, werewolf, traitor, seer, gravedigger, magician, gorilla, "
           "death, angel, apprentice, blank)"),
])
def test_an_unknown_card_is_refused_in_the_language(lang, said):
    assert refused("deck", "--players", "5", "--with", "bogus", "--lang", lang) == said


@pytest.mark.parametrize("lang, said", [
    ("ja", "gm: HW-R4：合計6票ですが、5人の投票はちょうど5票です"),
    ("ko", "gm: HW-R4: 모두 6표인데, 5명의 투표는 딱 5표예요"),
    ("en", "gm: HW-R4: 6 votes in all, but 5 players cast exactly 5 votes"),
])
def test_a_tally_over_the_hw_r4_bound_is_refused_in_the_language(lang, said):
    assert refused("tally", "--players", "A,B,C,D,E", "--votes", "A=4,墓地=2", "--lang", lang) == said


@pytest.mark.parametrize("lang, said", [
    ("ja", "gm: HW-R1：ハーフ人狼は4〜6人で遊びます (7人ではなく)"),
    ("ko", "gm: HW-R1: 하프 늑대인간은 4~6명이 해요 (7명이 아니라)"),
    ("en", "gm: HW-R1: Half Werewolf is for 4 to 6 players, not 7"),
])
def test_a_bad_player_count_is_refused_in_the_language(lang, said):
    assert refused("deck", "--players", "7", "--lang", lang) == said


@pytest.mark.parametrize("lang, said", [
    ("ja", "gm: HW-R1：天使を入れられるのは6人プレイのときだけです (5人ではなく)"),
    ("ko", "gm: HW-R1: 천사 카드는 6명일 때만 넣을 수 있어요 (5명이 아니라)"),
    ("en", "gm: HW-R1: angel is swapped in with 6 players only, not 5"),
])
def test_a_swap_in_the_player_count_forbids_is_refused_in_the_language(lang, said):
    assert refused("tally", "--players", "A,B,C,D,E", "--votes", "A=5", "--with", "天使", "--lang", lang) == said


@pytest.mark.parametrize("lang, said", [
    ("ja", "gm: 人狼のカードが2枚ありますが、役職カードに人狼は1枚だけです"),
    ("ko", "gm: 늑대인간 카드가 2장이지만, 카드에 늑대인간은 한 장뿐이에요"),
    ("en", "gm: 2 werewolf cards, but every deck has exactly one"),
])
def test_a_judge_request_the_cards_refuse_is_refused_in_the_language(lang, said):
    assert refused("judge", "--lang", lang, input=TWO_WEREWOLVES) == said


def test_a_missing_or_broken_evening_is_refused_in_the_language(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert refused("evening", "--lang", "ja") == "gm: まだ記録がありません：gm werewolf play で遊んでください"
    assert refused("evening", "--lang", "en") == "gm: no evening yet: play one with gm werewolf play"
    broken = tmp_path / "evening.json"
    broken.write_text("[]", encoding="utf-8")
    assert refused("evening", "--file", str(broken), "--lang", "ko") == (
        'gm: 기록은 "players"와 "nights" 목록이 있는 JSON 객체예요')
    broken.write_text("{", encoding="utf-8")
    assert refused("evening", "--file", str(broken), "--lang", "ja").startswith(f"gm: {broken}：JSON が読めません：")


def test_play_refuses_a_deck_in_the_language(tmp_path):
    said = refused("play", "--players", "A,B,C,D,E", "--with", "angel", "--speech", "off", "--listen", "off",
                   "--log", str(tmp_path / "night.jsonl"), "--lang", "ko")
    assert said == "gm: HW-R1: 천사 카드는 6명일 때만 넣을 수 있어요 (5명이 아니라)"
