"""`gm score` through the real CLI: entries, the sheet, JSON, CSV, speech lines, bad input."""

import json

import pytest


def play_example(gm):
    for args in (["new", "Alice", "Bob"], ["flow", "al", "2"], ["skull", "BOB", "1"], ["finish", "Alice", "7"],
                 ["666", "b"], ["flow", "a", "3"], ["finish", "a", "5"],
                 ["god-island", "alice"], ["angel-cut", "bob"], ["foul", "bob", "9"]):
        result = gm(*args)
        assert result.exit_code == 0, result.output
    return result


def test_every_entry_prints_what_changed(gm):
    assert gm("new", "Alice", "Bob").stdout == "New match: Alice v Bob. Game 1 of 3.\n"
    assert gm("flow", "al", "2").stdout == "Alice +2 (flow: 2 empty piles) → 2\n"
    assert gm("skull", "b", "1").stdout == "Bob +1 (skull: 1 card × game 1) → 1\n"
    assert gm("finish", "ALICE", "7").stdout == (
        "Alice +12 (finish: 5 + 7 left) → 14\nEnd of game 1: Alice 14, Bob 1. Next: game 2.\n")
    assert gm("666", "bob").stdout == "Bob +6 (666: 3 cards × game 2; end points ×3) → 7\n"
    assert gm("finish", "a", "5").stdout.startswith("Alice +30 (finish: (5 + 5 left) × 3) → 44\n")
    assert gm("god-island", "a").stdout == "Alice +30 (God Island) → 74\n"
    assert gm("angel-cut", "b").stdout == "Bob +5 (Angel Cut: stock piles gone, forced flow) → 12\n"
    assert gm("foul", "b", "9").stdout == (
        "Alice +14 (foul finish by Bob: 5 + 9 own cards left) → 88\nMatch over: Alice wins, 88 to 12.\n")


def test_show_json_is_the_documented_contract(gm):
    play_example(gm)
    data = json.loads(gm("show", "--json").stdout)
    assert data == {
        "players": ["Alice", "Bob"], "remote": False, "game": 3, "over": True,
        "games": [
            {"number": 1, "points": {"Alice": 14, "Bob": 1}, "multiplier": 1,
             "ended_by": {"player": "Alice", "how": "finish"}},
            {"number": 2, "points": {"Alice": 33, "Bob": 6}, "multiplier": 3,
             "ended_by": {"player": "Alice", "how": "finish"}},
            {"number": 3, "points": {"Alice": 44, "Bob": 5}, "multiplier": 1,
             "ended_by": {"player": "Bob", "how": "foul"}},
        ],
        "totals": {"Alice": 91, "Bob": 12}, "winner": "Alice", "draw": False,
    }


def test_show_draws_the_sheet_with_bars(gm):
    gm("new", "Alice", "Bob")
    gm("flow", "a", "2")
    gm("skull", "b", "1")
    gm("finish", "a", "7")
    out = gm("show").stdout
    assert "Alice v Bob — game 2 of 3" in out
    assert "│     1 │    14 │   1 │ ×1 │ Alice (finish) │" in out
    assert "│ Total │    14 │   1 │" in out and "Alice leads" in out
    assert "G1 Alice " + "█" * 30 + " 14" in out
    assert "   Bob   " + "█" * 2 + " 1" in out


def test_show_in_japanese_prints_the_sheet_in_japanese(gm):
    gm("new", "Alice", "Bob")
    gm("flow", "a", "2")
    gm("skull", "b", "1")
    gm("finish", "a", "7")
    out = gm("show", "--lang", "ja").stdout
    assert "Alice 対 Bob — 第2戦（全3戦）" in out
    assert "┃ ゲーム ┃ Alice ┃ Bob ┃  × ┃ 終了" in out
    assert "│      1 │    14 │   1 │ ×1 │ Alice（上がり） │" in out
    assert "│ プレイ中" in out
    assert "│   合計 │    14 │   1 │" in out and "Aliceがリード" in out
    assert "第1戦 Alice " + "█" * 30 + " 14" in out
    assert "      Bob   " + "█" * 2 + " 1" in out
    for english in ("Game", "Total", "Ended by", "finish", "playing", "leads", "of 3", "G1"):
        assert english not in out


