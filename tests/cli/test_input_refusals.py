"""Typed-input refusals in the player's language: every `BadInput` (gm/text/names.py,
gm/commands/werewolf_values.py, gm/commands/judge_request.py) and `BadPlayers`
(gm/commands/werewolf_values.py) carries a voice-pack key and fields (errors.input,
errors.players); English keeps the exception's own message."""

import ast
import json
import string
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gm.text.names
from gm.cli import app
from gm.commands import judge_request, werewolf, werewolf_values
from gm.commands.judge_request import parse_judge_request
from gm.commands.werewolf_values import (BadPlayers, check_player_names, parse_counts, parse_pairs, parse_players,
                                         parse_roll_call)
from gm.text.names import BadInput, resolve_name
from gm.text.lines import Pack
from scorer.werewolf.tally import GRAVEYARD
from voices import LANGUAGES, load_pack

runner = CliRunner()
FOUR = ["A", "B", "C", "D"]
CANDIDATES = [*FOUR, GRAVEYARD]
HANDS = {"A": ["werewolf", "villager"], "B": ["seer", "villager"], "C": ["villager", "villager"],
         "D": ["villager", "villager"]}


def _judge(**changes):
    data = {"players": FOUR, "hands": HANDS, "graveyard": ["traitor"], "executed": "A", **changes}
    return parse_judge_request(data, gm.text.names.card_names(), gm.text.names.graveyard_names())


# Each refusal, raised through the public calls: key → the call that refuses.
REFUSALS = {
    "input.unknown_player": lambda: resolve_name("Zed", FOUR),
    "input.unknown_candidate": lambda: parse_counts("Zed=1", CANDIDATES),
    "input.unknown_voter": lambda: parse_roll_call("Zed=A", FOUR, CANDIDATES),
    "input.unknown_executed_player": lambda: _judge(executed="Zed"),
    "input.graveyard_name": lambda: check_player_names(["A", "墓地"], Pack("en")),
    "input.answer_word": lambda: check_player_names(["A", "완료"], Pack("ko")),
    "input.keyboard_key": lambda: check_player_names(["A", "R"], Pack("ja")),
    "input.not_pair": lambda: parse_pairs("A=1,B"),
    "input.given_twice": lambda: parse_pairs("A=1,a=2"),
    "input.no_pairs": lambda: parse_pairs(" , "),
    "input.votes_whole": lambda: parse_counts("A=two", CANDIDATES),
    "input.not_object": lambda: parse_judge_request([1], {}),
    "input.not_list": lambda: _judge(graveyard="traitor"),
    "input.player_names": lambda: _judge(players=["A", 2]),
    "input.player_twice": lambda: _judge(players=["A", "a"]),
    "input.hands_object": lambda: _judge(hands=[]),
    "input.cards_list": lambda: _judge(hands={**HANDS, "A": "werewolf"}),
    "input.hands_twice": lambda: _judge(hands={**HANDS, "a": ["villager", "villager"]}),
    "input.executed_type": lambda: _judge(executed=1),
    "input.deck_object": lambda: _judge(deck=[]),
    "input.deck_twice": lambda: _judge(deck={"villager": 6, "村人": 1}),
    "input.variant_type": lambda: _judge(variant=6),
    "players.empty_name": lambda: parse_players("A,,B"),
    "players.named_twice": lambda: parse_players("A,B,a"),
    "players.empty_reading": lambda: parse_players("A=,B"),
}
COMMAND_REFUSALS = {"input.no_runoff", "input.bad_json"}  # raised by gm werewolf tally and judge


def _refusal(key):
    with pytest.raises((BadInput, BadPlayers)) as caught:
        REFUSALS[key]()
    return caught.value


@pytest.mark.parametrize("key", sorted(REFUSALS))
def test_each_refusal_has_its_key_english_keeps_the_message_and_every_other_pack_words_it(key):
    error = _refusal(key)
    assert error.key == key and Pack("en").error(error) == str(error)
    for said in (Pack(lang).error(error) for lang in LANGUAGES if lang != "en"):
        assert said != str(error) and "{" not in said and "\n" not in said


def _lines(lang):
    errors = load_pack(lang)["errors"]
    return {f"{table}.{key}": line for table in ("input", "players") for key, line in errors[table].items()}


