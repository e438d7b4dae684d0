"""HU-R6 and HU-R3: what one game's box cannot produce is refused — 6s and Humaliens beyond the
box, cards left beyond what the holder can still hold, with two boxes in remote play — in one
line, exit 2, the journal byte-identical, in every language; an Angel Cut with an empty hand wins
at once, in one entry."""

import json

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.text.lines import Pack
from scorer.humalien import fold
from scorer.humalien.errors import CountOutOfRange, Impossible
from scorer.humalien.events import AngelCut, Finish, Flow, Foul, GodIsland, NewMatch, SixSixSix, Skull
from tests.cli.test_cli_help import help_page
from tests.gm.score.test_score_play import play

A, B = "Alice", "Bob"
runner = CliRunner()


def state_of(*events, remote=False):
    return fold([NewMatch((A, B), remote=remote), *events], strict=True)


# Each example: the entries before, the entry refused, its key and its English line.
REFUSED = {
    "skull 4 then skull 3": (
        [["skull", "a", "4"]], ["skull", "a", "3"], "skull_cards_played",
        "skull of 3 cards by Alice refused: 4 of the 6 6s and Humaliens a game holds were played already in "
        "game 1, so at most 2 can still come (HU-R6)"),
    "five single-6 plays": (
        [["skull", "a", "1"], ["skull", "b", "1"], ["skull", "a", "1"], ["skull", "b", "1"]], ["skull", "a", "1"],
        "sixes_played",
        "skull of 1 card by Alice refused: at least 4 of the 4 6s a game holds were played already in game 1, "
        "and it needs 1 (HU-R6)"),
    "666 after two skull plays": (
        [["skull", "a", "1"], ["skull", "b", "2"]], ["666", "a"], "sixes_played",
        "666 by Alice refused: at least 2 of the 4 6s a game holds were played already in game 1, and it "
        "needs 3 (HU-R6)"),
    "skull 4 after a 666": (
        [["666", "b"]], ["skull", "a", "4"], "skull_cards_played",
        "skull of 4 cards by Alice refused: 3 of the 6 6s and Humaliens a game holds were played already in "
        "game 1, so at most 3 can still come (HU-R6)"),
    "finish a 20 after Bob's angel cut": (
        [["flow", "b", "4"], ["skull", "b", "2"], ["angel-cut", "b"], ["flow", "b", "5"]], ["finish", "a", "20"],
        "held_no_stock",
        "finish by Alice with Bob holding 20 cards refused: Bob's stock is gone, so at most 10 cards are left in "
        "hand (HU-R6)"),
    "finish a 11 after Bob's 5 empty piles": (
        [["flow", "b", "5"]], ["finish", "a", "11"], "held_no_stock",
        "finish by Alice with Bob holding 11 cards refused: Bob's stock is gone, so at most 10 cards are left in "
        "hand (HU-R6)"),
    "foul b 15 after Alice's angel cut": (
        [["angel-cut", "a"]], ["foul", "b", "15"], "held_no_stock",
        "foul finish by Bob with Alice holding 15 cards refused: Alice's stock is gone, so at most 10 cards are "
        "left in hand (HU-R6)"),
    "finish a 30 after Bob played a 6": (
        [["skull", "b", "1"]], ["finish", "a", "30"], "held_at_most",
        "finish by Alice with Bob holding 30 cards refused: Bob can hold at most 29: 10 in hand and 20 in stock, "
        "less the 1 card Bob played this game (HU-R6)"),
    "a winning Angel Cut beyond what the opponent holds": (
        [["flow", "a", "5"]], ["angel-cut", "b", "--won", "11"], "held_no_stock",
        "Angel Cut finish by Bob with Alice holding 11 cards refused: Alice's stock is gone, so at most 10 cards "
        "are left in hand (HU-R6)"),
    "a play beyond the cards left": (
        [["flow", "a", "5"], ["god-island", "a"], ["666", "a"]], ["skull", "a", "3"], "play_exceeds_hand",
        "skull of 3 cards by Alice refused: Alice can hold at most 2 cards now in game 1 (HU-R6)"),
    "remote: 12 skull cards, then one more": (
        [["skull", "a", "12"]], ["skull", "b", "1"], "skull_cards_played",
        "skull of 1 card by Bob refused: 12 of the 12 6s and Humaliens a game holds were played already in "
        "game 1, so at most 0 can still come (HU-R6)"),
}