def test_the_finished_sheet_names_the_result_and_the_foul_in_each_language(gm):
    play_example(gm)
    english, japanese = gm("show").stdout, gm("show", "--lang", "ja").stdout
    assert "Alice v Bob — match over" in english
    assert "│ Bob (foul)" in english and "Alice wins" in english
    assert "Alice 対 Bob — 対戦終了" in japanese
    assert "│ Bob（反則上がり）" in japanese and "Aliceの勝ち" in japanese


def test_a_drawn_remote_sheet_in_japanese(gm):
    """HU-R1: equal totals are a draw. Kanji names keep the bars aligned (two cells a character)."""
    for args in (["new", "健", "美緒", "--remote"], ["finish", "健", "5"], ["finish", "美緒", "5"],
                 ["flow", "健", "3"], ["skull", "健", "1"], ["finish", "美緒", "1"]):
        assert gm(*args).exit_code == 0
    out = gm("show", "--lang", "ja").stdout
    assert "健 対 美緒（リモート） — 対戦終了" in out
    assert "│   合計 │ 16 │   16 │    │ 引き分け" in out
    assert "第1戦 健   " + "█" * 30 + " 10\n      美緒 0\n" in out
    english = gm("show").stdout
    assert "健 v 美緒 (remote) — match over" in english and "│ draw" in english
    assert "G1 健   " + "█" * 30 + " 10\n   美緒 0\n" in english


def test_show_in_an_unknown_language_is_one_stderr_line(gm):
    gm("new", "Alice", "Bob")
    result = gm("show", "--lang", "fr")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "gm: no voice pack for language 'fr' (have: en, ja, ko)\n"


def test_show_json_keys_do_not_follow_the_language(gm):
    play_example(gm)
    assert gm("show", "--json", "--lang", "ja").stdout == gm("show", "--json").stdout


def test_scoring_json_reports_the_change(gm):
    gm("new", "Alice", "Bob")
    data = json.loads(gm("finish", "a", "7", "--json").stdout)
    assert data["event"] == {"kind": "finish", "player": "Alice", "opponent_left": 7}
    assert data["awards"] == [{"player": "Alice", "how": "finish", "points": 12, "total": 12, "game": 1}]
    assert data["ended_game"] == 1 and data["game"] == 2 and data["totals"] == {"Alice": 12, "Bob": 0}
    undone = json.loads(gm("undo", "--json").stdout)
    assert undone["target"]["kind"] == "finish" and undone["awards"][0]["points"] == -12
    assert undone["totals"] == {"Alice": 0, "Bob": 0} and undone["game"] == 1


def test_undo_and_redo_print_and_are_journaled(gm):
    gm("new", "Alice", "Bob")
    gm("flow", "a", "4")
    assert gm("undo").stdout == "Undone: Alice −4 (flow) → 0\nGame 1: Alice 0, Bob 0.\n"
    assert gm("redo").stdout == "Redone:\nAlice +4 (flow: 4 empty piles) → 4\n"
    kinds = [json.loads(line)["kind"] for line in gm.path.read_text().splitlines()]
    assert kinds == ["new", "flow", "undo", "redo"]