def _fields(template):
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_pack_words_the_same_refusals_with_fields_the_refusal_carries():
    assert set(_lines("en")) == set(REFUSALS) | COMMAND_REFUSALS
    carried = {key: set(_refusal(key).fields) for key in REFUSALS}
    for lang in LANGUAGES:
        lines = _lines(lang)
        assert set(lines) == set(_lines("en")), lang
        assert {key: _fields(lines[key]) - carried[key] for key in REFUSALS} == dict.fromkeys(REFUSALS, set()), lang


def test_every_raise_of_bad_input_or_bad_players_names_a_key():
    """No refusal is left English-only: each raise passes a key after its message."""
    sources = [Path(module.__file__) for module in (gm.text.names, werewolf_values, judge_request, werewolf)]
    raises = [node.exc for path in sources for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
              if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
              and getattr(node.exc.func, "id", None) in ("BadInput", "BadPlayers")]
    calls = [node for path in sources for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("BadInput", "BadPlayers")]
    assert len(raises) >= 20 and len(calls) > len(raises)  # the judge's bad JSON is made, not raised
    assert [ast.unparse(call) for call in calls if len(call.args) < 2] == []


def test_the_graveyard_is_named_in_the_language():
    error = _refusal("input.unknown_candidate")
    assert Pack("ja").error(error) == "「Zed」という投票先はありません (投票先：A、B、C、D、墓地)"
    assert Pack("ko").error(error) == "‘Zed’라는 후보는 없어요 (후보: A, B, C, D, 묘지)"
    assert str(error) == "unknown candidate 'Zed' (choose from: A, B, C, D, graveyard)"


# -- the CLI: one line on stderr, exit code 2, in the language asked --------------------------------
def refused(*args, input=None):
    result = runner.invoke(app, ["werewolf", *args], input=input)
    assert result.exit_code == 2, result.stdout
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gm: ")
    return lines[0]


TALLY = ["tally", "--players", "Aki,Ken,Mio,Sora"]


@pytest.mark.parametrize("args, said", [
    ([*TALLY, "--votes", "Aki=3,Zed=1"], {
        "ja": "gm: 「Zed」という投票先はありません (投票先：Aki、Ken、Mio、Sora、墓地)",
        "ko": "gm: ‘Zed’라는 후보는 없어요 (후보: Aki, Ken, Mio, Sora, 묘지)",
        "en": "gm: unknown candidate 'Zed' (choose from: Aki, Ken, Mio, Sora, graveyard)"}),
    ([*TALLY, "--votes", "Aki=3,Ken"], {
        "ja": "gm: 「Ken」は 名前=値 の形ではありません (「Aki=3,Ken」の中)",
        "ko": "gm: ‘Ken’은(는) 이름=값 형식이 아니에요 (‘Aki=3,Ken’에서)",
        "en": "gm: 'Ken' is not name=value (in 'Aki=3,Ken')"}),
    ([*TALLY, "--votes", "Aki=three"], {
        "ja": "gm: 「Aki」の得票数は整数です (「three」ではなく)",
        "ko": "gm: ‘Aki’의 표 수는 정수예요 (‘three’가 아니라)",
        "en": "gm: votes for 'Aki' must be a whole number, not 'three'"}),
    ([*TALLY, "--roll-call", "--votes", "Zed=Aki"], {
        "ja": "gm: 「Zed」という投票者はいません (投票者：Aki、Ken、Mio、Sora)",
        "ko": "gm: ‘Zed’라는 투표자는 없어요 (투표자: Aki, Ken, Mio, Sora)",
        "en": "gm: unknown voter 'Zed' (choose from: Aki, Ken, Mio, Sora)"}),
    ([*TALLY, "--votes", "Aki=3,Ken=1", "--runoff", "Aki=4"], {
        "ja": "gm: 決選投票はありません：Akiが最多票です",
        "ko": "gm: 결선 투표는 없어요: Aki의 표가 가장 많아요",
        "en": "gm: no runoff: Aki has the most votes"}),
    ([*TALLY, "--votes", "graveyard=3,Aki=1", "--runoff", "Aki=4"], {
        "ja": "gm: 決選投票はありません：墓地が最多票です",
        "ko": "gm: 결선 투표는 없어요: 묘지의 표가 가장 많아요",
        "en": "gm: no runoff: graveyard has the most votes"}),
    (["tally", "--players", "Aki,Ken,aki,Sora", "--votes", "Aki=4"], {
        "ja": "gm: プレイヤー「aki」が2回あります (「Aki,Ken,aki,Sora」の中)",
        "ko": "gm: 플레이어 ‘aki’이(가) 두 번 있어요 (‘Aki,Ken,aki,Sora’에서)",
        "en": "gm: player 'aki' is named twice in 'Aki,Ken,aki,Sora'"}),
    (["tally", "--players", "Aki,,Mio,Sora", "--votes", "Aki=4"], {
        "ja": "gm: プレイヤーの名前が空です (「Aki,,Mio,Sora」の中)",
        "ko": "gm: 플레이어 이름이 비어 있어요 (‘Aki,,Mio,Sora’에서)",
        "en": "gm: empty player name in 'Aki,,Mio,Sora'"}),
    (["judge"], {
        "ja": "gm: 判定は JSON オブジェクトを読みます (array ではなく)",
        "ko": "gm: 판정에는 JSON 객체가 필요해요 (array이(가) 아니라)",
        "en": "gm: the judge reads a JSON object, not a list"}),
])
@pytest.mark.parametrize("lang", ["ja", "ko", "en"])
def test_typed_input_is_refused_in_the_language(args, said, lang):
    assert refused(*args, "--lang", lang, input="[]") == said[lang]