def _start(gm, name, lang="en"):
    new = ["new", A, B, "--remote"] if name.startswith("remote") else ["new", A, B]
    setup, refused, key, english = REFUSED[name]
    for args in (new, *setup):
        assert gm(*args).exit_code == 0, args
    return refused, key, english


@pytest.mark.parametrize("name", REFUSED)
@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_hu_r6_the_box_refuses_in_one_line_exit_2_and_nothing_written(gm, name, lang):
    refused, key, english = _start(gm, name)
    before = gm.path.read_bytes()
    result = gm(*refused, "--lang", lang)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.count("\n") == 1 and "HU-R6" in result.stderr
    assert gm.path.read_bytes() == before
    if lang == "en":
        assert result.stderr == f"gm: {english}\n"
    else:
        assert "refused" not in result.stderr and ("Alice" in result.stderr or "Bob" in result.stderr)
        assert Pack(lang).has(f"errors.score.{key}")


@pytest.mark.parametrize("name", REFUSED)
def test_hu_r6_the_box_refuses_in_score_play_and_the_loop_goes_on(tmp_path, name):
    path = tmp_path / "m.jsonl"

    def gm(*args):
        return runner.invoke(app, ["score", *args, "--file", str(path), "--speech", "off"])

    refused, _, english = _start(gm, name)
    before = path.read_bytes()
    result = play(path, " ".join(refused) + "\nq\n")
    assert result.exit_code == 0
    assert f"score> {' '.join(refused)}\n? {english}\nscore> q\n" in result.stdout
    assert path.read_bytes() == before


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_every_new_refusal_has_its_line_in_japanese_and_korean(lang):
    """Each refusal said in `lang` from its own pack line, every field filled (no English left)."""
    errors = []
    for setup, refused in [([Skull(A, 4)], Skull(A, 3)), ([Skull(A, 1)] * 4, Skull(A, 1)),
                           ([Flow(B, 5)], Finish(A, 11)), ([Skull(B, 1)], Finish(A, 30)),
                           ([Flow(A, 5), GodIsland(A), SixSixSix(A)], Skull(A, 3))]:
        with pytest.raises(Impossible) as caught:
            fold([refused], state_of(*setup), strict=True)
        errors.append(caught.value)
    pack = Pack(lang)
    said = [pack.error(error) for error in errors]
    assert all(line != str(error) and "{" not in line and "HU-R6" in line for line, error in zip(said, errors))
    assert len({error.key for error in errors}) == 5


def test_what_the_box_still_holds_is_accepted():
    assert state_of(SixSixSix(A), Skull(B, 3)).match.totals == (3, 3)  # the fourth 6 and both Humaliens
    assert state_of(Skull(A, 4), Skull(B, 2)).match.totals == (4, 2)
    assert state_of(*[Skull(A, 1)] * 4).match.totals == (4, 0)
    assert state_of(*[Skull(A, 1)] * 8, remote=True).match.totals == (8, 0)  # two boxes: eight 6s
    assert state_of(SixSixSix(A), SixSixSix(B), Skull(A, 6), remote=True).match.totals == (3 + 6, 3)
    assert state_of(Skull(B, 1), Finish(A, 29)).match.totals == (34, 1)
    assert state_of(AngelCut(B), Finish(A, 10)).match.totals == (15, 5)
    assert state_of(Flow(B, 5), Foul(A, 10)).match.totals == (0, 5 + 15)  # Bob's own 10 in hand