@pytest.mark.parametrize("args, message", [
    (["flow", "zed", "2"], "gm: no player 'zed' in the match Alice v Bob"),
    (["flow", "a", "6"], "gm: empty piles 6 is out of range 0–5 (Alice, game 1)"),
    (["flow", "a", "two"], "gm: score flow: PILES: must be a whole number, not 'two'"),
    (["skull", "b", "7"], "gm: skull cards in one play 7 is out of range 1–6 (Bob, game 1, one-box match)"),
    (["finish", "a", "31"], "gm: opponent's cards left 31 is out of range 1–30"),
    (["redo"], "gm: nothing to redo: no undo since the last scoring event"),
    (["new", "Ken", "Mio"], "gm: the match Alice v Bob is in game 1 and unfinished"),
    (["flow", "a", "2", "--lang", "fr"], "gm: no voice pack for language 'fr'"),
])
def test_bad_input_is_one_stderr_line_exit_2_and_the_journal_is_untouched(gm, args, message):
    gm("new", "Alice", "Bob")
    before = gm.path.read_bytes()
    result = gm(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1
    assert gm.path.read_bytes() == before


def test_second_666_in_a_one_box_game_is_refused_but_not_in_remote(gm):
    gm("new", "Alice", "Bob")
    gm("666", "a")
    result = gm("666", "b")
    assert result.exit_code == 2 and "game 1 already had 1 666" in result.stderr
    gm("new", "Ken", "Mio", "--remote", "--abandon")
    gm("666", "k")
    assert gm("666", "m").stdout == "Mio +3 (666: 3 cards × game 1; end points ×9) → 3\n"


def test_events_after_the_match_is_over_are_refused(gm):
    play_example(gm)
    result = gm("flow", "a", "1")
    assert result.exit_code == 2
    assert result.stderr == ("gm: the match Alice v Bob is over (Alice won 91 to 12): no flow after game 3; "
                             "undo, or start a new match\n")


def test_undo_with_nothing_to_undo(gm):
    result = gm("undo")
    assert result.exit_code == 2 and result.stderr.startswith("gm: nothing to undo")
    assert not gm.path.exists()


def test_scoring_without_a_match(gm):
    result = gm("flow", "a", "1")
    assert result.exit_code == 2 and "no match yet" in result.stderr
    assert gm("show").exit_code == 2
    assert not gm.path.exists()


def test_a_damaged_journal_stops_every_command_with_the_line_number(gm):
    gm("new", "Alice", "Bob")
    gm.path.write_bytes(gm.path.read_bytes() + b"garbage\n")
    before = gm.path.read_bytes()
    for args in (["show"], ["flow", "a", "1"], ["say", "--speech", "off"]):
        result = gm(*args)
        assert result.exit_code == 2
        assert f"{gm.path} line 2: not a JSON event record" in result.stderr
    assert gm.path.read_bytes() == before


def test_a_torn_last_line_is_a_warning_and_cut_before_the_next_append(gm):
    gm("new", "Alice", "Bob")
    gm.path.write_bytes(gm.path.read_bytes() + b'{"v":1,"kind":"fl')
    shown = gm("show", "--json")
    assert shown.exit_code == 0 and "line 2 is a torn write" in shown.stderr
    appended = gm("flow", "a", "1")
    assert appended.exit_code == 0 and "kept in match.jsonl.torn-" in appended.stderr
    assert [json.loads(line)["kind"] for line in gm.path.read_text().splitlines()] == ["new", "flow"]


def test_file_option_overrides_the_environment(gm, tmp_path):
    other = tmp_path / "other.jsonl"
    assert gm("new", "Ken", "Mio", "--file", str(other)).exit_code == 0
    assert other.exists() and not gm.path.exists()


def test_say_reads_totals_and_leader_in_english_and_japanese(gm, tmp_path):
    gm("new", "健=けん", "Mio")
    gm("finish", "健", "7")
    assert gm("say", "--speech", "off").stdout == "Game 2: 健 12, Mio 0.\n健 leads by 12.\n"
    assert gm("say", "--speech", "off", "--lang", "ja").stdout == "第2戦：健 12点、Mio 0点。\n健が12点リード。\n"


def test_say_speaks_japanese_numbers_as_kana_words(gm, tmp_path):
    from gm.text.lines import Pack
    from gm.score.render import totals_lines
    from scorer.humalien import fold
    from scorer.humalien.events import Finish, NewMatch

    match = fold([NewMatch(("健", "美緒"), readings=(("健", "けん"), ("美緒", "みお"))), Finish("健", 7)]).match
    spoken = [line.spoken for line in totals_lines(Pack("ja", dict(match.readings)), match)]
    assert spoken == ["だいにせん。けん、じゅうにてん。みお、ぜろてん。", "けんが じゅうにてん りーど。"]


def test_say_reports_the_winner_or_a_draw(gm):
    play_example(gm)
    assert gm("say", "--speech", "off").stdout.endswith("Match over: Alice wins, 91 to 12.\n")
    gm("new", "A", "B")
    for args in (["finish", "a", "5"], ["finish", "b", "11"], ["finish", "a", "1"]):
        gm(*args)
    assert gm("say", "--speech", "off", "--lang", "ja").stdout.endswith("対戦終了：引き分け、16点で同点。\n")


def test_japanese_entry_lines_use_the_manuals_words(gm):
    gm("new", "Alice", "Bob", "--lang", "ja")
    assert gm("flow", "a", "2", "--lang", "ja").stdout == "Alice +2（場が流れる：空の山 2）→ 2\n"
    assert "ドクロ" in gm("skull", "a", "1", "--lang", "ja").stdout
    assert "ロクロクロク" in gm("666", "a", "--lang", "ja").stdout
    assert "上がり：(5 + 残り7枚) × 3" in gm("finish", "b", "7", "--lang", "ja").stdout


def test_export_csv(gm, tmp_path):
    play_example(gm)
    expected = ("game,Alice,Bob,multiplier,ended_by,how\n1,14,1,1,Alice,finish\n2,33,6,3,Alice,finish\n"
                "3,44,5,1,Bob,foul\ntotal,91,12,,Alice,\n")
    assert gm("export").stdout == expected
    out = tmp_path / "sheet.csv"
    assert gm("export", "--output", str(out)).exit_code == 0
    assert out.read_text() == expected
    assert json.loads(gm("export", "--json").stdout) == json.loads(gm("show", "--json").stdout)


@pytest.mark.parametrize("args, message", [
    (["flow", "alice"], "gm: score flow: missing argument 'PILES'\n"),
    (["finish", "a", "3", "--bogus"], "gm: score finish: no such option '--bogus'\n"),
])
def test_usage_errors_are_one_line_too(gm, args, message):
    gm("new", "Alice", "Bob")
    result = gm(*args)
    assert result.exit_code == 2 and result.stderr == message


def test_show_and_say_refuse_in_the_language_asked(gm, tmp_path):
    for verb in ("show", "say"):
        line = gm(verb, "--lang", "ja").stderr
        assert line == f"gm: 「{gm.path}」に対戦がありません。gm score new ALICE BOB で始めてください\n"
    folder = tmp_path / "folder"
    folder.mkdir()
    result = gm("show", "--lang", "ko", "--file", str(folder))
    assert result.exit_code == 2 and result.stderr == f"gm: ‘{folder}’은(는) 일반 파일이 아니에요\n"


def test_a_bad_speech_setting_and_an_unusable_journal_in_play_are_refused_in_the_language_asked(gm, tmp_path):
    assert gm("new", "Aki", "Ken", "--lang", "ja", "--speech", "bogus").stderr == \
        "gm: --speech は on、off、wav:フォルダ のどれかです (「bogus」ではなく)\n"
    folder = tmp_path / "folder"
    folder.mkdir()
    result = gm("play", "--lang", "ja", "--file", str(folder))
    assert result.stderr == f"gm: 「{folder}」は通常のファイルではありません\n"
    # matches and export take no --lang: they list, and refuse, in English
    for verb in ("matches", "export"):
        assert gm(verb, "--file", str(folder)).stderr == f"gm: '{folder}' is not a regular file\n"


def test_a_journal_named_from_the_home_folder_is_there_not_in_a_folder_named_tilde(gm, tmp_path, monkeypatch):
    """GM_SCORE_FILE="~/score.jsonl": the quotes keep the shell from expanding it; gm does."""
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GM_SCORE_FILE", "~/score.jsonl")
    monkeypatch.chdir(work)
    assert gm("new", "Alice", "Bob").exit_code == 0
    assert (home / "score.jsonl").is_file() and list(work.iterdir()) == []
    assert gm("show", "--json").exit_code == 0