@pytest.mark.parametrize("lang, said", [
    ("ja", '"hands" はプレイヤー → カードの JSON オブジェクトです (null ではなく)'),
    ("ko", '"hands"은(는) 플레이어 → 카드의 JSON 객체예요 (null이(가) 아니라)'),
    ("en", '"hands" must be a JSON object of player → cards, not null'),
])
def test_a_judge_request_of_the_wrong_shape_is_refused_in_the_language(lang, said):
    request = json.dumps({"players": FOUR, "hands": None, "graveyard": ["traitor"], "executed": "A"})
    assert refused("judge", "--lang", lang, input=request) == f"gm: {said}"


def test_bad_json_is_refused_in_the_language():
    assert refused("judge", "--lang", "ja", input="{").startswith("gm: JSON が読めません：")
    assert refused("judge", "--lang", "ko", input="{").startswith("gm: JSON을 읽을 수 없어요: ")
    assert refused("judge", "--lang", "en", input="{").startswith("gm: bad JSON: ")


def test_play_refuses_a_player_list_in_the_language(tmp_path):
    said = refused("play", "--players", "A,B,C,=けん", "--speech", "off", "--listen", "off",
                   "--log", str(tmp_path / "night.jsonl"), "--lang", "ja")
    assert said == "gm: プレイヤーの名前が空です (「A,B,C,=けん」の中)"
    assert not (tmp_path / "night.jsonl").exists()


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_a_file_that_cannot_be_read_is_refused_in_the_language_of_the_command(lang, tmp_path):
    missing, folder, latin1 = tmp_path / "nope.json", tmp_path / "dir", tmp_path / "latin1.json"
    folder.mkdir()
    latin1.write_bytes(b"{\"players\": [\"Jos\xe9\"]}")
    for path in (missing, folder, latin1):
        result = runner.invoke(app, ["werewolf", "judge", "--lang", lang, "--file", str(path)])
        line = result.stderr.strip()
        assert result.exit_code == 2 and len(line.splitlines()) == 1, result.stderr
        assert str(path) in line and not any(ch in string.ascii_lowercase for ch in
                                             line.replace(str(path), "").replace("gm:", "")), line


@pytest.mark.parametrize("lang, line", [
    ("en", "gm: --speech must be on, off or wav:DIR, not 'loud'\n"),
    ("ja", "gm: --speech は on、off、wav:フォルダ のどれかです (「loud」ではなく)\n"),
    ("ko", "gm: --speech 는 on, off, wav:폴더 중 하나예요 (‘loud’이(가) 아니라)\n")])
def test_a_speech_mode_gm_cannot_use_is_refused_in_the_language_asked(lang, line):
    result = runner.invoke(app, ["solitaire", "reading", "3", "--speech", "loud", "--lang", lang])
    assert result.exit_code == 2 and result.stderr == line