def test_the_counts_start_again_with_each_game():
    state = state_of(Skull(A, 4), Skull(B, 2), AngelCut(B), Finish(A, 10), Skull(A, 6), Finish(B, 24))
    assert state.match.game == 3 and state.match.games[1].points == (2 * 6, 5 + 24)
    with pytest.raises(Impossible, match="Alice can hold at most 24: 10 in hand and 20 in stock, less the 6 cards"):
        state_of(Skull(A, 4), Skull(B, 2), AngelCut(B), Finish(A, 10), Skull(A, 6), Finish(B, 25))


@pytest.mark.parametrize("event, message", [
    (Finish(A, 31), r"opponent's cards left 31 is out of range 1–30"),
    (AngelCut(B, None, 31), r"opponent's cards left 31 is out of range 1–30"),
])
def test_counts_beyond_any_game_are_out_of_range(event, message):
    with pytest.raises(CountOutOfRange, match=message):
        state_of(event)


def test_hu_r3_remote_play_takes_12_cards_in_one_skull_play(gm):
    gm("new", A, B, "--remote")
    assert gm("skull", "a", "12").stdout == "Alice +12 (skull: 12 cards × game 1) → 12\n"
    gm("new", A, B, "--remote", "--abandon")
    before = gm.path.read_bytes()
    result = gm("skull", "a", "13")
    assert (result.exit_code, result.stderr) == (
        2, "gm: skull cards in one play 13 is out of range 1–12 (Alice, game 1, remote match)\n")
    assert gm.path.read_bytes() == before


# --- an Angel Cut with an empty hand wins at once -----------------------------------------------

def test_an_angel_cut_with_an_empty_hand_records_the_cut_and_the_finish_in_one_entry(gm):
    gm("new", A, B)
    gm("666", "a")
    assert gm("angel-cut", "b", "--won", "7").stdout == (
        "Bob +5 (Angel Cut: stock piles gone, forced flow) → 5\n"
        "Bob +36 (finish: (5 + 7 left) × 3) → 41\n"
        "End of game 1: Alice 3, Bob 41. Next: game 2.\n")
    records = [json.loads(line) for line in gm.path.read_text().splitlines()]
    assert [(r["kind"], r.get("opponent_left")) for r in records] == [("new", None), ("666", None), ("angel_cut", 7)]
    assert gm("undo").stdout == ("Undone: Bob −5 (Angel Cut) → 0\nUndone: Bob −36 (finish) → 0\n"
                                 "Game 1: Alice 3, Bob 0.\n")


def test_a_winning_angel_cut_in_json_and_with_the_stock_kept(gm):
    gm("new", A, B)
    data = json.loads(gm("angel-cut", "a", "--keep-stock", "--won", "9", "--json").stdout)
    assert data["event"] == {"kind": "angel_cut", "player": A, "piles": 0, "opponent_left": 9}
    assert [(a["how"], a["points"]) for a in data["awards"]] == [("angel_cut", 0), ("finish", 14)]
    assert (data["ended_game"], data["game"], data["totals"]) == (1, 2, {A: 14, B: 0})
    data = json.loads(gm("angel-cut", "b", "--keep-stock", "2", "--won", "３", "--json").stdout)
    assert data["event"]["piles"] == 2 and data["awards"][1]["points"] == (5 + 3) and data["ended_game"] == 2


def test_score_play_asks_whether_the_hand_was_empty(tmp_path):
    path = tmp_path / "m.jsonl"
    runner.invoke(app, ["score", "new", A, B, "--file", str(path)])
    out = play(path, "a b\nseven\n7\na a\n\nq\n").stdout
    assert ("score> a b\nWas Bob's hand empty? Then the cut wins the game at once: type Alice's cards left "
            "(hand + stock), or press Enter if not.\nscore> seven\n? type a number of cards (hand + stock), or "
            "press Enter if the hand was not empty\nscore> 7\nBob +5 (Angel Cut: stock piles gone, forced flow) → 5\n"
            "Bob +12 (finish: 5 + 7 left) → 17\nEnd of game 1: Alice 0, Bob 17. Next: game 2.\n") in out
    assert "score> \nAlice +5 (Angel Cut: stock piles gone, forced flow) → 5\nscore> q\n" in out
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [(r["kind"], r.get("opponent_left")) for r in records] == [
        ("new", None), ("angel_cut", 7), ("angel_cut", None)]


def test_score_play_asks_in_japanese_and_takes_no_for_an_answer(tmp_path):
    path = tmp_path / "m.jsonl"
    runner.invoke(app, ["score", "new", A, B, "--file", str(path)])
    out = play(path, "a a --keep-stock\nいいえ\na b\nq\n", "--lang", "ja").stdout
    assert "score> a a --keep-stock\nAliceの手札は0枚でしたか？" in out
    assert "score> いいえ\nAlice +0" in out
    assert "score> a b\n? BobのAngel Cutは受け付けられません" in out  # refused before it is asked about
    assert [json.loads(line)["kind"] for line in path.read_text().splitlines()] == ["new", "angel_cut"]


def test_score_play_takes_won_typed_at_once(tmp_path):
    path = tmp_path / "m.jsonl"
    runner.invoke(app, ["score", "new", A, B, "--file", str(path)])
    out = play(path, "a b 4 --keep-stock --won 6\nq\n").stdout
    assert "Was" not in out and "Bob +11 (finish: 5 + 6 left) → 15\n" in out


# --- help and ranges ------------------------------------------------------------------------------

@pytest.mark.parametrize("verb", ["finish", "foul"])
def test_finish_and_foul_help_say_what_left_can_be(verb):
    out = " ".join(help_page(["score", verb]).replace("│", " ").split())
    assert "0–30" not in out
    assert "(1–30: 10 in hand + 20 in stock, less the cards they played; at most 10 once their stock is gone)" in out


@pytest.mark.parametrize("args, message", [
    (["flow", "a", "-1"], "gm: empty piles -1 is out of range 0–5 (Alice, game 1)\n"),
    (["skull", "a", "-2"], "gm: skull cards in one play -2 is out of range 1–6 (Alice, game 1, one-box match)\n"),
    (["finish", "a", "-1"], "gm: opponent's cards left -1 is out of range 1–30 (Alice, game 1: hand + stock piles "
                            "of Bob)\n"),
    (["angel-cut", "a", "--keep-stock", "-1"], "gm: empty piles -1 is out of range 0–5 (Alice, game 1)\n"),
    (["angel-cut", "a", "--won", "-3"], "gm: opponent's cards left -3 is out of range 1–30 (Alice, game 1: hand + "
                                        "stock piles of Bob)\n"),
])
def test_a_negative_count_is_answered_with_its_range(gm, args, message):
    gm("new", A, B)
    before = gm.path.read_bytes()
    result = gm(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message)
    assert gm.path.read_bytes() == before


@pytest.mark.parametrize("lang, line", [
    ("ja", "? Aliceのドクロ3枚は受け付けられません：第1戦ではもう6とヒューメイリアンが4枚出ていて (全部で6枚)、"
           "あと2枚までです (HU-R6)\n"),
    ("ko", "? Alice의 해골 3장은 받을 수 없어요: 1번째 게임에서 이미 6과 휴메일리언이 4장 나왔고 (모두 6장), "
           "앞으로 2장까지예요 (HU-R6)\n"),
])
def test_score_play_refuses_in_the_players_language(tmp_path, lang, line):
    path = tmp_path / "m.jsonl"
    runner.invoke(app, ["score", "new", A, B, "--file", str(path)])
    result = play(path, "s a 4\n", "--lang", lang)
    before = path.read_bytes()
    out = play(path, "s a 3\nq\n", "--lang", lang).stdout
    assert f"score> s a 3\n{line}score> q\n" in out
    assert path.read_bytes() == before and result.exit_code == 0
